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
//  5. Overlap relaxation (World+Relax.swift): `iterations` Gauss–Seidel sweeps, alternately
//     forward and backward in slot (cell) order, over a candidate pair list (the grid's pairs
//     within a margin); a sweep that corrects nothing ends them. Large worlds sweep in row bands
//     that `executor` may run on several threads, and sort the grid and build the pair list in
//     the step's first sub-step only: the later sub-steps reuse them while no body moves fast
//     (no kinematic body moves, and no dynamic body's speed, as measured after the contacts,
//     carries it more than half the list's margin since the list was built); the margin itself
//     follows the speeds measured last (`listMarginFor`), so a calm pile gets short lists and a
//     fast one the full margin. The rule does not count how far the sweeps themselves pushed a
//     body, so in the first steps of a deep pile a reused list can miss a pair the sweeps pushed
//     together; that pair waits for the next list, a sub-step later (Benchmarks/NOTES.md gives
//     the measured counts).
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
// Steps 1–3 and 6 touch each body alone; large worlds run them in `bands` slot ranges through
// `executor` as well (`BodyPass`).
// The world comes to rest when no dynamic body moved faster than `restSpeed` for `restSteps`
// steps in a row; the rest polish then relaxes the remaining overlaps (positions only, until none
// is deeper than `restOverlapTolerance`), velocities are zeroed and further steps return at once
// until something wakes it.

extension World {
    /// Steepness of the outer-body preference when splitting an overlap correction (see
    /// `ContactSolver.pair`): with 10, a pair whose target distances differ by one contact size
    /// gives about 95 % of the correction to the outer body (the pair's octagonal measure of the
    /// distances makes the steepness 9.2–10, see there).
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
        let chunks = count >= World.bandMinBodies && chunkCapacity >= st.bands ? st.bands : 1
        // One chunk's result lives on the stack (small worlds keep no chunk buffer).
        var single = 0.0
        withUnsafeMutablePointer(to: &single) { single in
            let pass = BodyPass(world: self, h: h, chunks: chunks, results: chunks == 1 ? single : chunkScratch)
            // The largest squared speed of a dynamic body after the previous sub-step, and how far
            // (pt) such speeds may have carried a body since the pair lists were built.
            var subMaxSq = 0.0
            var movedSinceLists = 0.0
            for sub in 0..<subSteps {
                if liveCouplings > 0 {
                    parallel(chunks, .springs(pass, integrate: false))
                    couplingStage(h: h)
                    parallel(chunks, .integrate(pass))
                } else {
                    parallel(chunks, .springs(pass, integrate: true))
                }
                // Worlds swept in bands sort the grid and build the pair lists in the step's first
                // sub-step only; the later ones reuse them while no body moves fast: no kinematic
                // body moves, and the largest speed after each sub-step's contacts, summed over
                // the sub-steps since the lists were built, carries no body more than half the
                // lists' margin (see the header).
                let moved = movedSinceLists + subMaxSq.squareRoot() * h
                let reuse = sub > 0 && plannedTasks > 0 && !kinematicMoving && moved <= 0.5 * listMarginPt
                movedSinceLists = reuse ? moved : 0
                if !reuse {
                    buildGrid()
                    let speedSq = sub == 0 ? lastStepSpeedSq : subMaxSq
                    listMarginPt = listMarginFor(speedSq: speedSq, h: h, later: subSteps - 1 - sub, kinematicMoving: kinematicMoving)
                }
                if pass.driveScale > 0 { parallel(chunks, .drive(pass)) }
                relax(invH: invH, reuse: reuse)
                let last = sub == subSteps - 1
                let measure = last || plannedTasks > 0
                parallel(chunks, .finish(pass, measure: measure))
                subMaxSq = 0
                if measure {
                    for t in 0..<chunks where pass.maxSpeedSq[t] > subMaxSq { subMaxSq = pass.maxSpeedSq[t] }
                }
                if last { maxSpeedSq = subMaxSq }
            }
        }
        lastStepSpeedSq = maxSpeedSq
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

    /// `World.listMargin` in pt for the current grid: the margin of every list of a world swept
    /// as one task, and of a banded world's lists whenever bodies move fast.
    var fullListMargin: Double { World.listMargin * grid.smallLimit }

    /// The margin (pt) of the pair lists a banded world builds in a sub-step followed by `later`
    /// sub-steps of `h` seconds: twice what the speed rule of `step()` lets the later sub-steps
    /// use, at the speed `speedSq` (squared) measured last, in
    /// [`listMarginFloor`, `listMargin`] times the small-body limit; the full margin while a
    /// kinematic body moves. A calm pile gets short lists (fewer candidates that fail the
    /// sweeps' tests), a fast one the full margin; should a body speed up, the rule rebuilds.
    func listMarginFor(speedSq: Double, h: Double, later: Int, kinematicMoving: Bool) -> Double {
        let full = fullListMargin
        if kinematicMoving || !(speedSq < .infinity) { return full }
        let floor = World.listMarginFloor * grid.smallLimit
        let want = 4 * speedSq.squareRoot() * h * Double(later)
        return want < floor ? floor : (want < full ? want : full)
    }

    /// `World.deepMark`'s bit for a body static friction may not hold this sub-step.
    static let deepBit: UInt8 = 0x80
    /// `World.deepMark`'s other bits: the body's drive allowance, in `driveUnit`s.
    static let driveBits: UInt8 = 0x7F
    static let driveUnit = 0.25

    /// The rest polish: relaxation sweeps (positions only; the caller zeroes velocities) until the
    /// deepest overlap a sweep meets is at most `tolerance`, or `sweeps` sweeps have run.
    func polish(tolerance: Double, sweeps: Int, invH: Double) {
        var done = 0
        while done < sweeps {
            buildGrid()
            listMarginPt = fullListMargin
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
}

/// Chunk `t` of `chunks` equal ranges of `0..<n`: how the per-body passes and the grid's
/// threaded passes split the slots.
@inline(__always)
func chunk(_ t: Int, of chunks: Int, count n: Int) -> Range<Int> { (n * t / chunks)..<(n * (t + 1) / chunks) }

/// The per-body passes of a sub-step, over a range of slots. Each reads and writes only its own
/// body, so ranges can run on several threads, in any order, with the same bits.
struct BodyPass: @unchecked Sendable {
    let c: Columns
    let n: Int
    let chunks: Int
    let deep: UnsafeMutablePointer<UInt8>
    /// One entry per chunk: the largest squared speed `finish` measured.
    let maxSpeedSq: UnsafeMutablePointer<Double>
    let h: Double
    let clearDeep: Bool
    let keep: Double
    let gx: Double, gy: Double
    let hasBounds: Bool
    let bMinX: Double, bMaxX: Double, bMinY: Double, bMaxY: Double, midX: Double, midY: Double
    let margin: Double
    let bounds: SoftCoefficients
    let staticSq: Double, staticRatioSq: Double
    /// `WorldSettings.driveAllowance × h / World.driveUnit` with static friction on, else 0.
    let driveScale: Double

    init(world: World, h: Double, chunks: Int, results: UnsafeMutablePointer<Double>) {
        let st = world.settings
        c = world.col
        n = world.count
        self.chunks = chunks
        deep = world.deepMark
        maxSpeedSq = results
        self.h = h
        keep = 1 - st.contactDamping
        gx = st.gravity.x * h
        gy = st.gravity.y * h
        hasBounds = st.bounds != nil
        let b = st.bounds ?? Rect(x: 0, y: 0, width: 0, height: 0)
        bMinX = b.minX; bMaxX = b.maxX; bMinY = b.minY; bMaxY = b.maxY
        midX = (bMinX + bMaxX) * 0.5
        midY = (bMinY + bMaxY) * 0.5
        margin = st.boundsMargin
        bounds = SoftCoefficients(
            frequency: st.boundsSpring.frequency, dampingRatio: st.boundsSpring.dampingRatio, timeStep: h)
        staticSq = st.staticSpeed * st.staticSpeed
        staticRatioSq = st.staticFriction * st.staticFriction
        driveScale = st.hasStaticFriction ? st.driveAllowance * h / World.driveUnit : 0
        // `noteDrive` rewrites every mark after the grid sort; else `integrate` clears them.
        clearDeep = st.hasStaticFriction && !(driveScale > 0)
    }

    /// Chunk `t` of `chunks` equal slot ranges.
    func range(_ t: Int) -> Range<Int> { chunk(t, of: chunks, count: n) }

    /// Gravity, target springs and the keep-on-canvas pull, as soft velocity updates.
    func velocity(_ r: Range<Int>) {
        let c = self.c
        let bs = bounds
        // One-entry cache: bodies mostly share one spring, so its coefficients are computed once.
        var lastF = -1.0, lastZ = -1.0
        var soft = SoftCoefficients.zero
        let en = BodyFlags.enabled, kin = BodyFlags.kinematic
        for p in r where c.flags[p] & (en | kin) == en {
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

    /// Contact damping, then integration; notes the velocity before the sweeps and clears the
    /// deep marks.
    func integrate(_ r: Range<Int>) {
        let c = self.c
        let en = BodyFlags.enabled, kin = BodyFlags.kinematic
        if clearDeep { (deep + r.lowerBound).update(repeating: 0, count: r.count) }
        for p in r where c.flags[p] & en != 0 {
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

    /// After the grid sort (which moves the slots, not `deepMark`): each body's drive allowance
    /// for the sweeps' deep marks (`WorldSettings.driveAllowance`), in `World.driveUnit`s: the
    /// allowance times how far its velocity before the sweeps carries it towards its target in
    /// one sub-step (at most 31.75 pt).
    func noteDrive(_ r: Range<Int>) {
        let c = self.c
        let limit = Double(World.driveBits)
        for p in r {
            var q = 0.0
            if c.freq[p] > 0 {
                let ax = c.tx[p] - c.px[p], ay = c.ty[p] - c.py[p]
                let d = (ax * ax + ay * ay).squareRoot()
                if d > 0 {
                    let s = (Double(c.ux[p]) * ax + Double(c.uy[p]) * ay) / d
                    if s > 0 { q = driveScale * s }
                }
            }
            deep[p] = UInt8(q < limit ? q : limit)
        }
    }

    /// After the sweeps. Contacts never add energy and never bounce: for each touched dynamic
    /// body, the velocity the sweeps credited (along their net push) may at most cancel the
    /// approach, never point outwards faster than the body already moved that way; and its speed
    /// may not exceed its speed before the sweeps. Then static friction. Returns the largest
    /// squared speed of the range's dynamic bodies when `measure` (else 0).
    func finish(_ r: Range<Int>, measure: Bool) -> Double {
        let c = self.c
        let en = BodyFlags.enabled, kin = BodyFlags.kinematic
        let touched = BodyFlags.touched
        var maxSq = 0.0
        for p in r where c.flags[p] & (en | kin) == en {
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
                if (v2 < staticSq || v2 < pressSq) && deep[p] & World.deepBit == 0 {
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
            if measure {
                let v2 = vx * vx + vy * vy
                if v2 > maxSq { maxSq = v2 }
            }
        }
        return maxSq
    }
}
