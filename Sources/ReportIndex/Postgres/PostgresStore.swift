import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// The PostgreSQL store of an index: one schema per datasource (`bubbles_NAME`) in a database
/// shared by many machines. Synchronous like the SQLite store: each call blocks its thread on
/// postgres-nio's futures, which run on event loops of the store's own (never the caller's).
///
/// Writers hold a session advisory lock on a connection of their own for as long as the index is
/// open; readers take connections from a small pool, each search in one read-only snapshot.
final class PostgresStore: @unchecked Sendable {
    /// The version of the tables (its own numbering, from the SQLite file's 3 at which the store
    /// began); an index written by an older version is rebuilt (it is a cache), one written by a
    /// newer version is refused. 4: the vectors in a narrow `search` table, one per report. 5: the
    /// table `prefix_count`. 6: `prefix_count` holds prefixes of up to 16 bytes (3 scalars before)
    /// and whole tokens; two neighbouring characters of scripts written without spaces are a pair
    /// lexeme too. 7: `prefix_count.first_ord`. 8: `prefix_count.title_first_ord`. 9: the
    /// tables `posting` and `posting_dirty`. 10: `posting.pos`. 11: `posting.first_ord` and
    /// `title_first_ord`, the table `prefix_stale`; `prefix_count`'s first reports exact. 12: the
    /// keyword rows hold a key's number from the table `keyword_key`, not its text.
    static let schemaVersion = 12
    /// The first key of the advisory lock ("BBLX"); the second is the schema name's hash.
    static let lockClass: Int32 = 0x4242_4C58

    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    let location: PostgresLocation
    let logger: Logger
    private let pool = NSCondition()
    private var idle: [PostgresConnection] = []
    private var opened = 0
    private var lockConnection: PostgresConnection?
    private var nextID = 0
    /// The keyword table in memory for facet counts, made again when the generation moves.
    let facetTable = FacetTable()
    /// The vectors a cold build wrote, for the `posting` rows at its end.
    let heldVectors = HeldVectors()
    /// The keyword keys' numbers, for the writer.
    let keywordNumbers = KeywordNumbers()

    var path: String { location.redacted }
    var schema: String { location.schema }
    /// The schema's name as an SQL identifier (the name holds only letters, digits and `_`).
    var quotedSchema: String { "\"" + schema + "\"" }

    init(location: PostgresLocation) {
        self.location = location
        var logger = Logger(label: "ReportIndex.Postgres")
        logger.logLevel = .critical
        self.logger = logger
    }

    deinit {
        for connection in idle { Self.close(connection) }
        // Given back before the next opening in this process asks for it (`bubbles index` opens
        // once to see whether anything changed, then again to update).
        releaseLock()
    }

    func failure(_ message: String) -> IndexError { IndexError(.database, path: path, message) }

    func failure(_ kind: IndexError.Kind, _ message: String) -> IndexError { IndexError(kind, path: path, message) }

    /// Closes a connection without waiting (the server ends its session, and any lock it held).
    static func close(_ connection: PostgresConnection) {
        let closing: EventLoopFuture<Void> = connection.close()
        // The connection must live until it is closed.
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// One line for an error of the server or the connection, never with the password.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return message + state
            }
            if let underlying = error.underlying { return "\(error.code): \(describe(underlying))" }
            return "\(error.code)"
        }
        if let error = error as? IOError { return error.description }
        return "\(error)"
    }

    static func sqlState(_ error: any Error) -> String? { (error as? PSQLError)?.serverInfo?[.sqlState] }

    // MARK: - Connections

    func connect() throws(IndexError) -> PostgresConnection {
        let configuration: PostgresConnection.Configuration
        if let socket = location.socketFolder {
            configuration = .init(
                unixSocketPath: socket + "/.s.PGSQL.\(location.port)", username: location.user, password: location.password,
                database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
                if location.sslMode != "verify-full" && location.sslMode != "verify-ca" { tlsConfiguration.certificateVerification = .none }
                switch location.sslMode {
                case "disable": tls = .disable
                case "allow", "prefer": tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration))
                default: tls = .require(try NIOSSLContext(configuration: tlsConfiguration))
                }
            } catch {
                throw failure("cannot set up TLS: \(Self.describe(error))")
            }
            configuration = .init(
                host: location.host ?? "localhost", port: location.port, username: location.user, password: location.password,
                database: location.database, tls: tls)
        }
        let id = pool.withLock { nextID += 1; return nextID }
        do {
            let connection = try PostgresConnection.connect(
                on: Self.eventLoops.next(), configuration: configuration, id: id, logger: logger
            ).wait()
            // One round trip for every setting (not login parameters, which a pooler may refuse).
            let settings = Self.sessionSettings(schema: quotedSchema)
            var binds = PostgresBindings()
            for (name, value) in settings {
                binds.append(name)
                binds.append(value)
            }
            let calls = settings.indices.map { "set_config($\(2 * $0 + 1), $\(2 * $0 + 2), false)" }.joined(separator: ", ")
            _ = try connection.query(PostgresQuery(unsafeSQL: "SELECT " + calls, binds: binds), logger: logger).wait()
            return connection
        } catch {
            throw connectError(error)
        }
    }

    /// The settings of every session, made when it opens: the datasource's
    /// schema first in the search path, and no sequential scan where an index serves. The planner
    /// prices `@@` over a `tsvector` as one cheap operator and so scans the whole table for a
    /// prefix that matches many reports, which costs several times the GIN index's bitmap (each
    /// row's vectors read and searched). No parallel workers: under a Gather the one-time filters
    /// that cut off a search's unwanted candidate groups ran their scans anyway (1.7 s instead of
    /// 0.3 s for a one-letter prefix of a million reports), and the workers compete with the
    /// other searches for the cores. No JIT compilation: a search's statement holds scans that
    /// its one-time filters skip, priced as if they ran, so the planner compiled and optimised it
    /// with LLVM (about 0.5 s at 1 000 000 reports) to run in 2 ms. The figures are in
    /// Benchmarks/NOTES.md.
    static func sessionSettings(schema quoted: String) -> [(String, String)] {
        [("search_path", quoted), ("enable_seqscan", "off"), ("max_parallel_workers_per_gather", "0"), ("jit", "off")]
    }

    /// What a failed connection means for the user, with what to do.
    func connectError(_ error: any Error) -> IndexError {
        let state = Self.sqlState(error)
        let text = Self.describe(error)
        switch state {
        case "28P01", "28000":
            return failure("the server refused the login (\(text)); check the user and the password (URL, PGPASSWORD or PGPASSFILE)")
        case "3D000":
            return failure("no database '\(location.database)' on the server (\(text)); create it with 'createdb \(location.database)'")
        default:
            let place = location.socketFolder.map { "the socket in \($0)" } ?? "\(location.host ?? "localhost"):\(location.port)"
            return failure("cannot connect to the PostgreSQL server at \(place) (\(text)); is it running and reachable?")
        }
    }

    /// Runs `body` with a connection of the pool (made when none is idle, up to `pool_size`;
    /// beyond that the caller waits). A connection that failed is closed, not returned.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws(IndexError) -> T {
        pool.lock()
        while idle.isEmpty && opened >= location.poolSize { pool.wait() }
        var connection = idle.popLast()
        if connection == nil { opened += 1 }
        pool.unlock()
        if connection == nil {
            do {
                connection = try connect()
            } catch {
                pool.withLock { opened -= 1; pool.signal() }
                throw error
            }
        }
        let c = connection!
        do {
            let value = try body(c)
            pool.withLock { idle.append(c); pool.signal() }
            return value
        } catch {
            Self.close(c)
            pool.withLock { opened -= 1; pool.signal() }
            if let error = error as? IndexError { throw error }
            throw failure("the server failed: \(Self.describe(error))")
        }
    }

    func execute(_ c: PostgresConnection, _ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws -> [PostgresRandomAccessRow] {
        let result = try c.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
        return result.rows.map { $0.makeRandomAccess() }
    }

    /// Runs `body` in one transaction (read-only ones see one snapshot); rolls back on an error.
    func transaction<T>(readOnly: Bool, _ body: (PostgresConnection) throws -> T) throws(IndexError) -> T {
        try withConnection { c in
            if readOnly {
                // Not waited for (one round trip less): the connection sends its queries in
                // order, and a BEGIN fails only with its connection, which fails what follows.
                _ = c.query(PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"), logger: logger)
            } else {
                _ = try execute(c, "BEGIN")
            }
            do {
                let value = try body(c)
                _ = try execute(c, "COMMIT")
                return value
            } catch {
                _ = try? execute(c, "ROLLBACK")  // the connection may be gone; the server rolls back then
                throw error
            }
        }
    }

    // MARK: - Opening

    /// The version the schema's tables were written by, or nil when there are none.
    func storedVersion(_ c: PostgresConnection) throws -> Int? {
        var binds = PostgresBindings()
        binds.append(schema + ".meta")
        let exists = try execute(c, "SELECT to_regclass($1) IS NOT NULL", binds)
        guard try exists.first?[0].decode(Bool.self) == true else { return nil }
        let rows = try execute(c, "SELECT value FROM meta WHERE key = 'schema_version'")
        return Int(try rows.first?[0].decode(String.self) ?? "0") ?? 0
    }

    /// Opens to read: the schema must exist and be of this version.
    func openReadOnly() throws(IndexError) {
        let version = try withConnection { c in try storedVersion(c) }
        try checkReadable(version)
    }

    func checkReadable(_ version: Int?) throws(IndexError) {
        guard let version else {
            throw failure("no index of datasource '\(location.datasource)' in this database; run 'bubbles index --index URL' first")
        }
        if version > Self.schemaVersion {
            throw failure("the index was written by a newer bubbles (schema version \(version), this one reads \(Self.schemaVersion)); use a newer bubbles")
        }
        if version != Self.schemaVersion {
            throw failure("the index was written by schema version \(version), not \(Self.schemaVersion); run 'bubbles index --index URL' to migrate it")
        }
    }

    func bindings(_ values: String...) -> PostgresBindings {
        var binds = PostgresBindings()
        for value in values { binds.append(value) }
        return binds
    }

    /// Whether this login may write the index: insert into its tables, or create its schema when
    /// there is none yet. A reader's role (SELECT only) may not.
    func canWrite() throws(IndexError) -> Bool {
        try withConnection { c in
            try execute(c, """
                SELECT CASE WHEN to_regclass($1) IS NOT NULL THEN has_table_privilege($1, 'INSERT') AND has_table_privilege($1, 'DELETE')
                            WHEN EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $2) THEN has_schema_privilege($2, 'CREATE')
                            ELSE has_database_privilege(current_database(), 'CREATE') END
                """, bindings(schema + ".report", schema)).first?[0].decode(Bool.self) == true
        }
    }

    /// Gives the advisory lock back (closing its connection).
    func releaseLock() {
        let c = pool.withLock { () -> PostgresConnection? in
            defer { lockConnection = nil }
            return lockConnection
        }
        guard let c else { return }
        // Unlocked first: the server ends a closed session, and frees its locks, a moment later.
        var binds = PostgresBindings()
        binds.append(Self.lockClass)
        binds.append("bubbles:" + schema)
        _ = try? execute(c, "SELECT pg_advisory_unlock($1, hashtext($2))", binds)  // a lost connection holds nothing
        let closing: EventLoopFuture<Void> = c.close()
        _ = try? closing.wait()  // closing ends the session and its lock either way
    }

    /// Takes the datasource's advisory lock, waiting up to `wait` seconds.
    func acquireLock(wait: Double) throws(IndexError) {
        let c = try connect()
        var binds = PostgresBindings()
        binds.append(Self.lockClass)
        binds.append("bubbles:" + schema)
        var waited = 0.0
        do {
            while try execute(c, "SELECT pg_try_advisory_lock($1, hashtext($2))", binds).first?[0].decode(Bool.self) != true {
                if waited >= wait {
                    Self.close(c)
                    let seconds = wait == wait.rounded() ? String(Int(wait)) : String(wait)
                    throw failure(.locked, "another process is updating the index of datasource '\(location.datasource)' (waited \(seconds) s for its lock); try again when it has finished")
                }
                usleep(50_000)
                waited += 0.05
            }
        } catch let error as IndexError {
            throw error
        } catch {
            Self.close(c)
            throw failure("cannot take the update lock: \(Self.describe(error))")
        }
        pool.withLock { lockConnection = c }
    }

    /// Creates the schema, or migrates one of an older version (by rebuilding it: the index is a
    /// cache of the datasource); refuses one of a newer version. Holds the lock.
    func createOrMigrate(rebuild: Bool, warn: (String) -> Void) throws(IndexError) {
        try transaction(readOnly: false) { c in
            // Only when missing: CREATE SCHEMA checks the right to create one even then.
            if try execute(c, "SELECT 1 FROM pg_namespace WHERE nspname = $1", bindings(schema)).isEmpty {
                _ = try execute(c, "CREATE SCHEMA \(quotedSchema)")
            }
            let version = try storedVersion(c)
            if let version, version > Self.schemaVersion {
                throw failure("the index was written by a newer bubbles (schema version \(version), this one writes \(Self.schemaVersion)); use a newer bubbles or another datasource name")
            }
            if let version, version == Self.schemaVersion, !rebuild { return }
            if let version {
                if !rebuild { warn("\(path): datasource '\(location.datasource)' was written by schema version \(version), this program writes \(Self.schemaVersion); rebuilding it") }
                for table in ["report_metadata"] { _ = try execute(c, "DROP VIEW IF EXISTS \(table)") }
                for table in ["keyword", "keyword_key", "search", "prefix_count", "prefix_stale", "posting", "posting_dirty", "report", "category", "file", "meta", "thumbnail"] { _ = try execute(c, "DROP TABLE IF EXISTS \(table)") }
            }
            for statement in PostgresSchema.statements { _ = try execute(c, statement) }
            var binds = PostgresBindings()
            binds.append(String(Self.schemaVersion))
            binds.append(String(Self.postingChunkBits))
            _ = try execute(c, "INSERT INTO meta(key, value) VALUES ('schema_version', $1), ('posting_chunk_bits', $2)", binds)
        }
    }
}

/// The tables of a datasource's schema in PostgreSQL: those of the SQLite file, with the five
/// normalised columns on the report row, and in place of FTS5 a narrow `search` table: each
/// report's number and one `tsvector` of its five fields, each lexeme tagged with its field
/// (``PostgresStore/fieldTags``), under one GIN index. A search reads the index and this table
/// only (a few hundred bytes a report), not the wide report rows.
enum PostgresSchema {
    /// An index that a cold build makes at its end rather than row by row (one sort rather than
    /// an insert per row): its name, and the statements that make it and drop it.
    struct DeferredIndex {
        /// Its name in `pg_indexes`.
        let name: String
        /// The statement that makes it.
        let create: String
        /// The statement that drops it, when it exists.
        let drop: String
    }

    /// The indexes a cold build makes at its end: the GIN index over the vectors, the reports by id
    /// and by file, the keyword rows' primary key and their index by report (only deletions use
    /// it, and a cold build deletes nothing); a reader meanwhile scans those tables. Every
    /// update's end makes those missing, so a build killed in between leaves the next update to
    /// make them.
    static let deferredIndexes = [
        DeferredIndex(name: "search_v", create: "CREATE INDEX search_v ON search USING gin(v)", drop: "DROP INDEX IF EXISTS search_v"),
        DeferredIndex(
            name: "keyword_pkey", create: "ALTER TABLE keyword ADD CONSTRAINT keyword_pkey PRIMARY KEY (key_id, report)",
            drop: "ALTER TABLE keyword DROP CONSTRAINT IF EXISTS keyword_pkey"),
        DeferredIndex(name: "report_by_id", create: "CREATE INDEX report_by_id ON report(id)", drop: "DROP INDEX IF EXISTS report_by_id"),
        DeferredIndex(name: "report_by_file", create: "CREATE INDEX report_by_file ON report(file)", drop: "DROP INDEX IF EXISTS report_by_file"),
        DeferredIndex(
            name: "keyword_by_report", create: "CREATE INDEX keyword_by_report ON keyword(report)",
            drop: "DROP INDEX IF EXISTS keyword_by_report"),
    ]

    static let statements = [
        "CREATE TABLE meta(key text COLLATE \"C\" PRIMARY KEY, value text NOT NULL)",
        """
        CREATE TABLE file(
            path text COLLATE "C" PRIMARY KEY,
            size bigint NOT NULL,
            mtime_ns bigint NOT NULL,
            sha256 bytea NOT NULL,
            title text,
            author text,
            keywords text NOT NULL,
            pages integer,
            warnings text NOT NULL,
            error text
        )
        """,
        """
        CREATE TABLE category(
            ord integer PRIMARY KEY,
            id text COLLATE "C" NOT NULL,
            title text NOT NULL,
            end_ord integer NOT NULL,
            parent integer
        )
        """,
        "CREATE INDEX category_by_id ON category(id)",
        """
        CREATE TABLE report(
            ord integer PRIMARY KEY,
            id text COLLATE "C" NOT NULL,
            title text NOT NULL,
            path text NOT NULL,
            category_titles text NOT NULL,
            datasource_keywords text NOT NULL,
            keywords text NOT NULL,
            file text COLLATE "C",
            sig bigint NOT NULL,
            s_title text NOT NULL,
            s_pdf_title text NOT NULL,
            s_keywords text NOT NULL,
            s_author text NOT NULL,
            s_category text NOT NULL
        )
        """,
        "CREATE TABLE search(ord integer PRIMARY KEY, v tsvector NOT NULL)",
        // How many reports hold each key of `PostgresStore.countedPrefixBytes`: the total of a
        // one-word query being typed or finished, without visiting its matches. `first_ord` is
        // the smallest number of a report that holds it: where the first of a field group can
        // begin. `title_first_ord` is the same for the reports that hold it in their title (NULL
        // when none does): where the title group can begin. A deletion of a key's first report
        // notes the key in `prefix_stale`, and the update's end sets its first reports again
        // from `posting` (until then they are bounds: no later than the true ones).
        "CREATE TABLE prefix_count(prefix text COLLATE \"C\" PRIMARY KEY, n integer NOT NULL, first_ord integer NOT NULL, title_first_ord integer)",
        "CREATE TABLE prefix_stale(prefix text COLLATE \"C\" PRIMARY KEY)",
        // The reports of each token in any field (a lexeme without its tag; a pair lexeme's
        // token is its two tokens), per chunk of 2^`posting_chunk_bits` reports (a `meta` row):
        // the matches of a query without phrases but those of scripts written without spaces,
        // read without the search table's rows (`PostgresStore+Postings.swift`). `pos` holds the
        // positions of a pair's token (NULL for others), for those phrases; `first_ord` and
        // `title_first_ord` the chunk's first report that holds the token, and that holds it in
        // its title (NULL when none does). Current when
        // the `meta` row `posting_generation` is the `generation`; the chunks whose reports
        // changed since are in `posting_dirty`.
        "CREATE TABLE posting(token text COLLATE \"C\" NOT NULL, chunk integer NOT NULL, ords bytea NOT NULL, pos bytea, "
            + "first_ord integer NOT NULL, title_first_ord integer, PRIMARY KEY (token, chunk))",
        "CREATE TABLE posting_dirty(chunk integer PRIMARY KEY)",
        // Each keyword key (`SearchText.keywordKey`) once, numbered by the writer in the order it
        // met them; a key no report holds any more goes at the update's end.
        "CREATE TABLE keyword_key(id integer PRIMARY KEY, key text COLLATE \"C\" NOT NULL UNIQUE)",
        // A report's keyword keys (by number), each with its first keyword as written.
        """
        CREATE TABLE keyword(
            key_id integer NOT NULL,
            report integer NOT NULL,
            display text COLLATE "C" NOT NULL
        )
        """,
        """
        CREATE VIEW report_metadata AS
        SELECT report.id, report.title, report.path, report.keywords, report.file,
               file.size, file.mtime_ns, upper(encode(file.sha256, 'hex')) AS sha256, file.title AS pdf_title,
               file.author, file.keywords AS pdf_keywords, file.pages, file.warnings, file.error,
               report.datasource_keywords
        FROM report LEFT JOIN file ON file.path = report.file
        """,
    ] + deferredIndexes.map(\.create)
}

extension ReportIndex {
    /// Opens the index of a datasource in PostgreSQL. Updating takes the datasource's advisory
    /// lock (waiting as for the SQLite file's lock) and creates or migrates the schema;
    /// `updateIfPossible` reads when another process holds the lock.
    static func openPostgres(_ url: String, mode: Mode, rebuild: Bool, warn: (String) -> Void) throws(IndexError) -> ReportIndex {
        let store = PostgresStore(location: try PostgresLocation(url))
        switch mode {
        case .readOnly:
            try store.openReadOnly()
            return ReportIndex(postgres: store, writable: false)
        case .update(let wait):
            try store.acquireLock(wait: wait)
            guard try store.canWrite() else {
                throw IndexError(.notWritable, path: store.path, "this login may not write the index (a reader's role); index with a role that may")
            }
            try store.createOrMigrate(rebuild: rebuild, warn: warn)
            return ReportIndex(postgres: store, writable: true)
        case .updateIfPossible:
            do {
                try store.acquireLock(wait: 0)
            } catch where error.kind == .locked {
                try store.openReadOnly()
                return ReportIndex(postgres: store, writable: false)
            }
            guard try store.canWrite() else {
                store.releaseLock()
                try store.openReadOnly()
                return ReportIndex(postgres: store, writable: false)
            }
            try store.createOrMigrate(rebuild: rebuild, warn: warn)
            return ReportIndex(postgres: store, writable: true)
        }
    }
}
