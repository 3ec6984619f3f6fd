// Broad phase: a uniform grid rebuilt every sub-step by a stable counting sort of the slots.
//
// Cell size: twice the "small" half-extent limit `min(largest half extent, 2 × mean half
// extent)`, plus 12.5 % slack for motion within the sub-step. Bodies with a larger half extent
// (a 300 pt circle among 10 pt bubbles) are "large": they are not put in cells but sorted after
// all cell bodies, and each one queries the block of cells its box covers; large pairs among
// themselves are tested directly. So the cell size follows the typical body, and the cost stays
// linear in the number of bodies with a few huge ones present.
//
// Cells are numbered row-major over the bounding box of the body centres (limited to
// max(64, capacity) cells; far outliers are clamped into border cells, which is still correct
// because clamping never separates neighbouring cells). The slots themselves are then permuted
// into cell order, so a cell's bodies are a contiguous slot range and the four "forward"
// neighbour cells of cell c, (c+1), (c+W-1), (c+W), (c+W+1), are two contiguous ranges. Each pair
// is visited exactly once, from its lower slot, in a fixed order: the stable pair order the
// determinism needs. When nothing changed cell the permutation is the identity and is skipped.

struct GridLayout {
    var minX = 0.0
    var minY = 0.0
    var invCell = 0.0
    var cell = 0.0
    /// Half extent limit of bodies kept in cells.
    var smallLimit = 0.0
    var width = 3
    var height = 1
    var cells = 0
    var smallCount = 0
    var largeCount = 0
}

extension World {
    /// Sorts the slots by cell and fills `grid` and `cellStart`.
    func buildGrid() {
        let n = count
        let c = col
        // Pass 1: statistics of the active bodies.
        var active = 0
        var sumH = 0.0
        var maxH = 0.0
        var loX = Double.infinity, hiX = -Double.infinity
        var loY = Double.infinity, hiY = -Double.infinity
        var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0
        for p in 0..<n {
            let sc = c.scale[p]
            if c.flags[p] & BodyFlags.enabled == 0 || !(sc > 0) { continue }
            let a = c.hw[p], b = c.hh[p]
            let h = (a > b ? a : b) * sc
            active += 1
            sumH += h
            if h > maxH { maxH = h }
            let x = c.px[p], y = c.py[p]
            if x < loX { loX = x }
            if x > hiX { hiX = x }
            if y < loY { loY = y }
            if y > hiY { hiY = y }
            sx += x; sy += y; sxx += x * x; syy += y * y
        }
        var g = GridLayout()
        if active > 0 {
            let mean = sumH / Double(active)
            let limit = maxH < 2 * mean ? maxH : 2 * mean
            g.smallLimit = limit
            var cell = 2.25 * limit
            let maxCells = Double(cellCapacity - 4)
            var wD = ((hiX - loX) / cell).rounded(.down) + 1
            var hD = ((hiY - loY) / cell).rounded(.down) + 1
            if (wD < 3 ? 3 : wD) * hD > maxCells {
                // Far outliers: keep the grid on mean ± 3σ of the centres and clamp the rest.
                let inv = 1 / Double(active)
                let mx = sx * inv, my = sy * inv
                let vx = sxx * inv - mx * mx, vy = syy * inv - my * my
                let dx = 3 * (vx > 0 ? vx : 0).squareRoot() + cell
                let dy = 3 * (vy > 0 ? vy : 0).squareRoot() + cell
                if mx - dx > loX { loX = mx - dx }
                if mx + dx < hiX { hiX = mx + dx }
                if my - dy > loY { loY = my - dy }
                if my + dy < hiY { hiY = my + dy }
                wD = ((hiX - loX) / cell).rounded(.down) + 1
                hD = ((hiY - loY) / cell).rounded(.down) + 1
                if (wD < 3 ? 3 : wD) * hD > maxCells {
                    // Sparse bodies over a huge area: coarser cells keep the cell count bounded.
                    let grow = ((wD < 3 ? 3 : wD) * hD / maxCells).squareRoot() * 1.01
                    cell *= grow
                    wD = ((hiX - loX) / cell).rounded(.down) + 1
                    hD = ((hiY - loY) / cell).rounded(.down) + 1
                    while (wD < 3 ? 3 : wD) * hD > maxCells {
                        cell *= 1.25
                        wD = ((hiX - loX) / cell).rounded(.down) + 1
                        hD = ((hiY - loY) / cell).rounded(.down) + 1
                    }
                }
            }
            g.cell = cell
            g.invCell = 1 / cell
            g.minX = loX
            g.minY = loY
            g.width = wD < 3 ? 3 : Int(wD)
            g.height = Int(hD)
        }
        g.cells = g.width * g.height
        let cells = g.cells
        let cs = cellStart
        cs.update(repeating: 0, count: cells + 3)
        // Pass 2: the cell keys, into the spare part of `perm` (dead before the permutation's
        // scratch is used; large worlds with an executor compute them on all threads), then the
        // counts per cell and whether the slots are already in cell order. The counting sort
        // reads the keys back, so the permutation is the same either way.
        let key = CellKey(grid: g)
        let chunks = settings.bands
        let threaded = executor != nil && chunks > 1 && n >= World.threadedGridMinBodies
        let keys = perm + n
        let keyTasks = threaded ? chunks : 1
        parallel(keyTasks, .gridKeys(GridPass(col: c, key: key, keys: keys, perm: perm, n: n, chunks: keyTasks)))
        var inOrder = true
        var prev: UInt32 = 0
        for p in 0..<n {
            let k = keys[p]
            if k < prev { inOrder = false }
            prev = k
            cs[Int(k) + 1] += 1
        }
        for i in 0...(cells + 1) { cs[i + 1] += cs[i] }
        g.smallCount = Int(cs[cells])
        g.largeCount = Int(cs[cells + 1]) - g.smallCount
        grid = g
        if inOrder { return }

        // Counting sort (stable): perm[newSlot] = oldSlot, with cellStart as write cursors.
        let pm = perm
        for p in 0..<n {
            let k = Int(keys[p])
            pm[Int(cs[k])] = UInt32(p)
            cs[k] += 1
        }
        var i = cells + 2
        while i > 0 {
            cs[i] = cs[i - 1]
            i -= 1
        }
        cs[0] = 0

        // Gather every column through the permutation into the spare part of `perm` (it holds
        // `pairsPerSlot ≥ 3` words per slot: n for the permutation, 2n for one column of doubles)
        // and copy it back: plain sequential passes, no cycle bookkeeping. Threaded, each column
        // is gathered by all threads, then copied back by all.
        let spare = n + (n & 1)  // an even word offset keeps the scratch 8-byte aligned
        if threaded {
            let pass = GridPass(col: c, key: key, keys: pm + spare, perm: pm, n: n, chunks: chunks)
            for i in 0..<Columns.columnCount {
                parallel(chunks, .gridGather(pass, column: i))
                parallel(chunks, .gridCopyBack(pass, column: i))
            }
            parallel(chunks, .gridSlots(pass, slotOf: slotOf))
            return
        }
        c.permute(perm: pm, count: n, scratch: pm + spare)
        let so = slotOf
        for p in 0..<n { so[Int(c.index[p])] = UInt32(p) }
    }

    /// Worlds with fewer bodies sort their grid on one thread: below this, a phase hand-off per
    /// column (38 of them) costs more than the second thread gains.
    static let threadedGridMinBodies = 16_384
}

/// The grid's threaded passes over slot ranges: the cell keys, the permutation's gather and
/// copy-back of one column, and the handle-to-slot map. Each task touches only its own range
/// of the written buffer.
struct GridPass: @unchecked Sendable {
    let col: Columns
    let key: CellKey
    /// The keys (`gridKeys`) or the permutation's scratch (the others).
    let keys: UnsafeMutablePointer<UInt32>
    let perm: UnsafeMutablePointer<UInt32>
    let n: Int
    let chunks: Int

    func range(_ t: Int) -> Range<Int> { chunk(t, of: chunks, count: n) }

    func computeKeys(_ t: Int) {
        for p in range(t) { keys[p] = key(col, p) }
    }

    /// Task `t`'s slots of column `i` through the permutation into the scratch, or (`back`) the
    /// scratch into it.
    func permute(column i: Int, _ t: Int, back: Bool) {
        col.permute(column: i, perm: perm, count: n, scratch: keys, slots: range(t), back: back)
    }

    func slots(_ t: Int, _ so: UnsafeMutablePointer<UInt32>) {
        for p in range(t) { so[Int(col.index[p])] = UInt32(p) }
    }
}

/// The cell key of a slot: row-major cell index for bodies kept in cells, `cells` for large
/// bodies, `cells + 1` for bodies that take no part in collisions (disabled or scale 0).
struct CellKey {
    let minX, minY, invCell, smallLimit, wMax, hMax: Double
    let width: Int
    let large, inactive: UInt32

    init(grid g: GridLayout) {
        minX = g.minX
        minY = g.minY
        invCell = g.invCell
        smallLimit = g.smallLimit
        wMax = Double(g.width - 1)
        hMax = Double(g.height - 1)
        width = g.width
        large = UInt32(g.cells)
        inactive = UInt32(g.cells + 1)
    }

    @inline(__always)
    func callAsFunction(_ c: Columns, _ p: Int) -> UInt32 {
        let sc = c.scale[p]
        if c.flags[p] & BodyFlags.enabled == 0 || !(sc > 0) { return inactive }
        let a = c.hw[p], b = c.hh[p]
        if (a > b ? a : b) * sc > smallLimit { return large }
        var fx = (c.px[p] - minX) * invCell
        var fy = (c.py[p] - minY) * invCell
        fx = fx < 0 ? 0 : (fx > wMax ? wMax : fx)
        fy = fy < 0 ? 0 : (fy > hMax ? hMax : fy)
        return UInt32(Int(fy) * width + Int(fx))
    }
}
