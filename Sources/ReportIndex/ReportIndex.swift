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
    /// An index written by another version is rebuilt, except versions 1 and 2, which are migrated
    /// in place (version 2 added thumbnails, version 3 the parts of tokens of letters and digits
    /// in the full-text text).
    public static let schemaVersion = 3
    /// SQLite's `application_id` of an index file ("BBLX").
    static let applicationID: Int32 = 0x4242_4C58

    /// The index file.
    public let path: String
    /// Whether updates are written: to the file (this process holds its update lock), or to a
    /// private in-memory index when the file could neither be written nor read.
    public let isWritable: Bool

    let reader: (any DatabaseReader)?
    let writer: (any DatabaseWriter)?
    let lock: UpdateLock?
    /// The PostgreSQL store, for an index opened at a `postgres://` URL (nil: the SQLite file).
    let postgres: PostgresStore?
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

    /// Where the index of `datasource` lives: `given` (`--index`: a file or a `postgres://` URL),
    /// else the environment's `BUBBLES_INDEX_URL`, else ``defaultPath(forDatasource:)``. A
    /// PostgreSQL URL without a `datasource` parameter gets the datasource file's name (lower case,
    /// `Data/reports.json` → `reports`), so that several datasources share one database.
    public static func location(_ given: String?, forDatasource datasource: String,
                                environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let chosen = given ?? environment["BUBBLES_INDEX_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultPath(forDatasource: datasource)
        guard PostgresLocation.isURL(chosen), var parts = URLComponents(string: chosen),
              !(parts.queryItems ?? []).contains(where: { $0.name == "datasource" }) else { return chosen }
        parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: "datasource", value: PostgresLocation.defaultName(forDatasource: datasource))]
        return parts.string ?? chosen
    }

    /// An index location as it may be printed: a file as it is, a PostgreSQL URL without its
    /// password.
    public static func shownLocation(_ location: String) -> String {
        PostgresLocation.isURL(location) ? PostgresLocation.redact(location) : location
    }

    /// Whether `location` names a PostgreSQL database (a `postgres://` or `postgresql://` URL)
    /// rather than an SQLite file.
    public static func isPostgresURL(_ location: String) -> Bool { PostgresLocation.isURL(location) }

    /// Whether this index lives in PostgreSQL (opened at a `postgres://` URL) rather than in an
    /// SQLite file.
    public var isPostgres: Bool { postgres != nil }

    /// Opens the index at `path`: an SQLite file, or a PostgreSQL database named by a
    /// `postgres://` URL (see ``location(_:forDatasource:environment:)``); `path` is then the URL
    /// without its password. `warn` receives one line for each thing the caller should know (a
    /// file rebuilt, and why).
    public static func open(at path: String, mode: Mode = .update(lockWait: 10), warn: (String) -> Void = { _ in }) throws(IndexError) -> ReportIndex {
        try open(at: path, mode: mode, rebuild: false, warn: warn)
    }

    static func open(at path: String, mode: Mode, rebuild: Bool, warn: (String) -> Void) throws(IndexError) -> ReportIndex {
        if PostgresLocation.isURL(path) { return try openPostgres(path, mode: mode, rebuild: rebuild, warn: warn) }
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
                if FileManager.default.fileExists(atPath: path), let index = try? openReadOnly(path) { return index }  // unreadable: the in-memory index below
                let memory = try memoryDatabase(path)
                return ReportIndex(path: path, reader: memory, writer: memory, lock: nil, writable: true)
            }
        }
    }

    init(path: String, reader: any DatabaseReader, writer: (any DatabaseWriter)?, lock: UpdateLock?, writable: Bool) {
        self.path = path
        self.reader = reader
        self.writer = writer
        self.lock = lock
        self.isWritable = writable
        self.postgres = nil
    }

    init(postgres: PostgresStore, writable: Bool) {
        self.path = postgres.path
        self.reader = nil
        self.writer = nil
        self.lock = nil
        self.isWritable = writable
        self.postgres = postgres
    }

    /// Whether updates may rebuild the index when it turns out damaged (this process holds the
    /// update lock).
    var holdsLock: Bool { lock != nil || (postgres != nil && isWritable) }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }

    /// Runs `body` on the last committed state.
    func read<T>(_ body: (Database) throws -> T) throws(IndexError) -> T {
        guard let reader else { throw IndexError(.database, path: path, "no SQLite database behind this index") }
        do {
            return try reader.read(body)
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where Self.isDamage(error) {
            throw IndexError(.damaged, path: path, "the database is damaged (\(Self.describe(error)))")
        } catch let error as StringList.Malformed {
            throw IndexError(.damaged, path: path, "the database is damaged (\(error))")
        } catch {
            throw IndexError(.database, path: path, "cannot read the index: \(Self.describe(error))")
        }
    }

    /// Runs `body` in one transaction. `bumpGeneration` false: the write touches nothing the
    /// readers' in-memory tables are made of (thumbnails), so they stay.
    func write(bumpGeneration: Bool = true, _ body: (Database) throws -> Void) throws(IndexError) {
        guard let writer else { return }
        do {
            try writer.write { db in
                try body(db)
                // Readers' in-memory tables (facets) are made again after any write.
                if bumpGeneration {
                    try db.execute(sql: "INSERT INTO meta(key, value) VALUES('generation', 1) ON CONFLICT(key) DO UPDATE SET value = value + 1")
                }
            }
        } catch let error as IndexError {
            throw error
        } catch let error as DatabaseError where Self.isDamage(error) {
            throw IndexError(.damaged, path: path, "the database is damaged (\(Self.describe(error)))")
        } catch let error as StringList.Malformed {
            throw IndexError(.damaged, path: path, "the database is damaged (\(error))")
        } catch {
            throw IndexError(.database, path: path, "cannot write the index: \(Self.describe(error))")
        }
    }

    /// The checks a crash-safety test makes: SQLite's `integrity_check` and FTS5's
    /// `integrity-check`. Returns the problems found (empty when the index is sound).
    public func integrityProblems() throws(IndexError) -> [String] {
        if postgres != nil { return [] }
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
        if let postgres { return try postgres.reportCount() }
        return try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM report") ?? 0 }
    }

    /// The index file's size in bytes, its WAL journal included (0 for a PostgreSQL index).
    public var fileSize: Int {
        if postgres != nil { return 0 }
        return ["", "-wal"].reduce(0) { total, suffix in
            total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)  // no journal: 0 bytes
        }
    }
}
