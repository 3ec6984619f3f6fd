@testable import BubbleDashboard
import BubblePhysics
import Testing

/// Levels only slightly over the legibility floor pan instead of being grouped: a drag on empty
/// space moves them, rubber-banded at the edges, with indicators that say there is more; taps,
/// re-centre and a pinch back behave on a panned level as on any other.
@Suite("Levels that pan")
struct PanTests {
    /// A root with one category of `n` reports titled like invoices, or of `n` subcategories.
    static func tree(_ n: Int, categories: Bool = false) -> DashboardTree {
        var nodes = [
            DashboardNode(id: "root", title: "All", kind: .category, colour: nil, children: [1], reportCount: n),
            DashboardNode(id: "big", title: "Big", kind: .category, colour: nil, children: [], reportCount: n),
        ]
        for i in 1...n {
            let number = String(i)
            let padded = String(repeating: "0", count: max(0, 5 - number.count)) + number
            nodes[1].children.append(nodes.count)
            if categories {
                nodes.append(DashboardNode(id: "c\(i)", title: "Region \(i) sales", kind: .category, colour: nil, children: [nodes.count + 1], reportCount: 1))
                nodes.append(DashboardNode(id: "c\(i)-r", title: "Sales report \(i)", kind: .report, colour: nil, children: [], reportCount: 1))
            } else {
                nodes.append(DashboardNode(id: "n\(i)", title: "Invoice INV-2016-\(padded)", kind: .report, colour: nil, children: [], reportCount: 1))
            }
        }
        return try! DashboardTree(nodes: nodes)
    }

    /// A dashboard with the big category opened and at rest.
    static func opened(_ n: Int, categories: Bool = false) throws -> Dashboard {
        let d = try Dashboard(tree: tree(n, categories: categories))
        for id in ["root", "big"] {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        return d
    }

    /// Bubble centres by id, as drawn.
    static func centres(_ d: Dashboard) -> [String: ScenePoint] {
        Dictionary(uniqueKeysWithValues: d.scene().bubbles.map { ($0.id, $0.centre) })
    }

    /// A point of the bubble area with no bubble under it (scanning a grid from the bottom right).
    static func emptyPoint(_ d: Dashboard) -> ScenePoint? {
        let c = d.settings.contentRect
        var y = c.maxY - 12
        while y > c.minY + 12 {
            var x = c.maxX - 12
            while x > c.minX + 12 {
                let p = ScenePoint(x: x, y: y)
                if d.hitTest(p) == nil { return p }
                x -= 9
            }
            y -= 9
        }
        return nil
    }

    static func children(_ d: Dashboard) -> [Int] { d.levels.nodes[d.levels.index(of: "big")!].children }

    @Test func aLevelSlightlyOverPansInsteadOfGrouping() throws {
        // Fits: no pan.
        let small = try Self.opened(12)
        #expect(small.scene().pan == nil)
        #expect(try small.layout(of: small.focus).spread == 1)
        // Sixty cards are slightly over by area, but fit the canvas in rows with their labels at
        // the floor: no pan.
        let rows = try Self.opened(60)
        #expect(Self.children(rows).count == 60 && rows.scene().pan == nil)
        let inRows = try rows.layout(of: rows.focus)
        #expect(inRows.spread == 1)
        #expect(inRows.shrink >= LevelLayout.floorShrink(tree: rows.levels, focus: rows.focus, settings: rows.settings, measurer: nil) - 1e-9)
        // Slightly over: every circle on one level, laid out larger than the canvas, above the floor.
        let d = try Self.opened(60, categories: true)
        let kids = Self.children(d)
        #expect(kids.count == 60 && kids.allSatisfy { d.levels.nodes[$0].kind == .category })
        let lay = try d.layout(of: d.focus)
        #expect(lay.spread > 1)
        #expect(lay.shrink >= LevelLayout.floorShrink(tree: d.levels, focus: d.focus, settings: d.settings, measurer: nil) - 1e-9)
        let pan = try #require(d.scene().pan)
        #expect(pan.extent.height > pan.viewport.height || pan.extent.width > pan.viewport.width)
        // At rest the indicators are a faint hint.
        #expect(abs(pan.indicatorOpacity - PanIndicator.restOpacity) < 1e-12)
        // Far over: grouped, as before.
        let big = try Self.opened(400, categories: true)
        #expect(Self.children(big).allSatisfy { big.levels.nodes[$0].kind == .group })
        #expect(big.scene().pan == nil)
    }

    @Test func aDragOnEmptySpaceMovesTheWholeLevelRubberBandedAtTheEdges() throws {
        let d = try Self.opened(60, categories: true)
        let before = Self.centres(d)
        let start = try #require(Self.emptyPoint(d))
        let pan0 = try #require(d.scene().pan)
        try d.send(.press(at: start))
        try d.send(.move(to: ScenePoint(x: start.x - 10, y: start.y - 14)))
        d.step()
        let pan = try #require(d.scene().pan)
        // Every bubble moves as the level does.
        let dx = pan.extent.x - pan0.extent.x, dy = pan.extent.y - pan0.extent.y
        let moved = Self.centres(d)
        for (id, p) in before {
            let q = try #require(moved[id])
            // (A settled level still moves by some 1e-5 pt in a step: the live springs.)
            #expect(abs(q.x - (p.x + dx)) < 1e-3 && abs(q.y - (p.y + dy)) < 1e-3, "\(id)")
        }
        // With room on that side the level moves as far as the finger; past an edge, less.
        let roomUp = pan0.extent.y + pan0.extent.height - (pan0.viewport.y + pan0.viewport.height)
        let roomLeft = pan0.extent.x + pan0.extent.width - (pan0.viewport.x + pan0.viewport.width)
        if roomUp >= 14 { #expect(abs(dy + 14) < 1e-9) } else { #expect(dy < 0 && dy > -14) }
        if roomLeft >= 10 { #expect(abs(dx + 10) < 1e-9) } else { #expect(dx <= 0 && dx > -10) }
        #expect(pan.indicatorOpacity == 1)
        // Far past the edge: the level follows less than the finger.
        try d.send(.move(to: ScenePoint(x: start.x, y: start.y - 2000)))
        d.step()
        let far = try #require(d.scene().pan)
        let pulled = pan.extent.y - far.extent.y
        #expect(pulled < 2000 - 14 && far.extent.y + far.extent.height < far.viewport.y + far.viewport.height)
        // Let go: it springs back so the level covers the bubble area again.
        try d.send(.release)
        d.settle(limit: 3000)
        let rest = try #require(d.scene().pan)
        #expect(rest.extent.y <= rest.viewport.y + 1e-9)
        #expect(abs(rest.extent.y + rest.extent.height - (rest.viewport.y + rest.viewport.height)) < 1e-9)
        #expect(d.isAtRest)
    }

    @Test func tapsFindBubblesWhereTheyAreDrawnAndReCentreBringsTheLevelHome() throws {
        let d = try Self.opened(60, categories: true)
        let home = Self.centres(d)
        let start = try #require(Self.emptyPoint(d))
        try d.send(.press(at: start))
        try d.send(.move(to: ScenePoint(x: start.x - 30, y: start.y - 60)))
        d.step()
        try d.send(.release)
        d.settle(limit: 3000)
        // A circle where it is drawn now takes the tap, and a pinch comes back to the panned level.
        let circle = try #require(d.scene().bubbles.first { $0.id == "c1" })
        #expect(circle.centre != home["c1"])
        try d.send(.tap(at: circle.centre))
        d.settle(limit: 3000)
        #expect(d.focus == d.levels.index(of: "c1"))
        try d.send(.pinch)
        d.settle(limit: 3000)
        #expect(d.focus == d.levels.index(of: "big"))
        // Re-centre: the level glides back to exactly where it was laid out.
        try d.send(.recenter)
        d.settle(limit: 3000)
        #expect(Self.centres(d) == home)
    }

    @Test func aPinchBackRestoresThePanAndDrillingInEasesItOut() throws {
        let d = try Self.opened(60, categories: true)
        #expect(d.scene().pan != nil)
        let start = try #require(Self.emptyPoint(d))
        try d.send(.press(at: start))
        try d.send(.move(to: ScenePoint(x: start.x + 25, y: start.y - 70)))
        d.step()
        try d.send(.release)
        d.settle(limit: 3000)
        let panned = Self.centres(d)
        // Drill into a region: the new level is not panned, and no frame jumps on the way.
        var last = d.scene().bubbles.first { $0.id == "c5" }!.centre
        try d.send(.tapBubble("c5"))
        for _ in 0..<90 {
            d.step()
            let now = d.scene().bubbles.first { $0.id == "c5" }!.centre
            #expect(abs(now.x - last.x) < 40 && abs(now.y - last.y) < 40)
            last = now
        }
        d.settle(limit: 3000)
        #expect(d.scene().pan == nil)
        #expect(abs(last.x - d.settings.contentRect.center.x) < 1e-9 && abs(last.y - d.settings.contentRect.center.y) < 1e-9)
        // Back: every bubble where it was, pan included.
        try d.send(.pinch)
        d.settle(limit: 3000)
        let back = Self.centres(d)
        #expect(back.keys.sorted() == panned.keys.sorted())
        for (id, p) in panned {
            let q = try #require(back[id])
            #expect(abs(q.x - p.x) < 1e-6 && abs(q.y - p.y) < 1e-6, "\(id)")
        }
    }

    @Test func newLiveSettingsKeepAPannedLevelAsItIs() throws {
        let d = try Self.opened(60, categories: true)
        let before = Self.centres(d)
        var feel = d.settings
        feel.motion.contactFriction = d.settings.motion.contactFriction * 0.5
        try d.send(.settings(feel))
        d.settle(limit: 3000)
        let after = Self.centres(d)
        for (id, p) in before {
            let q = try #require(after[id])
            #expect(abs(q.x - p.x) < 1e-3 && abs(q.y - p.y) < 1e-3, "\(id) moved from \(p) to \(q)")
        }
    }

    @Test func emptySpaceOfALevelThatFitsTakesNoPress() throws {
        let d = try Self.opened(12)
        let p = try #require(Self.emptyPoint(d))
        #expect(throws: DashboardError.self) { try d.send(.press(at: p)) }
    }

    @Test func panningIsDeterministicAndInTheStateHash() throws {
        func run() throws -> (Dashboard, UInt64) {
            let d = try Self.opened(60, categories: true)
            let before = d.stateHash
            let start = try #require(Self.emptyPoint(d))
            try d.send(.press(at: start))
            for k in 1...6 {
                try d.send(.move(to: ScenePoint(x: start.x - Double(k) * 7, y: start.y - Double(k) * 11)))
                d.step()
            }
            try d.send(.release)
            d.step(count: 20)
            #expect(d.stateHash != before)
            return (d, d.stateHash)
        }
        let (_, a) = try run()
        let (_, b) = try run()
        #expect(a == b)
    }
}
