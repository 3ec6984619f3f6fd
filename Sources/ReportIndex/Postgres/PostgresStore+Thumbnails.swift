import Foundation
import NIOCore
import PostgresNIO

// Thumbnails in PostgreSQL: the SQLite file's `thumbnail` table, in the datasource's schema, with
// the same keys (the PDF's SHA-256 and the width), rows and answers. The table is made by the
// first writer that stores or asks what to build, so an index written before it gains it
// without being rebuilt; readers of an index without it find no thumbnail.
extension PostgresStore {
    static let thumbnailTable = """
        CREATE TABLE IF NOT EXISTS thumbnail(
            sha256 bytea NOT NULL,
            width integer NOT NULL,
            png bytea,
            pixel_width integer NOT NULL,
            pixel_height integer NOT NULL,
            page_width double precision NOT NULL,
            page_height double precision NOT NULL,
            error text,
            PRIMARY KEY (sha256, width)
        )
        """

    /// Whether the schema has the thumbnail table.
    func hasThumbnailTable(_ c: PostgresConnection) throws -> Bool {
        var binds = PostgresBindings()
        binds.append(schema + ".thumbnail")
        return try execute(c, "SELECT to_regclass($1) IS NOT NULL", binds).first?[0].decode(Bool.self) == true
    }

    /// See `ReportIndex.thumbnailsToBuild(width:)`; makes the table first for a writer.
    func thumbnailsToBuild(width: Int, creatingTable: Bool) throws(IndexError) -> [ThumbnailTask] {
        try transaction(readOnly: !creatingTable) { c in
            if creatingTable {
                _ = try execute(c, Self.thumbnailTable)
            } else if try !hasThumbnailTable(c) {
                return []
            }
            var binds = PostgresBindings()
            binds.append(Int32(clamping: width))
            // Paths in byte order, as SQLite's `min` and `ORDER BY` compare them.
            return try execute(c, """
                SELECT file.sha256, min(file.path COLLATE "C") AS first FROM file
                WHERE file.error IS NULL AND length(file.sha256) = 32 AND file.size >= 0 AND file.mtime_ns >= 0
                  AND NOT EXISTS (SELECT 1 FROM thumbnail WHERE thumbnail.sha256 = file.sha256 AND thumbnail.width = $1)
                GROUP BY file.sha256 ORDER BY first
                """, binds).map { row in
                ThumbnailTask(sha256: Array(try row[0].decode(ByteBuffer.self).readableBytesView), path: try row[1].decode(String.self), width: width)
            }
        }
    }

    /// See `ReportIndex.storeThumbnails(_:)`: one statement in one transaction.
    func storeThumbnails(_ records: [ThumbnailRecord]) throws(IndexError) {
        guard !records.isEmpty else { return }
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        try transaction(readOnly: false) { c in
            _ = try execute(c, Self.thumbnailTable)
            var binds = PostgresBindings()
            binds.append(records.map { hex($0.sha256) })
            binds.append(records.map { Int32(clamping: $0.width) })
            binds.append(records.map { $0.thumbnail.map { hex($0.png) } ?? "" })
            binds.append(records.map { Int32(clamping: $0.thumbnail?.pixelWidth ?? 0) })
            binds.append(records.map { Int32(clamping: $0.thumbnail?.pixelHeight ?? 0) })
            binds.append(records.map { $0.thumbnail?.pageWidth ?? 0 })
            binds.append(records.map { $0.thumbnail?.pageHeight ?? 0 })
            binds.append(records.map { $0.thumbnail == nil })
            binds.append(records.map { Self.text($0.thumbnail == nil ? ($0.error ?? "not drawn") : "") })
            _ = try execute(c, """
                INSERT INTO thumbnail(sha256, width, png, pixel_width, pixel_height, page_width, page_height, error)
                SELECT decode(h, 'hex'), w, CASE WHEN failed THEN NULL ELSE decode(p, 'hex') END, pw, ph, gw, gh,
                       CASE WHEN failed THEN e ELSE NULL END
                FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::int[], $6::float8[], $7::float8[], $8::bool[], $9::text[])
                    AS u(h, w, p, pw, ph, gw, gh, failed, e)
                ON CONFLICT (sha256, width) DO UPDATE SET png = excluded.png, pixel_width = excluded.pixel_width,
                    pixel_height = excluded.pixel_height, page_width = excluded.page_width, page_height = excluded.page_height,
                    error = excluded.error
                """, binds)
        }
    }

    /// See `ReportIndex.pruneThumbnails()`.
    func pruneThumbnails() throws(IndexError) -> Int {
        try transaction(readOnly: false) { c in
            guard try hasThumbnailTable(c) else { return 0 }
            return try execute(c, "WITH gone AS (DELETE FROM thumbnail WHERE sha256 NOT IN (SELECT sha256 FROM file) RETURNING 1) SELECT count(*) FROM gone")
                .first?[0].decode(Int.self) ?? 0
        }
    }

    /// See `ReportIndex.thumbnailCounts(width:)`.
    func thumbnailCounts(width: Int) throws(IndexError) -> (drawn: Int, failed: Int) {
        try transaction(readOnly: true) { c in
            guard try hasThumbnailTable(c) else { return (0, 0) }
            var binds = PostgresBindings()
            binds.append(Int32(clamping: width))
            let row = try execute(c, "SELECT count(png), count(*) - count(png) FROM thumbnail WHERE width = $1", binds).first
            return (try row?[0].decode(Int.self) ?? 0, try row?[1].decode(Int.self) ?? 0)
        }
    }

    /// See `ReportIndex.thumbnails(forReports:width:)`: a report id used twice takes the first in
    /// datasource order.
    func thumbnails(forReports ids: [String], width: Int) throws(IndexError) -> [String: IndexThumbnail] {
        let unique = Array(Set(ids.map(Self.text))).sorted()
        guard !unique.isEmpty else { return [:] }
        return try transaction(readOnly: true) { c in
            guard try hasThumbnailTable(c) else { return [:] }
            var binds = PostgresBindings()
            binds.append(Int32(clamping: width))
            binds.append(unique)
            var found: [String: IndexThumbnail] = [:]
            for row in try execute(c, """
                SELECT report.id, thumbnail.png, thumbnail.pixel_width, thumbnail.pixel_height, thumbnail.page_width, thumbnail.page_height
                FROM report JOIN file ON file.path = report.file
                JOIN thumbnail ON thumbnail.sha256 = file.sha256 AND thumbnail.width = $1
                WHERE report.id = ANY($2::text[]) AND thumbnail.png IS NOT NULL
                ORDER BY report.ord
                """, binds) {
                let id = try row[0].decode(String.self)
                guard found[id] == nil else { continue }
                found[id] = IndexThumbnail(png: Array(try row[1].decode(ByteBuffer.self).readableBytesView), pixelWidth: try row[2].decode(Int.self),
                                           pixelHeight: try row[3].decode(Int.self), pageWidth: try row[4].decode(Double.self),
                                           pageHeight: try row[5].decode(Double.self))
            }
            return found
        }
    }

    /// See `ReportIndex.storedFile(atPath:)`.
    func storedFile(atPath path: String) throws(IndexError) -> PDFFileRecord? {
        try withConnection { c in
            var binds = PostgresBindings()
            binds.append(Self.text(path))
            guard let row = try execute(c, """
                SELECT path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error FROM file WHERE path = $1
                """, binds).first else { return nil }
            return PDFFileRecord(
                path: try row[0].decode(String.self), size: Int(try row[1].decode(Int64.self)), modificationTime: try row[2].decode(Int64.self),
                contentHash: Array(try row[3].decode(ByteBuffer.self).readableBytesView), title: try row[4].decode(String?.self), author: try row[5].decode(String?.self),
                keywords: try StringList.decode(try row[6].decode(String.self)), pageCount: try row[7].decode(Int?.self),
                warnings: try StringList.decode(try row[8].decode(String.self)), readError: try row[9].decode(String?.self))
        }
    }
}
