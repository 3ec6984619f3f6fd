import Foundation
import NIOCore
import PostgresNIO

// Searching in PostgreSQL with the answers of the SQLite store: the same candidates (every match
// up to `rankedGroupLimit`, else the first of each field group in datasource order), scored by the
// same function over the same normalised columns, ties in datasource order.
extension PostgresStore {
    /// A query's SQL condition over the report table, with its bound values: every term must
    /// match in one field. A one-token term is looked up in `v_all`; a phrase in each field, so
    /// that no phrase spans two fields (as in FTS5).
    struct Condition {
        var sql = "true"
        var binds = PostgresBindings()
        var count = 0

        mutating func bind(_ value: String) -> String {
            binds.append(value)
            count += 1
            return "$\(count)::tsquery"
        }

        mutating func bindInt(_ value: Int) -> String {
            binds.append(Int32(clamping: value))
            count += 1
            return "$\(count)"
        }

        mutating func bindText(_ value: String) -> String {
            binds.append(value)
            count += 1
            return "$\(count)"
        }
    }

    static let vectorColumns = ["v_title", "v_pdf_title", "v_keywords", "v_author", "v_category"]

    /// A term's `tsquery` literal: its tokens as a phrase (`<->`), the last one a prefix (`:*`)
    /// when the term is. Nil when a token is longer than any lexeme can be (it matches nothing).
    static func tsquery(_ term: SearchQuery.Term) -> String? {
        var parts: [String] = []
        for (i, token) in term.tokens.enumerated() {
            guard token.utf8.count < 2_047 else { return nil }
            let last = i == term.tokens.count - 1
            parts.append("'" + escapeLexeme(Substring(token)) + "'" + (last && term.isPrefix ? ":*" : ""))
        }
        return parts.joined(separator: " <-> ")
    }

    /// The condition of `query` restricted by `filter`; `field` keeps every term to one field.
    func condition(_ query: SearchQuery, _ filter: ReportIndex.Restriction, field: SearchField? = nil) -> Condition {
        var c = Condition()
        var clauses: [String] = []
        if filter.impossible { clauses.append("false") }
        if let range = filter.range {
            clauses.append("ord BETWEEN \(c.bindInt(range.lowerBound)) AND \(c.bindInt(range.upperBound))")
        }
        for key in filter.keywordKeys {
            clauses.append("ord IN (SELECT report FROM keyword WHERE key = \(c.bindText(Self.text(key))))")
        }
        if let field {
            let column = Self.vectorColumns[SearchField.allCases.firstIndex(of: field)!]
            let all = query.terms.map { Self.tsquery($0).map { "(" + $0 + ")" } }
            if all.contains(where: { $0 == nil }) {
                clauses.append("false")
            } else if !all.isEmpty {
                clauses.append("\(column) @@ \(c.bind(all.map { $0! }.joined(separator: " & ")))")
            }
        } else {
            for term in query.terms {
                guard let q = Self.tsquery(term) else {
                    clauses.append("false")
                    continue
                }
                if term.tokens.count == 1 {
                    clauses.append("v_all @@ \(c.bind(q))")
                } else {
                    let p = c.bind(q)
                    clauses.append("(" + Self.vectorColumns.map { "\($0) @@ \(p)" }.joined(separator: " OR ") + ")")
                }
            }
        }
        if !clauses.isEmpty { c.sql = clauses.joined(separator: " AND ") }
        return c
    }

    func categoryRange(_ id: String) throws(IndexError) -> ClosedRange<Int>? {
        guard !id.utf8.contains(0) else { return nil }
        return try withConnection { c in
            var binds = PostgresBindings()
            binds.append(id)
            guard let row = try execute(c, "SELECT ord, end_ord FROM category WHERE id = $1", binds).first else { return nil }
            return try row[0].decode(Int.self)...row[1].decode(Int.self)
        }
    }

    func search(_ query: SearchQuery, _ filter: ReportIndex.Restriction, options: SearchOptions, withFacets: Bool) throws(IndexError) -> SearchResults {
        try transaction(readOnly: true) { c in
            let matching = condition(query, filter)
            let total = try execute(c, "SELECT count(*) FROM report WHERE \(matching.sql)", matching.binds).first?[0].decode(Int.self) ?? 0
            var ranked: [(ord: Int, score: Double)] = []
            let limit = max(0, options.limit)
            if limit > 0, total > 0 {
                ranked = try rank(c, query, filter, limit: limit, total: total)
            }
            let results = try details(c, query, ranked, fields: options.matchFields)
            let facets = withFacets ? try facetCounts(c, query, filter, limit: options.facetLimit) : []
            return SearchResults(query: query.text, total: total, results: results, facets: facets)
        }
    }

    func facets(_ query: SearchQuery, _ filter: ReportIndex.Restriction, limit: Int) throws(IndexError) -> [KeywordCount] {
        try transaction(readOnly: true) { c in try facetCounts(c, query, filter, limit: limit) }
    }

    func matchingIDs(_ query: SearchQuery, _ filter: ReportIndex.Restriction) throws(IndexError) -> [String] {
        try withConnection { c in
            let matching = condition(query, filter)
            return try execute(c, "SELECT id FROM report WHERE \(matching.sql) ORDER BY ord", matching.binds).map { try $0[0].decode(String.self) }
        }
    }

    func reportCount() throws(IndexError) -> Int {
        try withConnection { c in try execute(c, "SELECT count(*) FROM report").first?[0].decode(Int.self) ?? 0 }
    }

    private func rank(_ c: PostgresConnection, _ query: SearchQuery, _ filter: ReportIndex.Restriction, limit: Int, total: Int) throws -> [(ord: Int, score: Double)] {
        guard !query.isEmpty else {
            var matching = condition(query, filter)
            let limitParameter = matching.bindInt(limit)
            return try execute(c, "SELECT ord FROM report WHERE \(matching.sql) ORDER BY ord LIMIT \(limitParameter)", matching.binds)
                .map { (try $0[0].decode(Int.self), 0) }
        }
        let columns = "ord, s_title, s_pdf_title, s_keywords, s_author, s_category"
        var rows: [PostgresRandomAccessRow] = []
        if total <= ReportIndex.rankedGroupLimit {
            let matching = condition(query, filter)
            rows = try execute(c, "SELECT \(columns) FROM report WHERE \(matching.sql)", matching.binds)
        } else {
            var seen: Set<Int> = []
            for field in SearchField.allCases.map(Optional.some) + [nil] {
                var matching = condition(query, filter, field: field)
                let limitParameter = matching.bindInt(limit)
                let group = try execute(c, "SELECT \(columns) FROM report WHERE \(matching.sql) ORDER BY ord LIMIT \(limitParameter)", matching.binds)
                for row in group where seen.insert(try row[0].decode(Int.self)).inserted { rows.append(row) }
                if field == .title && rows.count >= limit { break }
            }
        }
        var scored: [(ord: Int, score: Double)] = try rows.map { row in
            let columns = try (1...5).map { try row[$0].decode(String.self) }
            return (try row[0].decode(Int.self), ReportIndex.score(query, columns: columns))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.ord < $1.ord }
        return Array(scored.prefix(limit))
    }

    private func details(_ c: PostgresConnection, _ query: SearchQuery, _ ranked: [(ord: Int, score: Double)], fields: Set<SearchField>) throws -> [SearchResult] {
        guard !ranked.isEmpty else { return [] }
        var binds = PostgresBindings()
        binds.append(ranked.map { Int32($0.ord) })
        let rows = try execute(c, """
            SELECT r.ord, r.id, r.title, r.path, r.category_titles, r.keywords, f.title, f.author, f.pages
            FROM report r LEFT JOIN file f ON f.path = r.file WHERE r.ord = ANY($1::int[])
            """, binds)
        var byOrd: [Int: PostgresRandomAccessRow] = [:]
        for row in rows { byOrd[try row[0].decode(Int.self)] = row }
        return try ranked.compactMap { item throws -> SearchResult? in
            guard let row = byOrd[item.ord] else { return nil }
            return try ReportIndex.result(
                query, score: item.score, id: row[1].decode(String.self), title: row[2].decode(String.self), path: row[3].decode(String.self),
                categoryTitles: row[4].decode(String.self), keywords: row[5].decode(String.self), pdfTitle: row[6].decode(String?.self),
                author: row[7].decode(String?.self), pages: row[8].decode(Int?.self), fields: fields)
        }
    }

    /// Keyword counts over the matching reports, most frequent first, ties in key order; each
    /// key shown in its first spelling (over every report, as the SQLite store's facet table).
    private func facetCounts(_ c: PostgresConnection, _ query: SearchQuery, _ filter: ReportIndex.Restriction, limit: Int) throws -> [KeywordCount] {
        var matching = condition(query, filter)
        let limitParameter = matching.bindInt(max(0, limit))
        return try execute(c, """
            SELECT (SELECT min(k2.display) FROM keyword k2 WHERE k2.key = counted.key), counted.n FROM (
                SELECT key, count(*) AS n FROM keyword WHERE report IN (SELECT ord FROM report WHERE \(matching.sql))
                GROUP BY key ORDER BY n DESC, key LIMIT \(limitParameter)
            ) counted ORDER BY counted.n DESC, counted.key
            """, matching.binds).map { KeywordCount(keyword: try $0[0].decode(String.self), count: try $0[1].decode(Int.self)) }
    }

    /// Every row of every table, as text, in a fixed order (tests compare stores' states with it).
    func tableDump() throws(IndexError) -> [String] {
        try transaction(readOnly: true) { c in
            var lines: [String] = []
            let queries = [
                "SELECT path, size::text, upper(encode(sha256, 'hex')), title, author, keywords, pages::text, warnings, error FROM file ORDER BY path",
                "SELECT ord::text, id, title, end_ord::text, parent::text FROM category ORDER BY ord",
                "SELECT ord::text, id, title, path, category_titles, datasource_keywords, keywords, file, sig::text FROM report ORDER BY ord",
                "SELECT key, report::text, display FROM keyword ORDER BY key, report",
                "SELECT ord::text, s_title, s_pdf_title, s_keywords, s_author, s_category FROM report ORDER BY ord",
            ]
            for sql in queries {
                for row in try execute(c, sql) {
                    lines.append(try (0..<row.count).map { try row[$0].decode(String?.self) ?? "NULL" }.joined(separator: "|"))
                }
            }
            return lines
        }
    }
}
