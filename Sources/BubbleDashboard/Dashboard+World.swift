import BubblePhysics

// The dashboard's calls into its physics world. They name bodies and couplings the dashboard
// itself created and still holds, with values it has validated, so the world cannot refuse them;
// if it ever did, that would be a bug in the dashboard's bookkeeping: a debug build stops there,
// and a release build skips the call rather than stop the app.
extension World {
    private func expect<T>(_ fallback: @autoclosure () -> T, _ call: () throws(PhysicsError) -> T) -> T {
        do {
            return try call()
        } catch {
            assertionFailure("the dashboard's own world call was refused: \(error)")
            return fallback()
        }
    }

    /// The state of a body the dashboard holds (nil only on a bookkeeping bug).
    func state(ofHeld id: BodyID) -> BodyState? { expect(nil) { () throws(PhysicsError) in try state(of: id) } }
    func position(ofHeld id: BodyID, orElse fallback: Vector2) -> Vector2 {
        expect(fallback) { () throws(PhysicsError) in try position(of: id) }
    }
    func scale(ofHeld id: BodyID) -> Double? { expect(nil) { () throws(PhysicsError) in try scale(of: id) } }
    func setPosition(ofHeld id: BodyID, to p: Vector2) { expect(()) { () throws(PhysicsError) in try setPosition(of: id, to: p) } }
    func setVelocity(ofHeld id: BodyID, to v: Vector2) { expect(()) { () throws(PhysicsError) in try setVelocity(of: id, to: v) } }
    func setTarget(ofHeld id: BodyID, to t: Vector2) { expect(()) { () throws(PhysicsError) in try setTarget(of: id, to: t) } }
    func setSpring(ofHeld id: BodyID, to s: Spring) { expect(()) { () throws(PhysicsError) in try setSpring(of: id, to: s) } }
    func setScale(ofHeld id: BodyID, to s: Double) { expect(()) { () throws(PhysicsError) in try setScale(of: id, to: s) } }
    func setShape(ofHeld id: BodyID, to s: Shape) { expect(()) { () throws(PhysicsError) in try setShape(of: id, to: s) } }
    func setKinematic(held id: BodyID, _ kinematic: Bool) {
        expect(()) { () throws(PhysicsError) in try setKinematic(id, kinematic) }
    }
    func moveKinematic(held id: BodyID, to p: Vector2) { expect(()) { () throws(PhysicsError) in try moveKinematic(id, to: p) } }
    func removeBody(held id: BodyID) { expect(()) { () throws(PhysicsError) in try removeBody(id) } }
    func addCoupling(held a: BodyID, to b: BodyID, offset: Vector2, spring: Spring) -> CouplingID? {
        expect(nil) { () throws(PhysicsError) in try addCoupling(from: a, to: b, offset: offset, spring: spring) }
    }
    func removeCoupling(held id: CouplingID) { expect(()) { () throws(PhysicsError) in try removeCoupling(id) } }
}
