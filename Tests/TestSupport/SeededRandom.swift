import BubblePhysics

/// The tests' one seeded random generator: the engine's `SplitMix64`, with the draws tests need.
/// A seed gives the same sequence on every run and machine, so a property test that fails names
/// its seed and fails again. `next()` is exactly `SplitMix64(seed:).next()`.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { generator.next() }

    /// A double in `[0, 1)` from the top 53 bits of the next draw (`SplitMix64.nextUnit()`).
    public mutating func unit() -> Double { generator.nextUnit() }

    /// A non-negative `Int` from the top 63 bits of the next draw.
    public mutating func nonNegative() -> Int { Int(next() >> 1) }

    /// A number in `0 ..< n` (`next() % n`; the bias is below 2⁻⁵⁰ for the small `n` of tests).
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        return generator.below(n)
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// A double in `range`, from the top 53 bits of the next draw (the upper bound itself is not drawn).
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + generator.nextUnit() * (range.upperBound - range.lowerBound)
    }
}
