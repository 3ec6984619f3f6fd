@testable import BubbleDashboard
import BubbleSupport
import Testing

/// BubbleDashboard still has its own copies of helpers that now live in BubbleSupport (the module
/// is being rewritten; the copies go then). Until they do, they must agree with BubbleSupport to
/// the bit, so that swapping them moves no pinned hash. Delete this file with the copies.
@Suite("Dashboard copies agree with BubbleSupport")
struct SupportParityTests {
    @Test func trigAndExplicitMathAreBitIdentical() {
        var s = SplitMix64(seed: 29)
        for i in 0..<20_000 {
            let x = i < 10_000 ? Double(i - 5_000) * 0.0031 : s.nextDouble(in: -100, 100)
            let a = Trig.sinCos(x), b = DeterministicMath.sinCos(x)
            #expect(a.sin.bitPattern == b.sin.bitPattern && a.cos.bitPattern == b.cos.bitPattern, "sinCos(\(x))")
            let y = s.nextDouble(in: -50, 50)
            #expect(ExplicitMath.exp(y).bitPattern == DeterministicMath.exp(y).bitPattern, "exp(\(y))")
            let z = s.nextDouble(in: 1e-6, 1e6)
            #expect(ExplicitMath.log(z).bitPattern == DeterministicMath.log(z).bitPattern, "log(\(z))")
        }
        #expect(Trig.pi == DeterministicMath.pi && Trig.halfPi == DeterministicMath.halfPi && Trig.twoPi == DeterministicMath.twoPi)
    }

    @Test func monthTablesAgree() {
        #expect(TitleKey.monthNames == MonthNames.lowerCased)
        #expect(LevelGrouping.monthNames == MonthNames.englishShort)
    }
}
