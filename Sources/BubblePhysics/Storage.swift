// Structure-of-arrays storage of bodies, in manually managed buffers.
//
// Why raw buffers rather than `[Double]`: the step reads and writes a dozen columns in its hot
// loops. Swift arrays held by a class pay exclusivity checks, bounds checks and copy-on-write
// uniqueness checks on every access, and a single accidental copy would allocate in `step()`.
// The buffers below are allocated when the body capacity grows and never otherwise, so a warm
// step allocates nothing. They are owned by exactly one `World` and freed in its `deinit`.
//
// Layout: bodies live in dense "slots" 0..<count. The step keeps the slots sorted by broad-phase
// cell (it permutes all columns when the order changed), so neighbours in space are neighbours in
// memory. Handles (`BodyID.index`) map to slots through `World.slotOf`, and slots back to handles
// through `index`.

/// One column per body property, indexed by slot. Hot data (positions, velocities, sizes) and the
/// colder per-body parameters are all permuted together so every pass over slots is sequential.
struct Columns {
    /// Handle index owning the slot.
    var index: UnsafeMutablePointer<UInt32>
    /// Centre position, pt.
    var px: UnsafeMutablePointer<Double>
    var py: UnsafeMutablePointer<Double>
    /// Velocity, pt/s.
    var vx: UnsafeMutablePointer<Double>
    var vy: UnsafeMutablePointer<Double>
    /// Target of the target spring, pt (for kinematic bodies: where the next step ends).
    var tx: UnsafeMutablePointer<Double>
    var ty: UnsafeMutablePointer<Double>
    /// Target spring frequency (Hz) and damping ratio.
    var freq: UnsafeMutablePointer<Double>
    var zeta: UnsafeMutablePointer<Double>
    /// Unscaled half width, half height and corner radius, pt (a circle: r, r, r).
    var hw: UnsafeMutablePointer<Double>
    var hh: UnsafeMutablePointer<Double>
    var cr: UnsafeMutablePointer<Double>
    /// Visual scale and opacity.
    var scale: UnsafeMutablePointer<Double>
    var opacity: UnsafeMutablePointer<Double>
    /// 1 / area for dynamic bodies, 0 for kinematic ones.
    var invMass: UnsafeMutablePointer<Double>
    /// Z order stamp: larger is on top.
    var z: UnsafeMutablePointer<UInt32>
    /// `BodyFlags` bits.
    var flags: UnsafeMutablePointer<UInt8>
    /// Scratch within a sub-step: the velocity before the overlap sweeps, in single precision
    /// (what the sweeps' velocity changes are checked against, see World+Step.swift).
    var ux: UnsafeMutablePointer<Float>
    var uy: UnsafeMutablePointer<Float>

    /// Bytes of storage per slot over all columns above.
    static let bytesPerSlot = 4 + 14 * 8 + 2 * 4 + 4 + 1

    static func allocate(capacity: Int) -> Columns {
        func d() -> UnsafeMutablePointer<Double> {
            let p = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
            p.initialize(repeating: 0, count: capacity)
            return p
        }
        let index = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        index.initialize(repeating: 0, count: capacity)
        let z = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        z.initialize(repeating: 0, count: capacity)
        let flags = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        flags.initialize(repeating: 0, count: capacity)
        let ux = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        ux.initialize(repeating: 0, count: capacity)
        let uy = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        uy.initialize(repeating: 0, count: capacity)
        return Columns(
            index: index, px: d(), py: d(), vx: d(), vy: d(), tx: d(), ty: d(), freq: d(), zeta: d(),
            hw: d(), hh: d(), cr: d(), scale: d(), opacity: d(), invMass: d(), z: z, flags: flags,
            ux: ux, uy: uy)
    }

    /// Copies slots `0..<count` into `other`.
    func copy(to o: Columns, count n: Int) {
        o.index.update(from: index, count: n)
        o.px.update(from: px, count: n)
        o.py.update(from: py, count: n)
        o.vx.update(from: vx, count: n)
        o.vy.update(from: vy, count: n)
        o.tx.update(from: tx, count: n)
        o.ty.update(from: ty, count: n)
        o.freq.update(from: freq, count: n)
        o.zeta.update(from: zeta, count: n)
        o.hw.update(from: hw, count: n)
        o.hh.update(from: hh, count: n)
        o.cr.update(from: cr, count: n)
        o.scale.update(from: scale, count: n)
        o.opacity.update(from: opacity, count: n)
        o.invMass.update(from: invMass, count: n)
        o.z.update(from: z, count: n)
        o.flags.update(from: flags, count: n)
                o.ux.update(from: ux, count: n)
        o.uy.update(from: uy, count: n)
    }

    /// Moves the body in slot `s` to slot `d` (overwriting `d`).
    func move(from s: Int, to d: Int) {
        index[d] = index[s]
        px[d] = px[s]; py[d] = py[s]
        vx[d] = vx[s]; vy[d] = vy[s]
        tx[d] = tx[s]; ty[d] = ty[s]
        freq[d] = freq[s]; zeta[d] = zeta[s]
        hw[d] = hw[s]; hh[d] = hh[s]; cr[d] = cr[s]
        scale[d] = scale[s]; opacity[d] = opacity[s]
        invMass[d] = invMass[s]
        z[d] = z[s]
        flags[d] = flags[s]
        ux[d] = ux[s]
        uy[d] = uy[s]
    }

    /// Applies a permutation: the body in old slot `perm[p]` moves to slot `p`. Each column is
    /// gathered into `scratch` (room for `2 × n` words, 8-byte aligned) and copied back.
    func permute(perm: UnsafePointer<UInt32>, count n: Int, scratch: UnsafeMutablePointer<UInt32>) {
        for i in 0..<Columns.columnCount {
            permute(column: i, perm: perm, count: n, scratch: scratch, slots: 0..<n, back: false)
            permute(column: i, perm: perm, count: n, scratch: scratch, slots: 0..<n, back: true)
        }
    }

    /// Number of columns, for `permute(column:…)`.
    static let columnCount = 19

    /// One column's part of `permute` for the slots `slots`: gathered through the permutation
    /// into the scratch, or (`back`) copied back from it. Split this way so that several threads
    /// can share a column (`GridPass`): all gather, then all copy back.
    func permute(
        column i: Int, perm: UnsafePointer<UInt32>, count n: Int, scratch: UnsafeMutablePointer<UInt32>,
        slots r: Range<Int>, back: Bool
    ) {
        @inline(__always) func move<T>(_ a: UnsafeMutablePointer<T>) {
            scratch.withMemoryRebound(to: T.self, capacity: n) { s in
                if back {
                    (a + r.lowerBound).update(from: s + r.lowerBound, count: r.count)
                } else {
                    for p in r { s[p] = a[Int(perm[p])] }
                }
            }
        }
        switch i {
        case 0: move(index)
        case 1: move(px)
        case 2: move(py)
        case 3: move(vx)
        case 4: move(vy)
        case 5: move(tx)
        case 6: move(ty)
        case 7: move(freq)
        case 8: move(zeta)
        case 9: move(hw)
        case 10: move(hh)
        case 11: move(cr)
        case 12: move(scale)
        case 13: move(opacity)
        case 14: move(invMass)
        case 15: move(z)
        case 16: move(flags)
        case 17: move(ux)
        default: move(uy)
        }
    }

    func deallocate() {
        index.deallocate()
        px.deallocate(); py.deallocate(); vx.deallocate(); vy.deallocate()
        tx.deallocate(); ty.deallocate(); freq.deallocate(); zeta.deallocate()
        hw.deallocate(); hh.deallocate(); cr.deallocate()
        scale.deallocate(); opacity.deallocate(); invMass.deallocate()
        z.deallocate(); flags.deallocate(); ux.deallocate(); uy.deallocate()
    }
}

/// Bits of `Columns.flags`.
enum BodyFlags {
    static let enabled: UInt8 = 1
    static let kinematic: UInt8 = 2
    static let circle: UInt8 = 4
    /// The body touched another one in the last sub-step (drives contact damping).
    static let touched: UInt8 = 8
}

/// A coupling spring between two bodies (cold data, iterated in index order).
struct Coupling {
    var a: BodyID
    var b: BodyID
    var offset: Vector2
    var spring: Spring
    var alive: Bool
}
