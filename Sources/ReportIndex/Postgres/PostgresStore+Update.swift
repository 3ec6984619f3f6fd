import Foundation
import NIOCore
import PostgresNIO

// The writes of an update, as the SQLite store makes them (see `Writer`), in PostgreSQL: each
// batch of reports in one statement per table (arrays unnested), the signature written last.
extension PostgresStore {
    /// PostgreSQL's text cannot hold NUL: it is stored as U+FFFD.
    static func text(_ s: String) -> String {
        s.utf8.contains(0) ? s.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : s
    }

    /// A `tsvector` literal of an indexed column (``SearchText/indexed(_:)``): each token at its
    /// position, the parts mark leaving a gap (so no phrase spans it) and no lexeme. Built here
    /// rather than by `to_tsvector`, so that PostgreSQL never tokenises the text again.
    static func tsvector(_ indexed: String) -> String {
        var out = ""
        var position = 0
        for word in indexed.split(separator: " ") {
            position += 1
            if word.utf8.elementsEqual(SearchText.partsMark.utf8) { continue }
            guard word.utf8.count < 2_047 else { continue }  // PostgreSQL's longest lexeme
            if !out.isEmpty { out += " " }
            out += "'" + escapeLexeme(word) + "':" + String(min(position, 16_383))
        }
        return out
    }

    static func escapeLexeme(_ word: Substring) -> String {
        guard word.contains(where: { $0 == "'" || $0 == "\\" }) else { return String(word) }
        return word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
    }

    func loadState() throws(IndexError) -> StoredState {
        try transaction(readOnly: true) { c in
            var state = StoredState()
            state.files = try loadFiles(c)
            for row in try execute(c, "SELECT ord, id, sig FROM report") {
                let id = try row[1].decode(String.self)
                state.reportSigs[try row[0].decode(Int.self)] = (id, try row[2].decode(Int64.self))
                state.reportIDs.insert(id)
            }
            for row in try execute(c, "SELECT key, value FROM meta WHERE key IN ('tree_sig', 'source')") {
                let value = try row[1].decode(String.self)
                if try row[0].decode(String.self) == "tree_sig" { state.treeSig = Int64(value) } else { state.sourceKey = value }
            }
            return state
        }
    }

    func loadFiles(_ c: PostgresConnection) throws -> [String: PDFFileRecord] {
        var files: [String: PDFFileRecord] = [:]
        for row in try execute(c, "SELECT path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error FROM file") {
            let path = try row[0].decode(String.self)
            let hash = try row[3].decode(ByteBuffer.self)
            files[path] = PDFFileRecord(
                path: path, size: Int(try row[1].decode(Int64.self)), modificationTime: try row[2].decode(Int64.self),
                contentHash: Array(hash.readableBytesView), title: try row[4].decode(String?.self), author: try row[5].decode(String?.self),
                keywords: try StringList.decode(try row[6].decode(String.self)), pageCount: try row[7].decode(Int?.self),
                warnings: try StringList.decode(try row[8].decode(String.self)), readError: try row[9].decode(String?.self))
        }
        return files
    }

    /// What ``ReportIndex/isCurrent(datasource:stamp:jobs:)`` needs: the source key, every file
    /// record in path order and the report count.
    func currentState() throws(IndexError) -> (String?, [PDFFileRecord], Int) {
        try transaction(readOnly: true) { c in
            guard let key = try execute(c, "SELECT value FROM meta WHERE key = 'source'").first.map({ try $0[0].decode(String.self) }) else {
                return (nil, [], 0)
            }
            let files = try loadFiles(c)
            let count = try execute(c, "SELECT count(*) FROM report").first?[0].decode(Int.self) ?? 0
            return (key, files.keys.sorted().map { files[$0]! }, count)
        }
    }

    /// The datasource's structure: categories, and reports whose file is current.
    func writeStructure(plan: TreePlan, files: [String: PDFFileRecord], pending: Set<String>, stored: [Int: (id: String, sig: Int64)], categoriesChanged: Bool) throws(IndexError) {
        try transaction(readOnly: false) { c in
            let count = try execute(c, "SELECT count(*) FROM category").first?[0].decode(Int.self) ?? 0
            if categoriesChanged || count != plan.categories.count {
                _ = try execute(c, "DELETE FROM category")
                var binds = PostgresBindings()
                binds.append(plan.categories.map { Int32($0.ord) })
                binds.append(plan.categories.map { Self.text($0.id) })
                binds.append(plan.categories.map { Self.text($0.title) })
                binds.append(plan.categories.map { Int32($0.endOrd) })
                binds.append(plan.categories.map { Int32($0.parent ?? -1) })
                _ = try execute(c, """
                    INSERT INTO category(ord, id, title, end_ord, parent)
                    SELECT o, i, t, e, NULLIF(p, -1) FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[]) AS u(o, i, t, e, p)
                    """, binds)
            }
            var wanted: Set<Int> = []
            var rewrite: [Int] = []
            var gone: [Int] = []
            for (i, report) in plan.reports.enumerated() {
                wanted.insert(report.ord)
                if let f = report.file, pending.contains(f) {
                    if let old = stored[report.ord], old.id != report.id { gone.append(report.ord) }
                    continue
                }
                rewrite.append(i)
            }
            for ord in stored.keys.sorted() where !wanted.contains(ord) { gone.append(ord) }
            try delete(c, gone)
            try rewriteReports(c, plan: plan, indices: rewrite, files: files, stored: stored)
        }
    }

    /// One batch: its files, and the reports that use them.
    func writeBatch(records: [PDFFileRecord], plan: TreePlan, indices: [Int], files: [String: PDFFileRecord], stored: [Int: (id: String, sig: Int64)]) throws(IndexError) {
        try transaction(readOnly: false) { c in
            var binds = PostgresBindings()
            binds.append(records.map { Self.text($0.path) })
            binds.append(records.map { Int64($0.size) })
            binds.append(records.map { $0.modificationTime })
            binds.append(records.map { $0.contentHash.map { String(format: "%02x", $0) }.joined() })
            binds.append(records.map { Self.text($0.title ?? "") })
            binds.append(records.map { $0.title == nil })
            binds.append(records.map { Self.text($0.author ?? "") })
            binds.append(records.map { $0.author == nil })
            binds.append(records.map { Self.text(StringList.encode($0.keywords)) })
            binds.append(records.map { Int32($0.pageCount ?? -1) })
            binds.append(records.map { Self.text(StringList.encode($0.warnings)) })
            binds.append(records.map { Self.text($0.readError ?? "") })
            binds.append(records.map { $0.readError == nil })
            _ = try execute(c, """
                INSERT INTO file(path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error)
                SELECT p, s, m, decode(h, 'hex'), CASE WHEN tn THEN NULL ELSE t END, CASE WHEN an THEN NULL ELSE a END, k,
                       NULLIF(pg, -1), w, CASE WHEN en THEN NULL ELSE e END
                FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::bool[], $7::text[], $8::bool[],
                            $9::text[], $10::int[], $11::text[], $12::text[], $13::bool[]) AS u(p, s, m, h, t, tn, a, an, k, pg, w, e, en)
                ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256,
                    title = excluded.title, author = excluded.author, keywords = excluded.keywords, pages = excluded.pages,
                    warnings = excluded.warnings, error = excluded.error
                """, binds)
            try rewriteReports(c, plan: plan, indices: indices, files: files, stored: stored)
        }
    }

    /// The end of an update: files no report uses go, then the datasource's signature.
    func finish(unreferenced: [String], treeSig: Int64, sourceKey: String?) throws(IndexError) {
        try transaction(readOnly: false) { c in
            var binds = PostgresBindings()
            binds.append(unreferenced.map(Self.text))
            _ = try execute(c, "DELETE FROM file WHERE path = ANY($1::text[])", binds)
            var sig = PostgresBindings()
            sig.append(String(treeSig))
            _ = try execute(c, "INSERT INTO meta(key, value) VALUES ('tree_sig', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", sig)
            if let sourceKey {
                var source = PostgresBindings()
                source.append(Self.text(sourceKey))
                _ = try execute(c, "INSERT INTO meta(key, value) VALUES ('source', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", source)
            } else {
                _ = try execute(c, "DELETE FROM meta WHERE key = 'source'")
            }
        }
    }

    func delete(_ c: PostgresConnection, _ ords: [Int]) throws {
        guard !ords.isEmpty else { return }
        var binds = PostgresBindings()
        binds.append(ords.map { Int32($0) })
        _ = try execute(c, "DELETE FROM report WHERE ord = ANY($1::int[])", binds)
        _ = try execute(c, "DELETE FROM keyword WHERE report = ANY($1::int[])", binds)
    }

    /// The reports at `indices` of the plan whose signature differs from the stored one, in one
    /// statement per table.
    func rewriteReports(_ c: PostgresConnection, plan: TreePlan, indices: [Int], files: [String: PDFFileRecord], stored: [Int: (id: String, sig: Int64)]) throws {
        var texts = FieldTexts()
        var ords: [Int32] = [], ids: [String] = [], titles: [String] = [], paths: [String] = [], categoryTitles: [String] = []
        var datasourceKeywords: [String] = [], keywordLists: [String] = [], fileNames: [String] = [], fileNull: [Bool] = [], sigs: [Int64] = []
        var columns: [[String]] = Array(repeating: [], count: 5)
        var vectors: [[String]] = Array(repeating: [], count: 5)
        var keyKeys: [String] = [], keyReports: [Int32] = [], keyDisplays: [String] = []
        for i in indices {
            let report = plan.reports[i]
            let record = report.file.flatMap { files[$0] }
            let sig = Writer.signature(report, record)
            if let old = stored[report.ord], old.sig == sig, old.id == report.id { continue }
            let keywords = ReportIndex.mergeKeywords(record?.keywords ?? [], report.keywords)
            ords.append(Int32(report.ord))
            ids.append(Self.text(report.id))
            titles.append(Self.text(report.title))
            paths.append(Self.text(StringList.encode(report.path)))
            categoryTitles.append(Self.text(StringList.encode(report.categoryTitles)))
            datasourceKeywords.append(Self.text(StringList.encode(report.keywords)))
            keywordLists.append(Self.text(StringList.encode(keywords)))
            fileNames.append(Self.text(report.file ?? ""))
            fileNull.append(report.file == nil)
            sigs.append(sig)
            for (k, column) in texts.columns(report, record, keywords).enumerated() {
                columns[k].append(column)
                vectors[k].append(Self.tsvector(column))
            }
            var keys: Set<String> = []
            for keyword in keywords {
                let key = SearchText.keywordKey(keyword)
                guard !key.isEmpty, keys.insert(key).inserted else { continue }
                keyKeys.append(key)
                keyReports.append(Int32(report.ord))
                keyDisplays.append(Self.text(keyword))
            }
        }
        guard !ords.isEmpty else { return }
        try delete(c, ords.map { Int($0) })
        var binds = PostgresBindings()
        binds.append(ords)
        binds.append(ids)
        binds.append(titles)
        binds.append(paths)
        binds.append(categoryTitles)
        binds.append(datasourceKeywords)
        binds.append(keywordLists)
        binds.append(fileNames)
        binds.append(fileNull)
        binds.append(sigs)
        for k in 0..<5 { binds.append(columns[k]) }
        for k in 0..<5 { binds.append(vectors[k]) }
        _ = try execute(c, """
            INSERT INTO report(ord, id, title, path, category_titles, datasource_keywords, keywords, file, sig,
                               s_title, s_pdf_title, s_keywords, s_author, s_category,
                               v_title, v_pdf_title, v_keywords, v_author, v_category, v_all)
            SELECT o, i, t, p, ct, dk, k, CASE WHEN fn THEN NULL ELSE f END, s, s1, s2, s3, s4, s5,
                   v1::tsvector, v2::tsvector, v3::tsvector, v4::tsvector, v5::tsvector,
                   v1::tsvector || v2::tsvector || v3::tsvector || v4::tsvector || v5::tsvector
            FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bool[],
                        $10::bigint[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                        $16::text[], $17::text[], $18::text[], $19::text[], $20::text[])
                 AS u(o, i, t, p, ct, dk, k, f, fn, s, s1, s2, s3, s4, s5, v1, v2, v3, v4, v5)
            """, binds)
        if !keyKeys.isEmpty {
            var keyBinds = PostgresBindings()
            keyBinds.append(keyKeys)
            keyBinds.append(keyReports)
            keyBinds.append(keyDisplays)
            _ = try execute(c, "INSERT INTO keyword(key, report, display) SELECT * FROM unnest($1::text[], $2::int[], $3::text[])", keyBinds)
        }
    }
}
