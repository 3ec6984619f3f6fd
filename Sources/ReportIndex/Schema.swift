import GRDB

/// The tables of an index file (schema version 3). Documented in the "Searching a library"
/// article; `report_metadata` is the view a person reads with the `sqlite3` shell.
enum Schema {
    static let statements = baseStatements + thumbnailStatements

    /// The tables of schema version 1.
    static let baseStatements = [
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

    /// What version 2 added: first-page thumbnails by the PDF's content hash and pixel width. A
    /// row with `png` NULL records a PDF whose first page could not be drawn (`error` says why),
    /// so that it is not tried again until its content changes.
    static let thumbnailStatements = [
        """
        CREATE TABLE thumbnail(
            sha256 BLOB NOT NULL,
            width INTEGER NOT NULL,
            png BLOB,
            pixel_width INTEGER NOT NULL,
            pixel_height INTEGER NOT NULL,
            page_width REAL NOT NULL,
            page_height REAL NOT NULL,
            error TEXT,
            PRIMARY KEY(sha256, width)
        )
        """,
        "CREATE INDEX file_by_sha256 ON file(sha256)",
    ]

    /// Brings a database of schema version `version` to the current one in the open transaction;
    /// false when there is no migration from it (the file is rebuilt).
    static func migrate(_ db: Database, from version: Int) throws -> Bool {
        guard version == 1 || version == 2 else { return false }
        if version == 1 {
            for statement in thumbnailStatements { try db.execute(sql: statement) }
        }
        // Version 3: each full-text column is followed by the parts of its tokens of letters and
        // digits (SearchText.indexed), made from the normalised text it already holds.
        let rows = try Row.fetchAll(db, sql: "SELECT rowid, title, pdf_title, keywords, author, category FROM search")
        let update = try db.makeStatement(sql: "UPDATE search SET title = ?, pdf_title = ?, keywords = ?, author = ?, category = ? WHERE rowid = ?")
        for row in rows {
            let columns: [any DatabaseValueConvertible] = (1...5).map { SearchText.indexed((row[$0] as String?) ?? "") }
            try update.execute(arguments: StatementArguments(columns + [row[0] as Int64]))
        }
        try db.execute(sql: "PRAGMA user_version = \(ReportIndex.schemaVersion)")
        return true
    }

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
