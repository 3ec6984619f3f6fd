import Foundation
import GRDB

extension ReportIndex {
    /// Every row of every table, as text, in a fixed order (tests compare indexes with it).
    func tableDump() throws(IndexError) -> [String] {
        if let postgres { return try postgres.tableDump() }
        return try read { db in
            var lines: [String] = []
            let queries = [
                "SELECT path, size, hex(sha256), title, author, keywords, pages, warnings, error FROM file ORDER BY path",
                "SELECT ord, id, title, end_ord, parent FROM category ORDER BY ord",
                "SELECT ord, id, title, path, category_titles, datasource_keywords, keywords, file, sig FROM report ORDER BY ord",
                "SELECT key, report, display FROM keyword ORDER BY key, report",
                "SELECT rowid, title, pdf_title, keywords, author, category FROM search ORDER BY rowid",
                "SELECT hex(sha256), width, hex(png), pixel_width, pixel_height, page_width, page_height, error FROM thumbnail ORDER BY sha256, width",
            ]
            // A version 1 index has no thumbnail table.
            for sql in queries where try !sql.contains("FROM thumbnail") || db.tableExists("thumbnail") {
                for row in try Row.fetchAll(db, sql: sql) {
                    lines.append(row.databaseValues.map { $0.description }.joined(separator: "|"))
                }
            }
            return lines
        }
    }
}
