import BubbleDashboard
import BubbleScenario
import TestSupport
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
        ("tour", UInt64(16_674_697_984_558_577_251), UInt64(8_733_989_526_596_985_151), 843),
        ("interrupts", UInt64(10_730_601_336_841_943_374), UInt64(17_848_844_994_153_397_732), 393),
        ("table-scroll", UInt64(12_958_028_896_823_979_858), UInt64(9_562_176_999_503_964_297), 588),
    ])
    func scenarioFingerprintIsPinned(name: String, frames: UInt64, final: UInt64, restStep: Int) throws {
        let f = try Self.fingerprint(name)
        #expect(f.frames == frames && f.final == final && f.restStep == restStep, "\(name): (\(f.frames), \(f.final), \(f.restStep))")
    }
}
