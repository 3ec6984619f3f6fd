// Read-only queries: hit testing, state hash, overlap and energy measurements.

import BubbleSupport

extension World {
    /// Whether `point` lies inside the body in slot `s` (scaled shape, boundary included).
    func slotContains(_ s: Int, _ point: Vector2) -> Bool {
        let c = col
        let sc = c.scale[s]
        if c.flags[s] & BodyFlags.enabled == 0 || !(sc > 0) { return false }
        let r = c.cr[s] * sc
        var qx = point.x - c.px[s], qy = point.y - c.py[s]
        qx = (qx < 0 ? -qx : qx) - (c.hw[s] * sc - r)
        qy = (qy < 0 ? -qy : qy) - (c.hh[s] * sc - r)
        if qx < 0 { qx = 0 }
        if qy < 0 { qy = 0 }
        return qx * qx + qy * qy <= r * r
    }

    /// The topmost enabled body whose scaled shape contains `point`, or nil.
    ///
    /// Topmost means the largest z order: bodies created later are on top of earlier ones, and
    /// `bringToFront(_:)` lifts a body above all others. Disabled bodies and bodies at scale 0
    /// are never hit. Linear in the body count (hit tests are rare: one per tap).
    public func body(at point: Vector2) -> BodyID? {
        var best = -1
        var bestZ: UInt32 = 0
        for s in 0..<count where slotContains(s, point) {
            if best < 0 || col.z[s] > bestZ {
                best = s
                bestZ = col.z[s]
            }
        }
        if best < 0 { return nil }
        let i = Int(col.index[best])
        return BodyID(index: UInt32(i), generation: generation[i], world: identity)
    }

    /// All enabled bodies containing `point`, topmost first.
    public func bodies(at point: Vector2) -> [BodyID] {
        var hits: [(UInt32, BodyID)] = []
        for s in 0..<count where slotContains(s, point) {
            let i = Int(col.index[s])
            hits.append((col.z[s], BodyID(index: UInt32(i), generation: generation[i], world: identity)))
        }
        hits.sort { $0.0 > $1.0 }
        return hits.map(\.1)
    }

    /// A 64-bit FNV-1a hash of the bit patterns of every live body's state, in handle order:
    /// handle, shape, position, velocity, target, spring, scale, opacity, flags and z order; then
    /// the live couplings in index order. Equal hashes after the same calls prove determinism.
    public var stateHash: UInt64 {
        var h = FNV1a64()
        let c = col
        for i in 0..<handleCount where slotOf[i] & World.freeBit == 0 {
            let s = Int(slotOf[i])
            h.combine(UInt64(i) | UInt64(generation[i]) << 32)
            h.combine(c.hw[s]); h.combine(c.hh[s]); h.combine(c.cr[s])
            h.combine(c.px[s]); h.combine(c.py[s])
            h.combine(c.vx[s]); h.combine(c.vy[s])
            h.combine(c.tx[s]); h.combine(c.ty[s])
            h.combine(c.freq[s]); h.combine(c.zeta[s])
            h.combine(c.scale[s]); h.combine(c.opacity[s])
            h.combine(UInt64(c.flags[s]) | UInt64(c.z[s]) << 8)
        }
        for k in 0..<couplings.count where couplings[k].alive {
            let cu = couplings[k]
            h.combine(UInt64(k) | UInt64(couplingGeneration[k]) << 32)
            h.combine(UInt64(cu.a.index) | UInt64(cu.a.generation) << 32)
            h.combine(UInt64(cu.b.index) | UInt64(cu.b.generation) << 32)
            h.combine(cu.offset.x); h.combine(cu.offset.y)
            h.combine(cu.spring.frequency); h.combine(cu.spring.dampingRatio)
        }
        return h.value
    }

    /// Penetration depth of two slots (positive when they overlap), with the solver's geometry.
    func penetration(_ i: Int, _ j: Int) -> Double { overlap(i, j).depth }

    /// How slot `j` overlaps slot `i`, with the solver's geometry at their scales: the unit
    /// direction in which `j` leaves `i` fastest (between the nearest points of the two straight
    /// cores; where the cores overlap, along the axis the solver pushes on) and the penetration
    /// depth (positive when they overlap).
    func overlap(_ i: Int, _ j: Int) -> (nx: Double, ny: Double, depth: Double) {
        let c = col
        let si = c.scale[i], sj = c.scale[j]
        let ri = c.cr[i] * si, rj = c.cr[j] * sj
        let dx = c.px[j] - c.px[i], dy = c.py[j] - c.py[i]
        let gx = (dx < 0 ? -dx : dx) - ((c.hw[i] * si - ri) + (c.hw[j] * sj - rj))
        let gy = (dy < 0 ? -dy : dy) - ((c.hh[i] * si - ri) + (c.hh[j] * sj - rj))
        let r = ri + rj
        let sx: Double = dx < 0 ? -1 : 1, sy: Double = dy < 0 ? -1 : 1
        if gx > 0 && gy > 0 {
            let d = (gx * gx + gy * gy).squareRoot()
            return (sx * gx / d, sy * gy / d, r - d)
        }
        if gx > 0 { return (sx, 0, r - gx) }
        if gy > 0 { return (0, sy, r - gy) }
        let px = r - gx, py = r - gy
        let depth = px < py ? px : py
        // Coincident centres: the solver draws a seeded direction; a query says "up".
        if dx == 0 && dy == 0 { return (0, -1, depth) }
        return px <= py && dx != 0 || dy == 0 ? (sx, 0, depth) : (0, sy, depth)
    }

    /// How body `b` overlaps body `a`, with the contact solver's geometry at their current
    /// scales: the unit direction in which `b` leaves `a` fastest, and the penetration depth in
    /// pt (positive when they overlap; minus the gap between them when they do not). Moving `b`
    /// by `depth` along `normal`, or each by half of it, makes them touch. Reads only; changes
    /// nothing.
    public func separation(of b: BodyID, from a: BodyID) throws(PhysicsError) -> (normal: Vector2, depth: Double) {
        let o = overlap(try slot(a), try slot(b))
        return (Vector2(o.nx, o.ny), o.depth)
    }

    /// Every enabled body of non-zero scale as its extent along x, sorted by its left edge (then
    /// slot): the sweep `maxOverlap` and `contacts` walk.
    private func sweepItems() -> [(lo: Double, hi: Double, slot: Int)] {
        let c = col
        var items: [(lo: Double, hi: Double, slot: Int)] = []
        for s in 0..<count where c.flags[s] & BodyFlags.enabled != 0 && c.scale[s] > 0 {
            let e = c.hw[s] * c.scale[s]
            items.append((c.px[s] - e, c.px[s] + e, s))
        }
        items.sort { $0.lo < $1.lo || ($0.lo == $1.lo && $0.slot < $1.slot) }
        return items
    }

    /// The deepest overlap between any two enabled bodies of non-zero scale, pt (0 if none),
    /// and the pair. Exact geometry; a sweep over x, so it is cheap enough for tests and the
    /// benchmark (it allocates; it is not part of the step and changes nothing).
    public func maxOverlap() -> (depth: Double, pair: (BodyID, BodyID)?) {
        let items = sweepItems()
        var best = 0.0
        var bestPair: (Int, Int)? = nil
        for a in 0..<items.count {
            let ia = items[a]
            var b = a + 1
            while b < items.count && items[b].lo < ia.hi {
                let d = penetration(ia.slot, items[b].slot)
                if d > best {
                    best = d
                    bestPair = (ia.slot, items[b].slot)
                }
                b += 1
            }
        }
        guard let (i, j) = bestPair else { return (0, nil) }
        return (best, (id(slot: i), id(slot: j)))
    }

    /// Every pair of enabled bodies of non-zero scale whose collision shapes overlap, with the
    /// depth (pt), in a stable order (by the sweep over x). For debug drawing; allocates and
    /// changes nothing.
    public func contacts() -> [(a: BodyID, b: BodyID, depth: Double)] {
        let items = sweepItems()
        var found: [(a: BodyID, b: BodyID, depth: Double)] = []
        for a in 0..<items.count {
            let ia = items[a]
            var b = a + 1
            while b < items.count && items[b].lo < ia.hi {
                let d = penetration(ia.slot, items[b].slot)
                if d > 0 { found.append((id(slot: ia.slot), id(slot: items[b].slot), d)) }
                b += 1
            }
        }
        return found
    }

    func id(slot s: Int) -> BodyID {
        let i = Int(col.index[s])
        return BodyID(index: UInt32(i), generation: generation[i], world: identity)
    }

    /// Kinetic energy of the enabled dynamic bodies, Σ ½ m v² (mass = unscaled area), pt²·pt²/s².
    public var kineticEnergy: Double {
        let c = col
        var e = 0.0
        for s in 0..<count where c.flags[s] & (BodyFlags.enabled | BodyFlags.kinematic) == BodyFlags.enabled {
            e += 0.5 / c.invMass[s] * (c.vx[s] * c.vx[s] + c.vy[s] * c.vy[s])
        }
        return e
    }

    /// Energy stored in the target springs of the enabled dynamic bodies, Σ ½ m ω² |x − target|².
    public var springEnergy: Double {
        let c = col
        var e = 0.0
        for s in 0..<count where c.flags[s] & (BodyFlags.enabled | BodyFlags.kinematic) == BodyFlags.enabled {
            let w = DeterministicMath.twoPi * c.freq[s]
            let dx = c.px[s] - c.tx[s], dy = c.py[s] - c.ty[s]
            e += 0.5 / c.invMass[s] * w * w * (dx * dx + dy * dy)
        }
        return e
    }
}
