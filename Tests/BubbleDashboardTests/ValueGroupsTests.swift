@testable import BubbleDashboard
import BubblePhysics
import BubbleSupport
import Foundation
import Testing

/// Large levels whose most slowly varying field has few values: one group per value, named by
/// it; ranges only beyond that, never joining values that could stand alone; groups placed in
/// reading order; titles never drawn under the legibility floor. On title shapes of this suite's
/// own, not the sample library's.
@Suite("One group per value, in reading order")
struct ValueGroupsTests {
    /// A title shape: the titles for `values` values of the slowest field, `per` reports each, in
    /// data order, and the group title each value should get.
    struct Shape: CustomTestStringConvertible, Sendable {
        var name: String
        var titles: @Sendable (_ value: Int, _ report: Int) -> String
        var groupTitle: @Sendable (_ value: Int) -> String
        var testDescription: String { name }
    }

    static let codes = [12, 42, 87, 305, 311, 480, 512, 600, 731, 802, 815, 903, 1010, 1204, 1300, 1450, 1777, 1800, 1999, 2400]
    static let cities = [
        "Aberdeen", "Bergen", "Cadiz", "Dresden", "Essen", "Faro", "Genoa", "Hamburg", "Izmir", "Jena",
        "Kassel", "Lyon", "Malmo", "Nantes", "Oslo", "Porto", "Quimper", "Riga", "Split", "Turin",
    ]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
    static let shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static let shapes: [Shape] = [
        Shape(name: "project codes", titles: { v, k in "Project PRJ-\(pad(codes[v])) Status Report #\(k + 1)" },
              groupTitle: { v in "PRJ-\(pad(codes[v]))" }),
        Shape(name: "store numbers", titles: { v, k in "Store #\(codes[v]) Weekly Sales wk \(k + 1)" },
              groupTitle: { v in "Store #\(codes[v])" }),
        Shape(name: "region words", titles: { v, k in "Region \(cities[v]) Sales Review \(k + 1)" },
              groupTitle: { v in cities[v] }),
        Shape(name: "months", titles: { v, k in "Treasury Pack \(months[v % 12]) \(2019 + v / 12) part \(k + 1)" },
              groupTitle: { v in "\(shortMonths[v % 12]) \(2019 + v / 12)" }),
    ]

    static func pad(_ n: Int) -> String { n < 10 ? "000\(n)" : n < 100 ? "00\(n)" : n < 1000 ? "0\(n)" : "\(n)" }

    /// One category of reports titled `titles` under the root.
    static func tree(_ titles: [String]) throws -> DashboardTree {
        var nodes = [
            DashboardNode(id: "root", title: "All", kind: .category, colour: nil, children: [1], reportCount: titles.count),
            DashboardNode(id: "big", title: "Big", kind: .category, colour: nil, children: [], reportCount: titles.count),
        ]
        for (i, t) in titles.enumerated() {
            nodes[1].children.append(nodes.count)
            nodes.append(DashboardNode(id: "n\(i)", title: t, kind: .report, colour: nil, children: [], reportCount: 1))
        }
        return try DashboardTree(nodes: nodes)
    }

    /// A dashboard with the big category of `titles` opened and settled.
    static func opened(_ titles: [String], settings: DashboardSettings = DashboardSettings()) throws -> Dashboard {
        let d = try Dashboard(tree: tree(titles), settings: settings)
        for id in ["root", "big"] {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        return d
    }

    /// About 240 reports over `values` values of `shape`.
    static func titles(_ shape: Shape, values: Int) -> [String] {
        let per = max(8, 240 / values)
        return (0..<values).flatMap { v in (0..<per).map { shape.titles(v, $0) } }
    }

    @Test(arguments: shapes, [2, 3, 4, 7, 12, 16, 20])
    func aFieldOfFewValuesGetsAGroupPerValue(shape: Shape, values: Int) throws {
        let all = Self.titles(shape, values: values)
        let d = try Self.opened(all)
        let groups = d.levels.nodes[d.focus].children
        #expect(groups.allSatisfy { d.levels.nodes[$0].kind == .group })
        #expect(groups.map { d.levels.nodes[$0].title } == (0..<values).map(shape.groupTitle), "\(shape.name), \(values) values")
        let per = all.count / values
        #expect(groups.allSatisfy { d.levels.nodes[$0].children.count == per })
    }

    /// No group label is a range when every value could be a group of its own (the planner with
    /// room for as many groups as values); with fewer groups than values, ranges join whole values.
    @Test(arguments: shapes)
    func noRangeJoinsValuesThatCouldStandAlone(shape: Shape) {
        for values in [2, 4, 9] {
            let all = Self.titles(shape, values: values)
            for maxGroups in values...(values + 6) {
                let plans = LevelGrouping.plan(titles: all, maxGroups: maxGroups)
                #expect(plans.map(\.title) == (0..<values).map(shape.groupTitle), "\(shape.name): \(values) values, \(maxGroups) groups")
                #expect(!plans.contains { $0.title.contains("–") })
            }
        }
    }

    /// The 72 status reports of four projects with far-apart numbers: four groups, not "PRJ-0012 – 0042".
    @Test func fourProjectsAreFourGroups() throws {
        let projects = [12, 42, 87, 305]
        let all = projects.flatMap { p in (1...18).map { "Project PRJ-\(Self.pad(p)) Status Report #\($0)" } }
        for maxGroups in 4...12 {
            #expect(LevelGrouping.plan(titles: all, maxGroups: maxGroups).map(\.title) == ["PRJ-0012", "PRJ-0042", "PRJ-0087", "PRJ-0305"])
        }
    }

    // MARK: Reading order

    /// The angle of `p` round `c`, clockwise from twelve o'clock, in degrees (−20 ..< 340: a
    /// bubble centred a little before twelve reads as at twelve).
    static func clockAngle(_ p: Vector2, _ c: Vector2) -> Double {
        let a = atan2(p.x - c.x, c.y - p.y) * 180 / Double.pi
        return a < -20 ? a + 360 : a
    }

    /// Checks that the level's children lie in reading order as `layout.readingOrder` says:
    /// clockwise from twelve o'clock (the first within 45° of it, each next one further round, all
    /// within one turn) or in rows from the top left.
    static func checkReadingOrder(_ layout: LevelLayout, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let homes = layout.home
        switch layout.readingOrder {
        case .clockwise:
            let angles = homes.map { clockAngle($0, layout.centre) }
            #expect(abs(angles[0]) < 20, "\(context): the first at \(angles[0])°", sourceLocation: sourceLocation)
            for i in angles.indices.dropFirst() {
                #expect(angles[i] > angles[i - 1], "\(context): child \(i) at \(angles[i])°, after \(angles[i - 1])°", sourceLocation: sourceLocation)
            }
        case .rows:
            for i in homes.indices.dropFirst() {
                let a = homes[i - 1], b = homes[i]
                let sameRow = abs(a.y - b.y) < 1
                #expect(sameRow ? b.x > a.x : b.y > a.y, "\(context): child \(i) at \(b), after \(a)", sourceLocation: sourceLocation)
            }
        case .spiral:
            Issue.record("\(context): an ordered level of groups laid out as a spiral", sourceLocation: sourceLocation)
        }
    }

    /// 124 titles in three scripts with no shared structure: alphabetical groups, read from twelve
    /// o'clock clockwise (or in rows), also after a resize and after a pinch back to the level.
    @Test func alphabeticalGroupsReadFromTwelveOClock() throws {
        let latin = ["Annual", "Budget", "Customer", "Delivery", "Energy", "Forecast", "Growth", "Harbour", "Inventory", "Journal",
                     "Kiosk", "Logistics", "Market", "Network", "Operations", "Payroll", "Quality", "Revenue", "Safety", "Travel"]
        let cyrillic = ["Анализ", "Бюджет", "Валюта", "Годовой", "Доход", "Журнал", "Закупки", "Индекс", "Касса", "Логистика",
                        "Маркетинг", "Налоги", "Отчёт", "Продажи", "Расходы", "Склад"]
        let greek = ["Ανάλυση", "Βιβλίο", "Γενικός", "Δαπάνες", "Έσοδα", "Ζήτηση", "Ισολογισμός", "Κόστος", "Λογαριασμός",
                     "Μισθοδοσία", "Ναύλα", "Ξενοδοχεία", "Οικονομικά", "Πωλήσεις"]
        let nouns = ["overview", "summary", "notes", "review", "memo", "digest", "brief", "tables"]
        var rng = SplitMix64(seed: 48)
        let all = (0..<124).map { i -> String in
            let pool = [latin, cyrillic, greek][i % 3]
            return "\(pool[Int(rng.next() % UInt64(pool.count))]) \(nouns[Int(rng.next() % 8)]) \(i % 7)"
        }
        let d = try Self.opened(all)
        #expect(d.levels.nodes[d.focus].children.count >= 4)
        Self.checkReadingOrder(try d.layout(of: d.focus), "124 titles")
        try d.send(.resize(SceneSize(width: 1024, height: 768)))
        d.settle(limit: 3000)
        Self.checkReadingOrder(try d.layout(of: d.focus), "124 titles, landscape")
        let first = d.levels.nodes[d.levels.nodes[d.focus].children[0]].id
        try d.send(.tapBubble(first))
        d.settle(limit: 3000)
        try d.send(.pinch)
        d.settle(limit: 3000)
        #expect(d.levels.nodes[d.focus].id == "big")
        Self.checkReadingOrder(try d.layout(of: d.focus), "124 titles, after a pinch back")
    }

    /// Groups of values, and of ranges beyond 20 values, on a portrait and a landscape canvas.
    @Test(arguments: [2, 5, 12, 20, 40])
    func valueGroupsReadInOrder(values: Int) throws {
        let all = (0..<values).flatMap { v in (1...max(8, 240 / values)).map { "Department \(v + 1) Budget Line \($0)" } }
        let d = try Self.opened(all)
        Self.checkReadingOrder(try d.layout(of: d.focus), "\(values) departments")
        try d.send(.resize(SceneSize(width: 1024, height: 768)))
        d.settle(limit: 3000)
        Self.checkReadingOrder(try d.layout(of: d.focus), "\(values) departments, landscape")
    }

    // MARK: Title sizes

    /// The title size rule never rounds under the floor: at the legibility floor's scale (11 / 14),
    /// and at every scale between it and 2, the drawn size is at least 11 pt.
    @Test func titleSizesNeverRoundUnderTheFloor() {
        let floor = DashboardSettings().sizes.minimumLabelFontSize
        for measured in [12.0, 14, 15, 17] {
            var scale = floor / measured
            while scale <= 2 {
                let size = TitleSize.drawn(measured: measured, scale: scale, largest: 17, floor: floor)
                #expect(size >= floor, "\(measured) pt at \(scale): \(size)")
                #expect(size * 2 == (size * 2).rounded(), "\(size) is not a half point")
                scale = scale.nextUp * 1.0137
            }
            #expect(TitleSize.drawn(measured: measured, scale: floor / measured, largest: 17, floor: floor) == floor)
        }
        // A floor between half points is rounded up, never down.
        #expect(TitleSize.drawn(measured: 14, scale: 0.5, largest: 17, floor: 10.2) == 10.5)
    }

    /// Every child of a grouped level (10 000 invoices in number ranges) carries its level's scale
    /// and the floor, and the rule gives it a title of at least 11 pt.
    @Test func groupTitlesOfTenThousandInvoicesKeepTheFloor() throws {
        let all = (0..<10_000).map { k -> String in
            let n = 3 + 7 * k
            let digits = String(n)
            return "Invoice INV-2020-" + String(repeating: "0", count: 6 - digits.count) + digits
        }
        let d = try Self.opened(all)
        let children = d.scene().bubbles.filter { $0.kind == .group }
        #expect(children.count >= 2)
        for b in children {
            let k = try #require(b.titleScale), floor = try #require(b.titleFloor)
            #expect(floor == 11)
            #expect(TitleSize.drawn(measured: 14, scale: k, largest: 17, floor: floor) >= 11, "\(b.label) at scale \(k)")
        }
    }
}
