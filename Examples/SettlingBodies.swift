import BubblePhysics

/// Three circles started on top of each other, each pulled by a spring to the same point: the
/// world pushes them apart and comes to rest with them side by side, touching.
func settleThreeCircles() throws -> World {
    let world = try World()
    for x in [-4.0, 0.0, 4.0] {
        let circle = BodyDefinition(
            shape: .circle(radius: 20), position: Vector2(x, 0), target: Vector2(0, 0),
            spring: Spring(frequency: 3, dampingRatio: 1))
        _ = try world.createBody(circle)
    }
    world.step(count: 600, untilRest: true)  // 10 s at 60 Hz, or less once at rest
    return world
}
