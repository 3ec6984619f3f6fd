import BubblePhysics
import PhysicsFixtures
import Testing

@Suite struct CollisionTests {
    func pair(_ a: Shape, _ pa: Vector2, _ b: Shape, _ pb: Vector2) throws -> (World, BodyID, BodyID) {
        let w = try World()
        let x = try w.createBody(BodyDefinition(shape: a, position: pa))
        let y = try w.createBody(BodyDefinition(shape: b, position: pb))
        return (w, x, y)
    }

    func depth(_ a: Shape, _ pa: Vector2, _ b: Shape, _ pb: Vector2) throws -> Double {
        try pair(a, pa, b, pb).0.maxOverlap().depth
    }

    /// `separation(of:from:)`: the direction the solver pushes and the depth it pushes by;
    /// moving the second body by that much along it makes the pair touch.
    @Test func separationGivesTheSolversNormalAndDepth() throws {
        let eps = 1e-9
        // circle–circle, centres (0, 0) and (9, 12): 5 deep along (0.6, 0.8).
        let (w, a, b) = try pair(.circle(radius: 10), .zero, .circle(radius: 10), Vector2(9, 12))
        let (n, d) = try w.separation(of: b, from: a)
        #expect(abs(n.x - 0.6) < eps && abs(n.y - 0.8) < eps && abs(d - 5) < eps)
        #expect(d == w.maxOverlap().depth)
        try w.setPosition(of: b, to: Vector2(9, 12) + n * d)
        #expect(abs(try w.separation(of: b, from: a).depth) < eps)
        // A rectangle's face, from the other side: the circle leaves to the left, 2 deep.
        let rect = Shape.roundedRect(width: 40, height: 20, cornerRadius: 0)
        let (w2, r, c) = try pair(rect, .zero, .circle(radius: 5), Vector2(-23, 3))
        let (n2, d2) = try w2.separation(of: c, from: r)
        #expect(n2 == Vector2(-1, 0) && abs(d2 - 2) < eps)
        // Apart: a negative depth, the gap.
        let (w3, p, q) = try pair(.circle(radius: 10), .zero, .circle(radius: 10), Vector2(0, 25))
        #expect(abs(try w3.separation(of: q, from: p).depth + 5) < eps)
    }

    @Test func exactOverlapDepths() throws {
        let eps = 1e-9
        // circle–circle: centres 15 apart, radii 10 + 10.
        #expect(abs(try depth(.circle(radius: 10), .zero, .circle(radius: 10), Vector2(9, 12)) - 5) < eps)
        #expect(try depth(.circle(radius: 10), .zero, .circle(radius: 10), Vector2(12, 16)) == 0)
        // circle against a rectangle's face: rect 40×20 at origin, circle r 5 at x = 23 → 2 deep.
        let rect = Shape.roundedRect(width: 40, height: 20, cornerRadius: 0)
        #expect(abs(try depth(rect, .zero, .circle(radius: 5), Vector2(23, 0)) - 2) < eps)
        // circle against a sharp corner: corner (20, 10), circle at (23, 14), r 6 → 6 - 5 = 1.
        #expect(abs(try depth(rect, .zero, .circle(radius: 6), Vector2(23, 14)) - 1) < eps)
        // circle against a rounded corner (r 4): core corner (16, 6); circle at (19, 10), r 6:
        // distance 5, minus 4 + 6 → 5 deep. The bounding boxes would say less near corners.
        let rounded = Shape.roundedRect(width: 40, height: 20, cornerRadius: 4)
        #expect(abs(try depth(rounded, .zero, .circle(radius: 6), Vector2(19, 10)) - 5) < eps)
        // Near a rounded corner, a circle that overlaps the box but not the shape: no overlap.
        #expect(try depth(rounded, .zero, .circle(radius: 1), Vector2(20.5, 10.5)) == 0)
        // rect–rect faces: 40×20 at 0 and 20×20 at (28, 5): x overlap 20 + 10 - 28 = 2.
        #expect(abs(try depth(rect, .zero, .roundedRect(width: 20, height: 20, cornerRadius: 0), Vector2(28, 5)) - 2) < eps)
        // rounded rect corners: both corner 5, cores (15, 5) and core of the other at (30, 20)
        // with half extents (5, 5): core gap (10, 10) → distance 14.142, radii 10 → no overlap…
        #expect(try depth(.roundedRect(width: 40, height: 20, cornerRadius: 5), .zero,
                          .roundedRect(width: 20, height: 20, cornerRadius: 5), Vector2(30, 20)) == 0)
        // … but with the boxes alone they would overlap by 5 on each axis. Moved to (27, 17):
        // core gap (7, 7), distance 9.899, radii 10 → 0.101 deep.
        let d = try depth(.roundedRect(width: 40, height: 20, cornerRadius: 5), .zero,
                          .roundedRect(width: 20, height: 20, cornerRadius: 5), Vector2(27, 17))
        #expect(abs(d - (10 - (98.0).squareRoot())) < eps)
    }

    @Test func scaleChangesCollisionSize() throws {
        let (w, a, _) = try pair(.circle(radius: 10), .zero, .circle(radius: 10), Vector2(25, 0))
        #expect(w.maxOverlap().depth == 0)
        try w.setScale(of: a, to: 2)  // radius 20 → 5 deep
        #expect(abs(w.maxOverlap().depth - 5) < 1e-9)
        try w.setScale(of: a, to: 0)  // no collision at all
        #expect(w.maxOverlap().depth == 0)
    }

    @Test(arguments: [
        (Shape.circle(radius: 10), Shape.circle(radius: 14)),
        (Shape.circle(radius: 10), Shape.roundedRect(width: 40, height: 20, cornerRadius: 6)),
        (Shape.roundedRect(width: 30, height: 30, cornerRadius: 0), Shape.roundedRect(width: 40, height: 20, cornerRadius: 6)),
    ])
    func overlapsAreResolvedWithoutAddingEnergy(a: Shape, b: Shape) throws {
        let (w, _, _) = try pair(a, .zero, b, Vector2(7, 3))
        #expect(w.maxOverlap().depth > 5)
        w.step(count: 30)
        #expect(w.maxOverlap().depth <= 1e-6)
        #expect(w.kineticEnergy == 0)  // separating never launches anything
    }

    @Test func coincidentCentresAreSeparated() throws {
        let w = try World()
        for _ in 0..<5 { _ = try w.createBody(BodyDefinition(shape: .circle(radius: 10))) }
        w.step(count: 60)
        #expect(w.maxOverlap().depth < 0.01)
    }

    @Test func kinematicPushesAndIsNotPushed() throws {
        let w = try World()
        let k = try w.createBody(BodyDefinition(shape: .circle(radius: 20), isKinematic: true))
        let d = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(35, 0)))
        for i in 1...30 {
            try w.moveKinematic(k, to: Vector2(Double(i) * 2, 0))
            w.step()
            #expect(try w.position(of: k) == Vector2(Double(i) * 2, 0))  // exactly on the finger
        }
        #expect(try w.velocity(of: k) == Vector2(120, 0))
        #expect(try w.position(of: d).x >= 60 + 30 - 1e-6)  // pushed ahead
        #expect(w.maxOverlap().depth < 1e-6)
    }

    @Test func largeBodiesCollideWithSmallOnes() throws {
        let w = try Scenes.hugeAmongSmall(40)
        w.step(count: 200)
        #expect(w.maxOverlap().depth < 0.5)
    }
}

/// A world swept in bands reuses a step's first pair list in its later sub-steps, but not while a
/// body moves fast. A kinematic body crossing a field of 900 bodies of its size at 1 440 pt/s
/// (12 pt per sub-step, where the list's margin is 2.5 pt) still pushes every body out of its way
/// within the step, and a thrown one meets them. (Reusing the list there leaves 4.4 and 5.9 pt
/// of overlap.)
@Suite("Fast bodies in a banded world")
struct FastBodyTests {
    /// 30 × 30 circles of radius 10, 40 pt apart, each springing to its place.
    static func field(settings: WorldSettings = WorldSettings()) throws -> (World, [BodyID]) {
        let w = try World(settings: settings)
        var bodies: [BodyID] = []
        for row in 0..<30 {
            for col in 0..<30 {
                let p = Vector2(Double(col) * 40, Double(row) * 40)
                bodies.append(try w.createBody(BodyDefinition(
                    shape: .circle(radius: 10), position: p, target: p, spring: Spring(frequency: 2, dampingRatio: 1))))
            }
        }
        #expect(w.bodyCount >= World.bandMinBodies)
        return (w, bodies)
    }

    /// The deepest overlap of the radius-10 circle `mover` with any of `bodies`.
    static func deepestOverlap(of mover: BodyID, with bodies: [BodyID], in w: World) throws -> Double {
        let pm = try w.position(of: mover)
        var deepest = 0.0
        for b in bodies {
            let p = try w.position(of: b)
            let dx = p.x - pm.x, dy = p.y - pm.y
            deepest = max(deepest, 20 - (dx * dx + dy * dy).squareRoot())
        }
        return deepest
    }

    /// The deepest overlap of radius-10 circles set out in a row along x, each `(a, b)` with `b`
    /// to the right of `a`.
    static func deepestOverlap(of pairs: [(BodyID, BodyID)], in w: World) throws -> Double {
        var deepest = 0.0
        for (a, b) in pairs {
            deepest = max(deepest, 20 - (try w.position(of: b).x - w.position(of: a).x))
        }
        return deepest
    }

    @Test func pushesEveryBodyOutWithinTheStep() throws {
        let (w, bodies) = try Self.field()
        let k = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(-60, 590), isKinematic: true))
        var deepest = 0.0
        for i in 1...40 {
            try w.moveKinematic(k, to: Vector2(-60 + Double(i) * 24, 590))
            w.step()
            deepest = max(deepest, try Self.deepestOverlap(of: k, with: bodies, in: w))
        }
        #expect(deepest < 0.5, "deepest overlap with the kinematic body: \(deepest) pt")
    }

    /// A dynamic body thrown through the field at 3 000 pt/s: the list is rebuilt per sub-step
    /// while a body's speed carries it more than half the margin in one.
    @Test func thrownBodyMeetsEveryBodyWithinTheStep() throws {
        let (w, bodies) = try Self.field()
        let f = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(-60, 590)))
        try w.setVelocity(of: f, to: Vector2(3000, 0))
        var deepest = 0.0
        for _ in 1...20 {
            w.step()
            deepest = max(deepest, try Self.deepestOverlap(of: f, with: bodies, in: w))
        }
        #expect(deepest < 0.5, "deepest overlap with the thrown body: \(deepest) pt")
    }

    /// With four sub-steps a step's list serves three more, so the motion the speed rule allows
    /// must add up over them. 256 bodies at 290 pt/s, just under half the lists' margin per
    /// sub-step (1.25 pt here), each run head-on into a resting body from gaps that cover a
    /// whole step's travel (4.8 pt), so some meet theirs just outside the list's reach.
    @Test func headOnBodiesMeetOverSeveralSubSteps() throws {
        var settings = WorldSettings()
        settings.subSteps = 4
        let w = try World(settings: settings)
        var pairs: [(BodyID, BodyID)] = []
        for k in 0..<256 {
            let y = 40 * Double(k)
            let mover = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(0, y)))
            let resting = try w.createBody(BodyDefinition(
                shape: .circle(radius: 10), position: Vector2(40 + 0.02 * Double(k), y)))
            try w.setVelocity(of: mover, to: Vector2(290, 0))
            pairs.append((mover, resting))
        }
        #expect(w.bodyCount >= World.bandMinBodies)
        var deepest = 0.0
        for _ in 1...8 {
            w.step()
            deepest = max(deepest, try Self.deepestOverlap(of: pairs, in: w))
        }
        #expect(deepest < 0.5, "deepest overlap of a moving body with its resting one: \(deepest) pt")
    }

    /// A calm banded world builds short lists (their margin follows the last measured speeds, at
    /// rest 0.1 of the body size). Here 256 bodies wait at rest, then accelerate on stiff springs
    /// to over 1 000 pt/s within a step towards a resting body each, 30 to 35 pt away, and stay
    /// pressed against it; afterwards the pile is calm again and its lists short. The speed rule
    /// has to rebuild the lists whenever the motion outgrows them (without it the movers pass
    /// through their partners).
    @Test func acceleratingBodiesOutrunShortListsSafely() throws {
        let w = try World()
        var pairs: [(BodyID, BodyID)] = []
        for k in 0..<256 {
            let y = 40 * Double(k)
            let gap = 30 + 5 * Double(k % 16) / 16
            let mover = try w.createBody(BodyDefinition(
                shape: .circle(radius: 10), position: Vector2(0, y), target: Vector2(0, y),
                spring: Spring(frequency: 4, dampingRatio: 1)))
            let resting = try w.createBody(BodyDefinition(
                shape: .circle(radius: 10), position: Vector2(20 + gap, y), target: Vector2(20 + gap, y),
                spring: Spring(frequency: 4, dampingRatio: 1)))
            pairs.append((mover, resting))
        }
        #expect(w.bodyCount >= World.bandMinBodies)
        w.step(count: 5)
        for (a, _) in pairs { try w.setTarget(of: a, to: try w.position(of: a) + Vector2(200, 0)) }
        var deepest = 0.0, fastest = 0.0
        for _ in 1...30 {
            w.step()
            deepest = max(deepest, try Self.deepestOverlap(of: pairs, in: w))
            for (a, _) in pairs { fastest = max(fastest, try w.velocity(of: a).x) }
        }
        #expect(fastest > 300, "the movers should be fast when they arrive: \(fastest) pt/s")
        #expect(deepest < 0.5, "deepest overlap of an accelerating body with its resting one: \(deepest) pt")
    }
}
