@testable @_spi(Testbed) import BubbleDashboard
import BubbleRender
import Testing

/// Large levels use the screen: at rest, a level with more children than fit at once (shown as
/// groups, or panning) covers at least half of the bubble area, measured by the bounding box of
/// its bubbles within the area, on every crowded level of the large sample, with the Pango
/// measurer as `bubbles render` lays levels out.
@Suite("Large levels use the screen")
struct ScreenUseTests {
    /// The share of the bubble area inside the bounding box of the scene's bubbles.
    static func coverage(_ scene: Scene, _ settings: DashboardSettings) -> Double {
        let a = settings.chrome.contentRect(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for b in scene.bubbles {
            let (hw, hh): (Double, Double)
            switch b.shape {
            case .circle(let r): (hw, hh) = (r * b.scale, r * b.scale)
            case .roundedRect(let w, let h, _): (hw, hh) = (w / 2 * b.scale, h / 2 * b.scale)
            }
            minX = min(minX, b.centre.x - hw)
            maxX = max(maxX, b.centre.x + hw)
            minY = min(minY, b.centre.y - hh)
            maxY = max(maxY, b.centre.y + hh)
        }
        let w = max(0, min(maxX, a.x + a.width) - max(minX, a.x))
        let h = max(0, min(maxY, a.y + a.height) - max(minY, a.y))
        return w * h / (a.width * a.height)
    }

    @Test func everyCrowdedLevelOfTheLargeSampleCoversHalfTheBubbleArea() throws {
        let tree = try LabelPropertiesTests.tree("large.json")
        let measurer = PangoTextMeasurer()
        var checked = 0
        /// Checks the level `d` shows now, if it is crowded.
        func check(_ level: String, _ d: Dashboard) {
            let scene = d.scene()
            let children = d.levels.nodes[d.focus].children
            let crowded = scene.pan != nil || children.contains { d.levels.nodes[$0].kind == .group }
            guard crowded else { return }
            checked += 1
            let c = Self.coverage(scene, d.settings)
            #expect(c >= 0.5, "\(level): \(children.count) children cover \(Int(c * 100)) % of the bubble area")
        }
        for top in tree.nodes[0].children where tree.nodes[top].kind == .category {
            let dashboard = try Dashboard(tree: tree, measurer: measurer)
            for id in [tree.nodes[0].id, tree.nodes[top].id] {
                try dashboard.send(.tapBubble(id))
                dashboard.settle(limit: 3000)
            }
            check(tree.nodes[top].id, dashboard)
            // And the first group of a grouped level, opened.
            if let first = dashboard.levels.nodes[dashboard.focus].children.first, dashboard.levels.nodes[first].kind == .group {
                try dashboard.send(.tapBubble(dashboard.levels.nodes[first].id))
                dashboard.settle(limit: 3000)
                check(dashboard.levels.nodes[first].id, dashboard)
            }
        }
        #expect(checked >= 8)
    }

    /// The large sample's root, eleven circles: a spiral whose last ring (five of eleven) kept
    /// together sits on one side and needs the labels shrunk to the floor; that ring spread round
    /// the focus fits at the size the area allows. Not panned, and bubbles on every side.
    @Test func elevenCirclesAreNotLopsided() throws {
        let tree = try LabelPropertiesTests.tree("large.json")
        let measurer = PangoTextMeasurer()
        let d = try Dashboard(tree: tree, measurer: measurer)
        try d.send(.tapBubble(tree.nodes[0].id))
        d.settle(limit: 3000)
        let scene = d.scene()
        #expect(scene.pan == nil)
        let lay = try d.layout(of: d.focus)
        let floor = LevelLayout.floorShrink(tree: d.levels, focus: d.focus, settings: d.settings, measurer: measurer)
        #expect(lay.children.count == 11)
        #expect(lay.shrink > floor * 1.05, "shrink \(lay.shrink), floor \(floor)")
        let below = lay.home.filter { $0.y > lay.centre.y + lay.focusRadius }.count
        let above = lay.home.filter { $0.y < lay.centre.y - lay.focusRadius }.count
        #expect(below >= 3 && above >= 3, "\(above) above the focus, \(below) below")
    }

    /// Every card of a level in rows draws its title at one size: the size the level was laid out
    /// for, not larger on a card of the least width with room to spare ("Mai 2013" beside
    /// "September 2013").
    @Test func cardsOfALevelShareOneTitleSize() throws {
        let tree = try LabelPropertiesTests.tree("large.json")
        let d = try Dashboard(tree: tree, measurer: PangoTextMeasurer())
        for id in [tree.nodes[0].id, "monatsberichte"] {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        let scene = d.scene()
        let cards = Set(scene.bubbles.filter { $0.kind == .report }.map(\.id))
        #expect(cards.count == 60)
        let sizes = Set(SceneRenderer(pixelScale: 1).layoutLabels(scene).filter { $0.role == .bubbleTitle && cards.contains($0.owner) }.map(\.fontSize))
        #expect(sizes.count == 1, "title sizes: \(sizes.sorted())")
    }
}
