// The narrow phase and the position projection of one overlapping pair.

import BubbleSupport

/// The narrow phase and the position projection of one pair, over raw column pointers.
///
/// Every shape is a rounded box: a core rectangle (half extents `hw - r`, `hh - r`, scaled)
/// swept by a disc of radius `r` (a circle has a point core). The distance between two such
/// shapes is the distance between their cores minus the two radii, which gives exact
/// circle–circle, circle–rounded-rect and rounded-rect–rounded-rect contacts in one code path.
struct ContactSolver {
    let px, py, vx, vy, hw, hh, cr, scale, invMass: UnsafeMutablePointer<Double>
    let flags: UnsafeMutablePointer<UInt8>
    /// `World.deepMark`: `World.deepBit` where static friction may not hold the body this
    /// sub-step, and its drive allowance.
    let deep: UnsafeMutablePointer<UInt8>
    let tx, ty, freq: UnsafeMutablePointer<Double>
    /// The deepest overlap, pt, with which static friction may still hold a body (see
    /// `World.deepMark`).
    static let stickyOverlap = 2.0
    /// Steepness of the outer-body preference of the correction split.
    let depthSharpness: Double
    /// √2 - 1: the octagonal norm's weight of the smaller coordinate.
    static let octagon = 0.41421356237309503
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
    @inline(__always)
    mutating func against(_ i: Int, from a0: Int, to a1: Int, and b0: Int, to b1: Int) {
        var o = own(i)
        var q = a0
        while q < a1 {
            candidate(&o, q)
            q += 1
        }
        q = b0
        while q < b1 {
            candidate(&o, q)
            q += 1
        }
        store(o)
    }

    /// Body `i` against the listed candidates `list[k0..<k1]` (the same test as `against`).
    @inline(__always)
    mutating func listed(_ i: Int, _ list: UnsafeMutablePointer<UInt32>, _ k0: Int, _ k1: Int) {
        if k0 == k1 { return }
        var o = own(i)
        var k = k0
        while k < k1 {
            candidate(&o, Int(list[k]))
            k += 1
        }
        store(o)
    }

    /// The body whose candidates a sweep is working through. No other pair of that run touches it
    /// (its partners are always other bodies), so its position stays in registers from pair to
    /// pair instead of being stored and loaded again after every correction (each pair's test
    /// needs the position the last correction left). Same arithmetic and bits; the measurements
    /// are in `Benchmarks/NOTES.md`, "The sweep's own body in registers".
    struct Own {
        let i: Int
        var x, y: Double
        let hx, hy, r, w: Double
    }

    @inline(__always)
    func own(_ i: Int) -> Own {
        let si = scale[i]
        return Own(
            i: i, x: px[i], y: py[i],
            hx: hw[i] * si, hy: hh[i] * si, r: cr[i] * si, w: invMass[i])
    }

    @inline(__always)
    func store(_ o: Own) {
        let i = o.i
        px[i] = o.x
        py[i] = o.y
    }

    /// One candidate pair, the hot loop of the step. The bounding-box test runs here, inline
    /// (most of the grid's candidates fail it, about a quarter of the listed ones); only pairs
    /// that pass it call `pair`, which repeats the same test (bit for bit) before the narrow
    /// phase.
    @inline(__always)
    mutating func candidate(_ o: inout Own, _ q: Int) {
        let sj = scale[q]
        let dx = px[q] - o.x, dy = py[q] - o.y
        let hxj = hw[q] * sj, hyj = hh[q] * sj
        let adx = dx < 0 ? -dx : dx
        let ady = dy < 0 ? -dy : dy
        if !(adx >= o.hx + hxj + slop || ady >= o.hy + hyj + slop) {
            pair(&o, q)
        }
    }

    /// Body `o` against the cell bodies in the cells its box grown by `reach` covers, row by row.
    @inline(__always)
    mutating func cells(around o: inout Own, reach: Double, grid g: GridLayout, cellStart cs: UnsafeMutablePointer<UInt32>) {
        let reachX = o.hx + reach, reachY = o.hy + reach
        let wMax = Double(g.width - 1), hMax = Double(g.height - 1)
        func cellIndex(_ v: Double, _ lo: Double, _ hi: Double) -> Int {
            let f = (v - lo) * g.invCell
            return Int(f < 0 ? 0 : (f > hi ? hi : f))
        }
        let x = o.x, y = o.y
        let cx0 = cellIndex(x - reachX, g.minX, wMax), cx1 = cellIndex(x + reachX, g.minX, wMax)
        let cy0 = cellIndex(y - reachY, g.minY, hMax), cy1 = cellIndex(y + reachY, g.minY, hMax)
        for cy in cy0...cy1 {
            let row = cy * g.width
            let a = Int(cs[row + cx0]), b = Int(cs[row + cx1 + 1])
            var q = a
            while q < b {
                pair(&o, q)
                q += 1
            }
        }
    }

    /// A large body against the cells its box covers, then against the later large bodies.
    @inline(__always)
    mutating func large(_ l: Int, grid g: GridLayout, cellStart cs: UnsafeMutablePointer<UInt32>, largeEnd: Int) {
        var o = own(l)
        if g.smallCount > 0 { cells(around: &o, reach: g.smallLimit, grid: g, cellStart: cs) }
        var q = l + 1
        while q < largeEnd {
            pair(&o, q)
            q += 1
        }
        store(o)
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
    mutating func pair(_ o: inout Own, _ j: Int) {
        let hxi = o.hx, hyi = o.hy, ri = o.r, wi = o.w
        let dx = px[j] - o.x
        let dy = py[j] - o.y
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
        // around a jammed pair must be free to make room for it. Deep means deeper than
        // `stickyOverlap` plus the two bodies' drive allowances (`BodyPass.noteDrive`).
        flags[o.i] |= BodyFlags.touched
        flags[j] |= BodyFlags.touched
        if pen <= 0 { return }
        if markDeep {
            let di0 = deep[o.i], dj0 = deep[j]
            let allowance = Double((di0 & World.driveBits) &+ (dj0 & World.driveBits)) * World.driveUnit
            let mark: UInt8 = pen > ContactSolver.stickyOverlap + allowance ? World.deepBit : (di0 | dj0) & World.deepBit
            deep[o.i] = di0 | mark
            deep[j] = dj0 | mark
        }
        // Split the correction by inverse mass, shifted towards the body that is farther from
        // its target ("shock propagation"): a pile pressed together by springs pushes its outer
        // bodies out instead of squeezing the load into its centre, which lets a few sweeps per
        // sub-step carry the load of a deep pile. The weight is a smooth, algebraic sigmoid of
        // the difference of the two target distances over the contact size.
        var ewi = wi, ewj = wj
        let fqi = freq[o.i], fqj = freq[j]
        if fqi > 0 && fqj > 0 && wi > 0 && wj > 0 {
            // The sigmoid sig = 0.5 + 0.5 z / (1 + |z|) of z = u / s (in (0, 1): 1 when i is
            // outer) is (s + |u| + u) / (2 (s + |u|)), and 1 - sig the same with -u; only their
            // ratio matters below, so the weights need no division. For u = sharpness (di - dj)
            // it takes (di² - dj²) / (oi + oj), where o is the octagonal norm
            // max + (√2 - 1) min of |x| and |y|, which lies within 8.3 % above the distance: the
            // sign is exact, the steepness within 8 % of `depthSharpness`, and every term is
            // scaled by oi + oj, so the pair needs no square root for it.
            let ax = o.x - tx[o.i], ay = o.y - ty[o.i]
            let bx = px[j] - tx[j], by = py[j] - ty[j]
            let u = depthSharpness * ((ax * ax + ay * ay) - (bx * bx + by * by))
            let aax = ax < 0 ? -ax : ax, aay = ay < 0 ? -ay : ay
            let abx = bx < 0 ? -bx : bx, aby = by < 0 ? -by : by
            let oi = (aax > aay ? aax : aay) + ContactSolver.octagon * (aax > aay ? aay : aax)
            let oj = (abx > aby ? abx : aby) + ContactSolver.octagon * (abx > aby ? aby : abx)
            let s = (hxi + hxj + hyi + hyj) * (oi + oj)
            let au = u < 0 ? -u : u
            let ei = wi * (s + au + u), ej = wj * (s + au - u)
            // Both bodies on their targets: s and u are 0, and the plain split applies.
            if ei + ej > 0 {
                ewi = ei
                ewj = ej
            }
        }
        let inv = 1 / (ewi + ewj)
        let fi = ewi * inv, fj = ewj * inv
        // Project apart by the full penetration, split by inverse mass.
        if pen > maxPen { maxPen = pen }
        let ci = pen * fi, cj = pen * fj
        let ix = nx * ci, iy = ny * ci, jx = nx * cj, jy = ny * cj
        o.x -= ix
        o.y -= iy
        px[j] += jx
        py[j] += jy
        // Position-based velocity: the correction, over h, is credited to the velocities, so
        // velocities follow actual motion (capped after the sweeps, see `step()`).
        vx[o.i] -= ix * invH
        vy[o.i] -= iy * invH
        vx[j] += jx * invH
        vy[j] += jy * invH
    }
}
