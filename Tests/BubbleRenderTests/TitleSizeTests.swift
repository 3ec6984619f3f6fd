@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Testing

/// The layout and the renderer share one rule for a child's title size (`TitleSize`): titles of
/// a level come out at one size, and never under the legibility floor after rounding.
@Suite("Title sizes the layout and the renderer agree on")
struct TitleSizeTests {
    /// A root with one category of `titles` (reports, or categories of one report each).
    static func tree(_ titles: [String], categories: Bool = false) throws -> DashboardTree {
        var nodes = [
            DashboardNode(id: "root", title: "All", kind: .category, colour: nil, children: [1], reportCount: titles.count),
            DashboardNode(id: "big", title: "Big", kind: .category, colour: nil, children: [], reportCount: titles.count),
        ]
        for (i, t) in titles.enumerated() {
            nodes[1].children.append(nodes.count)
            nodes.append(DashboardNode(id: "n\(i)", title: t, kind: categories ? .category : .report, colour: nil,
                                       children: categories ? [nodes.count + 1] : [], reportCount: 1))
            if categories {
                nodes.append(DashboardNode(id: "r\(i)", title: "\(t) report", kind: .report, colour: nil, children: [], reportCount: 1))
            }
        }
        return try DashboardTree(nodes: nodes)
    }

    /// The labels drawn for the level of `big`, measured and rendered with Pango.
    static func labels(_ tree: DashboardTree) throws -> (labels: [LabelLayout], scene: Scene) {
        let d = try Dashboard(tree: tree, measurer: PangoTextMeasurer())
        for id in ["root", "big"] {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        let scene = d.scene()
        return (SceneRenderer(pixelScale: 1).layoutLabels(scene), scene)
    }

    /// 10 000 invoices in number ranges: every group's name and count at 11 pt or more (they were
    /// drawn at 10.5 pt when the renderer sized titles from the radius).
    @Test func invoiceRangesKeepTheFloor() throws {
        let titles = (0..<10_000).map { k -> String in
            let digits = String(3 + 7 * k)
            return "Invoice INV-2020-" + String(repeating: "0", count: 6 - digits.count) + digits
        }
        let (labels, scene) = try Self.labels(Self.tree(titles))
        let groups = Set(scene.bubbles.filter { $0.kind == .group }.map(\.id))
        #expect(groups.count >= 2)
        let drawn = labels.filter { groups.contains($0.owner) || groups.contains(String($0.owner.drop { $0 != ":" }.dropFirst())) }
        #expect(drawn.count == 2 * groups.count)
        for l in drawn { #expect(l.fontSize >= 11, "\(l.owner): \(l.label) at \(l.fontSize) pt") }
        // One size for every group's name.
        #expect(Set(drawn.filter { $0.role == .bubbleTitle }.map(\.fontSize)).count == 1)
    }

    /// A crowded level of city circles: short and long names at one title size (the size the
    /// layout measured them at, scaled with the level), none under the floor.
    @Test func circleTitlesOfALevelShareOneSize() throws {
        let cities = ["Copenhagen", "Amsterdam", "Oslo", "Rome", "Lisbon", "Brussels", "Vienna", "Prague", "Warsaw", "Athens",
                      "Dublin", "Madrid", "Berlin", "Paris", "Helsinki", "Stockholm", "Budapest", "Bucharest", "Sofia", "Riga",
                      "Tallinn", "Vilnius", "Zagreb", "Ljubljana", "Bratislava", "Luxembourg", "Valletta", "Nicosia"]
        let (labels, scene) = try Self.labels(Self.tree(cities, categories: true))
        let circles = Set(scene.bubbles.filter { $0.kind == .category || $0.kind == .group }.map(\.id))
        let titles = labels.filter { circles.contains($0.owner) && $0.role == .bubbleTitle && !$0.isTruncated }
        #expect(titles.count >= 10)
        #expect(titles.allSatisfy { $0.fontSize >= 11 })
        // Not yet: the longest names ("Copenhagen", "Luxembourg") still come out half a point to a
        // point smaller than their neighbours; the circle the layout grows for them is not quite
        // the room the renderer's fitting needs at the level's size.
        withKnownIssue("the longest names are fitted a size smaller") {
            #expect(Set(titles.map(\.fontSize)).count == 1, "\(titles.map { "\($0.label) \($0.fontSize)" })")
        }
    }
}
