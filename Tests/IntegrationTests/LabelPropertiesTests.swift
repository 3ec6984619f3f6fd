@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import TestSupport
import Testing

/// Every level of the sample library and of the multilingual fixture (`Data/international.json`),
/// laid out with the Pango measurer as `bubbles render` does: no label has a character drawn as a
/// box, every line lies inside its shape, a card title that fits its card at the design size is
/// never shortened, and every label meets WCAG AA contrast. The fixture's first level is compared
/// with a reference image (`References/`, re-recorded with `BUBBLES_RECORD_REFERENCES=1`).
@Suite("Labels of real levels")
struct LabelPropertiesTests {
    static func tree(_ file: String) throws -> DashboardTree {
        let library = try LibraryLoader.load(packageRoot + "/Data/" + file)
        return try LibraryBridge.dashboardTree(library, details: LibraryBridge.details(for: library))
    }

    /// The settled scene of every category level of `tree`.
    static func levels(_ tree: DashboardTree, measurer: PangoTextMeasurer) throws -> [(String, Scene, Dashboard)] {
        var result: [(String, Scene, Dashboard)] = []
        for (index, node) in tree.nodes.enumerated() where node.kind == .category {
            let dashboard = try Dashboard(tree: tree, measurer: measurer)
            try dashboard.send(.tapBubble(tree.nodes[0].id))
            dashboard.settle(limit: 3000)
            for step in tree.path(to: index).dropFirst() {
                try dashboard.send(.tapBubble(tree.nodes[step].id))
                dashboard.settle(limit: 3000)
            }
            result.append((node.id, dashboard.scene(), dashboard))
        }
        return result
    }

    @Test(arguments: ["reports.json", "international.json"])
    func everyLabelIsWholeInsideAndLegible(file: String) throws {
        let tree = try Self.tree(file)
        let measurer = PangoTextMeasurer()
        let renderer = SceneRenderer(pixelScale: 1)
        let style = RenderStyle()
        var cards = 0
        for (id, scene, dashboard) in try Self.levels(tree, measurer: measurer) {
            #expect(dashboard.isAtRest, "\(file) \(id)")
            let shrink = try dashboard.layout(of: dashboard.focus).shrink
            for label in renderer.layoutLabels(scene) {
                #expect(label.missingCodePoints.isEmpty, "\(file) \(id): \(label.owner) has boxes for \(label.missingCodePoints.map(LabelLayout.codePointName))")
                #expect(label.contrastRatio >= 4.5, "\(file) \(id): \(label.owner) contrast \(label.contrastRatio)")
                guard label.role == .bubbleTitle || label.role == .pageCount else { continue }
                for line in label.lines {
                    #expect(line.isInside(label.container, tolerance: 0.5), "\(file) \(id): '\(line.text)' of \(label.owner) spills out")
                }
                // A card whose title fits within the card's lines at the design size shows it whole
                // (on a level that did not have to shrink).
                guard label.role == .bubbleTitle, shrink == 1, let node = tree.index(of: label.owner),
                      tree.nodes[node].kind == .report else { continue }
                let settings = DashboardSettings()
                let available = settings.cards.maxWidth - settings.cards.horizontalPadding
                let measured = measurer.measure(label.label, role: .cardTitle, width: available)
                if measured.lineCount <= settings.cards.maxLines && measured.width <= available {
                    cards += 1
                    #expect(!label.isTruncated, "\(file) \(id): '\(label.label)' was shortened to \(label.lines.map(\.text))")
                    #expect(label.designFontSize == style.cardTitleFontSize, "\(file) \(id): '\(label.label)' at \(label.designFontSize ?? 0) pt")
                }
            }
        }
        #expect(cards > 10)
    }

    /// The home layout is the same bits for the same measurer settings: two measurers (two Pango
    /// font maps) give the same places, on every level of both files.
    @Test func homeLayoutsAreDeterministicForAMeasurer() throws {
        for file in ["reports.json", "international.json"] {
            let tree = try Self.tree(file)
            let a = try Dashboard(tree: tree, measurer: PangoTextMeasurer())
            let b = try Dashboard(tree: tree, measurer: PangoTextMeasurer())
            for (index, node) in tree.nodes.enumerated() where node.kind == .category {
                let la = try a.layout(of: index), lb = try b.layout(of: index)
                #expect(la.home.map(\.x) == lb.home.map(\.x) && la.home.map(\.y) == lb.home.map(\.y), "\(file) \(node.id)")
                #expect(la.shapes == lb.shapes && la.labels == lb.labels, "\(file) \(node.id)")
            }
        }
    }

    @Test func internationalLevelMatchesItsReference() throws {
        let tree = try Self.tree("international.json")
        let dashboard = try Dashboard(tree: tree, measurer: PangoTextMeasurer())
        try dashboard.send(.tapBubble(tree.nodes[0].id))
        dashboard.settle(limit: 3000)
        let image = try SceneRenderer(pixelScale: 0.5).render(dashboard.scene())
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References").path
        let path = folder + "/international.png"
        if ProcessInfo.processInfo.environment["BUBBLES_RECORD_REFERENCES"] == "1" {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try AtomicFile.write(try image.cairoPNG(), to: path)
            return
        }
        let reference = try RenderedImage.readPNG(path: path)
        let d = try #require(image.difference(to: reference, tolerance: 24), "size differs from the reference")
        #expect(d.pixelsOver <= image.width * image.height / 200, "\(d.pixelsOver) pixels differ by more than 24")
    }
}
