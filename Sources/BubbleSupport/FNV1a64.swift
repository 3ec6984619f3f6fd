/// 64-bit FNV-1a over bytes, written out here so that the hash is the same everywhere: the
/// physics and dashboard state hashes, the scenario content hash, the export's file hashes and the
/// sample library's seeds.
public struct FNV1a64: Sendable {
    /// The standard FNV-1a 64 offset basis, the value of an empty hash.
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    /// The hash of `bytes` in one call, starting from `seed` (default: the offset basis).
    public static func hash(_ bytes: some Sequence<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var h = FNV1a64(seed: seed)
        h.combine(bytes: bytes)
        return h.value
    }

    /// The running hash value.
    public private(set) var value: UInt64 = FNV1a64.offsetBasis

    /// Creates a hasher with the standard FNV-1a offset basis, or with `seed` (to continue a hash).
    public init(seed: UInt64 = FNV1a64.offsetBasis) { value = seed }

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

    /// One FNV-1a round on a whole word (`xor`, then one multiply by the prime), not on its eight
    /// bytes: a cheaper digest of a sequence of hashes (the tests' digest of a run's state hashes).
    /// Not the same value as `combine(_:)`.
    public mutating func fold(_ word: UInt64) {
        value = (value ^ word) &* 0x0000_0100_0000_01B3
    }

    /// Mixes the bit pattern of a double (so `0.0` and `-0.0` differ, as the state does).
    public mutating func combine(_ x: Double) {
        combine(x.bitPattern)
    }
}
