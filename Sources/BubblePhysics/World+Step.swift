// The fixed step: soft springs, integration, overlap relaxation, rest detection.
//
// One step of `timeStep` seconds runs `subSteps` sub-steps of h seconds each:
//  1. Velocities: gravity, the target spring and the keep-on-canvas pull as soft (implicit)
//     velocity updates (`SoftCoefficients`, Box2D's `b2MakeSoft`), then the coupling springs.
//     Kinematic bodies get the velocity that takes them to their goal by the end of the step.
//  2. Contact damping: a body that touched another one (within `contactSlop`) in the previous
//     sub-step keeps only `1 - contactDamping` of its velocity. This is the friction of the
//     bubbles: it stops piles from creeping and sliding, and it shrinks how far the springs press
//     a body into its neighbours per sub-step (the load the sweeps must carry through a pile).
//  3. Integration: x += h v.
//  4. Broad phase (World+Grid.swift): slots sorted into grid cells.
//  5. Overlap relaxation: `iterations` Gauss–Seidel sweeps, alternately forward and backward in
//     slot (cell) order, over the sub-step's candidate pair list (the grid's pairs within a
//     margin, found once per sub-step; see `relax`); a sweep that corrects nothing ends them.
//     Each overlapping pair is pushed apart along the exact contact normal by its full
//     penetration. The push is split by inverse mass (a kinematic body takes none of
//     it), shifted smoothly towards the body that is farther from its own target ("shock
//     propagation": a pile pressed together by springs pushes its outer bodies out instead of
//     squeezing the load into its centre, which plain Gauss–Seidel cannot undo in a few sweeps).
//     The correction divided by h is added to the velocities (position-based dynamics), so
//     velocities follow the actual motion.
//  6. Contacts never add energy and never bounce: for each touched body, the velocity the sweeps
//     credited may at most cancel its approach along their net push, and its speed may not
//     exceed its speed before the sweeps. Static friction: a touched body whose motion over the
//     sub-step is slower than `staticSpeed`, or than `staticFriction` times the push its contacts
//     gave it, goes back to where the sub-step found it and stops (its contacts carry its drive).
// The world comes to rest when no dynamic body moved faster than `restSpeed` for `restSteps`
// steps in a row; the rest polish then relaxes the remaining overlaps (positions only, until none
// is deeper than `restOverlapTolerance`), velocities are zeroed and further steps return at once
// until something wakes it.

extension World {
    /// Steepness of the outer-body preference when splitting an overlap correction (see
    /// `ContactSolver.pair`): with 10, a pair whose target distances differ by one contact size
    /// gives about 95 % of the correction to the outer body.
    static let depthSharpness: Double = 10
    /// Advances the world by `settings.timeStep` seconds. Allocates nothing once the storage has
    /// grown to the body count. At rest it only counts the step.
    public func step() {
        stepCount += 1
        if isAtRest { return }
        let n = count
        let st = settings
        let dt = st.timeStep
        let subSteps = st.subSteps
        let h = dt / Double(subSteps)
        let invH = 1 / h
        let invDt = 1 / dt
        let en = BodyFlags.enabled, kin = BodyFlags.kinematic

        // Kinematic bodies: velocity that lands them exactly on their goal at the end of the step.
        var kinematicMoving = false
        do {
            let c = col
            for p in 0..<n where c.flags[p] & (en | kin) == en | kin {
                let vx = (c.tx[p] - c.px[p]) * invDt
                let vy = (c.ty[p] - c.py[p]) * invDt
                c.vx[p] = vx
                c.vy[p] = vy
                if vx != 0 || vy != 0 { kinematicMoving = true }
            }
        }

        var maxSpeedSq = 0.0
        for sub in 0..<subSteps {
            velocityStage(h: h)
            if liveCouplings > 0 { couplingStage(h: h) }
            let last = sub == subSteps - 1
            // Contact damping, then integrate.
            do {
                let c = col
                if st.hasStaticFriction { deepMark.update(repeating: 0, count: n) }
                let keep = 1 - st.contactDamping
                for p in 0..<n where c.flags[p] & en != 0 {
                    var vx = c.vx[p], vy = c.vy[p]
                    if c.flags[p] & (BodyFlags.touched | kin) == BodyFlags.touched {
                        vx *= keep
                        vy *= keep
                        c.vx[p] = vx
                        c.vy[p] = vy
                    }
                    c.ux[p] = Float(vx)
                    c.uy[p] = Float(vy)
                    c.flags[p] &= ~BodyFlags.touched
                    c.px[p] += h * vx
                    c.py[p] += h * vy
                }
            }
            buildGrid()
            relax(invH: invH)
            // Contacts never add energy and never bounce: for each touched dynamic body, the
            // velocity the sweeps credited (along their net push) may at most cancel the approach,
            // never point outwards faster than the body already moved that way; and its speed may
            // not exceed its speed before the sweeps. Measure the largest speed.
            do {
                let c = col
                let touched = BodyFlags.touched
                let staticSq = st.staticSpeed * st.staticSpeed
                let staticRatioSq = st.staticFriction * st.staticFriction
                for p in 0..<n where c.flags[p] & (en | kin) == en {
                    var vx = c.vx[p], vy = c.vy[p]
                    if c.flags[p] & touched != 0 {
                        let ux = Double(c.ux[p]), uy = Double(c.uy[p])
                        let dx = vx - ux, dy = vy - uy
                        let d2 = dx * dx + dy * dy
                        let pressSq = staticRatioSq * d2
                        if d2 > 0 {
                            let inv = 1 / d2.squareRoot()
                            let nx = dx * inv, ny = dy * inv
                            let before = ux * nx + uy * ny
                            let allowed = before > 0 ? before : 0
                            let after = vx * nx + vy * ny
                            if after > allowed {
                                vx -= (after - allowed) * nx
                                vy -= (after - allowed) * ny
                            }
                        }
                        let v2 = vx * vx + vy * vy, u2 = ux * ux + uy * uy
                        if (v2 < staticSq || v2 < pressSq) && deepMark[p] == 0 {
                            // Static friction: back to where the sub-step began, at rest.
                            c.px[p] -= h * vx
                            c.py[p] -= h * vy
                            vx = 0
                            vy = 0
                        } else if v2 > u2 {
                            let f = (u2 / v2).squareRoot()
                            vx *= f
                            vy *= f
                        }
                        c.vx[p] = vx
                        c.vy[p] = vy
                    }
                    if last {
                        let v2 = vx * vx + vy * vy
                        if v2 > maxSpeedSq { maxSpeedSq = v2 }
                    }
                }
            }
        }
        // Kinematic bodies end exactly on their goal.
        do {
            let c = col
            for p in 0..<n where c.flags[p] & (en | kin) == en | kin {
                c.px[p] = c.tx[p]
                c.py[p] = c.ty[p]
            }
        }
        // Rest detection.
        if !kinematicMoving && maxSpeedSq <= st.restSpeed * st.restSpeed {
            quietSteps += 1
            if quietSteps >= st.restSteps {
                isAtRest = true
                restStep = stepCount
                if let tolerance = st.restOverlapTolerance { polish(tolerance: tolerance, sweeps: st.restPolishSweeps, invH: invH) }
                let c = col
                for p in 0..<n where c.flags[p] & en != 0 {
                    c.vx[p] = 0
                    c.vy[p] = 0
                }
            }
        } else {
            quietSteps = 0
        }
    }

    /// The rest polish: relaxation sweeps (positions only; the caller zeroes velocities) until the
    /// deepest overlap a sweep meets is at most `tolerance`, or `sweeps` sweeps have run.
    func polish(tolerance: Double, sweeps: Int, invH: Double) {
        var done = 0
        while done < sweeps {
            buildGrid()
            relax(invH: invH)
            done += settings.iterations
            if lastSweepMaxOverlap <= tolerance { break }
        }
    }

    /// Runs `count` steps (stops early at rest if `untilRest`); returns the steps actually taken.
    @discardableResult
    public func step(count: Int, untilRest: Bool = false) -> Int {
        var taken = 0
        while taken < count {
            if untilRest && isAtRest { break }
            step()
            taken += 1
        }
        return taken
    }

    /// Gravity, target springs and the keep-on-canvas pull, as soft velocity updates.
    func velocityStage(h: Double) {
        let c = col
        let n = count
        let st = settings
        let gx = st.gravity.x * h, gy = st.gravity.y * h
        let hasBounds = st.bounds != nil
        let b = st.bounds ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let bs = SoftCoefficients(
            frequency: st.boundsSpring.frequency, dampingRatio: st.boundsSpring.dampingRatio, timeStep: h)
        let margin = st.boundsMargin
        let bMinX = b.minX, bMaxX = b.maxX, bMinY = b.minY, bMaxY = b.maxY
        let midX = (bMinX + bMaxX) * 0.5, midY = (bMinY + bMaxY) * 0.5
        // One-entry cache: bodies mostly share one spring, so its coefficients are computed once.
        var lastF = -1.0, lastZ = -1.0
        var soft = SoftCoefficients.zero
        let en = BodyFlags.enabled, kin = BodyFlags.kinematic
        for p in 0..<n where c.flags[p] & (en | kin) == en {
            var vx = c.vx[p] + gx
            var vy = c.vy[p] + gy
            let x = c.px[p], y = c.py[p]
            let f = c.freq[p]
            if f > 0 {
                let z = c.zeta[p]
                if f != lastF || z != lastZ {
                    soft = SoftCoefficients(frequency: f, dampingRatio: z, timeStep: h)
                    lastF = f
                    lastZ = z
                }
                vx -= soft.massScale * (vx + soft.biasRate * (x - c.tx[p]))
                vy -= soft.massScale * (vy + soft.biasRate * (y - c.ty[p]))
            }
            if hasBounds {
                let s = c.scale[p]
                let ex = c.hw[p] * s + margin, ey = c.hh[p] * s + margin
                var lo = bMinX + ex, hi = bMaxX - ex
                if lo > hi { lo = midX; hi = midX }
                let errX = x < lo ? x - lo : (x > hi ? x - hi : 0)
                if errX != 0 { vx -= bs.massScale * (vx + bs.biasRate * errX) }
                lo = bMinY + ey
                hi = bMaxY - ey
                if lo > hi { lo = midY; hi = midY }
                let errY = y < lo ? y - lo : (y > hi ? y - hi : 0)
                if errY != 0 { vy -= bs.massScale * (vy + bs.biasRate * errY) }
            }
            c.vx[p] = vx
            c.vy[p] = vy
        }
    }

    /// Coupling springs, in coupling index order, as mass-weighted soft velocity updates.
    func couplingStage(h: Double) {
        let c = col
        let en = BodyFlags.enabled
        couplings.withUnsafeBufferPointer { cp in
            for k in 0..<cp.count {
                let cu = cp[k]
                if !cu.alive || !(cu.spring.frequency > 0) { continue }
                guard let a = liveSlot(cu.a), let b = liveSlot(cu.b) else { continue }
                if c.flags[a] & en == 0 || c.flags[b] & en == 0 { continue }
                let wa = c.invMass[a], wb = c.invMass[b]
                let ws = wa + wb
                if ws == 0 { continue }
                let soft = SoftCoefficients(
                    frequency: cu.spring.frequency, dampingRatio: cu.spring.dampingRatio, timeStep: h)
                let cx = c.px[b] - c.px[a] - cu.offset.x
                let cy = c.py[b] - c.py[a] - cu.offset.y
                let rvx = c.vx[b] - c.vx[a], rvy = c.vy[b] - c.vy[a]
                let dvx = -soft.massScale * (rvx + soft.biasRate * cx)
                let dvy = -soft.massScale * (rvy + soft.biasRate * cy)
                let fa = wa / ws, fb = wb / ws
                c.vx[a] -= fa * dvx
                c.vy[a] -= fa * dvy
                c.vx[b] += fb * dvx
                c.vy[b] += fb * dvy
            }
        }
    }

    @inline(__always)
    func liveSlot(_ id: BodyID) -> Int? {
        let i = Int(id.index)
        guard i < handleCount, slotOf[i] & World.freeBit == 0, generation[i] == id.generation else { return nil }
        return Int(slotOf[i])
    }

    /// Candidate pairs kept per slot in the sub-step's pair list (see `relax`); more than
    /// `pairsPerSlot × count` candidates in all, or more than 255 for one slot, and the sub-step
    /// sweeps the grid instead. At least 3: `buildGrid` uses the same buffer for the permutation
    /// (one word per slot) and one gathered column of doubles (two words per slot).
    static let pairsPerSlot = 4

    /// Gauss–Seidel overlap relaxation over the grid built by `buildGrid()`.
    ///
    /// The grid's candidate pairs (each slot against the later slots of its cell and of the four
    /// forward neighbour cells) are found once per sub-step: the pairs whose bounding boxes,
    /// grown by `contactSlop` plus a margin for the motion within the sweeps, overlap go into a
    /// list, in slot order (`perm`, with `pairCount` per slot). The sweeps then run over the list
    /// instead of the cells: forward, each slot's candidates in list order; backward, the slots in
    /// reverse, each slot's candidates still in list order. Every sweep repeats the exact test.
    func relax(invH: Double) {
        let g = grid
        if g.smallCount + g.largeCount < 2 { lastSweepMaxOverlap = 0; return }
        var solver = ContactSolver(col: col, deep: deepMark, slop: settings.contactSlop, invH: invH, rng: rng)
        let cs = cellStart
        let cells = g.cells, w = g.width
        let largeStart = g.smallCount, largeEnd = g.smallCount + g.largeCount
        let iterations = settings.iterations
        let markDeep = settings.hasStaticFriction
        let listed = iterations > 1 && buildPairList(margin: World.listMargin * g.smallLimit)
        let list = perm, counts = pairCount
        var total = 0
        if listed { for p in 0..<largeStart { total += Int(counts[p]) } }
        var swept = 0.0
        for it in 0..<iterations {
            // A sweep that corrected nothing leaves every position as it was, so the remaining
            // sweeps would repeat it exactly: stop (bit-identical to running them).
            if it > 0 && swept == 0 { break }
            solver.maxPen = 0
            solver.markDeep = it == 0 && markDeep
            if listed {
                if it & 1 == 0 {
                    var k = 0
                    for p in 0..<largeStart {
                        let e = k + Int(counts[p])
                        solver.listed(p, list, k, e)
                        k = e
                    }
                    for l in largeStart..<largeEnd { solver.large(l, grid: g, cellStart: cs, largeEnd: largeEnd) }
                } else {
                    var l = largeEnd
                    while l > largeStart {
                        l -= 1
                        solver.large(l, grid: g, cellStart: cs, largeEnd: largeEnd)
                    }
                    var e = total
                    var p = largeStart
                    while p > 0 {
                        p -= 1
                        let k = e - Int(counts[p])
                        solver.listed(p, list, k, e)
                        e = k
                    }
                }
            } else if it & 1 == 0 {
                // Forward: cells in order, each body against the later bodies of its own cell and
                // of the four forward neighbour cells, then the large bodies.
                for cell in 0..<cells {
                    let start = Int(cs[cell]), end = Int(cs[cell + 1])
                    if start == end { continue }
                    let r1End = Int(cs[cell + 2 < cells ? cell + 2 : cells])
                    let r2Start = Int(cs[cell + w - 1 < cells ? cell + w - 1 : cells])
                    let r2End = Int(cs[cell + w + 2 < cells ? cell + w + 2 : cells])
                    for p in start..<end {
                        solver.against(p, from: p + 1, to: r1End, and: r2Start, to: r2End)
                    }
                }
                for l in largeStart..<largeEnd { solver.large(l, grid: g, cellStart: cs, largeEnd: largeEnd) }
            } else {
                // Backward: the same pairs in reverse order, so corrections travel both ways.
                var l = largeEnd
                while l > largeStart {
                    l -= 1
                    solver.large(l, grid: g, cellStart: cs, largeEnd: largeEnd)
                }
                var cell = cells
                while cell > 0 {
                    cell -= 1
                    let start = Int(cs[cell]), end = Int(cs[cell + 1])
                    if start == end { continue }
                    let r1End = Int(cs[cell + 2 < cells ? cell + 2 : cells])
                    let r2Start = Int(cs[cell + w - 1 < cells ? cell + w - 1 : cells])
                    let r2End = Int(cs[cell + w + 2 < cells ? cell + w + 2 : cells])
                    var p = end
                    while p > start {
                        p -= 1
                        solver.against(p, from: p + 1, to: r1End, and: r2Start, to: r2End)
                    }
                }
            }
            swept = solver.maxPen
        }
        lastSweepMaxOverlap = solver.maxPen
        rng = solver.rng
    }

    /// Margin of the pair list, as a fraction of the small-body half-extent limit: how far two
    /// bodies may move towards each other within one sub-step's sweeps and still be found.
    static let listMargin = 0.375

    /// Fills `perm`/`pairCount` with the candidate pairs of the grid whose boxes, grown by
    /// `contactSlop + margin`, overlap. Returns false (and the sweeps use the grid) if they do not
    /// fit.
    func buildPairList(margin: Double) -> Bool {
        let g = grid
        let c = col
        let px = c.px, py = c.py, hw = c.hw, hh = c.hh, scale = c.scale
        let cs = cellStart
        let cells = g.cells, w = g.width
        let list = perm, counts = pairCount
        let limit = pairCapacity
        let reach = settings.contactSlop + margin
        var k = 0
        for cell in 0..<cells {
            let start = Int(cs[cell]), end = Int(cs[cell + 1])
            if start == end { continue }
            let r1End = Int(cs[cell + 2 < cells ? cell + 2 : cells])
            let r2Start = Int(cs[cell + w - 1 < cells ? cell + w - 1 : cells])
            let r2End = Int(cs[cell + w + 2 < cells ? cell + w + 2 : cells])
            for p in start..<end {
                let si = scale[p]
                let exi = hw[p] * si + reach, eyi = hh[p] * si + reach
                let xi = px[p], yi = py[p]
                let k0 = k
                var q = p + 1
                while q < r1End {
                    let sj = scale[q]
                    let dx = px[q] - xi, dy = py[q] - yi
                    if (dx < 0 ? -dx : dx) < exi + hw[q] * sj && (dy < 0 ? -dy : dy) < eyi + hh[q] * sj {
                        if k == limit { return false }
                        list[k] = UInt32(truncatingIfNeeded: q)
                        k += 1
                    }
                    q += 1
                }
                q = r2Start
                while q < r2End {
                    let sj = scale[q]
                    let dx = px[q] - xi, dy = py[q] - yi
                    if (dx < 0 ? -dx : dx) < exi + hw[q] * sj && (dy < 0 ? -dy : dy) < eyi + hh[q] * sj {
                        if k == limit { return false }
                        list[k] = UInt32(truncatingIfNeeded: q)
                        k += 1
                    }
                    q += 1
                }
                if k - k0 > 255 { return false }
                counts[p] = UInt8(truncatingIfNeeded: k - k0)
            }
        }
        return true
    }
}

/// The narrow phase and the position projection of one pair, over raw column pointers.
///
/// Every shape is a rounded box: a core rectangle (half extents `hw - r`, `hh - r`, scaled)
/// swept by a disc of radius `r` (a circle has a point core). The distance between two such
/// shapes is the distance between their cores minus the two radii, which gives exact
/// circle–circle, circle–rounded-rect and rounded-rect–rounded-rect contacts in one code path.
struct ContactSolver {
    let px, py, vx, vy, hw, hh, cr, scale, invMass: UnsafeMutablePointer<Double>
    let flags: UnsafeMutablePointer<UInt8>
    /// `World.deepMark`: 1 where static friction may not hold the body this sub-step.
    let deep: UnsafeMutablePointer<UInt8>
    let tx, ty, freq: UnsafeMutablePointer<Double>
    /// The deepest overlap, pt, with which static friction may still hold a body (see
    /// `World.deepMark`).
    static let stickyOverlap = 2.0
    /// Steepness of the outer-body preference of the correction split.
    let depthSharpness: Double
    /// Pairs closer than this (gap, pt) count as touching: they support each other.
    let slop: Double
    let invH: Double
    var maxPen = 0.0
    /// Whether this sweep marks deep overlaps (the first sweep of a sub-step, where overlaps are
    /// deepest, and only when static friction is on).
    var markDeep = false
    var rng: SplitMix64

    init(col: Columns, deep: UnsafeMutablePointer<UInt8>, slop: Double, invH: Double, rng: SplitMix64) {
        self.deep = deep
        px = col.px; py = col.py; vx = col.vx; vy = col.vy
        self.invH = invH
        hw = col.hw; hh = col.hh; cr = col.cr; scale = col.scale; invMass = col.invMass
        flags = col.flags
        tx = col.tx; ty = col.ty; freq = col.freq
        depthSharpness = World.depthSharpness
        self.slop = slop
        self.rng = rng
    }

    /// Body `i` against the slot ranges `a0..<a1` and `b0..<b1`.
    ///
    /// The hot loop of the step: most candidates fail the bounding-box test, so that test runs
    /// inline over locally held column pointers, and only pairs that pass it call `pair`, which
    /// repeats the same test (bit for bit) before the narrow phase. Body `i`'s position is
    /// re-read after every pair that may have moved it.
    @inline(__always)
    mutating func against(_ i: Int, from a0: Int, to a1: Int, and b0: Int, to b1: Int) {
        let px = self.px, py = self.py, hw = self.hw, hh = self.hh, scale = self.scale
        let slop = self.slop
        let si = scale[i]
        let hxi = hw[i] * si, hyi = hh[i] * si, ri = cr[i] * si
        let wi = invMass[i]
        var xi = px[i], yi = py[i]
        var q = a0
        while q < a1 {
            let sj = scale[q]
            let dx = px[q] - xi, dy = py[q] - yi
            let hxj = hw[q] * sj, hyj = hh[q] * sj
            let adx = dx < 0 ? -dx : dx
            let ady = dy < 0 ? -dy : dy
            if !(adx >= hxi + hxj + slop || ady >= hyi + hyj + slop) {
                pair(i, q, hxi, hyi, ri, wi)
                xi = px[i]
                yi = py[i]
            }
            q += 1
        }
        q = b0
        while q < b1 {
            let sj = scale[q]
            let dx = px[q] - xi, dy = py[q] - yi
            let hxj = hw[q] * sj, hyj = hh[q] * sj
            let adx = dx < 0 ? -dx : dx
            let ady = dy < 0 ? -dy : dy
            if !(adx >= hxi + hxj + slop || ady >= hyi + hyj + slop) {
                pair(i, q, hxi, hyi, ri, wi)
                xi = px[i]
                yi = py[i]
            }
            q += 1
        }
    }

    /// Body `i` against the listed candidates `list[k0..<k1]` (same exact test as `against`).
    @inline(__always)
    mutating func listed(_ i: Int, _ list: UnsafeMutablePointer<UInt32>, _ k0: Int, _ k1: Int) {
        if k0 == k1 { return }
        let px = self.px, py = self.py, hw = self.hw, hh = self.hh, scale = self.scale
        let slop = self.slop
        let si = scale[i]
        let hxi = hw[i] * si, hyi = hh[i] * si, ri = cr[i] * si
        let wi = invMass[i]
        var xi = px[i], yi = py[i]
        var k = k0
        while k < k1 {
            let q = Int(list[k])
            let sj = scale[q]
            let dx = px[q] - xi, dy = py[q] - yi
            let hxj = hw[q] * sj, hyj = hh[q] * sj
            let adx = dx < 0 ? -dx : dx
            let ady = dy < 0 ? -dy : dy
            if !(adx >= hxi + hxj + slop || ady >= hyi + hyj + slop) {
                pair(i, q, hxi, hyi, ri, wi)
                xi = px[i]
                yi = py[i]
            }
            k += 1
        }
    }

    /// A large body against the cells its box covers, then against the later large bodies.
    @inline(__always)
    mutating func large(_ l: Int, grid g: GridLayout, cellStart cs: UnsafeMutablePointer<UInt32>, largeEnd: Int) {
        let sl = scale[l]
        let hxl = hw[l] * sl, hyl = hh[l] * sl, rl = cr[l] * sl
        let wl = invMass[l]
        if g.smallCount > 0 {
            let reachX = hxl + g.smallLimit, reachY = hyl + g.smallLimit
            let wMax = Double(g.width - 1), hMax = Double(g.height - 1)
            func cellIndex(_ v: Double, _ lo: Double, _ hi: Double) -> Int {
                let f = (v - lo) * g.invCell
                return Int(f < 0 ? 0 : (f > hi ? hi : f))
            }
            let x = px[l], y = py[l]
            let cx0 = cellIndex(x - reachX, g.minX, wMax), cx1 = cellIndex(x + reachX, g.minX, wMax)
            let cy0 = cellIndex(y - reachY, g.minY, hMax), cy1 = cellIndex(y + reachY, g.minY, hMax)
            for cy in cy0...cy1 {
                let row = cy * g.width
                let a = Int(cs[row + cx0]), b = Int(cs[row + cx1 + 1])
                var q = a
                while q < b {
                    pair(l, q, hxl, hyl, rl, wl)
                    q += 1
                }
            }
        }
        var q = l + 1
        while q < largeEnd {
            pair(l, q, hxl, hyl, rl, wl)
            q += 1
        }
    }

    /// A seeded random unit vector (rare: coincident centres), kept out of line so that `pair`
    /// stays small enough to inline into the sweeps.
    @inline(never)
    mutating func randomDirection() -> (Double, Double) {
        var ux = 0.0, uy = 0.0, l2 = 0.0
        repeat {
            ux = rng.nextUnit() * 2 - 1
            uy = rng.nextUnit() * 2 - 1
            l2 = ux * ux + uy * uy
        } while l2 < 0.01 || l2 > 1
        let inv = 1 / l2.squareRoot()
        return (ux * inv, uy * inv)
    }

    @inline(__always)
    mutating func pair(_ i: Int, _ j: Int, _ hxi: Double, _ hyi: Double, _ ri: Double, _ wi: Double) {
        let dx = px[j] - px[i]
        let dy = py[j] - py[i]
        let sj = scale[j]
        let hxj = hw[j] * sj, hyj = hh[j] * sj
        let adx = dx < 0 ? -dx : dx
        let ady = dy < 0 ? -dy : dy
        if adx >= hxi + hxj + slop || ady >= hyi + hyj + slop { return }
        let wj = invMass[j]
        let ws = wi + wj
        if ws == 0 { return }
        let rj = cr[j] * sj
        let r = ri + rj
        let gx = adx - ((hxi - ri) + (hxj - rj))
        let gy = ady - ((hyi - ri) + (hyj - rj))
        var nx: Double, ny: Double, pen: Double
        if gx > 0 {
            if gy > 0 {
                let d2 = gx * gx + gy * gy
                let rs = r + slop
                if d2 >= rs * rs { return }
                let d = d2.squareRoot()
                pen = r - d
                let inv = 1 / d
                nx = (dx < 0 ? -gx : gx) * inv
                ny = (dy < 0 ? -gy : gy) * inv
            } else {
                pen = r - gx
                if pen <= -slop { return }
                nx = dx < 0 ? -1 : 1
                ny = 0
            }
        } else if gy > 0 {
            pen = r - gy
            if pen <= -slop { return }
            nx = 0
            ny = dy < 0 ? -1 : 1
        } else {
            // The cores overlap: push out along the axis of least penetration.
            let penX = r - gx, penY = r - gy
            if dx == 0 && dy == 0 {
                // Coincident centres: a seeded random direction breaks the tie.
                (nx, ny) = randomDirection()
                pen = penX < penY ? penX : penY
            } else if penX <= penY && dx != 0 || dy == 0 {
                pen = penX
                nx = dx < 0 ? -1 : 1
                ny = 0
            } else {
                pen = penY
                nx = 0
                ny = dy < 0 ? -1 : 1
            }
        }
        // Touching (within the slop) turns on contact damping for the next sub-step. A deep
        // overlap, and any overlap with a body already marked deep, marks both deep: the bodies
        // around a jammed pair must be free to make room for it.
        flags[i] |= BodyFlags.touched
        flags[j] |= BodyFlags.touched
        if pen <= 0 { return }
        if markDeep {
            let di0 = deep[i], dj0 = deep[j]
            let mark: UInt8 = pen > ContactSolver.stickyOverlap ? 1 : di0 | dj0
            deep[i] = di0 | mark
            deep[j] = dj0 | mark
        }
        // Split the correction by inverse mass, shifted towards the body that is farther from
        // its target ("shock propagation"): a pile pressed together by springs pushes its outer
        // bodies out instead of squeezing the load into its centre, which lets a few sweeps per
        // sub-step carry the load of a deep pile. The weight is a smooth, algebraic sigmoid of
        // the difference of the two target distances over the contact size.
        var ewi = wi, ewj = wj
        let fqi = freq[i], fqj = freq[j]
        if fqi > 0 && fqj > 0 && wi > 0 && wj > 0 {
            let ax = px[i] - tx[i], ay = py[i] - ty[i]
            let bx = px[j] - tx[j], by = py[j] - ty[j]
            let di = (ax * ax + ay * ay).squareRoot(), dj = (bx * bx + by * by).squareRoot()
            // The sigmoid sig = 0.5 + 0.5 z / (1 + |z|) of z = u / s (in (0, 1): 1 when i is
            // outer) is (s + |u| + u) / (2 (s + |u|)), and 1 - sig the same with -u; only their
            // ratio matters below, so the weights need no division.
            let u = depthSharpness * (di - dj)
            let s = hxi + hxj + hyi + hyj
            let au = u < 0 ? -u : u
            ewi = wi * (s + au + u)
            ewj = wj * (s + au - u)
        }
        let inv = 1 / (ewi + ewj)
        let fi = ewi * inv, fj = ewj * inv
        // Project apart by the full penetration, split by inverse mass.
        if pen > maxPen { maxPen = pen }
        let ci = pen * fi, cj = pen * fj
        let ix = nx * ci, iy = ny * ci, jx = nx * cj, jy = ny * cj
        px[i] -= ix
        py[i] -= iy
        px[j] += jx
        py[j] += jy
        // Position-based velocity: the correction, over h, is credited to the velocities, so
        // velocities follow actual motion (capped after the sweeps, see `step()`).
        vx[i] -= ix * invH
        vy[i] -= iy * invH
        vx[j] += jx * invH
        vy[j] += jy * invH
    }
}
