// A tiny deterministic pseudo-random generator for the sample library.
//
// Everything the generator varies (keyword choice, chart values, page counts, dates) is drawn from
// a `SampleRandom` seeded by a string, usually a report id plus a purpose tag, so the output depends
// only on the library content and never on the clock or on system randomness.

import BubbleSupport

/// SplitMix64 (BubbleSupport) seeded with the FNV-1a 64 hash of a string's UTF-8.
///
/// Not a `RandomNumberGenerator` on purpose: the standard library's algorithms that take one
/// (`shuffled(using:)`, `Int.random(in:using:)`) do not promise a stable algorithm across Swift
/// versions, and the sample files must not change when the toolchain does.
struct SampleRandom {
    private var generator: SplitMix64

    init(seed: String) {
        generator = SplitMix64(seed: FNV1a64.hash(seed.utf8))
    }

    mutating func next() -> UInt64 { generator.next() }

    /// A double in [0, 1) with 53 random bits.
    mutating func unit() -> Double { generator.nextUnit() }

    mutating func double(in range: ClosedRange<Double>) -> Double {
        generator.nextDouble(in: range.lowerBound, range.upperBound)
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
