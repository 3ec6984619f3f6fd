@_spi(Testbed) import BubbleDashboard
import ReportIndex
import ReportLibrary

/// The dashboard's `ReportFinder` over the library index: searches go to the index's full-text
/// search (FTS5, the normalisation of `SearchText` for every script, ranked as `bubbles search`
/// ranks), keyword counts and filters to an in-memory table of the reports' keywords made once
/// from the dashboard tree (the PDF's keywords and the datasource's, merged as the index merges
/// them), compared by the index's keyword normalisation (case, accents, width).
///
/// Deterministic: the same index and tree give the same answers in the same order.
public final class IndexReportFinder: ReportFinder, Sendable {
    /// The index searches go to.
    public let index: ReportIndex
    private let tree: DashboardTree
    /// Per keyword number: its spelling (of several that normalise alike, the first in code-point
    /// order) and its normalised key.
    private let spellings: [String]
    /// Keyword number by normalised key (looked up only).
    private let numberByKey: [String: Int]
    /// Per keyword number: the reports that carry it, ascending.
    private let postings: [[Int]]
    /// Per report (tree index): its keyword numbers; empty for other nodes.
    private let reportKeywords: [[Int]]

    /// Told of a search the index could not answer (a damaged or vanished index file), one line.
    private let onError: @Sendable (String) -> Void

    /// A finder for `tree` (the dashboard's tree, from `LibraryBridge.dashboardTree`) searching
    /// `index`. A search the index cannot answer shows no results and tells `onError` why
    /// (default: nobody).
    public init(tree: DashboardTree, index: ReportIndex, onError: @escaping @Sendable (String) -> Void = { _ in }) {
        self.index = index
        self.tree = tree
        self.onError = onError
        var spellings: [String] = []
        var numberByKey: [String: Int] = [:]
        var postings: [[Int]] = []
        var reportKeywords = [[Int]](repeating: [], count: tree.nodes.count)
        for (i, node) in tree.nodes.enumerated() where node.kind == .report {
            var numbers: [Int] = []
            for k in node.keywords {
                let key = SearchText.keywordKey(k)
                guard !key.isEmpty else { continue }
                let number: Int
                if let n = numberByKey[key] {
                    number = n
                    if k.unicodeScalars.lexicographicallyPrecedes(spellings[n].unicodeScalars) { spellings[n] = k }
                } else {
                    number = spellings.count
                    numberByKey[key] = number
                    spellings.append(k)
                    postings.append([])
                }
                if !numbers.contains(number) {
                    numbers.append(number)
                    postings[number].append(i)
                }
            }
            reportKeywords[i] = numbers
        }
        self.spellings = spellings
        self.numberByKey = numberByKey
        self.postings = postings
        self.reportKeywords = reportKeywords
    }

    /// The best matches of `text` from the index, with the matched spans of each title.
    public func search(_ text: String, limit: Int) -> ReportSearchAnswer {
        let query = SearchQuery(text)
        guard !query.isEmpty, limit > 0 else { return ReportSearchAnswer(total: 0, hits: []) }
        // The dashboard shows the title's matches only.
        let results: SearchResults
        do {
            results = try index.search(query, options: SearchOptions(limit: limit, matchFields: [.title]))
        } catch {
            onError("search for \"\(text)\" failed: \(error)")
            return ReportSearchAnswer(total: 0, hits: [])
        }
        var hits: [ReportHit] = []
        for r in results.results {
            guard let node = tree.index(of: r.id), tree.nodes[node].kind == .report else { continue }
            let spans = r.matches.first { $0.field == .title }?.spans ?? query.spans(in: tree.nodes[node].title)
            hits.append(ReportHit(report: node, titleSpans: spans))
        }
        return ReportSearchAnswer(total: results.total, hits: hits)
    }

    /// Counts each keyword over `reports`: most frequent first, then by spelling.
    public func keywordCounts(among reports: [Int], limit: Int) -> [KeywordTally] {
        var counts = [Int](repeating: 0, count: spellings.count)
        var seen: [Int] = []
        for r in reports where r >= 0 && r < reportKeywords.count {
            for k in reportKeywords[r] {
                if counts[k] == 0 { seen.append(k) }
                counts[k] += 1
            }
        }
        let sorted = seen.sorted {
            counts[$0] != counts[$1] ? counts[$0] > counts[$1] : spellings[$0].unicodeScalars.lexicographicallyPrecedes(spellings[$1].unicodeScalars)
        }
        return sorted.prefix(max(0, limit)).map { KeywordTally(keyword: spellings[$0], count: counts[$0]) }
    }

    /// The reports that carry every keyword: the intersection of their report lists.
    public func reports(carrying keywords: [String]) -> [Int] {
        var lists: [[Int]] = []
        for k in keywords {
            guard let n = numberByKey[SearchText.keywordKey(k)] else { return [] }
            lists.append(postings[n])
        }
        lists.sort { $0.count < $1.count }
        guard var result = lists.first else { return [] }
        for other in lists.dropFirst() {
            var out: [Int] = []
            var j = 0
            for r in result {
                while j < other.count && other[j] < r { j += 1 }
                if j < other.count && other[j] == r { out.append(r) }
            }
            result = out
        }
        return result
    }

    /// The spelling reports carry for `keyword`, compared after normalisation.
    public func knownKeyword(_ keyword: String) -> String? {
        numberByKey[SearchText.keywordKey(keyword)].map { spellings[$0] }
    }

    /// Every word of `query` begins a word of `keyword`, both normalised ("zah" finds "Zahlungen").
    public func keyword(_ keyword: String, matches query: String) -> Bool {
        let words = SearchText.tokens(keyword).map(\.text)
        let typed = SearchText.tokens(query).map(\.text)
        return !typed.isEmpty && typed.allSatisfy { q in words.contains { $0.hasPrefix(q) } }
    }
}

extension LibraryBridge {
    /// A finder over the index at `path` (nil: beside the datasource) for `dashboardTree`, made
    /// from `tree`; nil when the index cannot be opened to read (the dashboard then says "Search
    /// needs an index"), and `warn` is told why; later searches the index cannot answer are told
    /// to `warn` too. Open it after `details(for:source:)` has brought the index up to date.
    public static func finder(
        for tree: ReportTree, dashboardTree: DashboardTree, indexPath path: String?,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) -> IndexReportFinder? {
        let file = ReportIndex.location(path, forDatasource: tree.sourceFile)
        let index: ReportIndex
        do {
            index = try ReportIndex.open(at: file, mode: .readOnly)
        } catch {
            warn("\(error); search is off")
            return nil
        }
        return IndexReportFinder(tree: dashboardTree, index: index, onError: warn)
    }

    /// The finder for a metadata source: the index's for `.index`, none otherwise.
    public static func finder(
        for tree: ReportTree, dashboardTree: DashboardTree, source: PDFMetadataSource,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) -> IndexReportFinder? {
        guard case .index(let path) = source else { return nil }
        return finder(for: tree, dashboardTree: dashboardTree, indexPath: path, warn: warn)
    }
}
