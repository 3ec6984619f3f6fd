@_spi(Testbed) import BubbleDashboard
import Foundation
import PropertyBased
import Testing

/// Transition quality in simulated time (no wall clock). After every kind of event, on a level of
/// 30 children, on every level of the sample library and after random drags: every bubble covers
/// 95% of its way within 0.35 s, is within 1 pt of where it comes to rest within 0.6 s, and the
/// dashboard rests within 1.5 s. A way longer than about 600 pt takes what a glide at the speed cap
/// needs (95% of it, and landing plus 0.2 s): the cap keeps every bubble under 40 pt per step.
@Suite("Transition timing")
struct TransitionTimingTests {
    static let coveredLimit = 0.35
    static let settledLimit = 0.6
    static let restLimit = 1.5

    static let settings = DashboardSettings()
    /// For the level of 30 children: it times the motion of 30 bubbles, and with the default
    /// legibility floor that level (30 long titles, sized by the character estimate) is shown as
    /// groups.
    static var thirtyBubbles: DashboardSettings {
        var s = settings
        s.sizes.minimumLabelFontSize = 8
        return s
    }

    /// A root with 30 children, one of which (`cat-0`) also has 30 children.
    static func tree() -> DashboardTree {
        var nodes = [DashboardNode(id: "root", title: "All Reports", kind: .category, colour: nil, children: [], reportCount: 0)]
        func addLevel(parent: Int, prefix: String, count: Int) {
            for i in 0..<count {
                nodes[parent].children.append(nodes.count)
                if i % 2 == 0 {
                    nodes.append(DashboardNode(
                        id: "\(prefix)cat-\(i)", title: "Category \(i)", kind: .category, colour: nil, children: [],
                        reportCount: 1 + i % 9))
                } else {
                    nodes.append(DashboardNode(
                        id: "\(prefix)rep-\(i)", title: "Quarterly Report \(i) for the Region", kind: .report, colour: nil,
                        children: [], reportCount: 1))
                }
            }
        }
        addLevel(parent: 0, prefix: "", count: 30)
        addLevel(parent: nodes[0].children[0], prefix: "a-", count: 30)
        return try! DashboardTree(nodes: nodes)
    }

    /// Presses on the bubble under `from` (or the child nearest to it), moves the finger in a
    /// straight line to `to` over `seconds` (one move per step) and keeps the finger down.
    static func drag(_ d: Dashboard, from: ScenePoint, to: ScenePoint, seconds: Double) throws {
        let scene = d.scene()
        let children = scene.bubbles.filter { $0.kind != .focus && d.visibleIDs.contains($0.id) }
        let hit = d.hitTest(from).flatMap { id in children.contains { $0.id == id } ? id : nil }
        let id = hit ?? children.min {
            dist($0.centre, from) < dist($1.centre, from)
        }!.id
        try d.send(.pressBubble(id, at: from))
        let moves = max(1, Int((seconds / d.timeStep).rounded()))
        for k in 1...moves {
            let f = Double(k) / Double(moves)
            try d.send(.move(to: ScenePoint(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)))
            d.step()
        }
    }

    static func dist(_ a: ScenePoint, _ b: ScenePoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// Taps along `path` from the start screen, letting each level settle.
    static func open(_ d: Dashboard, _ path: [String]) throws {
        try d.send(.tapBubble("root"))
        d.settle()
        for id in path {
            try d.send(.tapBubble(id))
            d.settle()
        }
    }

    static func table() throws -> [TransitionTiming] {
        let d = try Dashboard(tree: tree(), settings: Self.thirtyBubbles)
        var result: [TransitionTiming] = []
        result.append(try TransitionProbe.measure(d, .tapBubble("root"), label: "tap root (first level appears)"))
        result.append(try TransitionProbe.measure(d, .tapBubble("cat-0"), label: "tap category (drill in)"))
        try d.send(.pressBubble("a-cat-2", at: ScenePoint(x: 300, y: 300)))
        for k in 1...20 {
            try d.send(.move(to: ScenePoint(x: 300 + Double(k) * 6, y: 300 + Double(k) * 4)))
            d.step()
        }
        result.append(try TransitionProbe.measure(d, .release, label: "drag release"))
        result.append(try TransitionProbe.measure(d, .recenter, label: "re-centre"))
        result.append(try TransitionProbe.measure(d, .pinch, label: "pinch (back one level)"))
        try d.send(.tapBubble("cat-0"))
        d.settle()
        result.append(try TransitionProbe.measure(d, .top, label: "top"))

        // The sample library's 27-report level: a long drag, let go, re-centre at once.
        let m = try Dashboard(tree: sampleTree, settings: Self.settings)
        try open(m, ["finance", "monthly-close"])
        try drag(m, from: ScenePoint(x: 200, y: 300), to: ScenePoint(x: 600, y: 700), seconds: 0.6)
        try m.send(.release)
        result.append(try TransitionProbe.measure(m, .recenter, label: "long drag, then re-centre (monthly-close, 27 cards)"))
        try drag(m, from: ScenePoint(x: 200, y: 300), to: ScenePoint(x: 600, y: 700), seconds: 0.6)
        result.append(try TransitionProbe.measure(m, .release, label: "long drag release (monthly-close)"))
        result.append(try TransitionProbe.measure(m, .recenter, label: "re-centre after it rests (monthly-close)"))
        return result
    }

    /// The time a glide of `way` points needs for 95% of it at the speed cap (a smoothstep covers
    /// 95% in 0.8647 of its time), plus a step for sampling: beyond about 600 pt this is over
    /// 0.35 s, and the cap, which keeps every bubble under 40 pt per step, wins.
    static func cappedCoverage(_ way: Double) -> Double {
        0.8647 * way / settings.motion.maxTravelSpeed + 1.0 / 60
    }

    static func check(_ t: TransitionTiming, _ context: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let name = context.isEmpty ? t.label : context + ": " + t.label
        let covered = max(coveredLimit, cappedCoverage(t.longestWay))
        #expect(t.coveredAfter <= covered, "\(name): 95% covered after \(t.coveredAfter) s (\(Int(t.longestWay)) pt at most)", sourceLocation: sourceLocation)
        // A glide at the cap lands after way / maxTravelSpeed: 0.4 s for 600 pt, which leaves
        // 0.2 s of the 0.6; a longer way keeps those 0.2 s after it lands.
        let settled = max(settledLimit, t.longestWay / settings.motion.maxTravelSpeed + 0.2)
        #expect(t.settledAfter <= settled, "\(name): within 1 pt after \(t.settledAfter) s; \(t.straggler)", sourceLocation: sourceLocation)
        #expect(t.restAfter <= restLimit, "\(name): at rest after \(t.restAfter) s", sourceLocation: sourceLocation)
    }

    static func line(_ t: TransitionTiming) -> String {
        String(format: "%-58@ %3d bubbles  95%%: %.3f s  1 pt: %.3f s  rest: %.3f s  %@", t.label as NSString, t.bubbles,
               t.coveredAfter, t.settledAfter, t.restAfter, t.straggler as NSString)
    }

    @Test func everyEventKindSettlesQuickly() throws {
        let rows = try Self.table()
        if ProcessInfo.processInfo.environment["BUBBLES_PRINT_TIMINGS"] == "1" { for t in rows { print(Self.line(t)) } }
        for t in rows {
            Self.check(t)
            #expect(t.bubbles >= 28, "\(t.label)")
        }
    }

    /// Every category of the sample library with children: drill in, a drag let go, re-centre,
    /// the reports table opened and closed, back, and top.
    @Test func everySampleLevelSettlesQuickly() throws {
        let verbose = ProcessInfo.processInfo.environment["BUBBLES_PRINT_TIMINGS"] == "1"
        var worst: [String: TransitionTiming] = [:]
        for (index, node) in sampleTree.nodes.enumerated() where node.kind == .category && !node.children.isEmpty && index != 0 {
            var path: [String] = []
            var p = index
            while p != 0 {
                path.insert(sampleTree.nodes[p].id, at: 0)
                p = sampleTree.nodes.firstIndex { $0.children.contains(p) }!
            }
            let d = try Dashboard(tree: sampleTree, settings: Self.settings)
            try Self.open(d, Array(path.dropLast()))
            var rows = [try TransitionProbe.measure(d, .tapBubble(node.id), label: "drill in")]
            let children = d.scene().bubbles.filter { $0.kind != .focus }
            if let first = children.first {
                try Self.drag(d, from: first.centre, to: ScenePoint(x: first.centre.x + 180, y: first.centre.y + 140), seconds: 0.4)
                rows.append(try TransitionProbe.measure(d, .release, label: "drag release"))
                rows.append(try TransitionProbe.measure(d, .recenter, label: "re-centre"))
            }
            rows.append(try TransitionProbe.measure(d, .showReports, label: "reports table"))
            rows.append(try TransitionProbe.measure(d, .closeOverlay, label: "close"))
            rows.append(try TransitionProbe.measure(d, .pinch, label: "pinch"))
            try d.send(.tapBubble(node.id))
            d.settle()
            rows.append(try TransitionProbe.measure(d, .top, label: "top"))
            for t in rows {
                Self.check(t, node.id)
                if let w = worst[t.label], w.settledAfter >= t.settledAfter { continue }
                var named = t
                named.label = t.label + " (" + node.id + ")"
                worst[t.label] = named
            }
        }
        if verbose {
            for label in ["drill in", "drag release", "re-centre", "reports table", "close", "pinch", "top"] {
                if let w = worst[label] { print("worst " + Self.line(w)) }
            }
        }
    }

    /// A drag on one of the sample library's largest levels: from and to as fractions of the
    /// bubble area, its length in seconds, and the steps between letting go and re-centring.
    struct RandomDrag: Sendable, CustomStringConvertible {
        static let levels = [["finance", "monthly-close"], [], ["sales", "store-performance", "stores-north-america"], ["finance"]]
        var level: Int
        var from: ScenePoint
        var to: ScenePoint
        var seconds: Double
        var pause: Int

        var description: String {
            "\(Self.levels[level].last ?? "root"): drag from (\(Int(from.x)), \(Int(from.y))) to (\(Int(to.x)), \(Int(to.y))) "
                + "in \(seconds) s, re-centre \(pause) steps after letting go"
        }
    }

    static let randomDrag = zip(
        Gen.int(in: 0...(RandomDrag.levels.count - 1)), Gen.double(in: 0...1).array(of: 4), Gen.int(in: 9...54), Gen.int(in: 0...40)
    ).map { level, xy, moves, pause in
        RandomDrag(
            level: level, from: ScenePoint(x: 40 + xy[0] * 688, y: 120 + xy[1] * 780),
            to: ScenePoint(x: 20 + xy[2] * 728, y: 110 + xy[3] * 800), seconds: Double(moves) / 60, pause: pause)
    }

    static func checkRandomDrag(_ r: RandomDrag) throws {
        let d = try Dashboard(tree: sampleTree, settings: Self.settings)
        try open(d, RandomDrag.levels[r.level])
        try drag(d, from: r.from, to: r.to, seconds: r.seconds)
        try d.send(.release)
        d.step(count: r.pause)
        check(try TransitionProbe.measure(d, .recenter, label: "re-centre"), r.description)
    }

    /// Random drags, let go, then re-centre: 16 from a fixed seed, so CI is repeatable.
    @Test func seededRandomDragsThenRecentreSettleQuickly() throws {
        var rng = Xoshiro(seed: (0x5EED_0021, 0xD2A6, 0x2E_CE47, 0x7A11))
        for _ in 0..<16 { try Self.checkRandomDrag(Self.randomDrag.run(using: &rng)) }
        // Found by a random run: the dragged card 635 pt from home, beyond what a glide at the
        // speed cap covers to 95% in 0.35 s (it takes 0.367 s).
        try Self.checkRandomDrag(RandomDrag(level: 0, from: ScenePoint(x: 40, y: 120), to: ScenePoint(x: 20, y: 755), seconds: 0.25, pause: 0))
    }

    /// The same property from new seeds (printed with a failing input); run it by hand with
    /// `BUBBLES_RANDOM_PROPERTIES=1 swift test --filter randomDragsThenRecentre`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_RANDOM_PROPERTIES"] == "1", "set BUBBLES_RANDOM_PROPERTIES=1 for new random cases"), .shrinking(false))
    func randomDragsThenRecentreSettleQuickly() async {
        await propertyCheck(count: 24, input: Self.randomDrag) { r in try Self.checkRandomDrag(r) }
    }
}
