import DeterminismPins
import Testing

/// The scenarios give the same bits in every build configuration (`DashboardPins` in
/// DeterminismPins): this suite checks the pins in the debug build, and `scripts/test.sh` checks
/// the same pins with `determinism-check` built in release. If a deliberate change to the physics
/// or the dashboard moves the values, re-pin them from the failure message.
@Suite("Dashboard Determinism")
struct DashboardDeterminismTests {
    @Test(arguments: DashboardPins.pins.map(\.name))
    func scenarioFingerprintIsPinned(name: String) throws {
        let pin = try #require(DashboardPins.pins.first { $0.name == name })
        let result = try DashboardPins.check(pin)
        #expect(result.matches, "\(result)")
    }
}
