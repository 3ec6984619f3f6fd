import Foundation
import NIOCore
import PostgresNIO

// Searching in PostgreSQL with the answers of the SQLite store: the same candidates (every match
// up to `rankedGroupLimit`, else the first of each field group in datasource order), scored by the
// same function over the same normalised columns, ties in datasource order.
extension PostgresStore {
    /// A query's SQL condition over the `search` table (its `ord` and `v`), with its bound
    /// values: every term must match in one field, so a term is the alternatives of its tagged
    /// forms, one per field (a phrase in one field only, as in FTS5).
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

        mutating func bindInts(_ values: [Int32]) -> String {
            binds.append(values)
            count += 1
            return "$\(count)::int[]"
        }

        mutating func bindTexts(_ values: [String]) -> String {
            binds.append(values)
            count += 1
            return "$\(count)::text[]"
        }
    }

    /// A term's `tsquery` literal in the field tagged `tag`: its tokens as a phrase (`<->`), the
    /// last one a prefix (`:*`) when the term is. Nil when a token is longer than a lexeme can
    /// hold after its tag, or the phrase longer than a field's positions (``longestPhrase``):
    /// it matches nothing.
    static func tsquery(_ term: SearchQuery.Term, tag: String) -> String? {
        guard term.tokens.count <= longestPhrase else { return nil }
        var parts: [String] = []
        for (i, token) in term.tokens.enumerated() {
            guard token.utf8.count <= longestToken else { return nil }
            let last = i == term.tokens.count - 1
            parts.append("'" + tag + escapeLexeme(Substring(token)) + "'" + (last && term.isPrefix ? ":*" : ""))
        }
        return parts.joined(separator: " <-> ")
    }

    /// The most tokens of a phrase that can match: 16 383, the last position a vector keeps. (The
    /// server parses a `tsquery` recursively: a phrase of 16 000 words exceeded its stack.)
    static let longestPhrase = 16_383

    /// Whether `term` is a phrase of two tokens of scripts written without spaces, matched as one
    /// pair lexeme (see ``PostgresStore/vector(_:)``) rather than as a phrase.
    static func isPair(_ term: SearchQuery.Term) -> Bool {
        term.tokens.count == 2 && term.tokens.allSatisfy { $0.unicodeScalars.first.map(SearchText.isUnitScript) ?? false }
            && term.tokens[0].utf8.count + 1 + term.tokens[1].utf8.count <= longestToken
    }

    /// A term's `tsquery` literal in the field at `field` (in ``SearchField`` order): its pair
    /// lexeme when it is a pair (``isPair(_:)``), else ``tsquery(_:tag:)``.
    static func termQuery(_ term: SearchQuery.Term, field: Int) -> String? {
        guard isPair(term) else { return tsquery(term, tag: fieldTags[field]) }
        return "'" + String(UnicodeScalar(pairTags[field])) + escapeLexeme(Substring(pairToken(term))) + "'" + (term.isPrefix ? ":*" : "")
    }

    /// A pair's token in its lexeme (after the tag): its two tokens joined by ``pairSeparator``.
    static func pairToken(_ term: SearchQuery.Term) -> String {
        term.tokens.joined(separator: String(UnicodeScalar(pairSeparator)))
    }

    /// The condition of `query` restricted by `filter`; `field` keeps every term to that field.
    func condition(_ query: SearchQuery, _ filter: ReportIndex.Restriction, field: SearchField? = nil) -> Condition {
        var c = Condition()
        c.sql = clause(query, filter, field: field, into: &c)
        return c
    }

    /// The SQL of ``condition(_:_:field:)``, its values bound into `c` after those it holds (so
    /// that one statement can hold several conditions).
    func clause(_ query: SearchQuery, _ filter: ReportIndex.Restriction, field: SearchField? = nil, into c: inout Condition) -> String {
        var clauses: [String] = []
        if filter.impossible { clauses.append("false") }
        if let range = filter.range {
            clauses.append("ord BETWEEN \(c.bindInt(range.lowerBound)) AND \(c.bindInt(range.upperBound))")
        }
        for key in filter.keywordKeys {
            clauses.append("ord IN (SELECT report FROM keyword WHERE key_id = (SELECT id FROM keyword_key WHERE key = \(c.bindText(Self.text(key)))))")
        }
        if let field {
            let index = SearchField.allCases.firstIndex(of: field)!
            let all = query.terms.map { Self.termQuery($0, field: index).map { "(" + $0 + ")" } }
            if all.contains(where: { $0 == nil }) {
                clauses.append("false")
            } else if !all.isEmpty {
                clauses.append("v @@ \(c.bind(all.map { $0! }.joined(separator: " & ")))")
            }
        } else {
            for term in query.terms {
                guard Self.tsquery(term, tag: "") != nil else {
                    clauses.append("false")
                    continue
                }
                let forms = Self.fieldTags.indices.map { Self.termQuery(term, field: $0)! }
                if term.tokens.count == 1 || Self.isPair(term) {
                    clauses.append("v @@ \(c.bind(forms.map { "(" + $0 + ")" }.joined(separator: " | ")))")
                } else {
                    // A phrase's forms apart: GIN pairs each item of one tsquery with every other
                    // to merge equal ones, so five forms of a long phrase together cost 25 times
                    // one form.
                    clauses.append("(" + forms.map { "v @@ \(c.bind($0))" }.joined(separator: " OR ") + ")")
                }
            }
        }
        return clauses.isEmpty ? "true" : clauses.joined(separator: " AND ")
    }

    /// The key whose row in `prefix_count` is the total of `query` under `filter`: one word or
    /// pair (``isPair(_:)``), unrestricted, being typed (its token, of at most
    /// ``countedPrefixBytes`` bytes: a token begins with its bytes exactly when the token's first
    /// scalars are they) or whole (its token and a space, of at most as many). Nil otherwise: the
    /// matches are counted.
    static func countedPrefix(_ query: SearchQuery, _ filter: ReportIndex.Restriction) -> String? {
        guard query.terms.count == 1, let term = query.terms.first, filter.range == nil, filter.keywordKeys.isEmpty, !filter.impossible
        else { return nil }
        return countedKey(term)
    }

    /// The key of `prefix_count` whose reports are exactly those `term` matches in some field:
    /// see ``countedPrefix(_:_:)``. Nil for a phrase that is no pair, or a key too long.
    static func countedKey(_ term: SearchQuery.Term) -> String? {
        guard term.tokens.count == 1 || isPair(term) else { return nil }
        let token = isPair(term) ? pairToken(term) : term.tokens[0]
        if term.isPrefix, token.utf8.last == 0x20 { return nil }  // no such key: it would be a whole token's
        let key = term.isPrefix ? token : token + " "
        return key.utf8.count <= countedPrefixBytes ? key : nil
    }

    /// A key of `prefix_count` that every report `term` matches holds: ``countedKey(_:)``, else
    /// the longest key that begins its first token (a match holds that token, or one that begins
    /// with it when it is the term's last). Nil when there is none.
    static func boundingKey(_ term: SearchQuery.Term) -> String? {
        if let key = countedKey(term) { return key }
        guard let first = term.tokens.first else { return nil }
        var key = String.UnicodeScalarView()
        var bytes = 0
        for scalar in first.unicodeScalars {
            bytes += UTF8.width(scalar)
            if bytes > countedPrefixBytes { break }
            key.append(scalar)
        }
        while key.last == " " { key.removeLast() }  // no key ends with a space but a whole token's
        return key.isEmpty ? nil : String(key)
    }

    /// The SQL of a report number at or before the first report that can match `query` under
    /// `filter`: the subtree's first, or the latest of the terms' first reports in
    /// `prefix_count` (``boundingKey(_:)``; no report holds a key it lacks), whichever is later.
    /// With `title`, the first that can match every term in its title: the terms' first reports
    /// with the key in their title (none: past every report).
    func startSQL(_ query: SearchQuery, _ filter: ReportIndex.Restriction, title: Bool = false, into c: inout Condition) -> String {
        let low = c.bindInt(filter.range?.lowerBound ?? 0)
        let keys = query.terms.compactMap(Self.boundingKey)
        guard !keys.isEmpty else { return "SELECT \(low) AS o" }
        let first = title ? "coalesce(title_first_ord, \(Int32.max))" : "first_ord"
        return "SELECT greatest(\(low), (SELECT max(\(first)) FROM prefix_count WHERE prefix = ANY (\(c.bindTexts(keys))))) AS o"
    }

    /// The SQL of the number of reports that match `query` under `filter` (`all` is its
    /// condition) in the snapshot `postings` reads: the prefix's count when there is one
    /// (``countedPrefix(_:_:)``), else the count of the `posting` table's matches when it answers
    /// the query (``PostingLookup/matches()``), else a count of the matches.
    func totalSQL(_ postings: PostingLookup, _ query: SearchQuery, _ filter: ReportIndex.Restriction, all: String, into c: inout Condition) throws -> String {
        if let prefix = Self.countedPrefix(query, filter) {
            return "SELECT coalesce((SELECT n FROM prefix_count WHERE prefix = \(c.bindText(prefix))), 0)::bigint AS n"
        }
        if let total = try postings.matches()?.count {
            return "SELECT \(c.bindInt(total))::bigint AS n"
        }
        return "SELECT count(*) AS n FROM search WHERE \(all)"
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
            let postings = PostingLookup(self, c, query, filter)
            let limit = max(0, options.limit)
            var total = 0
            var ranked: [(ord: Int, score: Double)] = []
            if limit > 0, !query.isEmpty {
                let found = try candidates(c, query, filter, limit: limit, postings: postings)
                total = found.total
                ranked = try score(query, found.rows, limit: limit)
            } else {
                var matching = condition(query, filter)
                let sql = try totalSQL(postings, query, filter, all: matching.sql, into: &matching)
                total = try execute(c, sql, matching.binds).first?[0].decode(Int.self) ?? 0
                if limit > 0, total > 0 {
                    var first = condition(query, filter)
                    let limitParameter = first.bindInt(limit)
                    ranked = try execute(c, "SELECT ord FROM search WHERE \(first.sql) ORDER BY ord LIMIT \(limitParameter)", first.binds)
                        .map { (try $0[0].decode(Int.self), 0) }
                }
            }
            let results = try details(c, query, ranked, fields: options.matchFields)
            let facets = withFacets ? try facetCounts(c, postings, limit: options.facetLimit) : []
            return SearchResults(query: query.text, total: total, results: results, facets: facets)
        }
    }

    func facets(_ query: SearchQuery, _ filter: ReportIndex.Restriction, limit: Int) throws(IndexError) -> [KeywordCount] {
        try transaction(readOnly: true) { c in try facetCounts(c, PostingLookup(self, c, query, filter), limit: limit) }
    }

    func matchingIDs(_ query: SearchQuery, _ filter: ReportIndex.Restriction) throws(IndexError) -> [String] {
        try withConnection { c in
            let matching = condition(query, filter)
            return try execute(c, "SELECT id FROM report WHERE ord IN (SELECT ord FROM search WHERE \(matching.sql)) ORDER BY ord", matching.binds)
                .map { try $0[0].decode(String.self) }
        }
    }

    func reportCount() throws(IndexError) -> Int {
        try withConnection { c in try execute(c, "SELECT count(*) FROM report").first?[0].decode(Int.self) ?? 0 }
    }

    /// Reports (or matches) read in datasource order for the first of a field group before its
    /// GIN bitmap is asked: 2 000 (a few milliseconds when they do not hold a page of it).
    static let headRows = 2_000

    /// The total and the candidates of a non-empty query with their normalised columns: every
    /// match when there are at most ``ReportIndex/rankedGroupLimit``, else the first `limit` in
    /// datasource order of each field group (every word in the title, in the PDF title, the
    /// keywords, the author, the category titles, then anywhere; the title group alone when it
    /// fills the page), as the SQLite store chooses them. Each row is the total, the title
    /// group's size, then the report's number and columns.
    ///
    /// When the `posting` table answers the query (``PostingLookup/matches()``) and `prefix_count`
    /// does not hold its total, the total and the matches come from it: every match is looked up
    /// by number when they are few; else a group's first reports are those among the first
    /// ``headRows`` matches (for the title group, from the first that can match in its title),
    /// when they are a page of it. Otherwise the first statement answers the total and either every match or the
    /// title group, and a group's first reports are those among the ``headRows`` reports in
    /// datasource order from the first that can match (``startSQL(_:_:title:into:)``; for the
    /// title group, the first that can match in its title), when they are a page of it. A group
    /// short of a page there comes from the GIN index's bitmap: `ord + 0` keeps the planner from
    /// walking the whole key order for matches that may all lie at its end (a language's reports
    /// are together in a datasource). A second statement, only when the title group is short of
    /// a page, gives the other groups (a statement of all six groups took the server about 2 ms
    /// to plan, one of the title group 0.4 ms). The candidates' rows are looked up by an array of
    /// their numbers (a join let the planner, which expects as many candidates as matches, read
    /// the whole report table).
    private func candidates(_ c: PostgresConnection, _ query: SearchQuery, _ filter: ReportIndex.Restriction, limit: Int, postings: PostingLookup)
        throws -> (total: Int, rows: [PostgresRandomAccessRow])
    {
        let columns = "r.ord, r.s_title, r.s_pdf_title, r.s_keywords, r.s_author, r.s_category"
        // The matches from `posting`, unless `prefix_count` holds the total (one word: its
        // matches can be most of the library, and its first title the key's).
        let known = Self.countedPrefix(query, filter) == nil ? try postings.matches() : nil
        let knownTotal = known?.count ?? 0
        if let known, knownTotal <= ReportIndex.rankedGroupLimit {
            var binds = PostgresBindings()
            binds.append(known.first(ReportIndex.rankedGroupLimit))
            return (knownTotal, try execute(c, "SELECT NULL::bigint, NULL::bigint, \(columns) FROM report r WHERE r.ord = ANY ($1::int[])", binds))
        }
        var a = Condition()
        let all = clause(query, filter, into: &a)
        let page = a.bindInt(limit)
        let most = a.bindInt(ReportIndex.rankedGroupLimit)
        let title = clause(query, filter, field: SearchField.allCases[0], into: &a)
        var ctes: [String]
        var head: String
        if let known {
            var s = Condition()
            let titleStart = try execute(c, startSQL(query, filter, title: true, into: &s), s.binds).first?[0].decode(Int.self) ?? 0
            ctes = ["total AS (SELECT \(a.bindInt(knownTotal))::bigint AS n)"]
            head = "SELECT ord, v FROM search WHERE ord = ANY (\(a.bindInts(known.first(Self.headRows, from: titleStart)))) OFFSET 0"
        } else {
            ctes = ["total AS (\(try totalSQL(postings, query, filter, all: all, into: &a)))", "title_start AS (\(startSQL(query, filter, title: true, into: &a)))"]
            head = "SELECT ord, v FROM search WHERE ord >= (SELECT o FROM title_start) ORDER BY ord LIMIT \(a.bindInt(Self.headRows))"
        }
        ctes += groupSQL(0, title, head: head, gate: "(SELECT n FROM total) > \(most)", page: page)
        ctes.append("chosen AS (SELECT ord FROM search WHERE \(all) AND (SELECT n FROM total) <= \(most) UNION SELECT ord FROM g0)")
        let first = try execute(c, """
            WITH \(ctes.joined(separator: ",\n"))
            SELECT t.n, (SELECT count(*) FROM g0), \(columns)
            FROM total t LEFT JOIN report r ON r.ord = ANY (ARRAY(SELECT ord FROM chosen))
            """, a.binds)
        let total = try first.first?[0].decode(Int.self) ?? 0
        guard total > ReportIndex.rankedGroupLimit, try first.first?[1].decode(Int.self) ?? 0 < limit else { return (total, first) }

        var b = Condition()
        let any = clause(query, filter, into: &b)
        let morePage = b.bindInt(limit)
        // The rows read once for the five groups.
        if let known {
            ctes = ["head AS MATERIALIZED (SELECT ord, v FROM search WHERE ord = ANY (\(b.bindInts(known.first(Self.headRows)))))"]
        } else {
            ctes = ["start AS (\(startSQL(query, filter, into: &b)))",
                    "head AS MATERIALIZED (SELECT ord, v FROM search WHERE ord >= (SELECT o FROM start) ORDER BY ord LIMIT \(b.bindInt(Self.headRows)))"]
        }
        head = "SELECT ord, v FROM head"
        var parts: [String] = []
        for (k, field) in (SearchField.allCases.dropFirst().map(Optional.some) + [nil]).enumerated() {
            ctes += groupSQL(k + 1, field.map { clause(query, filter, field: $0, into: &b) } ?? any, head: head, gate: "true", page: morePage)
            parts.append("SELECT ord FROM g\(k + 1)")
        }
        ctes.append("chosen AS (" + parts.joined(separator: " UNION ") + ")")
        let more = try execute(c, """
            WITH \(ctes.joined(separator: ",\n"))
            SELECT NULL::bigint, NULL::bigint, \(columns) FROM report r WHERE r.ord = ANY (ARRAY(SELECT ord FROM chosen))
            """, b.binds)
        return (total, first + more)
    }

    /// The SQL of the CTEs `hK` and `gK` of one field group (its condition `group`): its first
    /// `page` reports among the rows (`ord`, `v`) that `head` selects, and its first `page`
    /// (those, when they are a page; else from the GIN bitmap), when `gate` holds.
    private func groupSQL(_ k: Int, _ group: String, head: String, gate: String, page: String) -> [String] {
        [
            """
            h\(k) AS (SELECT ord FROM (\(head)) s WHERE \(group) AND \(gate) ORDER BY ord LIMIT \(page))
            """,
            """
            g\(k) AS (SELECT ord FROM h\(k) WHERE (SELECT count(*) FROM h\(k)) >= \(page) UNION ALL (
                SELECT ord FROM search WHERE \(group) AND \(gate) AND (SELECT count(*) FROM h\(k)) < \(page) ORDER BY ord + 0 LIMIT \(page)))
            """,
        ]
    }

    /// The best `limit` of the candidates by ``ReportIndex/score(_:columns:)``, ties in
    /// datasource order.
    private func score(_ query: SearchQuery, _ rows: [PostgresRandomAccessRow], limit: Int) throws -> [(ord: Int, score: Double)] {
        var scored: [(ord: Int, score: Double)] = []
        var seen = Set<Int>()  // a report in the title group and another group comes twice
        for row in rows {
            guard let ord = try row[2].decode(Int?.self), seen.insert(ord).inserted else { continue }
            let columns = try (3...7).map { try row[$0].decode(String.self) }
            scored.append((ord, ReportIndex.score(query, columns: columns)))
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

    /// Keyword counts over the reports that match the query of `postings`, most frequent first,
    /// ties in key order; each key shown in its first spelling (over every report), as the SQLite
    /// store counts them: with the keyword table in memory (``FacetTable``), made again when the
    /// index's generation moved. The matching reports come from the `posting` table when it
    /// answers the query (``PostingLookup/matches()``, shared with the search's total and
    /// candidates), else from the GIN index as one array of their numbers. In the caller's
    /// read-only transaction.
    private func facetCounts(_ c: PostgresConnection, _ postings: PostingLookup, limit: Int) throws -> [KeywordCount] {
        let generation = try postings.current().generation
        let table = try facetTable.ready(at: generation) ?? makeFacetTable(c, generation: generation)
        var counts = table.emptyCounts()
        if let matches = try postings.matches() {
            let bits = matches.bits
            for (chunk, words) in matches.chunks {
                let base = chunk << bits
                Self.forEachSetBit(words: words.count, { words[$0] }) { offset in
                    table.count(base + offset, into: &counts)
                    return true
                }
            }
        } else {
            let matching = condition(postings.query, postings.filter)
            let row = try execute(c, "SELECT array_agg(ord) FROM search WHERE \(matching.sql)", matching.binds).first
            for ord in try row?[0].decode([Int32]?.self) ?? [] { table.count(Int(ord), into: &counts) }
        }
        return table.top(counts, limit: limit)
    }

    /// The keyword table of the snapshot `c` reads, numbered in key order (`C` collation, as
    /// SQLite's binary order), in one statement: the keys' first spellings, the highest report
    /// number, and every (report, key number) pair as one sorted `bigint` array.
    private func makeFacetTable(_ c: PostgresConnection, generation: Int64) throws -> FacetTable.Snapshot {
        let row = try execute(c, """
            WITH held AS (SELECT key_id, min(display) AS display FROM keyword GROUP BY key_id),
            keys AS (
                SELECT held.key_id, held.display, (row_number() OVER (ORDER BY kk.key) - 1)::bigint AS n
                FROM held JOIN keyword_key kk ON kk.id = held.key_id
            )
            SELECT (SELECT array_agg(display ORDER BY n) FROM keys),
                   (SELECT coalesce(max(ord), -1) FROM report),
                   (SELECT array_agg(pair ORDER BY pair) FROM (
                        SELECT (k.report::bigint << 32) | keys.n AS pair FROM keyword k JOIN keys ON keys.key_id = k.key_id) pairs)
            """).first
        var made = FacetTable.Snapshot()
        made.generation = generation
        made.display = try row?[0].decode([String]?.self) ?? []
        made.keys = made.display  // only their number of them matters here
        let maxOrd = try row?[1].decode(Int.self) ?? -1
        made.offsets = [Int32](repeating: 0, count: maxOrd + 2)
        let pairs = try row?[2].decode([Int64]?.self) ?? []
        made.keywordIDs.reserveCapacity(pairs.count)
        var ord = 0
        for pair in pairs {
            let report = Int(pair >> 32)
            guard report >= 0, report <= maxOrd else { continue }
            while ord < report {
                ord += 1
                made.offsets[ord] = Int32(made.keywordIDs.count)
            }
            made.keywordIDs.append(Int32(truncatingIfNeeded: pair))
        }
        while ord <= maxOrd {
            ord += 1
            made.offsets[ord] = Int32(made.keywordIDs.count)
        }
        facetTable.keep(made)
        return made
    }

    /// The prefixes whose row in `prefix_count` is wrong for the reports' vectors, in prefix
    /// order, each with the stored and the true count, first report and first report with it in
    /// the title: none when the table is right (after an update that finished: counts and first
    /// reports exact, no key left in `prefix_stale`).
    func prefixCountProblems() throws(IndexError) -> [String] {
        let titleTags = "'" + Self.fieldTags[0] + "', '" + String(UnicodeScalar(Self.pairTags[0])) + "'"
        return try transaction(readOnly: true) { c in
            try wholeTables(c)
            return try execute(c, """
                WITH truth AS (SELECT prefix, count(*)::int AS n, min(ord) AS first FROM (\(Self.countedPrefixes(in: "search"))) p GROUP BY 1),
                titles AS (SELECT ord, array_to_tsvector(ARRAY(SELECT lexeme FROM unnest(v) WHERE left(lexeme, 1) IN (\(titleTags)))) AS v FROM search),
                title_truth AS (SELECT prefix, min(ord) AS first FROM (\(Self.countedPrefixes(in: "titles"))) p GROUP BY 1)
                SELECT coalesce(t.prefix, p.prefix) COLLATE "C", coalesce(p.n, 0), coalesce(t.n, 0), p.first_ord, t.first, p.title_first_ord, tt.first
                FROM truth t FULL JOIN prefix_count p ON p.prefix = t.prefix LEFT JOIN title_truth tt ON tt.prefix = coalesce(t.prefix, p.prefix)
                WHERE t.n IS DISTINCT FROM p.n OR p.first_ord IS DISTINCT FROM t.first OR p.title_first_ord IS DISTINCT FROM tt.first ORDER BY 1
                """).map { row in
                    let first = { (i: Int) in try row[i].decode(Int?.self).map(String.init) ?? "none" }
                    return "\(try row[0].decode(String.self)): \(try row[1].decode(Int.self)) stored, \(try row[2].decode(Int.self)) true; "
                        + "first report \(try first(3)) stored, \(try first(4)) true; in a title \(try first(5)) stored, \(try first(6)) true"
                } + execute(c, "SELECT prefix FROM prefix_stale ORDER BY prefix").map { "\(try $0[0].decode(String.self)): left stale" }
        }
    }

    /// Every row of every table, as text, in a fixed order (tests compare stores' states with it).
    func tableDump() throws(IndexError) -> [String] {
        try transaction(readOnly: true) { c in
            try wholeTables(c)
            var lines: [String] = []
            var queries = [
                "SELECT path, size::text, upper(encode(sha256, 'hex')), title, author, keywords, pages::text, warnings, error FROM file ORDER BY path",
                "SELECT ord::text, id, title, end_ord::text, parent::text FROM category ORDER BY ord",
                "SELECT ord::text, id, title, path, category_titles, datasource_keywords, keywords, file, sig::text FROM report ORDER BY ord",
                "SELECT kk.key, k.report::text, k.display FROM keyword k JOIN keyword_key kk ON kk.id = k.key_id ORDER BY kk.key, k.report",
                "SELECT ord::text, s_title, s_pdf_title, s_keywords, s_author, s_category FROM report ORDER BY ord",
                "SELECT ord::text, v::text FROM search ORDER BY ord",
                "SELECT prefix, n::text FROM prefix_count ORDER BY prefix",
                "SELECT token, chunk::text, encode(ords, 'hex'), encode(pos, 'hex'), first_ord::text, title_first_ord::text FROM posting ORDER BY token, chunk",
                "SELECT prefix FROM prefix_stale ORDER BY prefix",
                "SELECT chunk::text FROM posting_dirty ORDER BY chunk",
            ]
            if try hasThumbnailTable(c) {
                queries.append("SELECT upper(encode(sha256, 'hex')), width::text, upper(encode(png, 'hex')), pixel_width::text, "
                               + "pixel_height::text, page_width::text, page_height::text, error FROM thumbnail ORDER BY sha256, width")
            }
            for sql in queries {
                for row in try execute(c, sql) {
                    lines.append(try (0..<row.count).map { try row[$0].decode(String?.self) ?? "NULL" }.joined(separator: "|"))
                }
            }
            return lines
        }
    }
}
