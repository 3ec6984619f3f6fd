/// Overlapping ranges of codes made sorted and disjoint, for binary searches: a composite font's
/// `/W` widths and a CMap's ranges.
enum DisjointRanges {
    /// Pieces covering what `ranges` cover, sorted and disjoint; each names the first range in the
    /// list that covers it (as a linear search finds it). A sweep over the ranges' ends with a
    /// heap of the open ranges, O(n log n); adjacent pieces of one range are joined.
    static func make(_ ranges: [(lo: UInt32, hi: UInt32)]) -> [(lo: UInt32, hi: UInt32, index: Int)] {
        if ranges.count == 1, ranges[0].lo <= ranges[0].hi { return [(ranges[0].lo, ranges[0].hi, 0)] }
        // A range opens at `lo` and closes after `hi` (as UInt64, so hi + 1 cannot wrap).
        var events: [(at: UInt64, index: Int, opens: Bool)] = []
        events.reserveCapacity(ranges.count * 2)
        for (k, r) in ranges.enumerated() where r.lo <= r.hi {
            events.append((UInt64(r.lo), k, true))
            events.append((UInt64(r.hi) + 1, k, false))
        }
        events.sort { $0.at != $1.at ? $0.at < $1.at : $0.index < $1.index }
        var heap = MinHeap()
        var closed = [Bool](repeating: false, count: ranges.count)
        var out: [(lo: UInt32, hi: UInt32, index: Int)] = []
        var e = 0
        while e < events.count {
            let at = events[e].at
            while e < events.count && events[e].at == at {
                if events[e].opens { heap.push(events[e].index) } else { closed[events[e].index] = true }
                e += 1
            }
            while let top = heap.top, closed[top] { heap.pop() }
            guard let top = heap.top, e < events.count else { continue }
            // `top` covers `at` up to the next event.
            let end = UInt32(events[e].at - 1)
            if let last = out.last, UInt64(last.hi) + 1 == at, last.index == top {
                out[out.count - 1].hi = end
            } else {
                out.append((UInt32(at), end, top))
            }
        }
        return out
    }

    /// The index in `pieces` (sorted, disjoint) of the piece that holds `x`, if one does.
    static func find<T>(_ x: UInt32, in pieces: [(lo: UInt32, hi: UInt32, T)]) -> Int? {
        var lo = 0, hi = pieces.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if pieces[mid].lo <= x { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && x <= pieces[lo - 1].hi ? lo - 1 : nil
    }

    /// A binary min-heap of range indices.
    struct MinHeap {
        private var items: [Int] = []
        var top: Int? { items.first }

        mutating func push(_ v: Int) {
            items.append(v)
            var c = items.count - 1
            while c > 0, items[(c - 1) / 2] > items[c] { items.swapAt(c, (c - 1) / 2); c = (c - 1) / 2 }
        }

        mutating func pop() {
            items.swapAt(0, items.count - 1)
            items.removeLast()
            var p = 0
            while true {
                let l = 2 * p + 1, r = l + 1
                var m = p
                if l < items.count && items[l] < items[m] { m = l }
                if r < items.count && items[r] < items[m] { m = r }
                if m == p { break }
                items.swapAt(p, m)
                p = m
            }
        }
    }
}
