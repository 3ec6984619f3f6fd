import BubbleDashboard
import BubbleRender
import BubbleScenario
import Foundation
import ReportLibrary
import Testing

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// Every level of the shipped sample, settled the way `bubbles render` settles it, on the portrait
/// and landscape canvases: every label's measured lines lie inside their shapes, every label meets
/// WCAG AA contrast, and the level is tidy.
@Suite("Sample levels, rendered")
struct SampleLevelRenderTests {
    static let library = try! LibraryLoader.load(packageRoot + "/Data/reports.json")
    static let tree = try! LibraryBridge.dashboardTree(library, details: LibraryBridge.details(for: library))

    static let categories: [String] = tree.nodes.filter { $0.kind == .category }.map(\.id)

    @Test(arguments: [(768.0, 1024.0), (1024.0, 768.0)])
    func everyLevelIsLegibleAndTidy(width: Double, height: Double) throws {
        var settings = DashboardSettings()
        settings.canvasWidth = width
        settings.canvasHeight = height
        let renderer = SceneRenderer(pixelScale: 1)
        for id in Self.categories {
            let dashboard = try Dashboard(tree: Self.tree, settings: settings)
            try dashboard.send(.tap("root"))
            dashboard.settle(limit: 3000)
            let index = Self.tree.index(of: id)!
            for step in Self.tree.path(to: index).dropFirst() {
                try dashboard.send(.tap(Self.tree.nodes[step].id))
                dashboard.settle(limit: 3000)
            }
            #expect(dashboard.isAtRest, "\(id)")
            #expect(dashboard.maxOverlap() <= 0.5, "\(id): overlap \(dashboard.maxOverlap())")
            let scene = dashboard.scene()
            for label in renderer.layoutLabels(scene) where label.role == .bubbleTitle || label.role == .pageCount {
                for line in label.lines {
                    #expect(line.isInside(label.container, tolerance: 0.5), "\(id) @\(width): '\(line.text)' of \(label.owner) spills out")
                }
                #expect(label.contrastRatio >= 4.5, "\(id): \(label.owner) contrast \(label.contrastRatio)")
            }
            for c in renderer.labelColours(scene) {
                #expect(c.contrastRatio >= 4.5, "\(id): '\(c.label)' contrast \(c.contrastRatio)")
            }
        }
    }
}
