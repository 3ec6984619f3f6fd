import Foundation
import GRDB
import ReportLibrary

/// The index of one datasource: an SQLite database (WAL journal) that keeps every report's PDF
/// metadata by the file's size, modification time and content hash, a full-text index over
/// titles, keywords, authors and category titles in any script, and keyword counts.
///
/// The index is a cache of the datasource and its PDFs: it can always be rebuilt, an update
/// reads only the PDFs that changed, and every transaction it commits holds whole reports, so a
/// killed update leaves a database that opens and that the next update finishes.
///
/// ```swift
/// let tree = try LibraryLoader.load("Data/reports.json")
/// let index = try ReportIndex.open(at: ReportIndex.defaultPath(forDatasource: "Data/reports.json"))
/// let update = try index.update(with: tree)
/// let results = try index.search(SearchQuery("revenue 20"), options: SearchOptions(limit: 10))
/// ```
///
/// Searches are synchronous and may be made from any thread, also while an update runs in
/// another thread or process: each reads the last committed state.
public final class ReportIndex: Sendable {
    /// The version of the tables and of what they hold (the normalisation, the reader's answers).
    /// An index written by another version is rebuilt.
    public static let schemaVersion = 1
    /// SQLite's `application_id` of an index file ("BBLX").
    static let applicationID: Int32 = 0x4242_4C58

    /// The index file.
    public let path: String
    /// Whether updates are written: to the file (this process holds its update lock), or to a
    /// private in-memory index when the file could neither be written nor read.
    public let isWritable: Bool

    let reader: any DatabaseReader
    let writer: (any DatabaseWriter)?
    let lock: UpdateLock?
    let facetTable = FacetTable()

    /// How an index is opened.
    public enum Mode: Sendable, Equatable {
        /// To update it: waits up to `lockWait` seconds for another process's update to end, then
        /// fails with an ``IndexError`` of kind `locked`. A missing, empty, damaged or
        /// out-of-date file is rebuilt (with a warning).
        case update(lockWait: Double)
        /// To update it when it can be: like `update` without waiting, but an index that is being
        /// updated elsewhere, or that lives in a read-only folder, is opened to read instead.
        case updateIfPossible
        /// To read only; fails when the file does not exist or is not a current index.
        case readOnly
    }

    /// Where a datasource's index lives unless told otherwise: beside it, named after it
    /// (`Data/reports.json` → `Data/reports.index.sqlite`).
    public static func defaultPath(forDatasource datasource: String) -> String {
        let base = datasource.hasSuffix(".json") ? String(datasource.dropLast(5)) : datasource
        return base + ".index.sqlite"
    }

    /// Opens the index at `path`. `warn` receives one line for each thing the caller should know
    /// (a file rebuilt, and why).
    public static func open(at path: String, mode: Mode = .update(lockWait: 10), warn: (String) -> Void = { _ in }) throws(IndexError) -> ReportIndex {
        try open(at: path, mode: mode, rebuild: false, warn: warn)
    }

    static func open(at path: String, mode: Mode, rebuild: Bool, warn: (String) -> Void) throws(IndexError) -> ReportIndex {
        switch mode {
        case .readOnly:
            return try openReadOnly(path)
        case .update(let wait):
            let lock = try UpdateLock.acquire(indexPath: path, wait: wait)
            if rebuild { try removeDatabase(path) }
            return try openWritable(path, lock: lock, warn: warn)
        case .updateIfPossible:
            do {
                let lock = try UpdateLock.acquire(indexPath: path, wait: 0)
                if rebuild { try removeDatabase(path) }
                return try openWritable(path, lock: lock, warn: warn)
            } catch where error.kind == .locked || error.kind == .notWritable {
                if FileManager.default.fileExists(atPath: path), let index = try? openReadOnly(path) { return index }
                let memory = try memoryDatabase(path)
                return ReportIndex(path: path, reader: memory, writer: memory, lock: nil, writable: true)
            }
        }
    }

    private init(path: String, reader: any DatabaseReader, writer: (any DatabaseWriter)?, lock: UpdateLock?, writable: Bool) {
        self.path = path
        self.reader = reader
        self.writer = writer
        self.lock = lock
        self.isWritable = writable
    }

    private static func configuration(readOnly: Bool) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(10)
        config.label = "ReportIndex"
        config.maximumReaderCount = 4
        return config
    }

    private static func openReadOnly(_ path: String) throws(IndexError) -> ReportIndex {
        guard FileManager.default.fileExists(atPath: path) else {
            throw IndexError(.database, path: path, "no index here; run 'bubbles index' first")
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
            let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            guard version == schemaVersion else {
                throw IndexError(.database, path: path, "the index was written by schema version \(version), not \(schemaVersion); run 'bubbles index' to rebuild it")
            }
            return ReportIndex(path: path, reader: queue, writer: nil, lock: nil, writable: false)
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError(.database, path: path, "cannot read the index: \(describe(error))")
        }
    }

    /// An empty in-memory index of the current schema, for a process that can neither write nor
    /// read the index file: every PDF is read, nothing is kept.
    private static func memoryDatabase(_ path: String) throws(IndexError) -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(configuration: configuration(readOnly: false))
            try queue.write { db in try Schema.create(db) }
            return queue
        } catch {
            throw IndexError(.database, path: path, "cannot create an index in memory: \(describe(error))")
        }
    }

    private static func openWritable(_ path: String, lock: UpdateLock, warn: (String) -> Void) throws(IndexError) -> ReportIndex {
        if let problem = fileProblem(path) {
            warn("\(path): \(problem); rebuilding the index")
            try removeDatabase(path)
        }
        for attempt in 0..<2 {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration(readOnly: false))
                let state = try pool.read { db -> (Int, Int32) in
                    let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                    return (version, application)
                }
                if state.0 == 0 {
                    let tables = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") ?? 0 }
                    if tables > 0 { throw Rebuild("it is not an index of this program") }
                    try pool.write { db in try Schema.create(db) }
                } else if state.1 != applicationID {
                    throw Rebuild("it is not an index of this program")
                } else if state.0 != schemaVersion {
                    throw Rebuild("written by schema version \(state.0), this program writes \(schemaVersion)")
                }
                try pool.read { db in try Schema.checkFullText(db) }
                return ReportIndex(path: path, reader: pool, writer: pool, lock: lock, writable: true)
            } catch let rebuild as Rebuild where attempt == 0 {
                warn("\(path): \(rebuild.reason); rebuilding the index")
                try removeDatabase(path)
            } catch let error as DatabaseError where attempt == 0 && isDamage(error) {
                warn("\(path): the database is damaged (\(describe(error))); rebuilding the index")
                try removeDatabase(path)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_PERM {
                throw IndexError(.notWritable, path: path, "cannot write the index here (\(describe(error))); give --index FILE to keep it elsewhere")
            } catch {
                throw IndexError(.database, path: path, "cannot open the index: \(describe(error))")
            }
        }
        throw IndexError(.database, path: path, "cannot rebuild the index")
    }

    private struct Rebuild: Error {
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
    private static func fileProblem(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        if head.isEmpty { return "the file is empty" }
        if head.count < 100 || head[0..<16] != ArraySlice(Array("SQLite format 3\0".utf8)) {
            return "the file is not an SQLite database"
        }
        func be32(_ at: Int) -> Int { head[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = head[16] == 0 && head[17] == 1 ? 65_536 : Int(head[16]) << 8 | Int(head[17])
        let pages = be32(28)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
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
        } catch where error.kind == .damaged && index.lock != nil {
            warn("\(path): \(error.message); rebuilding the index")
            index = try open(at: path, mode: mode, rebuild: true, warn: warn)
            return (index, try index.update(with: tree, jobs: jobs, progress: progress))
        }
    }

    /// Deletes the database with its journal files (only ever with the update lock held).
    private static func removeDatabase(_ path: String) throws(IndexError) {
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            if unlink(path + suffix) != 0 {
                let reason = String(cString: strerror(errno))
                throw IndexError(errno == EACCES || errno == EROFS || errno == EPERM ? .notWritable : .database, path: path,
                                 "cannot remove the old index (\(reason)); give --index FILE to keep it elsewhere")
            }
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }

    /// Runs `body` on the last committed state.
    func read<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        do {
            return try reader.read(body)
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where Self.isDamage(error) {
            throw IndexError(.damaged, path: path, "the database is damaged (\(Self.describe(error)))")
        } catch {
            throw IndexError(.database, path: path, "cannot read the index: \(Self.describe(error))")
        }
    }

    /// Runs `body` in one transaction.
    func write(_ body: (Database) throws -> Void) throws(IndexError) {
        guard let writer else { return }
        do {
            try writer.write { db in
                try body(db)
                // Readers' in-memory tables (facets) are made again after any write.
                try db.execute(sql: "INSERT INTO meta(key, value) VALUES('generation', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1")
            }
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where Self.isDamage(error) {
            throw IndexError(.damaged, path: path, "the database is damaged (\(Self.describe(error)))")
        } catch {
            throw IndexError(.database, path: path, "cannot write the index: \(Self.describe(error))")
        }
    }

    /// The checks a crash-safety test makes: SQLite's `integrity_check` and FTS5's
    /// `integrity-check`. Returns the problems found (empty when the index is sound).
    public func integrityProblems() throws(IndexError) -> [String] {
        var problems = try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" } }
        // FTS5's check is an INSERT of a command: it needs a writable connection.
        let check: (Database) throws -> Void = { db in
            do {
                try db.execute(sql: "INSERT INTO search(search, rank) VALUES('integrity-check', 1)")
            } catch {
                problems.append("full-text index: \(Self.describe(error))")
            }
        }
        do {
            if let writer {
                try writer.writeWithoutTransaction(check)
            } else {
                let queue = try DatabaseQueue(path: path, configuration: Self.configuration(readOnly: false))
                try queue.writeWithoutTransaction(check)
            }
        } catch {
            problems.append("full-text index: \(Self.describe(error))")
        }
        return problems
    }

    /// The number of reports the index holds.
    public func reportCount() throws(IndexError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM report") ?? 0 }
    }

    /// The index file's size in bytes, its WAL journal included.
    public var fileSize: Int {
        ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        }
    }
}

/// The lock that makes one process at a time update an index: `flock` on `<index>.lock` (a file
/// of its own, so that SQLite's locks on the database are never disturbed).
final class UpdateLock: Sendable {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    static func acquire(indexPath: String, wait: Double) throws(IndexError) -> UpdateLock {
        let lockPath = indexPath + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            let kind: IndexError.Kind = errno == EACCES || errno == EROFS || errno == EPERM || errno == ENOENT ? .notWritable : .database
            let hint = errno == ENOENT ? "its folder does not exist" : reason
            throw IndexError(kind, path: indexPath, "cannot write the index here (\(hint)); give --index FILE to keep it elsewhere")
        }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(fd)
                throw IndexError(.database, path: indexPath, "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
            if waited >= wait {
                close(fd)
                let seconds = wait == wait.rounded() ? String(Int(wait)) : String(wait)
                throw IndexError(.locked, path: indexPath, "another process is updating the index (waited \(seconds) s for \(lockPath)); try again when it has finished")
            }
            usleep(50_000)
            waited += 0.05
        }
        // Whoever can lock it must also be able to write the folder (the WAL journal lives there).
        let folder = (indexPath as NSString).deletingLastPathComponent
        if access(folder.isEmpty ? "." : folder, W_OK) != 0 || (FileManager.default.fileExists(atPath: indexPath) && access(indexPath, W_OK) != 0) {
            close(fd)
            throw IndexError(.notWritable, path: indexPath, "cannot write the index here (read-only); give --index FILE to keep it elsewhere")
        }
        return UpdateLock(fd: fd)
    }
}

extension ReportIndex {
    /// Every row of every table, as text, in a fixed order (tests compare indexes with it).
    func tableDump() throws(IndexError) -> [String] {
        try read { db in
            var lines: [String] = []
            let queries = [
                "SELECT path, size, hex(sha256), title, author, keywords, pages, warnings, error FROM file ORDER BY path",
                "SELECT ord, id, title, end_ord, parent FROM category ORDER BY ord",
                "SELECT ord, id, title, path, category_titles, datasource_keywords, keywords, file, sig FROM report ORDER BY ord",
                "SELECT key, report, display FROM keyword ORDER BY key, report",
                "SELECT rowid, title, pdf_title, keywords, author, category FROM search ORDER BY rowid",
            ]
            for sql in queries {
                for row in try Row.fetchAll(db, sql: sql) {
                    lines.append(row.databaseValues.map { $0.description }.joined(separator: "|"))
                }
            }
            return lines
        }
    }
}
