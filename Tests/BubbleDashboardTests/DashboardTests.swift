@_spi(Testbed) import BubbleDashboard
import Testing

@Suite("Dashboard navigation")
struct DashboardTests {
    /// Checks a settled level: no visible overlap, everything inside the bubble area (a level that
    /// pans: inside its extent), focus centred.
    func expectTidy(_ dashboard: Dashboard, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let scene = dashboard.scene()
        #expect(dashboard.maxOverlap() <= 0.5, "\(context): overlap \(dashboard.maxOverlap())", sourceLocation: sourceLocation)
        let area = dashboard.settings.chrome.contentRect(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        let extent = scene.pan.map { (x: $0.extent.x, y: $0.extent.y, width: $0.extent.width, height: $0.extent.height) } ?? area
        for b in scene.bubbles {
            let (hw, hh): (Double, Double)
            switch b.shape {
            case .circle(let r): (hw, hh) = (r * b.scale, r * b.scale)
            case .roundedRect(let w, let h, _): (hw, hh) = (w / 2 * b.scale, h / 2 * b.scale)
            }
            let inside = b.centre.x - hw >= extent.x - 0.5 && b.centre.x + hw <= extent.x + extent.width + 0.5
                && b.centre.y - hh >= extent.y - 0.5 && b.centre.y + hh <= extent.y + extent.height + 0.5
            #expect(inside, "\(context): \(b.id) at \(b.centre) sticks out of the bubble area", sourceLocation: sourceLocation)
            #expect(b.scale > 0.99 && b.scale < 1.01 && b.opacity > 0.99, "\(context): \(b.id) not fully shown", sourceLocation: sourceLocation)
        }
        if let focus = scene.bubbles.first(where: { $0.kind == .focus }) {
            #expect(abs(focus.centre.x - (area.x + area.width / 2)) < 0.01, sourceLocation: sourceLocation)
            #expect(abs(focus.centre.y - (area.y + area.height / 2)) < 0.01, sourceLocation: sourceLocation)
        }
    }

    @Test func startScreenShowsOnlyTheRoot() throws {
        let d = try Dashboard(tree: sampleTree)
        let scene = d.scene()
        #expect(scene.bubbles.map(\.id) == ["root"])
        #expect(scene.bubbles[0].kind == .focus)
        #expect(scene.bubbles[0].blur == 0)
        #expect(scene.breadcrumbs == ["All Reports"])
        #expect(d.isAtRest)
    }

    @Test func tappingTheRootBringsInTheFirstLevel() throws {
        let d = try Dashboard(tree: sampleTree)
        try d.send(.tapBubble("root"))
        let steps = d.settle()
        #expect(steps < 120, "settled in \(steps) steps")
        let scene = d.scene()
        let expected = sampleTree.nodes[0].children.map { sampleTree.nodes[$0].id }
        #expect(scene.bubbles.filter { $0.kind != .focus }.map(\.id) == expected)
        #expect(scene.bubbles[0].id == "root" && scene.bubbles[0].blur == 1)
        expectTidy(d, "first level")
    }

    @Test func drillInAndBackRestoresTheLevelExactly() throws {
        let d = try Dashboard(tree: sampleTree)
        try d.send(.tapBubble("root"))
        d.settle()
        let before = d.scene()
        try d.send(.tapBubble("finance"))
        d.settle()
        #expect(d.scene().breadcrumbs == ["All Reports", "Finance"])
        expectTidy(d, "finance")
        try d.send(.tapBubble("financial-statements"))
        d.settle()
        expectTidy(d, "financial statements")
        try d.send(.pinch)
        d.settle()
        try d.send(.pinch)
        d.settle()
        let after = d.scene()
        #expect(after.breadcrumbs == ["All Reports"])
        #expect(after.bubbles.map(\.id) == before.bubbles.map(\.id))
        let (jump, id) = largestJump(before, after)
        #expect(jump < 0.05, "\(id) came back \(jump) pt away from its place")
        expectTidy(d, "back at the top")
    }

    @Test func backAfterTapsDragsAndRecentresRestoresTheHomeLayoutExactly() throws {
        let d = try Dashboard(tree: sampleTree)
        try d.send(.tapBubble("root"))
        d.settle()
        let home = d.scene()
        func drag(_ id: String, by dx: Double, _ dy: Double) throws {
            let p = ScenePoint(x: 300, y: 400)
            try d.send(.pressBubble(id, at: p))
            for k in 1...15 {
                try d.send(.move(to: ScenePoint(x: p.x + dx * Double(k) / 15, y: p.y + dy * Double(k) / 15)))
                d.step()
            }
            try d.send(.release)
            d.settle()
        }
        try d.send(.tapBubble("finance"))
        d.settle()
        try drag("monthly-close", by: 120, -80)
        try d.send(.recenter)
        d.settle()
        let financeHome = d.scene()
        try drag("tax", by: -90, 140)
        try d.send(.tapBubble("monthly-close"))
        d.settle()
        try drag("close-2016-03", by: 60, 60)
        try d.send(.pinch)
        d.settle()
        // Back on finance: the places the drag left, not home; re-centre brings home back exactly.
        try d.send(.recenter)
        d.settle()
        #expect(largestJump(financeHome, d.scene()).0 == 0)
        try d.send(.pinch)
        d.settle()
        let back = d.scene()
        #expect(back.bubbles.map(\.id) == home.bubbles.map(\.id))
        #expect(largestJump(home, back).0 == 0, "\(largestJump(home, back))")
    }

    @Test func levelsOfEverySizeAreTidy() throws {
        for (categories, reports) in [(1, 0), (1, 1), (3, 2), (12, 18), (25, 35)] {
            let d = try Dashboard(tree: syntheticTree(categories: categories, reports: reports))
            try d.send(.tapBubble("root"))
            d.settle()
            expectTidy(d, "\(categories + reports) children")
        }
    }

    @Test func landscapeAndPhoneCanvases() throws {
        for (w, h) in [(1024.0, 768.0), (390.0, 844.0), (2048.0, 1536.0)] {
            var settings = DashboardSettings()
            settings.canvasWidth = w
            settings.canvasHeight = h
            let d = try Dashboard(tree: syntheticTree(categories: 12, reports: 18), settings: settings)
            try d.send(.tapBubble("root"))
            d.settle()
            expectTidy(d, "\(w)×\(h)")
        }
    }

    @Test func invalidEventsChangeNothing() throws {
        let d = try Dashboard(tree: sampleTree)
        try d.send(.tapBubble("root"))
        d.step(count: 10)
        let hash = d.stateHash
        #expect {
            try d.send(.tapBubble("financ"))
        } throws: { error in
            guard case .unknownID("financ", let suggestions) = error as? DashboardError else { return false }
            return suggestions.first == "finance"
        }
        #expect(throws: DashboardError.notVisible("q1-2016")) { try d.send(.tapBubble("q1-2016")) }
        #expect(throws: DashboardError.noDragInProgress) { try d.send(.move(to: ScenePoint(x: 1, y: 2))) }
        #expect(throws: DashboardError.invalidNumber(field: "drag point.x", value: .infinity)) {
            try d.send(.pressBubble("finance", at: ScenePoint(x: .infinity, y: 2)))
        }
        #expect(d.stateHash == hash)
    }
}
