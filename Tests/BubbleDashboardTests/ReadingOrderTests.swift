@_spi(Testbed) import BubbleDashboard
import BubbleScenario
import DashboardLibrary
import ReportLibrary
import TestSupport
import Testing

/// Issue 31: a level's children read in data order, from twelve o'clock clockwise, ring by ring,
/// so that "2016" is found next to "2015". Checked at rest, on the home layout.
@Suite("Reading order")
struct ReadingOrderTests {
    /// A root with one category of twelve year-titled reports, "Board Minutes 2010" … "2021".
    static func boardMinutes() throws -> DashboardTree {
        var nodes = [
            DashboardNode(id: "root", title: "All Reports", kind: .category, colour: nil, children: [1], reportCount: 12),
            DashboardNode(id: "board", title: "Board Minutes", kind: .category, colour: nil, children: [], reportCount: 12),
        ]
        for year in 2010...2021 {
            nodes[1].children.append(nodes.count)
            nodes.append(DashboardNode(
                id: "minutes-\(year)", title: "Board Minutes \(year)", kind: .report, colour: nil, children: [],
                reportCount: 1, pageCount: 2))
        }
        return try DashboardTree(nodes: nodes)
    }

    /// The children of the level at `path` at rest, in data order: their centres and how far
    /// each reaches from its centre, and the focus' centre.
    static func homes(_ tree: DashboardTree, _ path: [String]) throws -> (centres: [ScenePoint], reaches: [Double], focus: ScenePoint) {
        let d = try Dashboard(tree: tree)
        for id in [tree.nodes[0].id] + path {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        #expect(d.isAtRest)
        let scene = d.scene()
        let focus = try #require(scene.bubbles.first { $0.kind == .focus && $0.opacity > 0.99 })
        var centres: [ScenePoint] = []
        var reaches: [Double] = []
        for child in d.levels.nodes[d.focus].children {
            let id = d.levels.nodes[child].id
            let b = try #require(scene.bubbles.first { $0.id == id && $0.kind != .focus }, "\(id)")
            centres.append(b.centre)
            switch b.shape {
            case .circle(let r): reaches.append(r)
            case .roundedRect(let w, let h, _): reaches.append((w * w + h * h).squareRoot() / 2)
            }
        }
        return (centres, reaches, focus.centre)
    }

    static func distance(_ a: ScenePoint, _ b: ScenePoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// Checks the level at `path`: the first child sits near twelve o'clock, and every child's
    /// successor in data order lies beside it (no farther than `slack` times the distance at which
    /// their bounding circles touch) and, for two thirds of them, is one of its three nearest
    /// siblings. The layout that began every ring at the top failed the last two on both levels.
    static func check(_ tree: DashboardTree, _ path: [String], slack: Double, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (centres, reaches, focus) = try homes(tree, path)
        let gap = DashboardSettings().sizes.gap
        let name = path.last ?? "root"
        try #require(centres.count >= 10, sourceLocation: sourceLocation)
        // Twelve o'clock: the first child above the focus, its centre within 45° of the vertical (the
        // packing turns a ring a little).
        let dx = centres[0].x - focus.x, dy = focus.y - centres[0].y
        #expect(dy > 0 && abs(dx) <= dy, "\(name): the first child at (\(dx), \(-dy)) from the focus", sourceLocation: sourceLocation)
        var beside = 0
        for i in 0..<(centres.count - 1) {
            let step = distance(centres[i], centres[i + 1])
            let touching = reaches[i] + reaches[i + 1] + gap
            #expect(step <= touching * slack, "\(name): child \(i + 1) is \(step) pt from child \(i) (touching: \(touching) pt)", sourceLocation: sourceLocation)
            let nearest = centres.indices.filter { $0 != i }
                .sorted { (distance(centres[$0], centres[i]), $0) < (distance(centres[$1], centres[i]), $1) }
                .prefix(3)
            if nearest.contains(i + 1) { beside += 1 }
        }
        #expect(beside * 3 >= (centres.count - 1) * 2, "\(name): \(beside) of \(centres.count - 1) successors among the three nearest", sourceLocation: sourceLocation)
    }

    @Test func yearsReadClockwiseRingByRing() throws {
        try Self.check(try Self.boardMinutes(), ["board"], slack: 1.3)
    }

    /// Data/large.json's Miscellaneous: 300 titles with no shared structure, shown as alphabetical
    /// ranges ("A – C", …, "Z") on two rings.
    @Test func alphabeticalGroupsReadClockwiseRingByRing() throws {
        let library = try LibraryLoader.load(packageRoot + "/Data/large.json", options: LibraryLoadOptions(checkFiles: false))
        try Self.check(try LibraryBridge.dashboardTree(library), ["miscellaneous"], slack: 1.3)
    }

    /// Many cards read in rows, left to right and top to bottom, broken round the focus: the
    /// sample's Monthly Close (27 cards, October 2015 to December 2017) at rest.
    @Test func manyCardsReadInRows() throws {
        let (centres, _, focus) = try Self.homes(sampleTree, ["finance", "monthly-close"])
        try #require(centres.count == 27)
        var rows = 1
        for i in 0..<(centres.count - 1) {
            let a = centres[i], b = centres[i + 1]
            if abs(b.y - a.y) < 1 {
                #expect(b.x > a.x, "card \(i + 1) is left of card \(i) in their row")
            } else {
                #expect(b.y > a.y, "card \(i + 1) is above card \(i)")
                rows += 1
            }
        }
        #expect(rows >= 4 && rows <= 10, "\(rows) rows")
        // The first card opens the top row, above the focus; a row that crosses the focus is
        // broken round it.
        #expect(centres.allSatisfy { $0.y >= centres[0].y - 1 } && centres[0].y < focus.y)
        #expect(centres.contains { abs($0.y - focus.y) < 60 && $0.x < focus.x } && centres.contains { abs($0.y - focus.y) < 60 && $0.x > focus.x })
    }
}
