@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import TestSupport
import ReportIndex
import ReportLibrary
import Testing

/// Runs a scenario frame by frame; returns the state hash at every frame, the fired events and
/// the worst frame-to-frame motion.
struct ScenarioRun {
    var hashes: [UInt64] = []
    var fired: [FiredEvent] = []
    var worstJump = (distance: 0.0, id: "", frame: 0)
    var worstScaleJump = (delta: 0.0, id: "", frame: 0)
    /// The first step, after the last event fired, at which the dashboard was at rest.
    var restStep: Int?
    var dashboard: Dashboard

    /// Runs `scenario`, on `tree` if given (else the datasource's, without PDFs); `finder` answers
    /// its searches and filters (see `indexed(_:)`).
    init(_ scenario: Scenario, tree: DashboardTree? = nil, finder: (any ReportFinder)? = nil) throws {
        var settings = DashboardSettings()
        settings.canvasWidth = scenario.canvasWidth
        settings.canvasHeight = scenario.canvasHeight
        dashboard = try Dashboard(tree: try tree ?? LibraryBridge.dashboardTree(scenario.library), settings: settings, finder: finder)
        let player = ScenarioPlayer(dashboard: dashboard, script: scenario.script)
        let frames = Int((scenario.duration * scenario.fps).rounded())
        var previous = dashboard.scene()
        for frame in 0...frames {
            fired += player.advance(toStep: player.step(atTime: Double(frame) / scenario.fps))
            let scene = dashboard.scene()
            hashes.append(dashboard.stateHash)
            if restStep == nil && player.isFinished && dashboard.isAtRest { restStep = dashboard.stepCount }
            // Motion that can be seen: bubbles visible in both frames.
            for b in scene.bubbles where b.scale * b.opacity > 0.05 {
                guard let a = previous.bubbles.first(where: { $0.id == b.id && $0.kind == b.kind }), a.scale * a.opacity > 0.05
                else { continue }
                let dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y
                let d = (dx * dx + dy * dy).squareRoot()
                if d > worstJump.distance { worstJump = (d, b.id, frame) }
                let ds = abs(b.scale - a.scale)
                if ds > worstScaleJump.delta { worstScaleJump = (ds, b.id, frame) }
            }
            previous = scene
        }
    }
}

@Suite("Scenarios")
struct ScenarioTests {
    static let names = ["tour", "interrupts", "table-scroll", "pan"]

    @Test(arguments: names)
    func scenarioRunsCleanlyAndSmoothly(name: String) throws {
        let scenario = try Scenario.load(packageRoot + "/Data/scenarios/\(name).json")
        let run = try ScenarioRun(scenario)
        #expect(run.fired.count == scenario.script.count)
        for f in run.fired {
            #expect(f.error == nil, "\(f.label) at step \(f.step): \(f.error.map { "\($0)" } ?? "")")
        }
        // At 60 fps the fastest transition moves a bubble well under 30 pt per frame.
        #expect(run.worstJump.distance < 30, "\(run.worstJump)")
        #expect(run.worstScaleJump.delta < 0.25, "\(run.worstScaleJump)")
        run.dashboard.settle()
        #expect(run.dashboard.isAtRest)
        #expect(run.dashboard.maxOverlap() <= 0.5)
    }

    @Test(arguments: names)
    func scenarioIsDeterministic(name: String) throws {
        let scenario = try Scenario.load(packageRoot + "/Data/scenarios/\(name).json")
        let a = try ScenarioRun(scenario)
        let b = try ScenarioRun(scenario)
        #expect(a.hashes == b.hashes)
    }

    @Test func badScenariosNameThePlace() throws {
        let cases: [(String, String)] = [
            (#"{"data": "../reports.json", "events": [{"at": 1, "tap": "nope"}]}"#, "events[0].tap: unknown id 'nope'"),
            (#"{"data": "../reports.json", "events": [{"at": 2, "pinch": true}, {"at": 1, "top": true}]}"#, "events[1].at: event at 1.0 s is in the past"),
            (#"{"data": "../reports.json", "events": [{"at": 1, "jump": true}]}"#, "events[0].jump: unknown action 'jump'"),
            (#"{"data": "../reports.json", "events": [{"at": 1, "drag": "finance"}]}"#, "events[0].path: a drag needs 'path'"),
            (#"{"data": "../nope.json", "events": []}"#, "data: the datasource is invalid"),
            (#"{"data": "../reports.json", "canvas": [10, 10], "events": []}"#, "canvas: canvas sides must be within"),
            (#"{"data": "../reports.json", "events": [{"at": 1, "tap": "root"}, ]}"#, "malformed JSON"),
        ]
        let folder = NSTemporaryDirectory() + "bubbles-scenario-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (i, (json, expected)) in cases.enumerated() {
            let path = folder + "/case-\(i).json"
            let text = json.replacingOccurrences(of: "\"../", with: "\"" + packageRoot + "/Data/")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            #expect {
                _ = try Scenario.load(path)
            } throws: { error in
                "\(error)".contains(expected)
            }
        }
    }
}

/// A scenario's datasource as `bubbles export` loads it, through a library index built in
/// `scratch` (the caller removes it), and the `IndexReportFinder` over that index.
func indexed(_ scenario: Scenario, in scratch: Scratch) throws -> (tree: DashboardTree, finder: IndexReportFinder) {
    let path = scratch.path + "/index.sqlite"
    let details = LibraryBridge.details(for: scenario.library, source: .index(path: path))
    let tree = try LibraryBridge.dashboardTree(scenario.library, details: details)
    guard let finder = LibraryBridge.finder(for: scenario.library, dashboardTree: tree, indexPath: path) else {
        throw DashboardError.searchUnavailable
    }
    return (tree, finder)
}
