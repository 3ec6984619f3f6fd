import BubbleDashboard
import PDFMetadata
import ReportLibrary

/// What the dashboard shows of a report beyond its title: read from the PDF, merged with the
/// datasource's own keywords.
public struct ReportDetails: Sendable, Hashable {
    public var author: String?
    public var pageCount: Int?
    /// The PDF's keywords first, then the datasource's extra ones; duplicates (compared without
    /// regard to case) removed, keeping the first.
    public var keywords: [String]
    /// Why the PDF could not be read, if it could not (the report still shows, without details).
    public var readError: String?
}

/// Turns a validated datasource into the dashboard's tree.
public enum LibraryBridge {
    /// Reads every report's PDF metadata, in tree order. `readPDFs: false` uses only the JSON.
    public static func details(for tree: ReportTree, readPDFs: Bool = true) -> [Int: ReportDetails] {
        var result: [Int: ReportDetails] = [:]
        for (i, node) in tree.nodes.enumerated() where node.kind == .report {
            var details = ReportDetails(author: nil, pageCount: nil, keywords: node.keywords, readError: nil)
            if readPDFs, let path = node.resolvedFile {
                do {
                    let meta = try PDFDocumentInfo.read(contentsOf: path)
                    details.author = meta.author
                    details.pageCount = meta.pageCount
                    details.keywords = mergeKeywords(meta.keywords, node.keywords)
                } catch {
                    details.readError = "\(error)"
                }
            }
            result[i] = details
        }
        return result
    }

    /// `first` then `extra`, without duplicates (case-insensitive), keeping the first spelling.
    public static func mergeKeywords(_ first: [String], _ extra: [String]) -> [String] {
        var seen: Set<String> = []
        var merged: [String] = []
        for k in first + extra where seen.insert(k.lowercased()).inserted {
            merged.append(k)
        }
        return merged
    }

    /// The dashboard tree for `tree`, with `details` per report index.
    public static func dashboardTree(_ tree: ReportTree, details: [Int: ReportDetails] = [:]) throws(DashboardError) -> DashboardTree {
        var reportCounts = [Int](repeating: 0, count: tree.nodes.count)
        // Nodes are in pre-order, so children come after parents: sum from the end.
        for i in tree.nodes.indices.reversed() {
            let node = tree.nodes[i]
            reportCounts[i] = node.kind == .report ? 1 : node.children.reduce(0) { $0 + reportCounts[$1] }
        }
        let nodes = tree.nodes.enumerated().map { (i, node) in
            let d = details[i]
            return DashboardNode(
                id: node.id, title: node.title, kind: node.kind == .report ? .report : .category,
                colour: node.branchColour.map { SceneColour(red: $0.red, green: $0.green, blue: $0.blue) },
                children: node.children, reportCount: reportCounts[i], author: d?.author, pageCount: d?.pageCount,
                keywords: d?.keywords ?? node.keywords)
        }
        return try DashboardTree(nodes: nodes)
    }
}
