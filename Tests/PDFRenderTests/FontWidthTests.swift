@testable import PDFRender
import Testing

/// Ranges made disjoint for binary searches (a composite font's `/W`, a CMap's ranges): the first
/// range in the list that covers a code still decides, as a linear search of the list does.
@Suite("Composite font widths")
struct FontWidthTests {
    /// The width by a linear search of the ranges as written (the rule the sorted form keeps).
    func linear(_ ranges: [(lo: UInt32, hi: UInt32, w: Double)], _ cid: UInt32) -> Double? {
        for r in ranges where cid >= r.lo && cid <= r.hi { return r.w }
        return nil
    }

    /// The width through the sorted pieces and a binary search, as fonts look it up.
    func sorted(_ ranges: [(lo: UInt32, hi: UInt32, w: Double)], _ cid: UInt32) -> Double? {
        let d = DisjointRanges.make(ranges.map { ($0.lo, $0.hi) })
        for k in 0 ..< d.count {
            #expect(d[k].lo <= d[k].hi)
            if k > 0 { #expect(d[k - 1].hi < d[k].lo) }
        }
        return DisjointRanges.find(cid, in: d).map { ranges[d[$0].index].w }
    }

    @Test("overlapping, nested and touching ranges give the first covering range's width")
    func overlapping() {
        let ranges: [(lo: UInt32, hi: UInt32, w: Double)] = [(10, 20, 0.5), (15, 30, 0.7), (0, 100, 0.9), (12, 12, 0.1), (UInt32.max - 1, UInt32.max, 0.3)]
        for cid: UInt32 in [0, 9, 10, 12, 14, 15, 20, 21, 30, 31, 100, 101, UInt32.max - 1, UInt32.max] {
            #expect(sorted(ranges, cid) == linear(ranges, cid), "cid \(cid)")
        }
    }

    @Test("random range lists agree with the linear search")
    func random() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { // xorshift64: a fixed sequence
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        for _ in 0 ..< 200 {
            let n = Int(next() % 12) + 1
            let ranges: [(lo: UInt32, hi: UInt32, w: Double)] = (0 ..< n).map { _ in
                let lo = UInt32(next() % 60)
                return (lo, lo + UInt32(next() % 20), Double(next() % 5))
            }
            for cid: UInt32 in 0 ..< 90 { #expect(sorted(ranges, cid) == linear(ranges, cid)) }
        }
    }
}
