import BubbleDashboard
import BubbleScenario
import Testing

/// The scenarios give the same bits in every build configuration: `scripts/test.sh` runs this
/// suite in a release build as well as in the debug build. If a deliberate change to the physics
/// or the dashboard moves the values, re-pin them from the failure message (in both builds).
@Suite("Dashboard Determinism")
struct DashboardDeterminismTests {
    /// A digest of the state hash at every frame, the final state hash and the step at which the
    /// dashboard came to rest after the scenario's last event.
    static func fingerprint(_ name: String) throws -> (frames: UInt64, final: UInt64, restStep: Int) {
        let scenario = try Scenario.load(packageRoot + "/Data/scenarios/\(name).json")
        let run = try ScenarioRun(scenario)
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for h in run.hashes {
            digest ^= h
            digest = digest &* 0x0000_0100_0000_01B3
        }
        return (digest, run.dashboard.stateHash, run.restStep ?? -1)
    }

    @Test(arguments: [
        ("tour", UInt64(73_559_999_778_998_900), UInt64(16_669_163_988_138_525_837), 843),
        ("interrupts", UInt64(16_815_825_926_665_261_298), UInt64(11_137_921_626_921_394_890), 393),
    ])
    func scenarioFingerprintIsPinned(name: String, frames: UInt64, final: UInt64, restStep: Int) throws {
        let f = try Self.fingerprint(name)
        #expect(f.frames == frames && f.final == final && f.restStep == restStep, "\(name): (\(f.frames), \(f.final), \(f.restStep))")
    }
}
