@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DeterminismPins
import Foundation
import TestSupport
import Testing

/// The reports table scrolls as a UIScrollView does: scroll events and a finger on the rows, with
/// momentum and rubber-banding; every row can be reached; bad input changes nothing.
@Suite("Reports table scroll")
struct TableScrollTests {
    /// The sample library's Monthly Close level (27 reports) with its table open and settled.
    static func monthlyCloseTable() throws -> Dashboard {
        let d = try Dashboard(tree: sampleTree)
        for id in ["root", "finance", "monthly-close"] {
            try d.send(.tapBubble(id))
            d.settle()
        }
        try d.send(.showReports)
        d.settle()
        return d
    }

    /// The table overlay of the current scene.
    static func table(_ d: Dashboard) -> (reports: [SceneReport], scroll: SceneTableScroll)? {
        guard case .reportsTable(_, let reports, let scroll)? = d.scene().overlay else { return nil }
        return (reports, scroll)
    }

    static func geometry(_ d: Dashboard) -> ReportsTableGeometry {
        d.tableGeometry(rows: table(d)?.reports.count ?? 0)
    }

    @Test func geometryFitsTheRowsBetweenTheBars() {
        let chrome = SceneChrome()
        let small = ReportsTableGeometry(canvasWidth: 768, canvasHeight: 1024, chrome: chrome, rows: 3)
        #expect(small.viewportHeight == 3 * ReportsTableGeometry.rowHeight)
        #expect(small.maxScroll == 0 && !small.isScrollable)
        #expect(small.visibleRows(scroll: 0) == 0...2)
        let large = ReportsTableGeometry(canvasWidth: 768, canvasHeight: 1024, chrome: chrome, rows: 100)
        #expect(large.y >= chrome.navigationBarHeight + chrome.breadcrumbHeight)
        #expect(large.y + large.height <= 1024 - chrome.bottomBarHeight)
        #expect(large.maxScroll == 100 * ReportsTableGeometry.rowHeight - large.viewportHeight)
        #expect(large.visibleRows(scroll: 0) == 0...14)
        #expect(large.visibleRows(scroll: large.maxScroll) == 85...99)
        // Half a row scrolled: the first row is still partly in view, one more shows at the bottom.
        #expect(large.visibleRows(scroll: 22) == 0...15)
        #expect(large.row(at: ScenePoint(x: 384, y: large.viewportTop + 1), scroll: 22) == 0)
        #expect(large.row(at: ScenePoint(x: 384, y: large.viewportTop + 23), scroll: 22) == 1)
        #expect(large.row(at: ScenePoint(x: 384, y: large.viewportTop - 1), scroll: 0) == nil)
        #expect(ReportsTableGeometry(canvasWidth: 768, canvasHeight: 1024, chrome: chrome, rows: 0).visibleRows(scroll: 0) == nil)
    }

    @Test func theDecayPerStepIsThePowerOfTheDecelerationRate() {
        // UIScrollView's rates are per millisecond; the explicit series agrees with libm's pow.
        for rate in [0.998, 0.99, 0.95, 0.9] {
            for dt in [1.0 / 60, 1.0 / 120, 1.0 / 30, 0.25] {
                var s = TableScrollSettings()
                s.decelerationRate = rate
                let expected = Foundation.pow(rate, 1000 * dt)
                let got = s.decayPerStep(timeStep: dt)
                #expect(abs(got - expected) <= 1e-13 * max(expected, 1e-300), "\(rate)^(1000·\(dt)): \(got) vs \(expected)")
            }
        }
    }

    @Test func scrollEventsReachTheLastRowAndBack() throws {
        let d = try Self.monthlyCloseTable()
        let g = Self.geometry(d)
        #expect(g.rows == 27 && g.isScrollable)
        #expect(g.visibleRows(scroll: 0)?.upperBound ?? 99 < 26, "the last row is not in view before scrolling")
        var steps = 0
        while Self.table(d)!.scroll.offset < g.maxScroll && steps < 20 {
            try d.send(.scroll(400))
            d.settle()
            steps += 1
        }
        let end = Self.table(d)!.scroll.offset
        #expect(end == g.maxScroll, "rests exactly at the end, got \(end)")
        #expect(g.visibleRows(scroll: end)?.upperBound == 26)
        #expect(d.isAtRest)
        // A scroll of 400 pt from rest comes to rest 400 pt on, exactly.
        try d.send(.scroll(-400))
        d.settle()
        #expect(Self.table(d)!.scroll.offset == g.maxScroll - 400)
        try d.send(.scroll(-10_000))
        d.settle()
        #expect(Self.table(d)!.scroll.offset == 0)
        #expect(g.visibleRows(scroll: 0)?.lowerBound == 0)
    }

    @Test func everyRowOfALargeLevelCanBeReached() throws {
        let tree = syntheticTree(categories: 0, reports: 100)
        let d = try Dashboard(tree: tree)
        try d.send(.tapBubble("root"))
        d.settle()
        try d.send(.showReports)
        d.settle()
        let g = Self.geometry(d)
        #expect(g.rows == 100)
        var seen = Set<Int>()
        for _ in 0..<40 {
            if let rows = g.visibleRows(scroll: Self.table(d)!.scroll.offset) { seen.formUnion(rows) }
            try d.send(.scroll(300))
            d.settle()
        }
        #expect(seen == Set(0..<100))
        #expect(Self.table(d)!.scroll.offset == g.maxScroll)
    }

    @Test func aFlingPastTheEndBouncesBackToIt() throws {
        let d = try Self.monthlyCloseTable()
        let g = Self.geometry(d)
        try d.send(.scroll(5000))
        var deepest = 0.0
        var stepsPast = 0
        for _ in 0..<600 {
            d.step()
            let offset = Self.table(d)!.scroll.offset
            #expect(offset.isFinite && offset >= 0)
            deepest = max(deepest, offset - g.maxScroll)
            if offset > g.maxScroll { stepsPast += 1 }
            if d.isAtRest { break }
        }
        #expect(deepest > 1, "the rows overshoot the end")
        #expect(deepest <= d.settings.tableScroll.maxOvershoot, "overshoot \(deepest)")
        #expect(stepsPast < 60, "back at the end within a second, took \(stepsPast) steps")
        #expect(Self.table(d)!.scroll.offset == g.maxScroll)
        #expect(d.isAtRest)
    }

    @Test func rowsPulledPastTheTopRubberBandAndReturn() throws {
        let d = try Self.monthlyCloseTable()
        let g = Self.geometry(d)
        let x = 384.0, y0 = g.viewportTop + 40
        try d.send(.press(at: ScenePoint(x: x, y: y0)))
        for k in 1...20 {
            try d.send(.move(to: ScenePoint(x: x, y: y0 + 15 * Double(k))))
            d.step()
        }
        // Pulled 300 pt down: the rows follow less and less (UIScrollView's rubber band).
        let pulled = Self.table(d)!.scroll.offset
        let c = d.settings.tableScroll.rubberBandConstant, extent = g.viewportHeight
        #expect(abs(pulled - -(1 - 1 / (300 * c / extent + 1)) * extent) < 1e-9, "pulled to \(pulled)")
        d.step(count: 30)
        #expect(Self.table(d)!.scroll.offset == pulled, "held while the finger stays")
        try d.send(.release)
        d.settle()
        #expect(Self.table(d)!.scroll.offset == 0)
        #expect(d.isAtRest)
    }

    @Test func aFingerLetGoWhileMovingLeavesMomentum() throws {
        let d = try Self.monthlyCloseTable()
        let g = Self.geometry(d)
        let x = 384.0, y0 = g.viewportTop + 500
        try d.send(.press(at: ScenePoint(x: x, y: y0)))
        for k in 1...6 {
            try d.send(.move(to: ScenePoint(x: x, y: y0 - 20 * Double(k))))
            d.step()
        }
        let atRelease = Self.table(d)!.scroll.offset
        #expect(atRelease == 120, "the rows follow the finger exactly, got \(atRelease)")
        try d.send(.release)
        var previous = atRelease
        var lastStep = Double.infinity
        for _ in 0..<10 {
            d.step()
            let o = Self.table(d)!.scroll.offset
            #expect(o > previous, "keeps moving up after the finger lifts")
            #expect(o - previous < lastStep, "and slows down")
            lastStep = o - previous
            previous = o
        }
        d.settle()
        let rest = Self.table(d)!.scroll.offset
        // 20 pt per step is 1200 pt/s: a fling carries far beyond where the finger let go.
        #expect(rest > atRelease + 300 && rest <= g.maxScroll, "came to rest at \(rest)")
        // A tap on moving rows stops them rather than choosing a row.
        try d.send(.press(at: ScenePoint(x: x, y: y0)))
        for k in 1...6 {
            try d.send(.move(to: ScenePoint(x: x, y: y0 + 20 * Double(k))))
            d.step()
        }
        try d.send(.release)
        d.step(count: 3)
        try d.send(.tap(at: ScenePoint(x: x, y: y0)))
        let stopped = Self.table(d)!.scroll.offset
        d.settle()
        #expect(Self.table(d)!.scroll.offset == stopped)
        #expect(Self.table(d) != nil, "the table stays open")
    }

    @Test func theIndicatorShowsWhileScrollingAndFadesAfter() throws {
        let d = try Self.monthlyCloseTable()
        #expect(Self.table(d)!.scroll.indicatorOpacity == 0)
        try d.send(.scroll(200))
        d.step()
        #expect(Self.table(d)!.scroll.indicatorOpacity == 1)
        d.settle()
        #expect(Self.table(d)!.scroll.indicatorOpacity == 0)
    }

    @Test func badScrollsAreRefusedAndChangeNothing() throws {
        let d = try Self.monthlyCloseTable()
        try d.send(.scroll(100))
        d.step(count: 5)
        let hash = d.stateHash
        for bad in [Double.nan, .infinity, -.infinity, 1e300, -2e6] {
            #expect { try d.send(.scroll(bad)) } throws: { error in
                guard case .invalidNumber("scroll", let value) = error as? DashboardError else { return false }
                return value.isNaN ? bad.isNaN : value == bad
            }
        }
        #expect(d.stateHash == hash)
        try d.send(.closeOverlay)
        let closing = d.stateHash
        #expect(throws: DashboardError.noTableOpen) { try d.send(.scroll(100)) }
        #expect(d.stateHash == closing)
        let fresh = try Dashboard(tree: sampleTree)
        let start = fresh.stateHash
        #expect(throws: DashboardError.noTableOpen) { try fresh.send(.scroll(100)) }
        #expect(fresh.stateHash == start)
        #expect(DashboardError.noTableOpen.description.contains("no reports table is open"))
    }

    @Test func theSameEventsGiveTheSameStates() throws {
        func run() throws -> [UInt64] {
            let d = try Self.monthlyCloseTable()
            var hashes: [UInt64] = []
            try d.send(.scroll(333.3))
            d.step(count: 7)
            try d.send(.press(at: ScenePoint(x: 300, y: 600)))
            for k in 1...9 {
                try d.send(.move(to: ScenePoint(x: 300, y: 600 - 17.5 * Double(k))))
                d.step()
                hashes.append(d.stateHash)
            }
            try d.send(.release)
            try d.send(.scroll(5000))
            for _ in 0..<400 {
                d.step()
                hashes.append(d.stateHash)
            }
            return hashes
        }
        let a = try run(), b = try run()
        #expect(a == b)
        #expect(Set(a).count > 100, "the state moves")
    }

    @Test func aScenarioScrollsTheTable() throws {
        let scenario = try Scenario.load(packageRoot + "/Data/scenarios/table-scroll.json")
        let run = try ScenarioRun(scenario, trackMotion: false)
        for f in run.fired {
            #expect(f.error == nil, "\(f.label) at step \(f.step): \(f.error.map { "\($0)" } ?? "")")
        }
        #expect(run.fired.contains { $0.label == "scroll 2000" })
    }
}
