import GRDB

/// The fields a query is matched against, in the order they rank.
public enum SearchField: String, Sendable, CaseIterable, Codable {
    /// The report's title in the datasource.
    case title
    /// The title inside the PDF.
    case pdfTitle = "pdf_title"
    /// The report's keywords: the PDF's and the datasource's.
    case keywords
    /// The PDF's author.
    case author
    /// The titles of the categories above the report (the root's excepted).
    case category
}

/// What a search is restricted to, and how much it returns.
public struct SearchOptions: Sendable, Equatable {
    /// Only reports that carry every one of these keywords (compared after normalisation).
    public var keywords: [String]
    /// Only reports below the category with this id (any depth).
    public var within: String?
    /// At most this many results (default 50). `total` counts them all.
    public var limit: Int
    /// At most this many keyword counts in the facets (default 100).
    public var facetLimit: Int

    /// Options with the given restrictions and limits.
    public init(keywords: [String] = [], within: String? = nil, limit: Int = 50, facetLimit: Int = 100) {
        self.keywords = keywords
        self.within = within
        self.limit = limit
        self.facetLimit = facetLimit
    }
}

/// Where a result matched: one field (one keyword, one category title) and the matched spans.
public struct SearchMatch: Sendable, Equatable {
    /// The field.
    public var field: SearchField
    /// The field's text as stored (for keywords and categories: the one keyword or title).
    public var text: String
    /// The matched parts of `text`, in Unicode scalar offsets, end exclusive, in order.
    public var spans: [Range<Int>]
}

/// One report found.
public struct SearchResult: Sendable, Equatable {
    /// The report's id.
    public var id: String
    /// The report's title in the datasource.
    public var title: String
    /// The ids of the categories above it, root first.
    public var path: [String]
    /// The ranking score, higher first: the field group (6 title, 5 PDF title, 4 keywords,
    /// 3 author, 2 category titles, 1 spread over several fields, 0 for an empty query) plus a
    /// relevance in [0, 1) from FTS5's BM25 when the group has at most ``ReportIndex/rankedGroupLimit``
    /// reports (0 beyond that: the group then follows the datasource's order).
    public var score: Double
    /// The PDF's page count, if known.
    public var pageCount: Int?
    /// Where it matched.
    public var matches: [SearchMatch]
}

/// A keyword and the number of reports that carry it.
public struct KeywordCount: Sendable, Equatable {
    /// The keyword as written (of several spellings that normalise alike, the first in code-point order).
    public var keyword: String
    /// Reports that carry it.
    public var count: Int
}

/// The answer to a search.
public struct SearchResults: Sendable, Equatable {
    /// The query as given.
    public var query: String
    /// Every matching report, not only those in `results`.
    public var total: Int
    /// The best `limit` matches, best first; ties in datasource order.
    public var results: [SearchResult]
    /// Keyword counts over all matches, most frequent first (empty unless asked for).
    public var facets: [KeywordCount]
}

extension ReportIndex {
    /// Groups larger than this are listed in datasource order rather than ranked by BM25 (the
    /// ranking of a one-letter prefix over tens of thousands of reports costs more than a
    /// keystroke may, and tells little): 1 000.
    public static let rankedGroupLimit = 1_000

    /// The best matches of `query`, with spans, and the total. `withFacets` adds keyword counts.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions(), withFacets: Bool = false) throws(IndexError) -> SearchResults {
        let filter = try restriction(options)
        return try read { db in
            let total = try count(db, query, filter)
            var ranked: [(ord: Int, score: Double)] = []
            let limit = max(0, options.limit)
            if limit > 0, total > 0 {
                ranked = try rank(db, query, filter, limit: limit)
            }
            let results = try details(db, query, ranked)
            let facets = withFacets ? try facetCounts(db, query, filter, limit: options.facetLimit) : []
            return SearchResults(query: query.text, total: total, results: results, facets: facets)
        }
    }

    /// Keyword counts over every report that matches, most frequent first, then by keyword.
    public func facets(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws(IndexError) -> [KeywordCount] {
        let filter = try restriction(options)
        return try read { db in try facetCounts(db, query, filter, limit: options.facetLimit) }
    }

    /// The ids of every report that matches, in datasource order.
    public func matchingIDs(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws(IndexError) -> [String] {
        let filter = try restriction(options)
        return try read { db in
            let (sql, arguments) = matchingOrds(query, filter)
            return try String.fetchAll(db, sql: "SELECT id FROM report WHERE ord IN (\(sql)) ORDER BY ord", arguments: arguments)
        }
    }

    // MARK: - Query building

    /// The rowid conditions of the options: a subtree range and keyword sets.
    struct Restriction {
        var range: ClosedRange<Int>?
        var keywordKeys: [String] = []
        var impossible = false

        /// ` AND …` over `column`, with its arguments.
        func clause(_ column: String) -> (String, [any DatabaseValueConvertible]) {
            var sql = ""
            var arguments: [any DatabaseValueConvertible] = []
            if impossible { return (" AND 0", []) }
            if let range {
                sql += " AND \(column) BETWEEN ? AND ?"
                arguments += [range.lowerBound, range.upperBound]
            }
            for key in keywordKeys {
                sql += " AND \(column) IN (SELECT report FROM keyword WHERE key = ?)"
                arguments.append(key)
            }
            return (sql, arguments)
        }
    }

    func restriction(_ options: SearchOptions) throws(IndexError) -> Restriction {
        var r = Restriction()
        for keyword in options.keywords {
            let key = SearchText.keywordKey(keyword)
            if key.isEmpty { r.impossible = true }
            if !r.keywordKeys.contains(key) { r.keywordKeys.append(key) }
        }
        if let within = options.within {
            let row = try read { db in try Row.fetchOne(db, sql: "SELECT ord, end_ord FROM category WHERE id = ?", arguments: [within]) }
            guard let row else {
                throw IndexError(.unknownCategory, path: path, "no category '\(within)' in the index")
            }
            r.range = (row[0] as Int)...(row[1] as Int)
        }
        return r
    }

    /// The SQL of the ords that match, and its arguments.
    func matchingOrds(_ query: SearchQuery, _ filter: Restriction) -> (String, StatementArguments) {
        if let expression = query.ftsExpression() {
            let (clause, arguments) = filter.clause("rowid")
            return ("SELECT rowid FROM search WHERE search MATCH ?" + clause, StatementArguments([expression] + arguments))
        }
        let (clause, arguments) = filter.clause("ord")
        return ("SELECT ord FROM report WHERE 1" + clause, StatementArguments(arguments))
    }

    private func count(_ db: Database, _ query: SearchQuery, _ filter: Restriction) throws -> Int {
        let (sql, arguments) = matchingOrds(query, filter)
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments) ?? 0
    }

    /// The best `limit` ords: field groups in rank order, each ranked by BM25 when small enough.
    private func rank(_ db: Database, _ query: SearchQuery, _ filter: Restriction, limit: Int) throws -> [(ord: Int, score: Double)] {
        guard !query.isEmpty else {
            let (clause, arguments) = filter.clause("ord")
            return try Int.fetchAll(db, sql: "SELECT ord FROM report WHERE 1\(clause) ORDER BY ord LIMIT ?", arguments: StatementArguments(arguments + [limit]))
                .map { ($0, 0) }
        }
        var chosen: [(ord: Int, score: Double)] = []
        var seen: Set<Int> = []
        let groups: [SearchField?] = SearchField.allCases + [nil]
        let (clause, arguments) = filter.clause("rowid")
        for (g, field) in groups.enumerated() where chosen.count < limit {
            guard let expression = query.ftsExpression(column: field?.rawValue) else { break }
            let rows = try Row.fetchAll(
                db, sql: "SELECT rowid, bm25(search, 8.0, 4.0, 2.0, 1.0, 1.0) FROM search WHERE search MATCH ?\(clause) LIMIT ?",
                arguments: StatementArguments([expression] + arguments + [Self.rankedGroupLimit + seen.count + 1]))
            var group: [(ord: Int, bm25: Double)] = []
            for row in rows {
                let ord: Int = row[0]
                if !seen.contains(ord) { group.append((ord, row[1])) }
            }
            let base = Double(groups.count - g)
            if group.count <= Self.rankedGroupLimit {
                group.sort { $0.bm25 != $1.bm25 ? $0.bm25 < $1.bm25 : $0.ord < $1.ord }
                for (ord, bm25) in group.prefix(limit - chosen.count) {
                    let relevance = max(0, -bm25) / (1 + max(0, -bm25))
                    chosen.append((ord, base + relevance))
                }
            } else {
                for (ord, _) in group.prefix(limit - chosen.count) { chosen.append((ord, base)) }
            }
            for (ord, _) in group { seen.insert(ord) }
        }
        return chosen
    }

    private func details(_ db: Database, _ query: SearchQuery, _ ranked: [(ord: Int, score: Double)]) throws -> [SearchResult] {
        guard !ranked.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: ranked.count).joined(separator: ",")
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT r.ord, r.id, r.title, r.path, r.category_titles, r.keywords, f.title, f.author, f.pages
                FROM report r LEFT JOIN file f ON f.path = r.file WHERE r.ord IN (\(placeholders))
                """,
            arguments: StatementArguments(ranked.map(\.ord)))
        var byOrd: [Int: Row] = [:]
        for row in rows { byOrd[row[0]] = row }
        return ranked.compactMap { item -> SearchResult? in
            guard let row = byOrd[item.ord] else { return nil }
            let title: String = row[2]
            var matches: [SearchMatch] = []
            func match(_ field: SearchField, _ text: String?) {
                guard let text, !text.isEmpty else { return }
                let spans = query.spans(in: text)
                if !spans.isEmpty { matches.append(SearchMatch(field: field, text: text, spans: spans)) }
            }
            match(.title, title)
            match(.pdfTitle, row[6])
            for keyword in StringList.decode(row[5]) { match(.keywords, keyword) }
            match(.author, row[7])
            for category in StringList.decode(row[4]) { match(.category, category) }
            return SearchResult(id: row[1], title: title, path: StringList.decode(row[3]), score: item.score, pageCount: row[8], matches: matches)
        }
    }

    private func facetCounts(_ db: Database, _ query: SearchQuery, _ filter: Restriction, limit: Int) throws -> [KeywordCount] {
        let (sql, arguments) = matchingOrds(query, filter)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT min(display), count(*) AS n, key FROM keyword WHERE report IN (\(sql))
                GROUP BY key ORDER BY n DESC, key LIMIT ?
                """,
            arguments: arguments + [max(0, limit)])
        return rows.map { KeywordCount(keyword: $0[0], count: $0[1]) }
    }
}
