import BubblePhysics
import Testing
import PhysicsFixtures

@Suite struct BehaviourTests {
    @Test func springReachesTargetAndRests() throws {
        let w = try World()
        let id = try w.createBody(BodyDefinition(
            shape: .circle(radius: 10), position: Vector2(100, -50), target: Vector2(0, 0), spring: Scenes.spring))
        w.step(count: 600, untilRest: true)
        #expect(w.isAtRest)
        let rest = try #require(w.restStep)
        #expect(rest < 300)
        #expect(try w.position(of: id).length < 0.5)
        // A step at rest changes nothing.
        let h = w.stateHash
        w.step(count: 100)
        #expect(w.stateHash == h && w.restStep == rest)
        // Changing the target wakes it.
        try w.setTarget(of: id, to: Vector2(40, 0))
        #expect(!w.isAtRest)
        w.step(count: 600, untilRest: true)
        #expect(w.isAtRest)
        #expect((try w.position(of: id) - Vector2(40, 0)).length < 0.5)
    }

    @Test func noJitterAtRest() throws {
        let w = try Scenes.circles(12)
        w.step(count: 1500, untilRest: true)
        #expect(w.isAtRest)
        let h = w.stateHash
        w.step(count: 100)
        #expect(w.stateHash == h)
        #expect(w.kineticEnergy == 0)
    }

    @Test func boundsPullBodiesBackIn() throws {
        var s = WorldSettings()
        s.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        let w = try World(settings: s)
        // Outside, with a target outside too: the pull brings it to the edge (minus the margin).
        let id = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(600, 150)))
        let far = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(-900, -700)))
        w.step(count: 600, untilRest: true)
        let p = try w.position(of: id), q = try w.position(of: far)
        #expect(p.x <= 400 - 18 + 0.5 && p.x > 300)
        #expect(q.x >= 18 - 0.5 && q.y >= 18 - 0.5)
        // Bodies inside the bounds are left alone.
        let inside = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(200, 150)))
        w.step(count: 60)
        #expect(try w.position(of: inside) == Vector2(200, 150))
    }

    @Test func hitTestingIsShapeExactAndTopmostFirst() throws {
        let w = try World()
        let rect = try w.createBody(BodyDefinition(
            shape: .roundedRect(width: 100, height: 60, cornerRadius: 20), position: .zero))
        let circle = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(40, 0)))
        #expect(w.body(at: Vector2(0, 0)) == rect)
        #expect(w.body(at: Vector2(45, 0)) == circle)  // created later: on top
        #expect(w.bodies(at: Vector2(45, 0)) == [circle, rect])
        #expect(w.body(at: Vector2(49, 29)) == nil)  // inside the box, outside the rounded corner
        #expect(w.body(at: Vector2(44, 24)) == rect)  // inside the rounded corner
        try w.bringToFront(rect)
        #expect(w.body(at: Vector2(45, 0)) == rect)
        try w.setScale(of: rect, to: 0.5)  // now 50 × 30
        #expect(w.body(at: Vector2(45, 0)) == circle)
        try w.setEnabled(circle, false)
        #expect(w.body(at: Vector2(45, 0)) == nil)
    }

    @Test func couplingsMakeBodiesFollow() throws {
        let w = try World()
        let lead = try w.createBody(BodyDefinition(shape: .circle(radius: 10), isKinematic: true))
        let near = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(0, 40)))
        let far = try w.createBody(BodyDefinition(shape: .circle(radius: 10), position: Vector2(0, 200)))
        _ = try w.addCoupling(from: lead, to: near, offset: Vector2(0, 40), spring: Spring(frequency: 4, dampingRatio: 1))
        _ = try w.addCoupling(from: lead, to: far, offset: Vector2(0, 200), spring: Spring(frequency: 1, dampingRatio: 1))
        for i in 1...20 {
            try w.moveKinematic(lead, to: Vector2(Double(i) * 5, 0))
            w.step()
        }
        let lagNear = 100 - (try w.position(of: near).x), lagFar = 100 - (try w.position(of: far).x)
        #expect(lagNear > 0 && lagFar > lagNear)  // lag grows with distance (softer springs)
        w.step(count: 600, untilRest: true)
        let nx = try w.position(of: near).x, fx = try w.position(of: far).x
        #expect(abs(nx - 100) < 0.5 && abs(fx - 100) < 0.5)
    }

    @Test func shapeAndScaleChangesMidSimulationAreSafe() throws {
        let w = try Scenes.mixed(20)
        let ids = w.bodyIDs
        for k in 0..<60 {
            w.step()
            let id = ids[k % ids.count]
            try w.setScale(of: id, to: 0.2 + Double(k % 7) * 0.2)
            if k % 5 == 0 { try w.setShape(of: id, to: .roundedRect(width: 30, height: 12, cornerRadius: 6)) }
            if k % 9 == 0 { try w.setEnabled(id, k % 2 == 0) }
        }
        w.step(count: 1500, untilRest: true)
        for id in ids { #expect(try w.position(of: id).x.isFinite) }
    }

    @Test(arguments: ["circles", "mixed", "huge"])
    func settledLayoutsDoNotOverlap(scene: String) throws {
        let w: World
        switch scene {
        case "circles": w = try Scenes.circles(40)
        case "mixed": w = try Scenes.mixed(40)
        default: w = try Scenes.hugeAmongSmall(60)
        }
        w.step(count: 2000, untilRest: true)
        #expect(w.isAtRest)
        #expect(w.maxOverlap().depth <= 0.5)
    }

    @Test func storageStaysWithinBudget() throws {
        let w = try BenchmarkScene.standard(count: 1000).makeWorld()
        #expect(w.storageBytes / w.bodyCount <= 160)
    }
}
