import GRDB

/// The tables of an index file (schema version 2). Documented in the "Searching a library"
/// article; `report_metadata` is the view a person reads with the `sqlite3` shell.
enum Schema {
    static let statements = [
        // One row per PDF file (reports may share files).
        """
        CREATE TABLE file(
            path TEXT PRIMARY KEY,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            sha256 BLOB NOT NULL,
            title TEXT,
            author TEXT,
            keywords TEXT NOT NULL,
            pages INTEGER,
            warnings TEXT NOT NULL,
            error TEXT
        )
        """,
        // Categories in datasource order; a category's subtree is the orders ord ... end_ord.
        """
        CREATE TABLE category(
            ord INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            title TEXT NOT NULL,
            end_ord INTEGER NOT NULL,
            parent INTEGER
        )
        """,
        "CREATE INDEX category_by_id ON category(id)",
        // One row per report, keyed by its position in the datasource (pre-order over all nodes).
        """
        CREATE TABLE report(
            ord INTEGER PRIMARY KEY,
            id TEXT NOT NULL,
            title TEXT NOT NULL,
            path TEXT NOT NULL,
            category_titles TEXT NOT NULL,
            datasource_keywords TEXT NOT NULL,
            keywords TEXT NOT NULL,
            file TEXT,
            sig INTEGER NOT NULL
        )
        """,
        "CREATE INDEX report_by_id ON report(id)",
        // Keywords for facets and filters: normalised key, the spelling shown, one row per report.
        """
        CREATE TABLE keyword(
            key TEXT NOT NULL,
            report INTEGER NOT NULL,
            display TEXT NOT NULL,
            PRIMARY KEY(key, report)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX keyword_by_report ON keyword(report, key)",
        // The full-text index: normalised tokens (SearchText) separated by spaces; FTS5's ascii
        // tokenizer splits at exactly those spaces and keeps every non-ASCII character.
        """
        CREATE VIRTUAL TABLE search USING fts5(
            title, pdf_title, keywords, author, category,
            tokenize = 'ascii', prefix = '1 2 3'
        )
        """,
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID",
        """
        CREATE VIEW report_metadata AS
        SELECT report.id, report.title, report.path, report.keywords, report.file,
               file.size, file.mtime_ns, hex(file.sha256) AS sha256, file.title AS pdf_title,
               file.author, file.keywords AS pdf_keywords, file.pages, file.warnings, file.error,
               report.datasource_keywords
        FROM report LEFT JOIN file ON file.path = report.file
        """,
    ]

    static func create(_ db: Database) throws {
        for statement in statements { try db.execute(sql: statement) }
        try db.execute(sql: "PRAGMA application_id = \(ReportIndex.applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(ReportIndex.schemaVersion)")
    }

    /// Fails when the full-text table is missing or its module is not compiled in.
    static func checkFullText(_ db: Database) throws {
        _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM search WHERE search MATCH 'x'")
    }
}
