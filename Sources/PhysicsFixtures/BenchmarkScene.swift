// The standard benchmark scene, shared by the `bubbles bench` command, the Benchmarks package and
// the tests.

import BubblePhysics
import BubbleSupport

/// One body of a scene: a centre and a shape (the scene-file format's `x`, `y` and `r`, or `w`,
/// `h` and `corner`).
public struct SceneBody: Hashable, Sendable {
    /// Centre, pt.
    public var position: Vector2
    /// Shape at scale 1.
    public var shape: Shape

    /// Creates a scene body.
    public init(position: Vector2, shape: Shape) {
        self.position = position
        self.shape = shape
    }
}

/// A benchmark scene: bodies at their start positions, all springing to one target.
///
/// `standard(count:)` is the standard benchmark scene: `count` bodies, 90 % circles with radii uniform in
/// [8, 30] pt and 10 % rounded rectangles of similar area (every tenth body), placed uniformly at
/// random (seeded `SplitMix64`) in a square centred on the target whose area is two thirds of
/// the bodies' total area, so the start overlaps heavily.
public struct BenchmarkScene: Hashable, Sendable {
    /// Where every body springs to, pt.
    public var target: Vector2
    /// The bodies.
    public var bodies: [SceneBody]

    /// The spring every body of a benchmark scene has to the target: 1 Hz, critically damped.
    public static let spring = Spring(frequency: 1, dampingRatio: 1)

    /// Creates a scene from its parts.
    public init(target: Vector2, bodies: [SceneBody]) {
        self.target = target
        self.bodies = bodies
    }

    /// The standard scene with `count` bodies (fixed seed by default, so always the same scene).
    public static func standard(count: Int, seed: UInt64 = 2016) -> BenchmarkScene {
        var rng = SplitMix64(seed: seed)
        let pi = DeterministicMath.pi
        var shapes: [Shape] = []
        shapes.reserveCapacity(count)
        var totalArea = 0.0
        for i in 0..<count {
            let r = rng.nextDouble(in: 8, 30)
            if i % 10 == 9 {
                // A rounded rectangle with the area of that circle, aspect ratio in [1, 2].
                let area = pi * r * r
                let aspect = rng.nextDouble(in: 1, 2)
                let w = (area * aspect).squareRoot()
                let h = area / w
                let corner = 0.25 * (w < h ? w : h)
                let s = Shape.roundedRect(width: w, height: h, cornerRadius: corner)
                shapes.append(s)
                totalArea += s.area
            } else {
                let s = Shape.circle(radius: r)
                shapes.append(s)
                totalArea += s.area
            }
        }
        let side = (totalArea * 2 / 3).squareRoot()
        var bodies: [SceneBody] = []
        bodies.reserveCapacity(count)
        for s in shapes {
            let x = rng.nextDouble(in: -0.5, 0.5) * side
            let y = rng.nextDouble(in: -0.5, 0.5) * side
            bodies.append(SceneBody(position: Vector2(x, y), shape: s))
        }
        return BenchmarkScene(target: .zero, bodies: bodies)
    }

    /// The same scene with every rounded rectangle replaced by a circle of equal area (for peers
    /// without rectangles, such as d3-force).
    public func circlesOnly() -> BenchmarkScene {
        let pi = DeterministicMath.pi
        var out = self
        for i in out.bodies.indices {
            if case .roundedRect = out.bodies[i].shape {
                out.bodies[i].shape = .circle(radius: (out.bodies[i].shape.area / pi).squareRoot())
            }
        }
        return out
    }

    /// Sum of the bodies' areas, pt².
    public var totalArea: Double { bodies.reduce(0) { $0 + $1.shape.area } }

    /// A world holding this scene: every body springs to `target` with `spring`. Storage is
    /// reserved for exactly the body count.
    public func makeWorld(
        settings: WorldSettings = WorldSettings(), spring: Spring = BenchmarkScene.spring
    ) throws(PhysicsError) -> World {
        let world = try World(settings: settings)
        world.reserveCapacity(bodies.count)
        for b in bodies {
            _ = try world.createBody(
                BodyDefinition(shape: b.shape, position: b.position, target: target, spring: spring))
        }
        return world
    }
}
