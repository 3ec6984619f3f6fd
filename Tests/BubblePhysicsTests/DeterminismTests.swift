import DeterminismPins
import Testing

/// Pinned results (`PhysicsPins` in DeterminismPins): the same scene and calls must give the same
/// bits in debug and release builds. This suite checks them in the debug build; `scripts/test.sh`
/// checks the same pins with `determinism-check` built in release. If a deliberate change to the
/// solver alters them, re-pin all of them in the same commit and say why.
@Suite struct Determinism {
    @Test(arguments: PhysicsPins.pins.map(\.scene))
    func pinnedRestStepAndHash(scene: String) throws {
        let pin = try #require(PhysicsPins.pins.first { $0.scene == scene })
        let result = try PhysicsPins.check(pin)
        #expect(result.matches, "\(result)")
    }

    @Test func bandedSweepsSameBitsOnAnyThreads() throws {
        for result in try PhysicsPins.checkBanded() {
            #expect(result.matches, "\(result)")
        }
    }

    @Test func sameCallsSameBits() throws {
        let result = try PhysicsPins.checkSameCallsSameBits()
        #expect(result.matches, "\(result)")
    }
}
