/// What the dashboard asks when the user searches (the magnifier) or filters by keyword (the
/// Filter button). The host supplies it, as it supplies a `TextMeasurer`: `BubbleScenario`'s
/// `IndexReportFinder` answers from the library index (SQLite FTS5); an iPad app may answer from
/// its own store. Without one, both buttons show "Search needs an index".
///
/// Reports are named by their index in the `DashboardTree` the dashboard was created with (the
/// datasource's tree; never a group's index). Keywords are compared as the finder normalises them
/// (case, accents, width); the dashboard shows the spelling the finder returns.
///
/// A finder must be deterministic: the same question gives the same answer, in the same order,
/// for the dashboard's whole life.
public protocol ReportFinder: AnyObject {
    /// The reports that match `text` as typed so far, best first: at most `limit`, with the total.
    /// Empty text (or only spaces) matches nothing.
    func search(_ text: String, limit: Int) -> ReportSearchAnswer

    /// The keywords carried by `reports` (tree indices, ascending), each with the number of those
    /// reports that carry it: most frequent first, then by keyword in code-point order; at most
    /// `limit`.
    func keywordCounts(among reports: [Int], limit: Int) -> [KeywordTally]

    /// The reports that carry every keyword of `keywords` (tree indices, ascending). Empty
    /// `keywords` is never asked.
    func reports(carrying keywords: [String]) -> [Int]

    /// The spelling of `keyword` that reports carry (compared after normalisation), or nil when
    /// no report carries it.
    func knownKeyword(_ keyword: String) -> String?

    /// Whether `keyword` matches what is typed in the filter sheet's field (`query`, not empty).
    /// A default compares lower-cased word prefixes; an index compares as it normalises.
    func keyword(_ keyword: String, matches query: String) -> Bool
}

/// The answer to a search: the best matches and how many there are in all.
public struct ReportSearchAnswer: Sendable, Hashable {
    /// Every report that matches, not only those in `hits`.
    public var total: Int
    /// The best matches, best first.
    public var hits: [ReportHit]

    /// An answer.
    public init(total: Int, hits: [ReportHit]) {
        self.total = total
        self.hits = hits
    }
}

/// One report found by a search.
public struct ReportHit: Sendable, Hashable {
    /// The report's index in the dashboard's `DashboardTree`.
    public var report: Int
    /// The parts of the report's title that match, in Unicode scalar offsets (end exclusive), in
    /// order and not overlapping.
    public var titleSpans: [Range<Int>]

    /// A hit.
    public init(report: Int, titleSpans: [Range<Int>]) {
        self.report = report
        self.titleSpans = titleSpans
    }
}

/// A keyword and how many reports carry it.
public struct KeywordTally: Sendable, Hashable {
    /// The keyword as the reports spell it.
    public var keyword: String
    /// How many of the reports asked about carry it.
    public var count: Int

    /// A tally.
    public init(keyword: String, count: Int) {
        self.keyword = keyword
        self.count = count
    }
}
