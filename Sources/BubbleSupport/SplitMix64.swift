// The project's own seeded pseudo-random generator (no system randomness anywhere in the physics).

/// SplitMix64 (Steele, Lea and Flood 2014): a tiny, fast, seeded 64-bit generator.
///
/// The physics uses it only to break ties (for example two bodies whose centres coincide exactly),
/// and the benchmark scene generator uses it to place bodies. The same seed always gives the same
/// sequence on every platform and in every build configuration.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    /// The internal state; the whole generator is this one word.
    public private(set) var state: UInt64

    /// Creates a generator from a seed. Every seed, including 0, is fine.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< n` from the next draw (`next() % n`; 0 when `n` is below 1). The modulo
    /// bias is below 2⁻⁴⁰ for `n` under 2²⁴.
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }

    /// A uniformly distributed double in `[0, 1)`, built from the top 53 bits (exact, no rounding).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniformly distributed double in `[lower, upper)`.
    public mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextUnit()
    }
}
