// A tiny deterministic pseudo-random generator for the sample library.
//
// Everything the generator varies (keyword choice, chart values, page counts, dates) is drawn from
// a `SeededRandom` seeded by a string, usually a report id plus a purpose tag, so the output depends
// only on the library content and never on the clock or on system randomness.

/// The 64-bit FNV-1a hash of the UTF-8 bytes of `text`.
func fnv1a64(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
}

/// SplitMix64 seeded with the FNV-1a hash of a string.
///
/// Not a `RandomNumberGenerator` on purpose: the standard library's algorithms that take one
/// (`shuffled(using:)`, `Int.random(in:using:)`) do not promise a stable algorithm across Swift
/// versions, and the sample files must not change when the toolchain does.
struct SeededRandom {
    private var state: UInt64

    init(seed: String) {
        state = fnv1a64(seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A double in [0, 1) with 53 random bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// An integer in `range` (the modulo bias is irrelevant at these sizes).
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[int(in: 0...(items.count - 1))]
    }

    /// A Fisher–Yates shuffle with this generator.
    mutating func shuffled<T>(_ items: [T]) -> [T] {
        var result = items
        guard result.count > 1 else { return result }
        for i in stride(from: result.count - 1, to: 0, by: -1) {
            let j = int(in: 0...i)
            result.swapAt(i, j)
        }
        return result
    }
}
