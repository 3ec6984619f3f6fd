// The physics world: bodies in structure-of-arrays storage, addressed by generation-checked handles.

import BubbleSupport
import Synchronization
/// A snapshot of one body's state, as returned by `World.state(of:)`.
public struct BodyState: Hashable, Sendable {
    /// The body's handle.
    public var id: BodyID
    /// Shape at scale 1.
    public var shape: Shape
    /// Centre, pt.
    public var position: Vector2
    /// Velocity, pt/s.
    public var velocity: Vector2
    /// Target of the target spring, pt.
    public var target: Vector2
    /// The target spring.
    public var spring: Spring
    /// Visual scale (collision size follows it).
    public var scale: Double
    /// Opacity `0...1`.
    public var opacity: Double
    /// Whether the body is kinematic.
    public var isKinematic: Bool
    /// Whether the body is enabled.
    public var isEnabled: Bool
    /// Z order stamp: larger is on top (see `World.bringToFront(_:)`).
    public var zOrder: UInt32
}

/// A deterministic 2-D world of circles and axis-aligned rounded rectangles pulled by springs and
/// kept apart by collisions.
///
/// `World` is a final class, not a struct: a world is one simulation with an identity (the
/// dashboard drives one world from a display link), its storage is large, and as a class it can
/// never be copied by accident, so `step()` can promise never to allocate (a struct of arrays would
/// copy on write the first time a copy was mutated). It is not thread-safe; use it from one thread
/// or actor at a time.
///
/// Units: pt (y down), s, Hz. Each `step()` advances `settings.timeStep` seconds (default 1/60).
///
/// Determinism: the same settings, definitions and sequence of calls give bit-identical states in
/// every build configuration. The step uses only `+ - * /`, `sqrt`, comparisons and the seeded
/// `SplitMix64`; it iterates no `Dictionary` or `Set`.
public final class World {
    /// Current settings (change them with `updateSettings(_:)`).
    public private(set) var settings: WorldSettings
    /// This world's number among the worlds of the process (from 1, in creation order), carried by
    /// every handle it gives out: a handle from another world is refused as stale. It takes no
    /// part in the simulation or `stateHash`.
    public let identity: UInt32
    private static let identities = Atomic<UInt32>(0)

    // Handle table, indexed by `BodyID.index`.
    var handleCount = 0
    var handleCapacity = 0
    var generation: UnsafeMutablePointer<UInt32>
    /// Slot of a live handle, or `freeBit | next free index` for a free one.
    var slotOf: UnsafeMutablePointer<UInt32>
    var freeHead: UInt32 = World.noFree
    static let freeBit: UInt32 = 0x8000_0000
    static let noFree: UInt32 = 0x7FFF_FFFF

    // Body slots.
    var count = 0
    var capacity = 0
    var col: Columns

    // Broad-phase scratch (see World+Grid.swift): per cell `cellStart`; `perm` (the sort
    // permutation while the grid is built, then the sub-step's candidate pair list, see
    // `World.pairsPerSlot`) and `pairCount` (candidates per slot) per slot.
    var perm: UnsafeMutablePointer<UInt32>
    var pairCount: UnsafeMutablePointer<UInt8>
    /// Per slot, a sub-step's scratch: `deepBit` when the body overlapped another one by more
    /// than `ContactSolver.stickyOverlap` plus their drive allowances, or overlapped a body so
    /// marked, in this sub-step's sweeps: static friction does not hold it (a jammed, still
    /// compressed pile must go on opening). The low bits hold the drive allowance
    /// (`BodyPass.noteDrive`). Kept apart from `Columns.flags` so that the sweeps' position
    /// updates never wait on it.
    var deepMark: UnsafeMutablePointer<UInt8>
    /// Capacity of `perm` in entries: `pairsPerSlot × capacity`.
    var pairCapacity = 0
    var cellStart: UnsafeMutablePointer<UInt32>
    var cellCapacity = 0
    var grid = GridLayout()
    /// The row bands' sweep tasks (see World+Relax.swift) and one double per body-pass chunk, for
    /// the chunks' results: `2 × settings.bands - 1` and `settings.bands` of them once the body
    /// capacity reaches `bandMinBodies`, none before (a small world sweeps as one task, on the
    /// stack).
    var sweepTasks: UnsafeMutablePointer<SweepTask>
    var sweepTaskCapacity = 0
    /// How many of `sweepTasks` the last `relax` planned (0: it swept as one task on the stack),
    /// with their pair lists, for the step's later sub-steps (`World.step()`).
    var plannedTasks = 0
    var chunkScratch: UnsafeMutablePointer<Double>
    var chunkCapacity = 0

    /// Runs the row bands of the overlap sweeps on several threads when set; nil runs them one
    /// after another on the calling thread. It never changes a result: `settings.bands` alone
    /// decides how the work is cut and in which order its parts meet (World+Relax.swift).
    public var executor: ParallelExecutor?
    /// The phase `parallel` is running, and the one body every executor call gets (it reads the
    /// phase), made once so that handing it over allocates nothing.
    var phase = Phase.none
    lazy var phaseBody: @Sendable (Int) -> Void = { [runner = PhaseRunner(world: self)] t in
        runner.world.runPhase(t)
    }

    // Couplings, indexed by `CouplingID.index`.
    var couplings: [Coupling] = []
    var couplingGeneration: [UInt32] = []
    var freeCouplings: [UInt32] = []
    var liveCouplings = 0

    var rng: SplitMix64
    var nextZ: UInt32 = 1

    /// Number of `step()` calls so far.
    public internal(set) var stepCount = 0
    /// Whether the world is at rest: nothing moved for `settings.restSteps` steps. A step at rest
    /// returns at once. Any change that can move a body wakes the world.
    public internal(set) var isAtRest = false
    /// The `stepCount` at which the world last came to rest, nil while awake.
    public internal(set) var restStep: Int? = nil
    var quietSteps = 0
    /// The margin (pt) of a banded world's current pair lists (`World.listMarginFor`).
    var listMarginPt = 0.0
    /// The largest squared speed of a dynamic body after the last step's last sub-step; infinite
    /// after anything that may have set bodies in motion (`wake()`), so that the next lists get
    /// the full margin.
    var lastStepSpeedSq = Double.infinity
    /// Largest penetration seen in the last relaxation sweep of the last step, pt (diagnostic).
    public internal(set) var lastSweepMaxOverlap: Double = 0

    /// Creates an empty world. Throws if a setting is out of range.
    public init(settings: WorldSettings = WorldSettings()) throws(PhysicsError) {
        try settings.validate()
        self.settings = settings
        // Wraps after 4 billion worlds, skipping 0 (the handle of no world).
        var id = World.identities.wrappingAdd(1, ordering: .relaxed).newValue
        if id == 0 { id = World.identities.wrappingAdd(1, ordering: .relaxed).newValue }
        identity = id
        rng = SplitMix64(seed: settings.seed)
        generation = .allocate(capacity: 0)
        slotOf = .allocate(capacity: 0)
        col = Columns.allocate(capacity: 0)
        perm = .allocate(capacity: 0)
        pairCount = .allocate(capacity: 0)
        deepMark = .allocate(capacity: 0)
        cellStart = .allocate(capacity: 0)
        sweepTasks = .allocate(capacity: 0)
        chunkScratch = .allocate(capacity: 0)
    }

    deinit {
        generation.deallocate()
        slotOf.deallocate()
        col.deallocate()
        perm.deallocate()
        pairCount.deallocate()
        deepMark.deallocate()
        cellStart.deallocate()
        sweepTasks.deallocate()
        chunkScratch.deallocate()
    }

    /// Replaces the settings (validated first) and wakes the world. The tie-breaking generator is
    /// re-seeded only if the seed changed.
    public func updateSettings(_ s: WorldSettings) throws(PhysicsError) {
        try s.validate()
        if s.seed != settings.seed { rng = SplitMix64(seed: s.seed) }
        settings = s
        sizeBandScratch()
        wake()
    }

    /// Number of live bodies.
    public var bodyCount: Int { count }

    /// Number of live coupling springs.
    public var couplingCount: Int { liveCouplings }

    /// Handles of all live bodies in handle order.
    public var bodyIDs: [BodyID] {
        var out: [BodyID] = []
        out.reserveCapacity(count)
        for i in 0..<handleCount where slotOf[i] & World.freeBit == 0 {
            out.append(BodyID(index: UInt32(i), generation: generation[i], world: identity))
        }
        return out
    }

    /// Makes room for `n` bodies so that creating them allocates no more. The benchmark reserves
    /// exactly the body count so that the storage accounting is exact.
    public func reserveCapacity(_ n: Int) {
        if n > capacity { growSlots(to: n) }
        if n > handleCapacity { growHandles(to: n) }
    }

    // MARK: Storage growth

    func growSlots(to newCapacity: Int) {
        let newCol = Columns.allocate(capacity: newCapacity)
        col.copy(to: newCol, count: count)
        col.deallocate()
        col = newCol
        pairCapacity = newCapacity * World.pairsPerSlot
        perm.deallocate()
        perm = .allocate(capacity: pairCapacity)
        perm.initialize(repeating: 0, count: pairCapacity)
        pairCount.deallocate()
        pairCount = .allocate(capacity: newCapacity)
        pairCount.initialize(repeating: 0, count: newCapacity)
        deepMark.deallocate()
        deepMark = .allocate(capacity: newCapacity)
        deepMark.initialize(repeating: 0, count: newCapacity)
        // The grid never has more cells than max(64, body capacity); + 4 for the end markers.
        cellCapacity = (newCapacity > 64 ? newCapacity : 64) + 4
        cellStart.deallocate()
        cellStart = .allocate(capacity: cellCapacity)
        cellStart.initialize(repeating: 0, count: cellCapacity)
        capacity = newCapacity
        sizeBandScratch()
    }

    /// Sizes `sweepTasks` and `chunkScratch` for the body capacity and `settings.bands` (outside
    /// `step()`, which never allocates).
    func sizeBandScratch() {
        let banded = capacity >= World.bandMinBodies && settings.bands > 1
        let tasks = banded ? 2 * settings.bands - 1 : 0
        if tasks != sweepTaskCapacity {
            sweepTasks.deallocate()
            sweepTasks = .allocate(capacity: tasks)
            sweepTaskCapacity = tasks
        }
        let chunks = banded ? settings.bands : 0
        if chunks != chunkCapacity {
            chunkScratch.deallocate()
            chunkScratch = .allocate(capacity: chunks)
            chunkScratch.initialize(repeating: 0, count: chunks)
            chunkCapacity = chunks
        }
    }

    func growHandles(to newCapacity: Int) {
        let g = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        g.initialize(repeating: 0, count: newCapacity)
        g.update(from: generation, count: handleCount)
        generation.deallocate()
        generation = g
        let s = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        s.initialize(repeating: 0, count: newCapacity)
        s.update(from: slotOf, count: handleCount)
        slotOf.deallocate()
        slotOf = s
        handleCapacity = newCapacity
    }

    /// Bytes of body storage held now (every per-body and per-cell buffer, at its capacity), plus
    /// the coupling arrays. Divide by `bodyCount` for bytes per body.
    public var storageBytes: Int {
        capacity * Columns.bytesPerSlot + pairCapacity * 4 + 2 * capacity  // columns, perm, pairCount, deepMark
            + handleCapacity * 8  // generation + slotOf
            + cellCapacity * 4
            + sweepTaskCapacity * MemoryLayout<SweepTask>.stride + chunkCapacity * 8
            + couplings.capacity * MemoryLayout<Coupling>.stride
            + couplingGeneration.capacity * 4 + freeCouplings.capacity * 4
    }

    // MARK: Handles

    /// The slot of a live body, or throws `staleBody`.
    @inline(__always)
    func slot(_ id: BodyID) throws(PhysicsError) -> Int {
        let i = Int(id.index)
        guard id.world == identity, i < handleCount, slotOf[i] & World.freeBit == 0, generation[i] == id.generation else {
            throw .staleBody(id)
        }
        return Int(slotOf[i])
    }

    /// Whether the handle names a live body of this world.
    public func contains(_ id: BodyID) -> Bool {
        let i = Int(id.index)
        return id.world == identity && i < handleCount && slotOf[i] & World.freeBit == 0 && generation[i] == id.generation
    }

    /// Wakes the world: the next `step()` simulates again.
    public func wake() {
        isAtRest = false
        restStep = nil
        quietSteps = 0
        lastStepSpeedSq = .infinity
    }

    // MARK: Create and remove

    /// Creates a body from a validated definition and returns its handle. Wakes the world.
    /// The new body is on top of all existing ones (largest z order).
    public func createBody(_ def: BodyDefinition) throws(PhysicsError) -> BodyID {
        try def.validate()
        if count >= PhysicsLimits.maxBodies { throw .tooManyBodies(limit: PhysicsLimits.maxBodies) }
        // Handle: reuse a free index (with a new generation) or take a fresh one.
        let index: Int
        if freeHead != World.noFree {
            index = Int(freeHead)
            freeHead = slotOf[index] & ~World.freeBit
            generation[index] &+= 1  // even (removed) -> odd (alive)
        } else {
            if handleCount == handleCapacity {
                growHandles(to: handleCapacity < 16 ? 16 : handleCapacity + handleCapacity / 2)
            }
            index = handleCount
            handleCount += 1
            generation[index] = 1
        }
        if count == capacity { growSlots(to: capacity < 16 ? 16 : capacity + capacity / 2) }
        let s = count
        count += 1
        slotOf[index] = UInt32(s)
        col.index[s] = UInt32(index)
        col.px[s] = def.position.x
        col.py[s] = def.position.y
        col.vx[s] = def.isKinematic ? 0 : def.velocity.x
        col.vy[s] = def.isKinematic ? 0 : def.velocity.y
        let t = def.isKinematic ? def.position : (def.target ?? def.position)
        col.tx[s] = t.x
        col.ty[s] = t.y
        col.freq[s] = def.spring.frequency
        col.zeta[s] = def.spring.dampingRatio
        col.scale[s] = def.scale
        col.opacity[s] = def.opacity
        col.z[s] = nextZ
        nextZ &+= 1
        col.ux[s] = 0
        col.uy[s] = 0
        var f: UInt8 = 0
        if def.isEnabled { f |= BodyFlags.enabled }
        if def.isKinematic { f |= BodyFlags.kinematic }
        col.flags[s] = f
        storeShape(def.shape, slot: s)
        wake()
        return BodyID(index: UInt32(index), generation: generation[index], world: identity)
    }

    func storeShape(_ shape: Shape, slot s: Int) {
        let (hw, hh, c) = shape.halfExtents
        col.hw[s] = hw
        col.hh[s] = hh
        col.cr[s] = c
        if case .circle = shape { col.flags[s] |= BodyFlags.circle } else { col.flags[s] &= ~BodyFlags.circle }
        col.invMass[s] = col.flags[s] & BodyFlags.kinematic != 0 ? 0 : 1 / shape.area
    }

    /// Removes a body; its handle becomes stale and its couplings are removed. Wakes the world.
    public func removeBody(_ id: BodyID) throws(PhysicsError) {
        let s = try slot(id)
        let last = count - 1
        if s != last {
            col.move(from: last, to: s)
            slotOf[Int(col.index[s])] = UInt32(s)
        }
        count -= 1
        let i = Int(id.index)
        generation[i] &+= 1
        slotOf[i] = World.freeBit | freeHead
        freeHead = UInt32(i)
        for c in 0..<couplings.count where couplings[c].alive && (couplings[c].a == id || couplings[c].b == id) {
            releaseCoupling(c)
        }
        wake()
    }

    // MARK: Per-body getters and setters

    /// Everything about one body.
    public func state(of id: BodyID) throws(PhysicsError) -> BodyState {
        let s = try slot(id)
        return BodyState(
            id: id, shape: shape(slot: s), position: Vector2(col.px[s], col.py[s]),
            velocity: Vector2(col.vx[s], col.vy[s]), target: Vector2(col.tx[s], col.ty[s]),
            spring: Spring(frequency: col.freq[s], dampingRatio: col.zeta[s]),
            scale: col.scale[s], opacity: col.opacity[s],
            isKinematic: col.flags[s] & BodyFlags.kinematic != 0,
            isEnabled: col.flags[s] & BodyFlags.enabled != 0, zOrder: col.z[s])
    }

    func shape(slot s: Int) -> Shape {
        if col.flags[s] & BodyFlags.circle != 0 { return .circle(radius: col.hw[s]) }
        return .roundedRect(width: col.hw[s] * 2, height: col.hh[s] * 2, cornerRadius: col.cr[s])
    }

    /// Centre position, pt.
    public func position(of id: BodyID) throws(PhysicsError) -> Vector2 {
        let s = try slot(id)
        return Vector2(col.px[s], col.py[s])
    }

    /// Teleports a body (velocity unchanged). For a kinematic body the pending move is cancelled
    /// (it stays at the new position). Wakes the world.
    public func setPosition(of id: BodyID, to p: Vector2) throws(PhysicsError) {
        let s = try slot(id)
        try Validate.coordinate(p, "position")
        col.px[s] = p.x
        col.py[s] = p.y
        if col.flags[s] & BodyFlags.kinematic != 0 {
            col.tx[s] = p.x
            col.ty[s] = p.y
        }
        wake()
    }

    /// Velocity, pt/s (for a kinematic body: the one derived from its last move).
    public func velocity(of id: BodyID) throws(PhysicsError) -> Vector2 {
        let s = try slot(id)
        return Vector2(col.vx[s], col.vy[s])
    }

    /// Sets a dynamic body's velocity, pt/s (ignored by kinematic bodies, whose velocity is derived
    /// from `moveKinematic`). Wakes the world.
    public func setVelocity(of id: BodyID, to v: Vector2) throws(PhysicsError) {
        let s = try slot(id)
        try Validate.velocity(v, "velocity")
        if col.flags[s] & BodyFlags.kinematic == 0 {
            col.vx[s] = v.x
            col.vy[s] = v.y
        }
        wake()
    }

    /// Target of the target spring, pt.
    public func target(of id: BodyID) throws(PhysicsError) -> Vector2 {
        let s = try slot(id)
        return Vector2(col.tx[s], col.ty[s])
    }

    /// Moves the target of the target spring. For a kinematic body this is the same as
    /// `moveKinematic(_:to:)`. Wakes the world.
    public func setTarget(of id: BodyID, to t: Vector2) throws(PhysicsError) {
        let s = try slot(id)
        try Validate.coordinate(t, "target")
        col.tx[s] = t.x
        col.ty[s] = t.y
        wake()
    }

    /// The target spring.
    public func spring(of id: BodyID) throws(PhysicsError) -> Spring {
        let s = try slot(id)
        return Spring(frequency: col.freq[s], dampingRatio: col.zeta[s])
    }

    /// Replaces the target spring (`Spring.none` removes it). Wakes the world.
    public func setSpring(of id: BodyID, to spring: Spring) throws(PhysicsError) {
        let s = try slot(id)
        try spring.validate("spring")
        col.freq[s] = spring.frequency
        col.zeta[s] = spring.dampingRatio
        wake()
    }

    /// Visual scale; collision and hit-test size follow it.
    public func scale(of id: BodyID) throws(PhysicsError) -> Double {
        let s = try slot(id)
        return col.scale[s]
    }

    /// Sets the visual scale (`0...PhysicsLimits.maxScale`); growing bodies push their neighbours.
    /// Mass stays that of the unscaled shape. Wakes the world.
    public func setScale(of id: BodyID, to scale: Double) throws(PhysicsError) {
        let s = try slot(id)
        try validateScale(scale, shape(slot: s))
        col.scale[s] = scale
        wake()
    }

    /// Opacity `0...1` (no effect on physics).
    public func opacity(of id: BodyID) throws(PhysicsError) -> Double {
        let s = try slot(id)
        return col.opacity[s]
    }

    /// Sets the opacity `0...1`. Does not wake the world (nothing moves).
    public func setOpacity(of id: BodyID, to opacity: Double) throws(PhysicsError) {
        let s = try slot(id)
        try Validate.range(opacity, "opacity", 0, 1)
        col.opacity[s] = opacity
    }

    /// Shape at scale 1.
    public func shape(of id: BodyID) throws(PhysicsError) -> Shape {
        let s = try slot(id)
        return shape(slot: s)
    }

    /// Replaces the shape (and mass) mid-simulation; safe at any time, overlaps it creates are
    /// resolved by the next steps. Wakes the world.
    public func setShape(of id: BodyID, to shape: Shape) throws(PhysicsError) {
        let s = try slot(id)
        try shape.validate("shape")
        try validateScale(col.scale[s], shape)
        storeShape(shape, slot: s)
        wake()
    }

    /// Whether the body is kinematic.
    public func isKinematic(_ id: BodyID) throws(PhysicsError) -> Bool {
        let s = try slot(id)
        return col.flags[s] & BodyFlags.kinematic != 0
    }

    /// Makes a body kinematic (moved only by `moveKinematic`, pushes others, is not pushed) or
    /// dynamic again. Becoming kinematic stops the body where it is and sets its target there;
    /// becoming dynamic keeps its last (derived) velocity, and its target stays where the last
    /// move ended, so set a new target if it should go elsewhere. Wakes the world.
    public func setKinematic(_ id: BodyID, _ kinematic: Bool) throws(PhysicsError) {
        let s = try slot(id)
        if kinematic {
            col.flags[s] |= BodyFlags.kinematic
            col.invMass[s] = 0
            col.tx[s] = col.px[s]
            col.ty[s] = col.py[s]
            col.vx[s] = 0
            col.vy[s] = 0
        } else {
            col.flags[s] &= ~BodyFlags.kinematic
            col.invMass[s] = 1 / shape(slot: s).area
        }
        wake()
    }

    /// Moves a kinematic body so that it is exactly at `p` at the end of the next step. Its
    /// velocity during that step is `(p - position) / timeStep`, so it pushes what it passes and
    /// drags its couplings along. Throws `invalidValue` if the body is not kinematic. Wakes.
    public func moveKinematic(_ id: BodyID, to p: Vector2) throws(PhysicsError) {
        let s = try slot(id)
        try Validate.coordinate(p, "kinematic target")
        if col.flags[s] & BodyFlags.kinematic == 0 {
            throw .invalidValue(field: "isKinematic", value: 0, reason: "moveKinematic needs a kinematic body (\(id))")
        }
        col.tx[s] = p.x
        col.ty[s] = p.y
        wake()
    }

    /// Whether the body is enabled.
    public func isEnabled(_ id: BodyID) throws(PhysicsError) -> Bool {
        let s = try slot(id)
        return col.flags[s] & BodyFlags.enabled != 0
    }

    /// Enables or disables a body. A disabled body keeps its state but neither moves, collides,
    /// pulls its couplings nor answers hit tests. Wakes the world.
    public func setEnabled(_ id: BodyID, _ enabled: Bool) throws(PhysicsError) {
        let s = try slot(id)
        if enabled { col.flags[s] |= BodyFlags.enabled } else { col.flags[s] &= ~BodyFlags.enabled }
        wake()
    }

    /// Z order stamp: a body created or brought to front later has a larger one and is on top.
    public func zOrder(of id: BodyID) throws(PhysicsError) -> UInt32 {
        let s = try slot(id)
        return col.z[s]
    }

    /// Puts the body on top of all others for hit testing (and for renderers that sort by it).
    public func bringToFront(_ id: BodyID) throws(PhysicsError) {
        let s = try slot(id)
        col.z[s] = nextZ
        nextZ &+= 1
    }

    // MARK: Couplings

    /// Adds a coupling spring that pulls `b` towards `position(a) + offset` (and `a` towards
    /// `position(b) - offset`, mass-weighted; a kinematic end is not pulled). Used for
    /// drag-coupled motion: couple each bubble to the dragged one with a frequency that falls
    /// with distance, and they follow with a lag that grows with distance. Wakes the world.
    public func addCoupling(
        from a: BodyID, to b: BodyID, offset: Vector2, spring: Spring
    ) throws(PhysicsError) -> CouplingID {
        _ = try slot(a)
        _ = try slot(b)
        if a == b { throw .selfCoupling(a) }
        let m = PhysicsLimits.maxCoordinate * 2
        try Validate.range(offset.x, "offset.x", -m, m)
        try Validate.range(offset.y, "offset.y", -m, m)
        try spring.validate("spring")
        let c = Coupling(a: a, b: b, offset: offset, spring: spring, alive: true)
        let index: Int
        if let f = freeCouplings.popLast() {
            index = Int(f)
            couplings[index] = c
            couplingGeneration[index] &+= 1
        } else {
            index = couplings.count
            couplings.append(c)
            couplingGeneration.append(1)
        }
        liveCouplings += 1
        wake()
        return CouplingID(index: UInt32(index), generation: couplingGeneration[index], world: identity)
    }

    func coupling(_ id: CouplingID) throws(PhysicsError) -> Int {
        let i = Int(id.index)
        guard id.world == identity, i < couplings.count, couplings[i].alive, couplingGeneration[i] == id.generation else {
            throw .staleCoupling(id)
        }
        return i
    }

    /// Whether the handle names a live coupling.
    public func contains(_ id: CouplingID) -> Bool {
        let i = Int(id.index)
        return id.world == identity && i < couplings.count && couplings[i].alive && couplingGeneration[i] == id.generation
    }

    /// Removes a coupling spring. Wakes the world.
    public func removeCoupling(_ id: CouplingID) throws(PhysicsError) {
        releaseCoupling(try coupling(id))
        wake()
    }

    func releaseCoupling(_ i: Int) {
        couplings[i].alive = false
        couplingGeneration[i] &+= 1
        freeCouplings.append(UInt32(i))
        liveCouplings -= 1
    }

    /// Changes a coupling's rest offset and spring. Wakes the world.
    public func updateCoupling(_ id: CouplingID, offset: Vector2, spring: Spring) throws(PhysicsError) {
        let i = try coupling(id)
        let m = PhysicsLimits.maxCoordinate * 2
        try Validate.range(offset.x, "offset.x", -m, m)
        try Validate.range(offset.y, "offset.y", -m, m)
        try spring.validate("spring")
        couplings[i].offset = offset
        couplings[i].spring = spring
        wake()
    }

    /// The two bodies, rest offset and spring of a coupling.
    public func coupling(of id: CouplingID) throws(PhysicsError) -> (a: BodyID, b: BodyID, offset: Vector2, spring: Spring) {
        let c = couplings[try coupling(id)]
        return (c.a, c.b, c.offset, c.spring)
    }
}
