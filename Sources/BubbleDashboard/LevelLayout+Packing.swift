import BubblePhysics
import BubbleSupport

// A level's home layout found by simulation: packing, placing, relaxing and settling the
// children in the layout world, separating what still overlaps, holding bubbles inside.
extension LevelLayout {
    /// Packs bubbles of `shapes` around a focus of `focusRadius`: the home positions, the steps
    /// the simulation took, and whether the pile is pressed against the bounds. A home is a rest
    /// of the live world with every bubble on its place: no bubble overlaps another or lies
    /// where the soft bounds pull it in, so a bubble snapped onto its home stays there. A pile
    /// pressed against the bounds has no such rest.
    static func pack(
        shapes: [Shape], focusRadius: Double, centre: Vector2, settings: DashboardSettings, area: Rect,
        lastRingTogether: Bool = true
    ) throws(DashboardError) -> ([Vector2], Int, pressed: Bool) {
        let pad = settings.sizes.gap
        // Start on rings around the focus, in data order: a spiral from twelve o'clock, clockwise.
        let world: World
        var bodies: [BodyID] = []
        let steps: Int
        let pressed: Bool
        do {
            var packing = packWorldSettings(settings, area: area)
            packing.boundsMargin += edgeRoom
            world = try World(settings: packing)
            let focus = try world.createBody(
                BodyDefinition(shape: .circle(radius: focusRadius + pad / 2), position: centre, isKinematic: true))
            let starts = ringPositions(
                shapes: shapes, around: centre, focusRadius: focusRadius, gap: pad, lastRingTogether: lastRingTogether)
            bodies.reserveCapacity(shapes.count)
            for (i, shape) in shapes.enumerated() {
                // Each child is pulled along its own ray to where it would just touch the focus, so
                // the level packs inwards without the whole ring sliding round the focus.
                var ray = starts[i] - centre
                let length = ray.length
                ray = length > 1e-9 ? ray * (1 / length) : Vector2(0, -1)
                let target = centre + ray * (focusRadius + pad + reach(shape) * 0.8)
                bodies.append(
                    try world.createBody(
                        BodyDefinition(
                            shape: padded(shape, pad), position: starts[i], target: target, spring: settings.layout.spring)))
            }
            // 1. Pack towards the focus (with the engine's contact friction, so the pile is calm).
            let packed = world.step(count: 1200, untilRest: true)
            let (settled, moved) = try settle(world, focus, bodies, settings, area: area, room: edgeRoom)
            steps = packed + settled
            pressed = !moved.isFinite
        } catch {
            throw .physics(error.description)
        }
        let home = bodies.map { (try? world.position(of: $0)) ?? centre }  // the bodies are this world's: never refused
        return (home, steps, pressed)
    }

    /// Home positions for bubbles of `shapes` that start at `starts`, clear of each other and the
    /// focus: the relax, hold and separate phases of `pack` without its packing, and whether the
    /// level is pressed against the bounds (as `pack`).
    static func place(
        shapes: [Shape], at starts: [Vector2], focusRadius: Double, centre: Vector2, settings: DashboardSettings, area: Rect
    ) throws(DashboardError) -> ([Vector2], Int, pressed: Bool) {
        let (home, steps, moved) = try settled(
            shapes: shapes, at: starts, focusRadius: focusRadius, centre: centre, settings: settings,
            world: packWorldSettings(settings, area: area), area: area, room: edgeRoom)
        return (home, steps, !moved.isFinite)
    }

    /// Places for bubbles of `shapes` that lie near `positions`, with no overlap, inside the bubble
    /// area (`area`: the level's, the bubble area by default) and clear of the focus: where a live
    /// world holding them there comes to rest.
    static func relax(
        shapes: [Shape], positions: [Vector2], focusCentre: Vector2, focusRadius: Double, settings: DashboardSettings,
        area: Rect? = nil
    ) throws(DashboardError) -> [Vector2] {
        let area = area ?? settings.contentRect
        return try settled(
            shapes: shapes, at: positions, focusRadius: focusRadius, centre: focusCentre, settings: settings,
            world: liveWorldSettings(settings, area: area), area: area, room: 0
        ).home
    }

    /// Bubbles of `shapes` put at `positions` in a world of `ws` with the focus, then `settle`d
    /// with `room`: where they rest, the steps taken and how far the last phase moved one.
    private static func settled(
        shapes: [Shape], at positions: [Vector2], focusRadius: Double, centre: Vector2, settings: DashboardSettings,
        world ws: WorldSettings, area: Rect, room: Double
    ) throws(DashboardError) -> (home: [Vector2], steps: Int, moved: Double) {
        let pad = settings.sizes.gap
        do {
            let world = try World(settings: ws)
            let focus = try world.createBody(
                BodyDefinition(shape: .circle(radius: focusRadius + pad / 2), position: centre, isKinematic: true))
            var bodies: [BodyID] = []
            bodies.reserveCapacity(shapes.count)
            for (shape, p) in zip(shapes, positions) {
                bodies.append(try world.createBody(BodyDefinition(shape: padded(shape, pad), position: p)))
            }
            let (steps, moved) = try settle(world, focus, bodies, settings, area: area, room: room)
            let home = try bodies.map { (b) throws(PhysicsError) in try world.position(of: b) }
            return (home, steps, moved)
        } catch {
            throw .physics(error.description)
        }
    }

    /// The largest change of a bubble's velocity in one step (pt/s) that the relax phase of a
    /// layout counts as nothing acting on it: the tail of the soft bounds' spring, for one.
    static let coastingChange = 0.01

    /// Phases 2 to 4 of a layout: returns the steps taken and how far phase 4 moved a bubble
    /// (pt; infinity when the pile is pressed together and cannot be moved apart).
    private static func settle(
        _ world: World, _ focus: BodyID, _ bodies: [BodyID], _ settings: DashboardSettings, area: Rect, room: Double
    ) throws(PhysicsError) -> (steps: Int, moved: Double) {
        // 2. No springs and little friction: overlaps open up, and the soft bounds bring any
        //    bubble pressed against an edge inside. Until rest (at most 600 steps), or until
        //    nothing acts on any bubble any more: no velocity changes by more than
        //    `coastingChange` in `restSteps` steps. A bubble pushed out of a squeeze then only
        //    coasts (nothing brakes a bubble that touches nothing here), and would slide along an
        //    edge for the rest of the phase.
        let live = liveWorldSettings(settings, area: area)
        var kept = live
        kept.boundsMargin += room
        try world.updateSettings(kept)
        for body in bodies { try world.setSpring(of: body, to: .none) }
        var relaxed = 0, unchanged = 0
        var velocities = try bodies.map { (b) throws(PhysicsError) in try world.velocity(of: b) }
        while relaxed < 600 && !world.isAtRest && unchanged < world.settings.restSteps {
            world.step()
            relaxed += 1
            var same = true
            for (i, b) in bodies.enumerated() {
                let v = try world.velocity(of: b)
                let dx = v.x - velocities[i].x, dy = v.y - velocities[i].y
                if dx * dx + dy * dy > coastingChange * coastingChange { same = false }
                velocities[i] = v
            }
            unchanged = same ? unchanged + 1 : 0
        }
        // 3. Hold every bubble where it lies (or on the edge of the region the soft bounds leave
        //    alone) with the live world's spring and let it find its equilibrium.
        for body in bodies {
            try world.setTarget(of: body, to: heldInside(try world.shape(of: body), at: try world.position(of: body), world.settings))
            try world.setSpring(of: body, to: settings.motion.placeSpring)
        }
        let held = world.step(count: 600, untilRest: true)
        // 4. Where the hold came to rest, springs may still hold two bubbles pressed together by
        //    a thousandth of a point, or a bubble a little into the bounds' pull; a live world
        //    would push them apart every time they arrive. Move them apart and inside.
        let moved = try separate(world, focus, bodies, within: live)
        return (relaxed + held, moved)
    }

    /// Moves the bubbles of `world` apart until none overlaps another or the focus and none lies
    /// where the soft bounds pull it in (at most `separateRounds` rounds), so that a live world
    /// with every bubble on its place has nothing to do. Returns the farthest a bubble moved (pt),
    /// or infinity, leaving every bubble where it was, if overlaps remain or a bubble would move
    /// farther than `separateReach`.
    static func separate(_ world: World, _ focus: BodyID, _ bodies: [BodyID], within live: WorldSettings) throws(PhysicsError) -> Double {
        var start: [Vector2] = []
        start.reserveCapacity(bodies.count)
        for b in bodies { start.append(try world.position(of: b)) }
        for round in 0...separateRounds {
            for b in bodies {
                let p = try world.position(of: b)
                let q = heldInside(try world.shape(of: b), at: p, live)
                if q != p { try world.setPosition(of: b, to: q) }
            }
            let contacts = world.contacts()
            if !contacts.contains(where: { $0.depth > 0 }) { break }
            if round == separateRounds {
                // Pressed together: the hold's rest, as it was.
                for (b, p) in zip(bodies, start) { try world.setPosition(of: b, to: p) }
                return .infinity
            }
            for c in contacts where c.depth > 0 {
                let (n, depth) = try world.separation(of: c.b, from: c.a)
                guard depth > 0 else { continue }
                let pa = try world.position(of: c.a), pb = try world.position(of: c.b)
                let sa = try world.shape(of: c.a), sb = try world.shape(of: c.b)
                // A hair more than the depth, so the pair ends apart.
                let push = depth + separationSlack
                // Each moves half the way, unless it is the focus or that would take it into the
                // bounds' pull: then the other moves all the way.
                let ha = pa - n * (push / 2), hb = pb + n * (push / 2)
                let aFixed = c.a == focus || heldInside(sa, at: ha, live) != ha
                let bFixed = c.b == focus || heldInside(sb, at: hb, live) != hb
                if aFixed && !bFixed {
                    try world.setPosition(of: c.b, to: pb + n * push)
                } else if bFixed && !aFixed {
                    try world.setPosition(of: c.a, to: pa - n * push)
                } else {
                    try world.setPosition(of: c.a, to: ha)
                    try world.setPosition(of: c.b, to: hb)
                }
            }
        }
        var moved = 0.0
        for (b, p) in zip(bodies, start) { moved = max(moved, (try world.position(of: b) - p).length) }
        if moved > separateReach {
            // Not the last fraction of a point but a pile that does not fit: as it was.
            for (b, p) in zip(bodies, start) { try world.setPosition(of: b, to: p) }
            return .infinity
        }
        for b in bodies { try world.setVelocity(of: b, to: .zero) }
        return moved
    }

    /// The farthest `separate` moves a bubble (pt): it closes the last fractions of a point a
    /// hold leaves, and the room the relax phase kept from the edges.
    static let separateReach = 2 * edgeRoom

    /// How much farther from the edges than the live world's bounds a layout's relax and hold
    /// phases keep the bubbles (pt): room for the last phase to push apart a pile the bounds
    /// press together, without pushing a bubble into the live world's bounds.
    static let edgeRoom = 2.0

    /// The most rounds of `separate`.
    static let separateRounds = 32

    /// The gap `separate` leaves between two bubbles it pushes apart (pt): far below anything
    /// drawn, and enough that the engine sees no overlap.
    static let separationSlack = 1e-7

    /// `p` moved onto the edge of the region where the world's soft bounds leave a body of
    /// `shape` alone, if it lies past it (the engine's bounds arithmetic, at scale 1).
    static func heldInside(_ shape: Shape, at p: Vector2, _ w: WorldSettings) -> Vector2 {
        guard let b = w.bounds else { return p }
        let (hw, hh, _) = shape.halfExtents
        func clamp(_ v: Double, _ minV: Double, _ maxV: Double, _ e: Double) -> Double {
            var lo = minV + e, hi = maxV - e
            if lo > hi { let mid = (minV + maxV) * 0.5; lo = mid; hi = mid }
            return v < lo ? lo : (v > hi ? hi : v)
        }
        return Vector2(clamp(p.x, b.minX, b.maxX, hw + w.boundsMargin), clamp(p.y, b.minY, b.maxY, hh + w.boundsMargin))
    }
}
