@testable import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import TestSupport
import Testing

/// Large levels: grouping from titles, labels that tell siblings apart, groups that behave as
/// categories, and levels of every size.
@Suite("Groups and labels of large levels")
struct GroupingTests {
    static let months = MonthNames.english
    static let monate = MonthNames.german

    /// One category of reports titled `titles` under the root.
    static func tree(_ titles: [String], categories: Bool = false) -> DashboardTree {
        var nodes = [
            DashboardNode(id: "root", title: "All", kind: .category, colour: nil, children: [1], reportCount: titles.count),
            DashboardNode(id: "big", title: "Big", kind: .category, colour: nil, children: [], reportCount: titles.count),
        ]
        for (i, t) in titles.enumerated() {
            nodes[1].children.append(nodes.count)
            nodes.append(DashboardNode(id: "n\(i)", title: t, kind: categories ? .category : .report, colour: nil, children: [],
                                       reportCount: categories ? 0 : 1))
        }
        return try! DashboardTree(nodes: nodes)
    }

    static func titles(_ plans: [GroupPlan]) -> [String] { plans.map(\.title) }

    /// A dashboard on `tree(titles)` with the big category opened and settled.
    static func opened(_ titles: [String]) throws -> Dashboard {
        let d = try Dashboard(tree: tree(titles))
        for id in ["root", "big"] {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        return d
    }

    @Test func datesInEnglishGermanAndISOFormGroupByYear() {
        var english: [String] = []
        for y in 2008...2017 { for m in Self.months { english.append("Month-End Close Pack — \(m) \(y)") } }
        let e = LevelGrouping.plan(titles: english, maxGroups: 12)
        #expect(Self.titles(e) == (2008...2017).map(String.init))
        #expect(e.allSatisfy { $0.range.count == 12 } && e[0].key == "d2008")
        var german: [String] = []
        for y in 2016...2017 { for m in Self.monate { german.append("Monatsbericht \(m) \(y)") } }
        // 24 titles: a dashboard gives them at most 24 / 8 groups, so years; with room for more,
        // the finest period that fits (quarters of six months' reports would be groups of three).
        #expect(Self.titles(LevelGrouping.plan(titles: german, maxGroups: 3)) == ["2016", "2017"])
        let oneYear = Self.monate.map { "Monatsbericht \($0) 2016" }
        #expect(Self.titles(LevelGrouping.plan(titles: oneYear, maxGroups: 2)) == ["Jan\u{00A0}–\u{2060}\u{00A0}Jun 2016", "Jul\u{00A0}–\u{2060}\u{00A0}Dec 2016"])
        #expect(Self.titles(LevelGrouping.plan(titles: oneYear, maxGroups: 12)).count == 12)
        let iso = (1...28).map { "Daily Sales 2016-02-\($0 < 10 ? "0" : "")\($0)" } + (1...31).map { "Daily Sales 2016-03-\($0 < 10 ? "0" : "")\($0)" }
        #expect(Self.titles(LevelGrouping.plan(titles: iso, maxGroups: 12)) == ["Feb 2016", "Mar 2016"])
        let quarters = (2014...2016).flatMap { y in (1...4).map { "Q\($0) \(y) Results" } }
        #expect(Self.titles(LevelGrouping.plan(titles: quarters, maxGroups: 3)) == ["2014", "2015", "2016"])
        // Too many years for the groups: neighbouring years share one.
        let decades = (1970...2019).map { "Annual Report \($0)" }
        let merged = LevelGrouping.plan(titles: decades, maxGroups: 10)
        #expect(merged.count == 10 && merged[0].title == "1970\u{00A0}–\u{2060}\u{00A0}1974" && merged.map(\.range.count).reduce(0, +) == 50)
    }

    @Test func numbersGroupInRoundBins() {
        let stores = (101...700).map { "Store \($0) Performance Review" }
        let plan = LevelGrouping.plan(titles: stores, maxGroups: 16)
        #expect(plan.count == 12)
        #expect(plan[0].title == "Store 101\u{00A0}–\u{2060}\u{00A0}150" && plan[0].key == "n101-150" && plan[11].title == "Store 651\u{00A0}–\u{2060}\u{00A0}700")
        let invoices = (1...10_000).map { "Invoice INV-2016-\(String(repeating: "0", count: 5 - String($0).count))\($0) — Globex" }
        let inv = LevelGrouping.plan(titles: invoices, maxGroups: 16)
        #expect(inv.count == 10 && inv[0].range == 0..<1000)
        #expect(inv[0].title == "INV-2016-00001\u{00A0}–\u{2060}\u{00A0}01000")
    }

    @Test func alphabeticalRunsAndPositionsOtherwise() {
        let names = ["Acme", "Alpha", "Beta", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet",
                     "Kilo", "Lima", "Mike", "November", "Oscar", "Papa", "Quebec", "Romeo", "Sierra", "Tango"]
        let letters = LevelGrouping.plan(titles: names.map { "\($0) Supplier Review" }, maxGroups: 4)
        #expect(letters.count == 4 && letters[0].title.hasPrefix("A\u{00A0}–\u{2060}\u{00A0}") && letters.last!.title.hasSuffix("\u{00A0}–\u{2060}\u{00A0}T"))
        // Identical titles: distinct, usable groups by position.
        let same = LevelGrouping.plan(titles: Array(repeating: "Weekly Update", count: 200), maxGroups: 8)
        #expect(Self.titles(same) == ["1\u{00A0}–\u{2060}\u{00A0}25", "26\u{00A0}–\u{2060}\u{00A0}50", "51\u{00A0}–\u{2060}\u{00A0}75", "76\u{00A0}–\u{2060}\u{00A0}100", "101\u{00A0}–\u{2060}\u{00A0}125", "126\u{00A0}–\u{2060}\u{00A0}150", "151\u{00A0}–\u{2060}\u{00A0}175", "176\u{00A0}–\u{2060}\u{00A0}200"])
        #expect(Set(same.map(\.key)).count == same.count)
        // No common structure, not in order: alphabetical ranges (#31), every title in one of them.
        let words = ["Zeta", "Alpha", "Mu", "Beta", "Omega", "Gamma"]
        let mixed = (0..<120).map { "\(words[$0 % 6]) \(words[($0 * 7) % 6]) plan" }
        let plan = LevelGrouping.plan(titles: mixed, maxGroups: 10)
        #expect(plan.allSatisfy { $0.key.hasPrefix("a-") } && plan.flatMap(\.members).sorted() == Array(0..<120))
    }

    /// One added report changes one group, not all; the same titles give the same groups.
    @Test func groupsAreStable() {
        var titles = (101...700).map { "Store \($0) Performance Review" }
        let before = LevelGrouping.plan(titles: titles, maxGroups: 16)
        #expect(before == LevelGrouping.plan(titles: titles, maxGroups: 16))
        titles.append("Store 701 Performance Review")
        let after = LevelGrouping.plan(titles: titles, maxGroups: 16)
        #expect(Array(after.prefix(before.count)) == before)
        var daily: [String] = []
        for m in 1...12 { for d in 1...28 { daily.append("Daily \(2016)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)") } }
        let dBefore = LevelGrouping.plan(titles: daily, maxGroups: 16)
        daily.insert("Daily 2016-03-15", at: 70)
        let dAfter = LevelGrouping.plan(titles: daily, maxGroups: 16)
        #expect(zip(dBefore, dAfter).filter { $0.0.key != $0.1.key || $0.0.range.count != $0.1.range.count }.count <= 1)
    }

    @Test func siblingLabelsShowWhatTellsThemApart() {
        let packs = Self.months.map { "Month-End Close Pack — \($0) 2017" }
        let l = SiblingLabels(titles: packs)
        #expect(l.labels[2] == "March 2017" && l.caption == "Month-End Close Pack — …")
        let departments = SiblingLabels(titles: (1...120).map { "Department \($0)" })
        #expect(departments.labels[11] == "12" && departments.caption == "Department …")
        let stores = SiblingLabels(titles: (101...110).map { "Store \($0) Performance Review" })
        #expect(stores.labels[0] == "101" && stores.caption == "Store … Performance Review")
        let same = SiblingLabels(titles: Array(repeating: "Weekly Update", count: 5))
        #expect(same.labels == (1...5).map { "Weekly Update #\($0)" })
        // A grouped level's caption keeps the shared words between the fields too.
        let edges = [101, 103, 106].flatMap { store in [1, 52].map { "Store #\(store) weekly P&L wk \($0) FY2021" } }
        #expect(SiblingLabels.fieldCaption(edges) == "Store … weekly P&L wk … FY2021")
        #expect(SiblingLabels.fieldCaption(["Invoice 1 — Acme Logistics", "Invoice 9 — Globex", "Invoice 12 — Delta Foods"]) == "Invoice …")
        #expect(SiblingLabels.fieldCaption(["Budget 2016", "Budget 2016"]) == nil)
        #expect(SiblingLabels.fieldCaption(["Alpha", "Beta"]) == nil)
        // A grouped level's caption that only repeats what every group label says is left out.
        let dash = "\u{00A0}–\u{2060}\u{00A0}"
        #expect(LevelLayout.captionAddingTo(["Department 1\(dash)10\n10 categories", "Department 11\(dash)20\n10 categories"], "Department …") == nil)
        #expect(LevelLayout.captionAddingTo(["Store 101\(dash)150\n50 reports", "Store 151\(dash)200\n50 reports"], "Store … Performance Review") == "Store … Performance Review")
        #expect(LevelLayout.captionAddingTo(["2015\n12 reports", "2016\n12 reports"], "Month-End Close Pack — …") == "Month-End Close Pack — …")
        // A shared code with letters in it goes to the caption; a bare number stays on the card.
        let weeks = SiblingLabels(titles: (1...3).map { "Store #101 weekly P&L wk \($0) FY2021" })
        #expect(weeks.labels == ["1", "2", "3"] && weeks.caption == "Store #101 weekly P&L wk … FY2021")
        let months = SiblingLabels(titles: ["Close — March 2017", "Close — April 2017", "Close — May 2017"])
        #expect(months.labels == ["March 2017", "April 2017", "May 2017"] && months.caption == "Close — …")
        let different = SiblingLabels(titles: ["Budget", "Cash Flow", "Headcount"])
        #expect(different.labels == ["Budget", "Cash Flow", "Headcount"] && different.caption == nil)
    }

    /// A group is a category: tap drills in (the breadcrumbs show it), pinch goes back to exactly
    /// where things were, top and re-centre work, hit testing finds it, and its id is stable.
    @Test func aGroupBehavesAsACategory() throws {
        let titles = (101...400).map { "Store \($0) Performance Review" }
        let d = try Self.opened(titles)
        let level = d.scene()
        let groups = level.bubbles.filter { $0.kind == .group }
        #expect(groups.count >= 3 && groups.count <= 16)
        #expect(groups.reduce(0) { $0 + ($1.count ?? 0) } == 300)
        #expect(groups.first?.id.hasPrefix("big~n101-") == true && groups.first?.label.hasPrefix("Store 101\u{00A0}–\u{2060}\u{00A0}") == true)
        #expect(groups.first?.label.hasSuffix("\n\(groups[0].count!)\u{00A0}reports") == true)
        #expect(level.caption == "Store … Performance Review")
        let g = groups[1]
        #expect(d.hitTest(g.centre) == g.id)
        try d.send(.tapBubble(g.id))
        d.settle(limit: 3000)
        let inside = d.scene()
        let title = d.levels.nodes[d.levels.index(of: g.id)!].title
        #expect(inside.breadcrumbs == ["All", "Big", title])
        let numbers = inside.bubbles.filter { $0.kind == .report }.compactMap { Int($0.label) }
        #expect(numbers.count == g.count && numbers == Array(numbers[0]..<numbers[0] + numbers.count))
        try d.send(.pinch)
        d.settle(limit: 3000)
        let back = d.scene()
        for b in groups {
            let now = try #require(back.bubble(b.id))
            #expect(abs(now.centre.x - b.centre.x) < 1e-9 && abs(now.centre.y - b.centre.y) < 1e-9, "\(b.id)")
        }
        try d.send(.recenter)
        d.settle(limit: 3000)
        try d.send(.top)
        d.settle(limit: 3000)
        #expect(d.scene().breadcrumbs == ["All"])
        // The same events give the same state, groups included.
        let e = try Dashboard(tree: Self.tree(titles))
        for event: DashboardEvent in [.tapBubble("root"), .tapBubble("big"), .tapBubble(g.id), .pinch, .recenter, .top] {
            try e.send(event)
            e.settle(limit: 3000)
        }
        #expect(e.stateHash == d.stateHash)
    }

    /// Groups nest where one level is not enough (10 000 invoices: thousands, hundreds, tens).
    @Test func groupsNest() throws {
        let titles = (1...10_000).map { "Invoice INV-2016-\(String(repeating: "0", count: 5 - String($0).count))\($0)" }
        let d = try Dashboard(tree: Self.tree(titles))
        try d.send(.tapBubble("root"))
        d.settle(limit: 3000)
        var path = ["big"]
        for _ in 0..<4 {
            try d.send(.tapBubble(path.last!))
            d.settle(limit: 3000)
            let groups = d.scene().bubbles.filter { $0.kind == .group }
            guard let first = groups.first else { break }
            path.append(first.id)
        }
        #expect(path.count == 4, "\(path)")
        let cards = d.scene().bubbles.filter { $0.kind == .report }
        #expect(cards.count >= 10 && cards.count <= 50 && cards.first?.id == "n0", "\(cards.count) cards")
    }

    @Test(arguments: [0, 1, 2, 3])
    func tinyCategories(children: Int) throws {
        let d = try Self.opened((0..<children).map { "Report \($0)" })
        #expect(d.isAtRest)
        #expect(d.scene().bubbles.filter { $0.kind == .report }.count == children)
    }

    /// 100 000 reports in one category: a few groups on screen, found quickly, every report still
    /// reachable and counted once.
    @Test func aHundredThousandReports() throws {
        let titles = (1...100_000).map { "Report \($0)" }
        let d = try Self.opened(titles)
        let groups = d.scene().bubbles.filter { $0.kind == .group }
        #expect(groups.count >= 4 && groups.count <= 30)
        #expect(groups.reduce(0) { $0 + ($1.count ?? 0) } == 100_000)
        #expect(d.levels.reports(of: d.levels.index(of: "big")!).count == 100_000)
    }

    /// At rest, on every level of the large sample, labels differ among siblings and the level did
    /// not shrink its labels below the floor.
    @Test func everyLevelOfTheLargeSampleIsLegible() throws {
        let library = try LibraryLoader.load(packageRoot + "/Data/large.json", options: LibraryLoadOptions(checkFiles: false))
        let tree = try LibraryBridge.dashboardTree(library)
        let settings = DashboardSettings()
        for category in tree.nodes[0].children {
            let d = try Dashboard(tree: tree)
            try d.send(.tapBubble(tree.nodes[0].id))
            d.settle(limit: 3000)
            var id = tree.nodes[category].id
            // The category, then its first group at every depth.
            for _ in 0..<4 {
                try d.send(.tapBubble(id))
                d.settle(limit: 3000)
                #expect(d.isAtRest, "\(id)")
                let lay = try d.layout(of: d.focus)
                let floor = LevelLayout.floorShrink(tree: d.levels, focus: d.focus, settings: settings, measurer: nil)
                #expect(lay.shrink >= floor - 1e-9, "\(id): shrink \(lay.shrink) below the floor \(floor)")
                let children = d.scene().bubbles.filter { $0.kind != .focus }
                #expect(Set(children.map(\.label)).count == children.count, "\(id): labels repeat")
                guard let next = children.first(where: { $0.kind == .group }) else { break }
                id = next.id
            }
        }
    }

    /// Numbers from 0 group in bins from 0: "Department 0 – 24" holds 25 departments, not 26.
    @Test func numbersFromZeroFillBinsOfTheirSize() {
        let titles = (0..<120).map { "Department \($0)" }
        let plans = LevelGrouping.plan(titles: titles, maxGroups: 6, capacity: 30)
        #expect(plans.count >= 2)
        for p in plans {
            let bounds = p.title.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }).compactMap { Int($0) }
            guard bounds.count == 2 else { continue }
            #expect(bounds[1] - bounds[0] + 1 == p.range.count, "\(p.title) holds \(p.range.count)")
        }
        #expect(plans.first?.title.hasPrefix("Department 0\u{00A0}–\u{2060}\u{00A0}") == true)
    }

    /// Inside a group of positions, the groups and the numbered cards continue the group's range
    /// instead of starting again at 1.
    @Test func numberingInsideAGroupContinuesItsRange() throws {
        let d = try Self.opened(Array(repeating: "Untitled", count: 400))
        let top = d.scene().bubbles.filter { $0.kind == .group }
        #expect(top.count >= 2)
        let second = try #require(top.dropFirst().first)
        let range = second.label.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }).prefix(3)
        let first = try #require(Int(range.first ?? ""))
        #expect(first > 1)
        try d.send(.tapBubble(second.id))
        d.settle(limit: 3000)
        var labels = d.scene().bubbles.filter { $0.kind != .focus }.map(\.label)
        if let inner = d.scene().bubbles.first(where: { $0.kind == .group }) {
            // Grouped again: the inner groups begin where the outer one does.
            #expect(labels.first?.hasPrefix("\(first)\u{00A0}–\u{2060}\u{00A0}") == true, "\(labels.first ?? "")")
            try d.send(.tapBubble(inner.id))
            d.settle(limit: 3000)
            labels = d.scene().bubbles.filter { $0.kind != .focus }.map(\.label)
        }
        #expect(labels.first == "Untitled #\(first)", "\(labels.prefix(3))")
    }
}
