import Foundation
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
    /// The fields whose matches each result lists in `SearchResult.matches` (default: every
    /// field). Ranking and `total` do not depend on it; a caller that shows only the title's
    /// matches saves finding the others.
    public var matchFields: Set<SearchField>

    /// Options with the given restrictions and limits.
    public init(
        keywords: [String] = [], within: String? = nil, limit: Int = 50, facetLimit: Int = 100,
        matchFields: Set<SearchField> = Set(SearchField.allCases)
    ) {
        self.keywords = keywords
        self.within = within
        self.limit = limit
        self.facetLimit = facetLimit
        self.matchFields = matchFields
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
    /// The ranking score, higher first (0 for an empty query): for each word of the query the
    /// weight of the best field it matches in (title 6, PDF title 5, keywords 4, author 3,
    /// category titles 2), averaged, plus up to 0.1 for words matched whole rather than as a
    /// prefix and up to 0.01 for a short title.
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
    /// Up to this many matches are all scored; beyond it, the candidates are the first matches in
    /// datasource order of each field (scoring every report a one-letter prefix matches costs more
    /// than a keystroke may, and tells little): 1 000.
    public static let rankedGroupLimit = 1_000

    /// The best matches of `query`, with spans, and the total. `withFacets` adds keyword counts.
    public func search(_ query: SearchQuery, options: SearchOptions = SearchOptions(), withFacets: Bool = false) throws(IndexError) -> SearchResults {
        let filter = try restriction(options)
        if let postgres { return try postgres.search(query, filter, options: options, withFacets: withFacets) }
        return try read { db in
            let total = try count(db, query, filter)
            var ranked: [(ord: Int, score: Double)] = []
            let limit = max(0, options.limit)
            if limit > 0, total > 0 {
                ranked = try rank(db, query, filter, limit: limit, total: total)
            }
            let results = try details(db, query, ranked, fields: options.matchFields)
            let facets = withFacets ? try facetCounts(db, query, filter, limit: options.facetLimit) : []
            return SearchResults(query: query.text, total: total, results: results, facets: facets)
        }
    }

    /// Keyword counts over every report that matches, most frequent first, then by keyword.
    public func facets(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws(IndexError) -> [KeywordCount] {
        let filter = try restriction(options)
        if let postgres { return try postgres.facets(query, filter, limit: options.facetLimit) }
        return try read { db in try facetCounts(db, query, filter, limit: options.facetLimit) }
    }

    /// The ids of every report that matches, in datasource order.
    public func matchingIDs(_ query: SearchQuery, options: SearchOptions = SearchOptions()) throws(IndexError) -> [String] {
        let filter = try restriction(options)
        if let postgres { return try postgres.matchingIDs(query, filter) }
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
            if let postgres {
                guard let range = try postgres.categoryRange(within) else {
                    throw IndexError(.unknownCategory, path: path, "no category '\(within)' in the index")
                }
                r.range = range
                return r
            }
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

    /// The best `limit` ords. Every match is a candidate when there are at most
    /// ``rankedGroupLimit`` of them; beyond that the candidates are the first `limit` in
    /// datasource order of each field group (every word in the title, in the PDF title, in the
    /// keywords, the author, the category titles, then anywhere; the title group alone when it
    /// fills the page, since nothing else scores as high). Candidates are scored by
    /// ``score(_:columns:)`` and sorted, ties in datasource order.
    private func rank(_ db: Database, _ query: SearchQuery, _ filter: Restriction, limit: Int, total: Int) throws -> [(ord: Int, score: Double)] {
        guard !query.isEmpty else {
            let (clause, arguments) = filter.clause("ord")
            return try Int.fetchAll(db, sql: "SELECT ord FROM report WHERE 1\(clause) ORDER BY ord LIMIT ?", arguments: StatementArguments(arguments + [limit]))
                .map { ($0, 0) }
        }
        let (clause, arguments) = filter.clause("rowid")
        let sql = "SELECT rowid, title, pdf_title, keywords, author, category FROM search WHERE search MATCH ?\(clause)"
        var rows: [Row] = []
        if total <= Self.rankedGroupLimit {
            rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments([query.ftsExpression()!] + arguments))
        } else {
            var seen: Set<Int> = []
            for field in SearchField.allCases.map(Optional.some) + [nil] {
                let group = try Row.fetchAll(
                    db, sql: sql + " LIMIT ?",
                    arguments: StatementArguments([query.ftsExpression(column: field?.rawValue)!] + arguments + [limit]))
                for row in group where seen.insert(row[0]).inserted { rows.append(row) }
                // Every word in the title scores above anything else: a full page of those is the page.
                if field == .title && rows.count >= limit { break }
            }
        }
        var scored: [(ord: Int, score: Double)] = rows.map { row in
            let columns = (1...5).map { (row[$0] as String?) ?? "" }
            return (row[0], Self.score(query, columns: columns))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.ord < $1.ord }
        return Array(scored.prefix(limit))
    }

    /// The weight of a match in each field, in `SearchField` order.
    static let fieldWeights: [Double] = [6, 5, 4, 3, 2]

    /// A report's score for `query`, from its normalised columns (title, PDF title, keywords,
    /// author, category titles): the mean over the query's terms of the weight of the best field
    /// the term matches in (title 6, PDF title 5, keywords 4, author 3, category 2), plus 0.1 times
    /// the share of terms that match a whole word in that field (not only as a prefix), plus up to
    /// 0.01 for a short title.
    static func score(_ query: SearchQuery, columns: [String]) -> Double {
        let tokens = columns.map(words)
        var sum = 0.0
        var whole = 0.0
        for term in query.terms {
            for (field, words) in tokens.enumerated() {
                let found = findWithParts(term, in: words)
                if found > 0 {
                    sum += fieldWeights[field]
                    if found == 2 { whole += 1 }
                    break
                }
            }
        }
        let n = Double(max(1, query.terms.count))
        let titleWords = tokens[0].firstIndex(where: { $0.utf8.elementsEqual(SearchText.partsMark.utf8) }) ?? tokens[0].count
        return sum / n + 0.1 * whole / n + 0.01 / Double(1 + titleWords)
    }

    /// A normalised column's words: its text split at spaces (a space that begins a grapheme
    /// cluster with a following mark is not one, as in `split(separator: " ")`), byte by byte
    /// (``SearchText/words(_:)``).
    static func words(_ column: String) -> [Substring] { SearchText.words(column[...]) }

    /// ``find(_:in:)`` over an indexed column's words (see ``SearchText/indexed(_:)``): over its
    /// whole tokens, else over the parts of its tokens, where a match counts as a prefix's (1).
    static func findWithParts(_ term: SearchQuery.Term, in words: [Substring]) -> Int {
        guard let mark = words.firstIndex(where: { $0.utf8.elementsEqual(SearchText.partsMark.utf8) }) else { return find(term, in: words) }
        let whole = find(term, in: Array(words[..<mark]))
        if whole > 0 { return whole }
        return find(term, in: Array(words[mark...])) > 0 ? 1 : 0
    }

    /// 0 when `term` does not match in `words`, 1 when it matches only as a prefix, 2 when whole.
    static func find(_ term: SearchQuery.Term, in words: [Substring]) -> Int {
        let n = term.tokens.count
        guard n <= words.count else { return 0 }
        var best = 0
        for i in 0...(words.count - n) {
            var matches = true
            for j in 0..<(n - 1) where !words[i + j].utf8.elementsEqual(term.tokens[j].utf8) {
                matches = false
                break
            }
            guard matches else { continue }
            let last = words[i + n - 1].utf8
            let want = term.tokens[n - 1].utf8
            if last.elementsEqual(want) { return 2 }
            if term.isPrefix && last.starts(with: want) { best = 1 }
        }
        return best
    }

    private func details(
        _ db: Database, _ query: SearchQuery, _ ranked: [(ord: Int, score: Double)], fields: Set<SearchField>
    ) throws -> [SearchResult] {
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
        return try ranked.compactMap { item throws -> SearchResult? in
            guard let row = byOrd[item.ord] else { return nil }
            return try Self.result(
                query, score: item.score, id: row[1], title: row[2], path: row[3], categoryTitles: row[4], keywords: row[5], pdfTitle: row[6],
                author: row[7], pages: row[8], fields: fields)
        }
    }

    /// A result from a report's stored values (lists as JSON), with the matches in `fields`.
    static func result(
        _ query: SearchQuery, score: Double, id: String, title: String, path: String, categoryTitles: String, keywords: String,
        pdfTitle: String?, author: String?, pages: Int?, fields: Set<SearchField>
    ) throws -> SearchResult {
        var matches: [SearchMatch] = []
        func match(_ field: SearchField, _ text: String?) {
            guard let text, !text.isEmpty, fields.contains(field) else { return }
            let spans = query.spans(in: text)
            if !spans.isEmpty { matches.append(SearchMatch(field: field, text: text, spans: spans)) }
        }
        match(.title, title)
        match(.pdfTitle, pdfTitle)
        if fields.contains(.keywords) { for keyword in try StringList.decode(keywords) { match(.keywords, keyword) } }
        match(.author, author)
        if fields.contains(.category) { for category in try StringList.decode(categoryTitles) { match(.category, category) } }
        return SearchResult(id: id, title: title, path: try StringList.decode(path), score: score, pageCount: pages, matches: matches)
    }

    /// Counts over the matching reports with the in-memory keyword table (see ``FacetTable``),
    /// made again when the index's generation moved.
    private func facetCounts(_ db: Database, _ query: SearchQuery, _ filter: Restriction, limit: Int) throws -> [KeywordCount] {
        let table = try facetTable.current(db)
        let (sql, arguments) = matchingOrds(query, filter)
        var counts = table.emptyCounts()
        let ords = try Int.fetchCursor(db, sql: sql, arguments: arguments)
        while let ord = try ords.next() { table.count(ord, into: &counts) }
        return table.top(counts, limit: limit)
    }
}

/// The keyword table in memory, for facet counts: each report's keyword numbers, keys numbered in
/// key order. Made from the database in the reading transaction whenever the index's generation
/// (bumped by every update that writes) differs from the one it was made at.
final class FacetTable: @unchecked Sendable {
    struct Snapshot {
        var generation: Int64 = -1
        /// The normalised keys, in order; a keyword's number is its place here.
        var keys: [String] = []
        /// The spelling shown for each key (the first in code-point order).
        var display: [String] = []
        /// `keywordIDs[offsets[ord] ..< offsets[ord + 1]]` are the keywords of the report at `ord`.
        var offsets: [Int32] = [0]
        var keywordIDs: [Int32] = []

        /// A count per keyword number, all zero.
        func emptyCounts() -> [Int32] { [Int32](repeating: 0, count: keys.count) }

        /// Adds the keywords of the report at `ord` to `counts`.
        @inline(__always)
        func count(_ ord: Int, into counts: inout [Int32]) {
            guard ord >= 0, ord + 1 < offsets.count else { return }
            for k in Int(offsets[ord])..<Int(offsets[ord + 1]) { counts[Int(keywordIDs[k])] += 1 }
        }

        /// The `limit` most frequent keywords of `counts`, ties in key order.
        func top(_ counts: [Int32], limit: Int) -> [KeywordCount] {
            var found: [(Int32, Int)] = []
            for (id, n) in counts.enumerated() where n > 0 { found.append((n, id)) }
            // Keys are numbered in key order, so ties fall in key order.
            found.sort { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
            return found.prefix(max(0, limit)).map { KeywordCount(keyword: display[$0.1], count: Int($0.0)) }
        }
    }

    private let lock = NSLock()
    private var snapshot = Snapshot()

    /// The table made at `generation`, if it is the one held.
    func ready(at generation: Int64) -> Snapshot? {
        lock.withLock { snapshot.generation == generation ? snapshot : nil }
    }

    /// Keeps `made` as the table of its generation.
    func keep(_ made: Snapshot) {
        lock.withLock { snapshot = made }
    }

    func current(_ db: Database) throws -> Snapshot {
        let generation = try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'generation'") ?? 0
        if let ready = ready(at: generation) { return ready }
        var made = Snapshot()
        made.generation = generation
        let keyRows = try Row.fetchCursor(db, sql: "SELECT key, min(display) FROM keyword GROUP BY key ORDER BY key")
        var number: [String: Int32] = [:]
        while let row = try keyRows.next() {
            let key: String = row[0]
            number[key] = Int32(made.keys.count)
            made.keys.append(key)
            made.display.append(row[1])
        }
        let maxOrd = try Int.fetchOne(db, sql: "SELECT max(ord) FROM report") ?? -1
        made.offsets = [Int32](repeating: 0, count: maxOrd + 2)
        let rows = try Row.fetchCursor(db, sql: "SELECT report, key FROM keyword ORDER BY report, key")
        var ord = 0
        while let row = try rows.next() {
            let report: Int = row[0]
            guard report >= 0, report <= maxOrd else { continue }
            while ord < report {
                ord += 1
                made.offsets[ord] = Int32(made.keywordIDs.count)
            }
            made.keywordIDs.append(number[row[1] as String] ?? 0)
        }
        while ord <= maxOrd {
            ord += 1
            made.offsets[ord] = Int32(made.keywordIDs.count)
        }
        lock.withLock { snapshot = made }
        return made
    }
}
