import Foundation
import GRDB
import PDFCore
import ReportLibrary

/// A report's first page as a small PNG, as the index keeps it.
public struct IndexThumbnail: Sendable, Hashable {
    /// The PNG file's bytes.
    public var png: [UInt8]
    /// The image's width in pixels.
    public var pixelWidth: Int
    /// The image's height in pixels.
    public var pixelHeight: Int
    /// The page's width as displayed (after rotation), in points.
    public var pageWidth: Double
    /// The page's height as displayed (after rotation), in points.
    public var pageHeight: Double

    /// A thumbnail of `pixelWidth` × `pixelHeight` pixels of a page of `pageWidth` × `pageHeight` points.
    public init(png: [UInt8], pixelWidth: Int, pixelHeight: Int, pageWidth: Double, pageHeight: Double) {
        self.png = png
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
    }
}

/// A PDF whose thumbnail of one width is not in the index yet: what a thumbnail builder draws.
public struct ThumbnailTask: Sendable, Hashable {
    /// SHA-256 of the PDF's content as the index last read it (32 bytes).
    public var sha256: [UInt8]
    /// A path the datasource names the PDF by (the first in path order when several hold it).
    public var path: String
    /// The thumbnail's width in pixels.
    public var width: Int

    /// A task for the PDF at `path` whose content hashes to `sha256`.
    public init(sha256: [UInt8], path: String, width: Int) {
        self.sha256 = sha256
        self.path = path
        self.width = width
    }
}

/// What a thumbnail builder made of one ``ThumbnailTask``.
public struct ThumbnailRecord: Sendable, Hashable {
    /// SHA-256 of the PDF's content (32 bytes).
    public var sha256: [UInt8]
    /// The thumbnail's width in pixels (the key, with the hash).
    public var width: Int
    /// The thumbnail; nil when the first page could not be drawn.
    public var thumbnail: IndexThumbnail?
    /// Why the first page could not be drawn (when `thumbnail` is nil). The index keeps it, so
    /// the PDF is not tried again until its content changes.
    public var error: String?

    /// A record of a thumbnail drawn, or (with `thumbnail` nil) of a PDF that could not be.
    public init(sha256: [UInt8], width: Int, thumbnail: IndexThumbnail?, error: String? = nil) {
        self.sha256 = sha256
        self.width = width
        self.thumbnail = thumbnail
        self.error = error
    }
}

// Thumbnails: the index stores and reads PNG bytes; drawing them is the builder's business
// (IndexThumbnails), so the index never depends on a renderer.
extension ReportIndex {
    /// The PDFs of the datasource that have no thumbnail `width` pixels wide (neither drawn nor
    /// recorded as failed), one per distinct content, in path order. PDFs the metadata reader
    /// could not read are left out. Reads the index only, never a PDF.
    public func thumbnailsToBuild(width: Int) throws(IndexError) -> [ThumbnailTask] {
        if let postgres { return try postgres.thumbnailsToBuild(width: width, creatingTable: isWritable) }
        return try read { db in
            guard try db.tableExists("thumbnail") else { return [] }
            let rows = try Row.fetchAll(db, sql: """
                SELECT file.sha256, min(file.path) AS first FROM file
                WHERE file.error IS NULL AND length(file.sha256) = 32 AND file.size >= 0 AND file.mtime_ns >= 0
                  AND NOT EXISTS (SELECT 1 FROM thumbnail WHERE thumbnail.sha256 = file.sha256 AND thumbnail.width = ?)
                GROUP BY file.sha256 ORDER BY first
                """, arguments: [width])
            return rows.map { row in
                let hash: Data = row[0]
                return ThumbnailTask(sha256: [UInt8](hash), path: row[1], width: width)
            }
        }
    }

    /// Stores `records` in one transaction (replacing rows of the same hash and width): either
    /// all of them are committed or none. Does nothing for an index opened to read only.
    public func storeThumbnails(_ records: [ThumbnailRecord]) throws(IndexError) {
        if let postgres { return isWritable ? try postgres.storeThumbnails(records) : () }
        guard !records.isEmpty else { return }
        try write(bumpGeneration: false) { db in
            let insert = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO thumbnail(sha256, width, png, pixel_width, pixel_height, page_width, page_height, error)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for r in records {
                let t = r.thumbnail
                try insert.execute(arguments: [
                    Data(r.sha256), r.width, t.map { Data($0.png) }, t?.pixelWidth ?? 0, t?.pixelHeight ?? 0,
                    t?.pageWidth ?? 0, t?.pageHeight ?? 0, t == nil ? (r.error ?? "not drawn") : nil,
                ])
            }
        }
    }

    /// Deletes the thumbnails of PDFs that no file of the index has any more (of every width);
    /// returns how many rows went.
    @discardableResult
    public func pruneThumbnails() throws(IndexError) -> Int {
        guard isWritable else { return 0 }
        if let postgres { return try postgres.pruneThumbnails() }
        let stale = try read { db -> Int in
            guard try db.tableExists("thumbnail") else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM thumbnail WHERE sha256 NOT IN (SELECT sha256 FROM file)") ?? 0
        }
        guard stale > 0 else { return 0 }
        try write(bumpGeneration: false) { db in
            try db.execute(sql: "DELETE FROM thumbnail WHERE sha256 NOT IN (SELECT sha256 FROM file)")
        }
        return stale
    }

    /// Counts of the thumbnail rows of `width`: drawn, and recorded as failed.
    public func thumbnailCounts(width: Int) throws(IndexError) -> (drawn: Int, failed: Int) {
        if let postgres { return try postgres.thumbnailCounts(width: width) }
        return try read { db in
            guard try db.tableExists("thumbnail") else { return (0, 0) }
            let row = try Row.fetchOne(db, sql: "SELECT count(png), count(*) - count(png) FROM thumbnail WHERE width = ?", arguments: [width])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// The first-page thumbnail `width` pixels wide of the report `id`'s PDF; nil when it is not
    /// built (or the page could not be drawn, or the report has no PDF).
    public func thumbnail(forReport id: String, width: Int) throws(IndexError) -> IndexThumbnail? {
        try thumbnails(forReports: [id], width: width)[id]
    }

    /// The thumbnails `width` pixels wide of the reports `ids` that have one, by report id.
    public func thumbnails(forReports ids: [String], width: Int) throws(IndexError) -> [String: IndexThumbnail] {
        if let postgres { return try postgres.thumbnails(forReports: ids, width: width) }
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            guard try db.tableExists("thumbnail") else { return [:] }
            var found: [String: IndexThumbnail] = [:]
            var start = 0
            let unique = Array(Set(ids)).sorted()
            while start < unique.count {
                let chunk = Array(unique[start..<min(start + 500, unique.count)])
                start += chunk.count
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                // A report id used twice in the datasource: the first in datasource order.
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT report.id, thumbnail.png, thumbnail.pixel_width, thumbnail.pixel_height, thumbnail.page_width, thumbnail.page_height
                    FROM report JOIN file ON file.path = report.file
                    JOIN thumbnail ON thumbnail.sha256 = file.sha256 AND thumbnail.width = ?
                    WHERE report.id IN (\(marks)) AND thumbnail.png IS NOT NULL
                    ORDER BY report.ord
                    """, arguments: StatementArguments([width] as [any DatabaseValueConvertible] + chunk))
                while let row = try rows.next() {
                    let id: String = row[0]
                    guard found[id] == nil else { continue }
                    let png: Data = row[1]
                    found[id] = IndexThumbnail(png: [UInt8](png), pixelWidth: row[2], pixelHeight: row[3], pageWidth: row[4], pageHeight: row[5])
                }
            }
            return found
        }
    }
}

// Content hashes for other users of the PDFs (the play server's ETags).
extension ReportIndex {
    /// The index's record of the PDF at `path` (as the datasource resolves it), or nil when the
    /// index holds none. The record may be stale: compare its size and time with the file's.
    public func storedFile(atPath path: String) throws(IndexError) -> PDFFileRecord? {
        if let postgres { return try postgres.storedFile(atPath: path) }
        return try read { db in
            guard let row = try Row.fetchOne(
                db, sql: "SELECT path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error FROM file WHERE path = ?",
                arguments: [path])
            else { return nil }
            let hash: Data = row[3]
            return PDFFileRecord(
                path: row[0], size: row[1], modificationTime: row[2], contentHash: [UInt8](hash), title: row[4], author: row[5],
                keywords: try StringList.decode(row[6]), pageCount: row[7], warnings: try StringList.decode(row[8]), readError: row[9])
        }
    }

    /// SHA-256 of the file at `path` (32 bytes) with the stamp taken before reading it, as an
    /// update reads it; nil when it cannot be read.
    public static func contentHash(ofFileAt path: String) -> (hash: [UInt8], stamp: FileStamp)? {
        guard let (bytes, stamp) = PDFFileReader.readBytes(path) else { return nil }
        return (Crypto.sha256(bytes), stamp)
    }
}
