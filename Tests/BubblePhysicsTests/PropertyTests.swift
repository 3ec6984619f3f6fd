import BubblePhysics
import PropertyBased
import Testing

/// Random worlds driven by random call sequences: the state never holds NaN or infinity, no body
/// is lost or invented, and energy does not grow once the world is at rest.
@Suite struct PropertyTests {
    static func finiteState(_ w: World) throws -> Bool {
        for id in w.bodyIDs {
            let s = try w.state(of: id)
            for v in [s.position.x, s.position.y, s.velocity.x, s.velocity.y, s.target.x, s.target.y] where !v.isFinite {
                return false
            }
        }
        return w.kineticEnergy.isFinite
    }

    static func randomShape(_ r: inout SplitMix64) -> Shape {
        if r.nextUnit() < 0.6 { return .circle(radius: r.nextDouble(in: 0.5, 40)) }
        let w = r.nextDouble(in: 1, 80), h = r.nextDouble(in: 1, 80)
        return .roundedRect(width: w, height: h, cornerRadius: r.nextUnit() * min(w, h) * 0.5)
    }

    static func randomDefinition(_ r: inout SplitMix64) -> BodyDefinition {
        // Some bodies start exactly on top of each other to exercise the tie-breaking.
        let p = r.nextUnit() < 0.2 ? Vector2.zero : Vector2(r.nextDouble(in: -300, 300), r.nextDouble(in: -300, 300))
        return BodyDefinition(
            shape: randomShape(&r), position: p,
            velocity: Vector2(r.nextDouble(in: -500, 500), r.nextDouble(in: -500, 500)),
            target: Vector2(r.nextDouble(in: -100, 100), r.nextDouble(in: -100, 100)),
            spring: r.nextUnit() < 0.8 ? Spring(frequency: r.nextDouble(in: 0.1, 30), dampingRatio: r.nextDouble(in: 0, 3)) : .none,
            scale: r.nextDouble(in: 0, 2), isKinematic: r.nextUnit() < 0.1)
    }

    @Test func randomCallSequencesKeepTheStateSane() async {
        await propertyCheck(
            count: 40, input: Gen.int(in: 0...1_000_000), Gen.int(in: 1...25), Gen.int(in: 0...9).array(of: 0...50)
        ) { seed, count, ops in
            do {
                var s = WorldSettings()
                s.bounds = seed % 2 == 0 ? Rect(x: -200, y: -150, width: 400, height: 300) : nil
                s.seed = UInt64(seed)
                let w = try World(settings: s)
                var r = SplitMix64(seed: UInt64(seed))
                var live: [BodyID] = []
                var couplings: [CouplingID] = []
                for _ in 0..<count { live.append(try w.createBody(Self.randomDefinition(&r))) }
                for op in ops {
                    let id = live.isEmpty ? nil : live[Int(r.next() % UInt64(live.count))]
                    switch (op, id) {
                    case (1, let id?): try w.setTarget(of: id, to: Vector2(r.nextDouble(in: -400, 400), r.nextDouble(in: -400, 400)))
                    case (2, let id?): try w.setScale(of: id, to: r.nextDouble(in: 0, 3))
                    case (3, let id?):
                        let k = try !w.isKinematic(id)
                        try w.setKinematic(id, k)
                        if k { try w.moveKinematic(id, to: Vector2(r.nextDouble(in: -300, 300), r.nextDouble(in: -300, 300))) }
                    case (4, let id?):
                        try w.removeBody(id)
                        live.removeAll { $0 == id }
                        couplings.removeAll { !w.contains($0) }
                    case (5, _): live.append(try w.createBody(Self.randomDefinition(&r)))
                    case (6, let id?): try w.setShape(of: id, to: Self.randomShape(&r))
                    case (7, let id?):
                        if let c = couplings.popLast() {
                            try w.removeCoupling(c)
                        } else if let other = live.first(where: { $0 != id }) {
                            couplings.append(try w.addCoupling(
                                from: id, to: other, offset: Vector2(r.nextDouble(in: -50, 50), 0),
                                spring: Spring(frequency: r.nextDouble(in: 0, 10), dampingRatio: 1)))
                        }
                    case (8, let id?): try w.setPosition(of: id, to: Vector2(r.nextDouble(in: -2000, 2000), 0))
                    case (9, let id?): try w.setEnabled(id, try !w.isEnabled(id))
                    default: break
                    }
                    w.step(count: 1 + Int(r.next() % 5))
                    #expect(try Self.finiteState(w))
                    #expect(w.bodyCount == live.count)
                }
                // Release every kinematic body and let the world settle.
                for id in live where try w.isKinematic(id) { try w.setKinematic(id, false) }
                w.step(count: 1500, untilRest: true)
                #expect(try Self.finiteState(w))
                #expect(Set(w.bodyIDs) == Set(live))  // no body lost or invented
                if w.isAtRest {
                    let e = w.kineticEnergy + w.springEnergy, h = w.stateHash
                    w.step(count: 50)
                    #expect(w.kineticEnergy + w.springEnergy <= e)
                    #expect(w.stateHash == h)
                }
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }

    @Test func springEnergyNeverGrowsWithoutContacts() async {
        // A lone body on a spring: the implicit soft step can only lose energy.
        await propertyCheck(
            count: 50, input: Gen.double(in: 0.1...60), Gen.double(in: 0...4), Gen.double(in: -1000...1000)
        ) { f, zeta, x in
            do {
                let w = try World()
                _ = try w.createBody(BodyDefinition(
                    shape: .circle(radius: 5), position: Vector2(x, -x), target: .zero,
                    spring: Spring(frequency: f, dampingRatio: zeta)))
                var e = w.kineticEnergy + w.springEnergy
                for _ in 0..<120 {
                    w.step()
                    let e2 = w.kineticEnergy + w.springEnergy
                    #expect(e2 <= e * (1 + 1e-12) + 1e-9)
                    e = e2
                }
            } catch {
                Issue.record("unexpected error: \(error)")
            }
        }
    }
}
