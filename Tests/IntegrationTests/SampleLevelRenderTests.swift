@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import TestSupport
import Testing

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
            try dashboard.send(.tapBubble("root"))
            dashboard.settle(limit: 3000)
            let index = Self.tree.index(of: id)!
            for step in Self.tree.path(to: index).dropFirst() {
                try dashboard.send(.tapBubble(Self.tree.nodes[step].id))
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

    /// Every report's preview and every level's reports table draw all their characters: keywords
    /// in Japanese, Chinese or Korean come from the CJK fallback face, not as missing-glyph boxes.
    @Test func everyKeywordHasItsGlyphs() throws {
        let renderer = SceneRenderer(pixelScale: 1)
        var checked = 0
        for node in Self.tree.nodes where node.kind == .report {
            let report = SceneReport(
                id: node.id, title: node.title, author: node.author, pageCount: node.pageCount, keywords: node.keywords,
                colour: node.colour)
            for overlay in [SceneOverlay.reportPreview(report), .reportsTable(title: "Reports", reports: [report])] {
                let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [], breadcrumbs: ["All Reports"], overlay: overlay)
                for label in renderer.layoutLabels(scene) {
                    #expect(label.missingGlyphs == 0, "\(node.id): '\(label.lines.map(\.text).joined())' has \(label.missingGlyphs) missing glyphs")
                    checked += 1
                }
            }
        }
        #expect(checked > 1000)
    }
}
