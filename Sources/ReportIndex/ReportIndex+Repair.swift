import Foundation
import GRDB
import ReportLibrary

// A damaged index: recognising damage before and while it is read, and rebuilding the file.
extension ReportIndex {
    struct Rebuild: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    static func isDamage(_ error: DatabaseError) -> Bool {
        switch error.resultCode.primaryResultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_FORMAT: true
        default: false
        }
    }

    /// What is wrong with the file before SQLite opens it: empty, not an SQLite file, or shorter
    /// than its header says (truncated). Damage inside pages shows when they are read, and
    /// ``open(at:mode:warn:)`` with ``update(with:jobs:progress:)`` through
    /// ``openAndUpdate(at:mode:tree:jobs:progress:warn:)`` rebuilds then.
    static func fileProblem(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }  // only read from
        let head = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())  // unreadable reads as empty
        if head.isEmpty { return "the file is empty" }
        if head.count < 100 || head[0..<16] != ArraySlice(Array("SQLite format 3\0".utf8)) {
            return "the file is not an SQLite database"
        }
        func be32(_ at: Int) -> Int { head[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = head[16] == 0 && head[17] == 1 ? 65_536 : Int(head[16]) << 8 | Int(head[17])
        let pages = be32(28)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0  // vanished: judged by its header alone
        if be32(92) == be32(24), pages > 0, size < pages * pageSize {
            return "the file is truncated (\(size) bytes, its header says \(pages * pageSize))"
        }
        return nil
    }

    /// Opens the index at `path` and brings it up to date with `tree`, rebuilding it once when
    /// damage shows only while it is read. See ``open(at:mode:warn:)`` and
    /// ``update(with:jobs:progress:)``.
    public static func openAndUpdate(
        at path: String, mode: Mode = .update(lockWait: 10), tree: ReportTree,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, progress: ((IndexProgress) -> Void)? = nil,
        warn: (String) -> Void = { _ in }
    ) throws(IndexError) -> (ReportIndex, IndexUpdate) {
        var index = try open(at: path, mode: mode, warn: warn)
        do {
            return (index, try index.update(with: tree, jobs: jobs, progress: progress))
        } catch where error.kind == .damaged && index.lock != nil && index.postgres == nil {
            warn("\(path): \(error.message); rebuilding the index")
            index = try open(at: path, mode: mode, rebuild: true, warn: warn)
            return (index, try index.update(with: tree, jobs: jobs, progress: progress))
        }
    }

    /// Deletes the database with its journal files (only ever with the update lock held).
    static func removeDatabase(_ path: String) throws(IndexError) {
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            if unlink(path + suffix) != 0 {
                let reason = String(cString: strerror(errno))
                throw IndexError(errno == EACCES || errno == EROFS || errno == EPERM ? .notWritable : .database, path: path,
                                 "cannot remove the old index (\(reason))", elsewhereHelps: true)
            }
        }
    }
}

extension ReportIndex {
    /// Deletes the index at `location`: the SQLite file with its journal and lock files, or a
    /// PostgreSQL datasource's schema (taking its update lock first, waiting up to `lockWait`
    /// seconds). Nothing there is not an error.
    public static func remove(at location: String, lockWait: Double = 10) throws(IndexError) {
        if PostgresLocation.isURL(location) {
            let store = PostgresStore(location: try PostgresLocation(location))
            try store.acquireLock(wait: lockWait)
            try store.withConnection { c in _ = try store.execute(c, "DROP SCHEMA IF EXISTS \(store.quotedSchema) CASCADE") }
            return
        }
        let lock = try UpdateLock.acquire(indexPath: location, wait: lockWait)
        try removeDatabase(location)
        withExtendedLifetime(lock) {}
    }
}
