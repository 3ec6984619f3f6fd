import BubbleDashboard

/// A finder over the dashboard's own tree, for an app without an index: titles that contain every
/// word typed, and the reports' keywords. (`IndexReportFinder` answers from the library index.)
final class TitleFinder: ReportFinder {
    let nodes: [DashboardNode]

    init(tree: DashboardTree) { nodes = tree.nodes }

    func search(_ text: String, limit: Int) -> ReportSearchAnswer {
        let words = text.lowercased().split(separator: " ")
        let found = nodes.indices.filter { i in
            nodes[i].kind == .report && words.allSatisfy { nodes[i].title.lowercased().contains($0) }
        }
        return ReportSearchAnswer(total: found.count, hits: found.prefix(limit).map { ReportHit(report: $0, titleSpans: []) })
    }

    func keywordCounts(among reports: [Int], limit: Int) -> [KeywordTally] {
        var counts: [String: Int] = [:]
        for r in reports { for k in Set(nodes[r].keywords) { counts[k, default: 0] += 1 } }
        let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return sorted.prefix(limit).map { KeywordTally(keyword: $0.key, count: $0.value) }
    }

    func reports(carrying keywords: [String]) -> [Int] {
        nodes.indices.filter { i in nodes[i].kind == .report && keywords.allSatisfy(nodes[i].keywords.contains) }
    }

    func knownKeyword(_ keyword: String) -> String? {
        nodes.lazy.flatMap(\.keywords).first { $0.lowercased() == keyword.lowercased() }
    }
}

/// The dashboard with its finder: the magnifier and the Filter button work.
func searchableDashboard(tree: DashboardTree) throws -> Dashboard {
    try Dashboard(tree: tree, finder: TitleFinder(tree: tree))
}
