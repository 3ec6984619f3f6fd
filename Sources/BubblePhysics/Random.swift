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

    /// A uniformly distributed double in `[0, 1)`, built from the top 53 bits (exact, no rounding).
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniformly distributed double in `[lower, upper)`.
    public mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextUnit()
    }
}

/// 64-bit FNV-1a over bytes, written out here so that the hash is the same everywhere: the
/// physics and dashboard state hashes, the scenario content hash and the export's file hashes.
public struct FNV1a64: Sendable {
    /// The running hash value.
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Creates a hasher with the standard FNV-1a offset basis, or with `seed` (to continue a hash).
    public init(seed: UInt64 = 0xCBF2_9CE4_8422_2325) { value = seed }

    /// Mixes bytes in order.
    public mutating func combine(bytes: some Sequence<UInt8>) {
        for b in bytes { combine(byte: b) }
    }

    /// Mixes one byte.
    public mutating func combine(byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Mixes the eight bytes of a word, least significant first.
    public mutating func combine(_ word: UInt64) {
        var w = word
        for _ in 0..<8 {
            combine(byte: UInt8(truncatingIfNeeded: w))
            w >>= 8
        }
    }

    /// Mixes the bit pattern of a double (so `0.0` and `-0.0` differ, as the state does).
    public mutating func combine(_ x: Double) {
        combine(x.bitPattern)
    }
}
