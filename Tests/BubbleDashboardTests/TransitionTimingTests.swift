import BubbleDashboard
import Testing

/// Transition quality in simulated time (no wall clock): a level of 30 children looks settled
/// within 0.6 s and rests within 1.5 s, for every kind of event.
@Suite("Transition timing")
struct TransitionTimingTests {
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

    /// This suite times the motion of 30 bubbles on a level; with the default legibility floor the
    /// level (30 long titles, sized by the character estimate) would be shown as groups.
    static var settings: DashboardSettings {
        var s = DashboardSettings()
        s.minimumLabelFontSize = 8
        return s
    }

    static func timings() throws -> [TransitionTiming] {
        let d = try Dashboard(tree: tree(), settings: settings)
        var result: [TransitionTiming] = []
        result.append(try TransitionProbe.measure(d, .tap("root"), label: "tap root (first level appears)"))
        result.append(try TransitionProbe.measure(d, .tap("cat-0"), label: "tap category (drill in)"))
        try d.send(.dragBegin("a-cat-2", at: ScenePoint(x: 300, y: 300)))
        for k in 1...20 {
            try d.send(.dragMove(to: ScenePoint(x: 300 + Double(k) * 6, y: 300 + Double(k) * 4)))
            d.step()
        }
        result.append(try TransitionProbe.measure(d, .dragEnd, label: "drag release"))
        result.append(try TransitionProbe.measure(d, .recenter, label: "re-centre"))
        result.append(try TransitionProbe.measure(d, .pinch, label: "pinch (back one level)"))
        try d.send(.tap("cat-0"))
        d.settle()
        result.append(try TransitionProbe.measure(d, .top, label: "top"))
        return result
    }

    @Test func thirtyChildrenSettleQuickly() throws {
        for t in try Self.timings() {
            #expect(t.settledAfter <= 0.6, "\(t.label): looks settled after \(t.settledAfter) s")
            #expect(t.restAfter <= 1.5, "\(t.label): at rest after \(t.restAfter) s")
            #expect(t.bubbles >= 30, "\(t.label)")
        }
    }
}

