import BubblePhysics

/// Small, fixed scenes shared by the tests and the pinned determinism results (seeded, so always
/// the same).
public enum Scenes {
    /// The spring every body of these scenes has: 1 Hz, critically damped.
    public static let spring = Spring(frequency: 1, dampingRatio: 1)

    /// `n` circles of radius 10...24 scattered in a 200 pt square, all springing to the origin.
    public static func circles(_ n: Int, seed: UInt64 = 7, settings: WorldSettings = WorldSettings()) throws -> World {
        let w = try World(settings: settings)
        var rng = SplitMix64(seed: seed)
        for _ in 0..<n {
            _ = try w.createBody(BodyDefinition(
                shape: .circle(radius: rng.nextDouble(in: 10, 24)),
                position: Vector2(rng.nextDouble(in: -100, 100), rng.nextDouble(in: -100, 100)),
                target: .zero, spring: spring))
        }
        return w
    }

    /// Circles and rounded rectangles mixed, half and half.
    public static func mixed(_ n: Int, seed: UInt64 = 11) throws -> World {
        let w = try World()
        var rng = SplitMix64(seed: seed)
        for i in 0..<n {
            let shape: Shape = i % 2 == 0
                ? .circle(radius: rng.nextDouble(in: 10, 20))
                : .roundedRect(width: rng.nextDouble(in: 20, 50), height: rng.nextDouble(in: 16, 30), cornerRadius: 6)
            _ = try w.createBody(BodyDefinition(
                shape: shape,
                position: Vector2(rng.nextDouble(in: -120, 120), rng.nextDouble(in: -120, 120)),
                target: .zero, spring: spring))
        }
        return w
    }

    /// One 150 pt circle at the centre (kept there by a stiff spring) among `n` 10 pt bubbles.
    public static func hugeAmongSmall(_ n: Int, seed: UInt64 = 13) throws -> World {
        let w = try World()
        _ = try w.createBody(BodyDefinition(
            shape: .circle(radius: 150), position: .zero, target: .zero,
            spring: Spring(frequency: 4, dampingRatio: 1)))
        var rng = SplitMix64(seed: seed)
        for _ in 0..<n {
            _ = try w.createBody(BodyDefinition(
                shape: .circle(radius: 10),
                position: Vector2(rng.nextDouble(in: -200, 200), rng.nextDouble(in: -200, 200)),
                target: .zero, spring: spring))
        }
        return w
    }
}
