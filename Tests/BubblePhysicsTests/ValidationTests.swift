import BubblePhysics
import PhysicsFixtures
import Testing

@Suite struct ValidationTests {
    func field(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as PhysicsError {
            if case let .invalidValue(field, _, _) = error { return field }
            return "\(error)"
        } catch {
            return "\(error)"
        }
    }

    @Test func rejectsBadDefinitions() throws {
        let w = try World()
        let c = Shape.circle(radius: 10)
        #expect(field { _ = try w.createBody(BodyDefinition(shape: .circle(radius: .nan))) } == "shape.radius")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: .circle(radius: -1))) } == "shape.radius")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: .circle(radius: 0))) } == "shape.radius")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: .roundedRect(width: 10, height: 0, cornerRadius: 0))) } == "shape.height")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: .roundedRect(width: 10, height: 10, cornerRadius: 6))) } == "shape.cornerRadius")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, position: Vector2(.infinity, 0))) } == "position.x")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, position: Vector2(0, 2e7))) } == "position.y")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, velocity: Vector2(.nan, 0))) } == "velocity.x")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, target: Vector2(0, -.infinity))) } == "target.y")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, spring: Spring(frequency: .nan, dampingRatio: 1))) } == "spring.frequency")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, spring: Spring(frequency: 1, dampingRatio: -1))) } == "spring.dampingRatio")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, scale: -0.5)) } == "scale")
        #expect(field { _ = try w.createBody(BodyDefinition(shape: c, opacity: 2)) } == "opacity")
        #expect(w.bodyCount == 0)
        let err = PhysicsError.invalidValue(field: "shape.radius", value: -1, reason: "negative size")
        #expect(err.description.contains("shape.radius"))
    }

    @Test func rejectsBadSettersAndSettings() throws {
        let w = try World()
        let id = try w.createBody(BodyDefinition(shape: .circle(radius: 5)))
        #expect(field { try w.setPosition(of: id, to: Vector2(.nan, 0)) } == "position.x")
        #expect(field { try w.setTarget(of: id, to: Vector2(0, 1e8)) } == "target.y")
        #expect(field { try w.setScale(of: id, to: .infinity) } == "scale")
        #expect(field { try w.setShape(of: id, to: .circle(radius: 0)) } == "shape.radius")
        #expect(field { try w.moveKinematic(id, to: .zero) } == "isKinematic")
        var s = WorldSettings()
        s.timeStep = 0
        #expect(field { try w.updateSettings(s) } == "settings.timeStep")
        s = WorldSettings()
        s.bounds = Rect(x: 0, y: 0, width: -5, height: 10)
        #expect(field { try w.updateSettings(s) } == "settings.bounds.width")
        for bands in [0, WorldSettings.maxBands + 1] {
            s = WorldSettings()
            s.bands = bands
            #expect(field { try w.updateSettings(s) } == "settings.bands")
        }
        #expect(w.settings.bands == WorldSettings().bands)
        for allowance in [-1, .nan, 101] as [Double] {
            s = WorldSettings()
            s.driveAllowance = allowance
            #expect(field { try w.updateSettings(s) } == "settings.driveAllowance")
        }
    }

    @Test func staleHandlesAreErrorsNotOtherBodies() throws {
        let w = try World()
        let a = try w.createBody(BodyDefinition(shape: .circle(radius: 5), position: Vector2(1, 1)))
        let b = try w.createBody(BodyDefinition(shape: .circle(radius: 6), position: Vector2(50, 0)))
        try w.removeBody(a)
        #expect(!w.contains(a))
        #expect(throws: PhysicsError.staleBody(a)) { try w.position(of: a) }
        #expect(throws: PhysicsError.staleBody(a)) { try w.removeBody(a) }
        let c = try w.createBody(BodyDefinition(shape: .circle(radius: 7), position: Vector2(-50, 0)))
        #expect(c.index == a.index)  // index reused ...
        #expect(c.generation != a.generation)  // ... with a new generation
        #expect(throws: PhysicsError.staleBody(a)) { try w.position(of: a) }
        #expect(try w.position(of: c) == Vector2(-50, 0))
        #expect(try w.position(of: b) == Vector2(50, 0))
        #expect(w.bodyIDs == [c, b].sorted())
        #expect(throws: PhysicsError.staleBody(BodyID(index: 99, generation: 1))) {
            try w.position(of: BodyID(index: 99, generation: 1))
        }
    }

    @Test func gettersReturnWhatWasSet() throws {
        let w = try World()
        let id = try w.createBody(BodyDefinition(
            shape: .roundedRect(width: 30, height: 20, cornerRadius: 4), position: Vector2(3, 4),
            velocity: Vector2(1, 2), target: Vector2(9, 9), spring: Scenes.spring, scale: 0.5, opacity: 0.25))
        let s = try w.state(of: id)
        #expect(s.shape == .roundedRect(width: 30, height: 20, cornerRadius: 4))
        #expect(s.position == Vector2(3, 4) && s.velocity == Vector2(1, 2) && s.target == Vector2(9, 9))
        #expect(s.spring == Scenes.spring && s.scale == 0.5 && s.opacity == 0.25)
        #expect(!s.isKinematic && s.isEnabled)
        try w.setOpacity(of: id, to: 0.75)
        #expect(try w.opacity(of: id) == 0.75)
        try w.setShape(of: id, to: .circle(radius: 12))
        #expect(try w.shape(of: id) == .circle(radius: 12))
        try w.setSpring(of: id, to: .none)
        #expect(try w.spring(of: id) == .none)
    }

    @Test func couplingHandles() throws {
        let w = try World()
        let a = try w.createBody(BodyDefinition(shape: .circle(radius: 5)))
        let b = try w.createBody(BodyDefinition(shape: .circle(radius: 5), position: Vector2(40, 0)))
        #expect(throws: PhysicsError.selfCoupling(a)) {
            _ = try w.addCoupling(from: a, to: a, offset: .zero, spring: Scenes.spring)
        }
        let c = try w.addCoupling(from: a, to: b, offset: Vector2(40, 0), spring: Scenes.spring)
        #expect(w.couplingCount == 1 && w.contains(c))
        try w.removeBody(b)  // removes its couplings
        #expect(w.couplingCount == 0 && !w.contains(c))
        #expect(throws: PhysicsError.staleCoupling(c)) { try w.removeCoupling(c) }
    }
}

/// A handle names its world: another world refuses it, as `PhysicsError` documents.
@Suite struct HandleWorldTests {
    @Test func aHandleFromAnotherWorldIsRefused() throws {
        let a = try World(), b = try World()
        let inA = try a.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(0, 0)))
        let inB = try b.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(0, 0)))
        // Same slot and generation, different worlds.
        #expect(inA.index == inB.index && inA.generation == inB.generation && inA != inB)
        #expect(a.contains(inA) && !b.contains(inA))
        #expect(throws: PhysicsError.staleBody(inA)) { try b.position(of: inA) }
        #expect(throws: PhysicsError.staleBody(inA)) { try b.removeBody(inA) }
        #expect(b.contains(inB))
        let other = try a.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(30, 0)))
        let coupling = try a.addCoupling(from: inA, to: other, offset: Vector2(30, 0), spring: Spring(frequency: 2, dampingRatio: 1))
        #expect(a.contains(coupling) && !b.contains(coupling))
        #expect(throws: PhysicsError.self) { try b.removeCoupling(coupling) }
    }
}
