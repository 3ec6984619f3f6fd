@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubblePlay
import BubbleRender
@_spi(Testbed) import BubbleScenario
import Foundation
import ReportLibrary
import TestSupport
import Testing

/// Drives a session as a page at 60 Hz would, with a clock the test owns.
final class FakePage {
    let session: PlaySession
    var now = 0.0
    var frames = 0
    var errors: [String] = []

    init(_ session: PlaySession) { self.session = session }

    /// Shows frames for `seconds`: a `ready` and a frame request every 1/60 s.
    func run(_ seconds: Double) throws {
        try session.showFrames(for: seconds, now: &now) { _ in frames += 1 }
    }

    func send(_ m: PlayMessage) {
        for reply in session.handle(m, now: now) where object(reply)["type"] as? String == "error" {
            errors.append(object(reply)["message"] as? String ?? reply)
        }
    }

    /// A drag from `a` by `(dx, dy)` in `steps` moves, one per frame.
    func drag(from a: ScenePoint, dx: Double, dy: Double, steps: Int) throws {
        send(.press(a))
        for k in 1...steps {
            try run(1.0 / 60)
            send(.move(ScenePoint(x: a.x + dx * Double(k) / Double(steps), y: a.y + dy * Double(k) / Double(steps))))
        }
        send(.release)
    }
}

@Suite("Play session")
struct PlaySessionTests {
    @Test func framesNeedACreditAndStopAtRest() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let first = try #require(try session.frame(now: 0))
        #expect(first.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(object(first.header)["type"] as? String == "frame")
        // No credit: nothing, however much changes.
        _ = session.handle(.tap(ScenePoint(x: 384, y: 540)), now: 0.1)
        #expect(try session.frame(now: 0.2) == nil)
        // With credits, frames flow while bubbles move and stop once the dashboard rests.
        let page = FakePage(session)
        page.now = 0.2
        try page.run(3)
        #expect(page.frames > 20, "one frame per display refresh while bubbles move")
        #expect(session.dashboard.isAtRest)
        let before = page.frames
        let step = session.dashboard.stepCount
        try page.run(2)
        #expect(page.frames == before, "frames were drawn at rest")
        #expect(session.dashboard.stepCount == step, "the clock ran at rest")
    }

    @Test func pauseStepAndSpeedControlTheClock() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let page = FakePage(session)
        page.send(.tap(ScenePoint(x: 384, y: 540)))
        page.send(.pause(true))
        let step = session.dashboard.stepCount
        // The clock as each frame request moves it, without drawing the frames (which cost
        // most of this test's time in a debug build and are not what it checks).
        session.advanceClock(for: 1, now: &page.now)
        #expect(session.dashboard.stepCount == step)
        page.send(.step)
        #expect(session.dashboard.stepCount == step + 1)
        page.send(.pause(false))
        page.send(.speed(0.25))
        session.advanceClock(for: 1, now: &page.now)
        let slow = session.dashboard.stepCount - step - 1
        #expect(slow >= 14 && slow <= 16, "a quarter of 60 steps, got \(slow)")
        page.send(.restart)
        #expect(session.dashboard.stepCount == 0)
        #expect(session.recorder.entries.isEmpty)
    }

    @Test func refusedEventsAnswerWithAnErrorAndTheSessionGoesOn() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let page = FakePage(session)
        page.send(.tap(ScenePoint(x: 5, y: 5)))  // the navigation bar
        #expect(page.errors.count == 1)
        page.send(.scroll(100))  // no table open
        #expect(page.errors.count == 2)
        page.send(.tap(ScenePoint(x: 384, y: 540)))
        session.advanceClock(for: 2, now: &page.now)
        #expect(!session.dashboard.isStartScreen)
        // The recording keeps only what the dashboard took, so it exports (export stops at a
        // refused event).
        #expect(session.recorder.entries.map(\.action) == ["\"tap\": [384, 540]"])
    }

    @Test func debugOverlayCarriesShapesTargetsAndContacts() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let page = FakePage(session)
        page.send(.tap(ScenePoint(x: 384, y: 540)))
        session.advanceClock(for: 2, now: &page.now)
        page.send(.debug(true))
        let frame = try #require(try session.frame(now: page.now))
        let debug = try #require(object(frame.header)["debug"] as? [String: Any])
        let bodies = try #require(debug["bodies"] as? [[String: Any]])
        #expect(bodies.count > 3)
        #expect(bodies.allSatisfy { $0["tx"] != nil && ($0["r"] != nil || $0["w"] != nil) })
        #expect(debug["contacts"] is [Any])
        #expect(debug["atRest"] as? Bool == true)
    }

    @Test func settingsApplyLiveAndSaveAsASettingsFile() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        var s = DashboardSettings()
        s.drag.nearFrequency = 11
        s.motion.focusDuration = 0.5
        _ = session.handle(.settings(s), now: 0)
        #expect(session.dashboard.settings.drag.nearFrequency == 11)
        let reply = try #require(session.handle(.saveSettings, now: 0).first)
        let text = try #require(object(reply)["text"] as? String)
        let loaded = try SettingsFile.parse(Array(text.utf8), file: "saved.json")
        #expect(loaded.drag.nearFrequency == 11 && loaded.motion.focusDuration == 0.5)
        #expect(loaded == DashboardSettings().withFeel(of: s))
    }

    /// A new place spring reaches the bubbles that already sit on theirs, not only the next ones.
    @Test func aNewPlaceSpringReachesBubblesAlreadyInPlace() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let page = FakePage(session)
        page.send(.tap(ScenePoint(x: 384, y: 540)))
        session.advanceClock(for: 2, now: &page.now)
        let before = session.dashboard.debugView().bodies.filter { !$0.isKinematic }
        #expect(before.count > 3 && before.allSatisfy { $0.springFrequency == DashboardSettings().motion.placeSpring.frequency })
        var s = DashboardSettings()
        s.motion.placeSpring.frequency = 6.5
        page.send(.settings(s))
        let after = session.dashboard.debugView().bodies.filter { !$0.isKinematic }
        #expect(after.count == before.count && after.allSatisfy { $0.springFrequency == 6.5 })
    }

    /// Taps the root, drills into a category, drags a bubble, changes a setting, scrolls a table,
    /// pinches back; then the recording, replayed, reaches the same state hash at the same step.
    func playAScript(_ session: PlaySession) throws -> FakePage {
        let page = FakePage(session)
        try page.run(0.3)
        page.send(.tap(ScenePoint(x: 384, y: 540)))
        try page.run(1.5)
        let child = try #require(session.firstChildCentre())
        try page.drag(from: child, dx: 120, dy: -80, steps: 20)
        try page.run(0.2)
        var s = DashboardSettings()
        s.motion.placeSpring.frequency = 6
        page.send(.settings(s))
        try page.run(1)
        let category = try #require(session.dashboard.debugView().bodies.first { !$0.isKinematic && session.dashboard.levels.index(of: $0.id).map { session.dashboard.levels.nodes[$0].kind == .category } == true })
        page.send(.tap(category.position))
        try page.run(1.2)
        page.send(.pinch)
        try page.run(0.5)
        page.send(.move(ScenePoint(x: 1, y: 1)))  // no drag: refused by the dashboard, recorded all the same
        try page.run(1.5)
        return page
    }

    /// What one session recorded while `playAScript` drew its frames, for the two tests below:
    /// the script is played (and its frames drawn) once per test run, not once per test. A task,
    /// so that the second test awaits it instead of holding one of the pool's threads.
    struct PlayedScript: Sendable {
        var errors: [String]
        /// `recordingText()`.
        var recording: String
        /// The file `recorder.write(to:endStep:)` wrote.
        var written: [UInt8]
        var endStep: Int
        var stateHash: UInt64

        static let shared = Task<PlayedScript, any Error> {
            let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
            let page = try PlaySessionTests().playAScript(session)
            let s = try Scratch()
            defer { s.remove() }
            try session.recorder.write(to: s.path + "/recording.json", endStep: session.dashboard.stepCount)
            return PlayedScript(
                errors: page.errors, recording: session.recordingText(), written: s.bytes(s.path + "/recording.json"),
                endStep: session.dashboard.stepCount, stateHash: session.dashboard.stateHash)
        }
    }

    @Test func recordingReplaysBitForBit() async throws {
        let played = try await PlayedScript.shared.value
        #expect(played.errors.isEmpty, "\(played.errors)")
        let scenario = try Scenario.parse(Array(played.recording.utf8), file: "recording.json") { path throws(LibraryError) in
            (try LibraryLoader.load(path), [])
        }
        #expect(scenario.script.contains { $0.label.hasPrefix("press at") })
        #expect(scenario.script.contains { $0.label == "settings" })
        let replay = try Dashboard(tree: sampleSource.tree, settings: scenario.dashboardSettings(width: 768, height: 1024), measurer: PangoTextMeasurer())
        let player = ScenarioPlayer(dashboard: replay, script: scenario.script)
        player.advance(to: scenario.duration)
        #expect(replay.stepCount == played.endStep)
        #expect(replay.stateHash == played.stateHash)
    }

    @Test func recordingExportsToTheSameHash() async throws {
        let s = try Scratch()
        defer { s.remove() }
        let played = try await PlayedScript.shared.value
        let file = s.path + "/recording.json"
        #expect(!played.written.isEmpty)
        try Data(played.written).write(to: URL(fileURLWithPath: file))
        let last = try #require(try lastExportedFrame(of: file, into: s.path + "/out"))
        #expect(last["step"] as? Int == played.endStep)
        #expect(last["state_hash"] as? String == String(format: "%016llx", played.stateHash))
    }
}

@Suite("Play server options")
struct PlayServerOptionsTests {
    /// Every page's recording has a file of its own: the first the --record path, the n-th beside it.
    @Test func eachSessionRecordsToItsOwnFile() {
        var o = PlayServerOptions()
        #expect(o.recordPath(session: 1) == nil)
        o.recordPath = "out/recording.json"
        #expect(o.recordPath(session: 1) == "out/recording.json")
        #expect(o.recordPath(session: 2) == "out/recording-2.json")
        o.recordPath = "runs.v2/b.c.json"
        #expect(o.recordPath(session: 12) == "runs.v2/b.c-12.json")
        o.recordPath = "runs.v2/recording"
        #expect(o.recordPath(session: 3) == "runs.v2/recording-3")
        o.recordPath = ".recording"
        #expect(o.recordPath(session: 2) == ".recording-2")
    }
}
