@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import TestSupport
import Testing

/// A tap or a press at a canvas point hits whatever is there, as a finger does.
@Suite("Tap by point")
struct TapAtPointTests {
    static func centre(_ d: Dashboard, _ id: String) -> ScenePoint { d.scene().bubble(id)!.centre }

    /// A point in the bubble area with no bubble under it (scanned on a grid).
    static func emptySpot(_ d: Dashboard) -> ScenePoint? {
        let area = d.settings.chrome.contentRect(canvasWidth: d.settings.canvasWidth, canvasHeight: d.settings.canvasHeight)
        var y = area.y + 4
        while y < area.y + area.height {
            var x = 4.0
            while x < area.width {
                let p = ScenePoint(x: x, y: y)
                if d.hitTest(p) == nil { return p }
                x += 16
            }
            y += 16
        }
        return nil
    }

    @Test func aTapOnACategoryDrillsInExactlyAsATapByItsID() throws {
        let byID = try Dashboard(tree: sampleTree)
        let byPoint = try Dashboard(tree: sampleTree)
        try byID.send(.tapBubble("root"))
        try byPoint.send(.tap(at: ScenePoint(x: 384, y: 512)))
        #expect(byID.stateHash == byPoint.stateHash)
        byID.settle()
        byPoint.settle()
        for id in ["finance", "monthly-close"] {
            // Off the centre, still on the circle: a finger is not precise.
            var p = Self.centre(byPoint, id)
            p.x += 12
            p.y -= 9
            #expect(byPoint.hitTest(p) == id)
            try byID.send(.tapBubble(id))
            try byPoint.send(.tap(at: p))
            #expect(byID.stateHash == byPoint.stateHash, "at once after tapping \(id)")
            byID.settle()
            byPoint.settle()
            #expect(byID.stateHash == byPoint.stateHash, "settled after tapping \(id)")
            #expect(byPoint.scene().breadcrumbs.last == sampleTree.nodes[sampleTree.index(of: id)!].title)
        }
        // A report card opens its preview.
        let report = byPoint.scene().bubbles.first { $0.kind == .report }!
        try byID.send(.tapBubble(report.id))
        try byPoint.send(.tap(at: report.centre))
        #expect(byID.stateHash == byPoint.stateHash)
        guard case .reportPreview(let shown)? = byPoint.scene().overlay else { Issue.record("no preview"); return }
        #expect(shown.id == report.id)
        // The sheet's back arrow closes the preview.
        let back = byPoint.previewGeometry.backButton
        try byPoint.send(.tap(at: ScenePoint(x: back.x + back.width / 2, y: back.y + back.height / 2)))
        try byID.send(.closeOverlay)
        #expect(byID.stateHash == byPoint.stateHash)
    }

    @Test func anEmptySpotIsRefusedNamingThePoint() throws {
        let d = try Dashboard(tree: sampleTree)
        try d.send(.tapBubble("root"))
        d.settle()
        let spot = try #require(Self.emptySpot(d))
        let hash = d.stateHash
        #expect(throws: DashboardError.nothingAt(spot, what: "no bubble there")) { try d.send(.tap(at: spot)) }
        #expect(throws: DashboardError.nothingAt(spot, what: "no bubble there")) { try d.send(.press(at: spot)) }
        let bar = ScenePoint(x: 200, y: 30)
        #expect(throws: DashboardError.nothingAt(bar, what: "the navigation bar")) { try d.send(.tap(at: bar)) }
        #expect(d.stateHash == hash)
        let text = DashboardError.nothingAt(ScenePoint(x: 412, y: 380), what: "no bubble there").description
        #expect(text == "nothing at (412, 380): no bubble there")
    }

    @Test func pointsOffTheCanvasNaNAndHugeNumbersAreRefused() throws {
        let d = try Dashboard(tree: sampleTree)
        try d.send(.tapBubble("root"))
        d.step(count: 20)
        let hash = d.stateHash
        for p in [ScenePoint(x: -1, y: 500), ScenePoint(x: 768.5, y: 500), ScenePoint(x: 300, y: 1025), ScenePoint(x: 1e300, y: 2),
                  ScenePoint(x: 3, y: -1e300)] {
            #expect(throws: DashboardError.pointOutsideCanvas(p, width: 768, height: 1024)) { try d.send(.tap(at: p)) }
            #expect(throws: DashboardError.pointOutsideCanvas(p, width: 768, height: 1024)) { try d.send(.press(at: p)) }
        }
        for p in [ScenePoint(x: .nan, y: 500), ScenePoint(x: 20, y: .infinity)] {
            #expect { try d.send(.tap(at: p)) } throws: { error in
                guard case .invalidNumber(let field, _) = error as? DashboardError else { return false }
                return field == (p.x.isNaN ? "point.x" : "point.y")
            }
        }
        #expect(d.stateHash == hash)
        #expect(DashboardError.pointOutsideCanvas(ScenePoint(x: -1, y: 500), width: 768, height: 1024).description
            == "point (-1, 500) is outside the 768×1024 pt canvas")
    }

    @Test func toolbarButtonsAndTableRowsAreThere() throws {
        let d = try TableScrollTests.monthlyCloseTable()
        try d.send(.closeOverlay)
        d.settle()
        let chrome = d.settings.chrome
        func centre(_ b: ToolbarButton) -> ScenePoint {
            let f = chrome.toolbarButtonFrame(b, canvasWidth: 768, canvasHeight: 1024)
            return ScenePoint(x: f.x + f.width / 2, y: f.y + f.height / 2)
        }
        try d.send(.tap(at: centre(.reports)))
        guard case .reportsTable(_, let reports, _)? = d.scene().overlay else { Issue.record("no table"); return }
        d.settle()
        // The second row opens its report's preview, as a tap on the report's card does.
        let g = d.tableGeometry(rows: reports.count)
        try d.send(.tap(at: ScenePoint(x: 384, y: g.rowTop(1, scroll: 0) + 20)))
        guard case .reportPreview(let report)? = d.scene().overlay else { Issue.record("no preview"); return }
        #expect(report.id == reports[1].id)
        d.settle()
        try d.send(.tap(at: centre(.reports)))
        d.settle()
        // The table's header takes nothing; the dimmed backdrop closes the table.
        let header = ScenePoint(x: 384, y: g.y + 30)
        let hash = d.stateHash
        #expect(throws: DashboardError.nothingAt(header, what: "the reports table's header")) { try d.send(.tap(at: header)) }
        #expect(d.stateHash == hash)
        // Without a finder, the Filter button says that search needs an index, and leaves the table open.
        try d.send(.tap(at: centre(.filter)))
        #expect(d.scene().notice?.text == "Search needs an index")
        #expect(d.isFilterSheetOpen == false)
        try d.send(.tap(at: ScenePoint(x: 10, y: 500)))
        d.settle()
        #expect(d.scene().overlay == nil)
        // Top goes to the top level.
        try d.send(.tap(at: centre(.top)))
        d.settle()
        #expect(d.focusPath == [0])
    }

    @Test func aDragByPointMovesTheBubbleUnderTheFinger() throws {
        let byID = try Dashboard(tree: sampleTree)
        let byPoint = try Dashboard(tree: sampleTree)
        for d in [byID, byPoint] {
            try d.send(.tapBubble("root"))
            d.settle()
        }
        let p = Self.centre(byPoint, "finance")
        try byID.send(.pressBubble("finance", at: p))
        try byPoint.send(.press(at: p))
        for d in [byID, byPoint] {
            try d.send(.move(to: ScenePoint(x: p.x + 60, y: p.y + 40)))
            d.step(count: 10)
            try d.send(.release)
            d.settle()
        }
        #expect(byID.stateHash == byPoint.stateHash)
    }

    // MARK: Scenario files

    static let library: (tree: ReportTree, bytes: [UInt8]) = {
        let bytes = Array(#"{"id": "root", "title": "All", "children": [{"id": "finance", "title": "Finance", "children": [{"id": "q1", "title": "Q1", "file": "q1.pdf"}]}]}"#.utf8)
        return (try! LibraryLoader.parse(bytes, file: "lib.json", dataFolder: ".", options: LibraryLoadOptions(checkFiles: false)), bytes)
    }()

    func parse(_ events: String) throws(ScenarioError) -> Scenario {
        let text = "{\"data\": \"lib.json\", \"canvas\": [768, 1024],\n \"events\": [" + events + "]}"
        return try Scenario.parse(Array(text.utf8), file: "s.json") { _ throws(LibraryError) in Self.library }
    }

    func error(_ events: String) -> ScenarioError? {
        do {
            _ = try parse(events)
            return nil
        } catch {
            return error
        }
    }

    @Test func scenarioTapsAndScrollsParse() throws {
        let s = try parse(#"{"at": 1, "tap": [412, 380]}, {"at": 2, "scroll": -400}, {"at": 3, "drag": [[384, 700], [384, 300.5]], "over": 0.2}"#)
        #expect(s.script.map(\.label) == ["tap at [412, 380]", "scroll -400", "drag at [384, 700]"])
        #expect(s.script[0].action == .event(.tap(at: ScenePoint(x: 412, y: 380))))
        #expect(s.script[1].action == .event(.scroll(-400)))
        #expect(s.script[2].action == .dragAt(path: [ScenePoint(x: 384, y: 700), ScenePoint(x: 384, y: 300.5)], duration: 0.2))
    }

    @Test func badScenarioPointsAndScrollsNameThePlace() {
        let cases: [(String, String, String)] = [
            (#"{"at": 1, "tap": [800, 380]}"#, "events[0].tap", "point [800, 380] is outside the 768×1024 pt canvas"),
            (#"{"at": 1, "tap": [-0.5, 380]}"#, "events[0].tap", "point [-0.5, 380] is outside the 768×1024 pt canvas"),
            (#"{"at": 1, "tap": [1e308, 3]}"#, "events[0].tap", "is outside the 768×1024 pt canvas"),
            (#"{"at": 1, "tap": [1, 2, 3]}"#, "events[0].tap", "a point must be [x, y] in canvas points"),
            (#"{"at": 1, "tap": ["a", 2]}"#, "events[0].tap", "a point must be [x, y] in canvas points"),
            (#"{"at": 1, "scroll": 1e7}"#, "events[0].scroll", "'scroll' must be within ±1000000 pt"),
            (#"{"at": 1, "scroll": -1e300}"#, "events[0].scroll", "'scroll' must be within ±1000000 pt"),
            (#"{"at": 1, "scroll": "down"}"#, "events[0].scroll", "'scroll' takes a number of points"),
            (#"{"at": 1, "drag": [[900, 10], [0, 0]]}"#, "events[0].drag[0]", "is outside the 768×1024 pt canvas"),
            (#"{"at": 1, "drag": [[9, 10]], "path": [[0, 0]]}"#, "events[0].path", "drop 'path'"),
        ]
        for (event, path, message) in cases {
            let e = error(event)
            #expect(e?.jsonPath == path, "\(event): \(e.map { "\($0)" } ?? "accepted")")
            #expect(e?.message.contains(message) == true, "\(event): \(e.map { "\($0)" } ?? "accepted")")
            #expect(e?.position?.line == 2, "\(event): line:column named")
            #expect(e.map { "\($0)" }?.hasPrefix("s.json:2:") == true)
        }
    }

    @Test func aTapOnEmptySpaceInAScenarioIsReportedWithItsStep() throws {
        let bytes = Array(#"{"data": "../reports.json", "events": [{"at": 0.5, "tap": [384, 512]}, {"at": 2, "tap": [700, 160]}]}"#.utf8)
        let scenario = try Scenario.parse(bytes, file: packageRoot + "/Data/scenarios/empty-tap.json") { path throws(LibraryError) in
            (try LibraryLoader.load(path, options: LibraryLoadOptions(checkFiles: false)), [])
        }
        var settings = DashboardSettings()
        settings.canvasWidth = scenario.canvasWidth
        settings.canvasHeight = scenario.canvasHeight
        let d = try Dashboard(tree: try LibraryBridge.dashboardTree(scenario.library), settings: settings)
        let player = ScenarioPlayer(dashboard: d, script: scenario.script)
        let fired = player.advance(toStep: 180)
        #expect(fired.count == 2)
        #expect(fired[0].error == nil)
        #expect(fired[1].step == 120)
        #expect(fired[1].error == .nothingAt(ScenePoint(x: 700, y: 160), what: "no bubble there"))
    }
}
