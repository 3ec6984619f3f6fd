@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import DeterminismPins
import Foundation
import TestSupport
import ReportIndex
import ReportLibrary
import Testing

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
        // The state hashes only: the motion measures of `scenarioRunsCleanlyAndSmoothly` would
        // take a scene a frame.
        let a = try ScenarioRun(scenario, trackMotion: false)
        let b = try ScenarioRun(scenario, trackMotion: false)
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
    try ScenarioRun.indexed(scenario, indexPath: scratch.path + "/index.sqlite")
}
