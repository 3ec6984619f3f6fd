@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import TestSupport

/// The shipped sample library as a dashboard tree (PDFs not read: layout does not depend on them).
let sampleTree: DashboardTree = {
    let library = try! LibraryLoader.load(packageRoot + "/Data/reports.json", options: LibraryLoadOptions(checkFiles: false))
    return try! LibraryBridge.dashboardTree(library)
}()

/// A tree whose root has `categories` category children (each with a few reports) and `reports`
/// report children with titles of varied length.
func syntheticTree(categories: Int, reports: Int) -> DashboardTree {
    var nodes = [DashboardNode(id: "root", title: "All Reports", kind: .category, colour: nil, children: [], reportCount: 0)]
    var rootChildren: [Int] = []
    let words = ["Quarterly", "Revenue", "Variance", "Analysis", "by", "Region", "and", "Cost", "Centre", "Summary"]
    for c in 0..<categories {
        let index = nodes.count
        rootChildren.append(index)
        let reportsBelow = 1 + (c * 7) % 40
        nodes.append(DashboardNode(
            id: "cat-\(c)", title: words[c % words.count] + " \(c)", kind: .category,
            colour: SceneColour(red: 30, green: 100, blue: 200), children: [], reportCount: reportsBelow))
    }
    for r in 0..<reports {
        rootChildren.append(nodes.count)
        let length = 1 + (r * 3) % 9
        let title = (0..<length).map { words[($0 + r) % words.count] }.joined(separator: " ")
        nodes.append(DashboardNode(id: "rep-\(r)", title: title, kind: .report, colour: nil, children: [], reportCount: 1, pageCount: 2))
    }
    nodes[0].children = rootChildren
    nodes[0].reportCount = reports + (0..<categories).reduce(0) { $0 + 1 + ($1 * 7) % 40 }
    return try! DashboardTree(nodes: nodes)
}

extension Scene {
    func bubble(_ id: String) -> SceneBubble? { bubbles.first { $0.id == id } }
}

/// Largest distance a bubble moved between two scenes (bubbles present in both).
func largestJump(_ a: Scene, _ b: Scene) -> (Double, String) {
    var worst = (0.0, "")
    for x in b.bubbles {
        guard let y = a.bubbles.first(where: { $0.id == x.id && $0.kind == x.kind }) else { continue }
        let dx = x.centre.x - y.centre.x, dy = x.centre.y - y.centre.y
        let d = (dx * dx + dy * dy).squareRoot()
        if d > worst.0 { worst = (d, x.id) }
    }
    return worst
}
