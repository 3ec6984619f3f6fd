import BubblePhysics

// The debug view of a running dashboard (the `bubbles play` testbed).
extension Dashboard {
    /// What the physics world holds right now, for debug drawing: collision shapes, targets and
    /// springs, contacts, rest. Allocates; changes nothing.
    @_spi(Testbed) public func debugView() -> DashboardDebugView {
        var bodies: [DashboardDebugView.Body] = []
        var slotOfBody: [BodyID: Int] = [:]
        for b in live {
            guard let s = world.state(ofHeld: b.body) else { continue }
            slotOfBody[b.body] = bodies.count
            let shape: DashboardDebugView.Shape
            switch s.shape {
            case .circle(let r): shape = .circle(radius: r * s.scale)
            case .roundedRect(let w, let h, let c): shape = .roundedRect(width: w * s.scale, height: h * s.scale, cornerRadius: c * s.scale)
            }
            bodies.append(
                DashboardDebugView.Body(
                    id: levels.nodes[b.node].id, shape: shape, position: ScenePoint(x: s.position.x, y: s.position.y),
                    target: ScenePoint(x: s.target.x, y: s.target.y), springFrequency: s.spring.frequency,
                    isKinematic: s.isKinematic, isDragged: drag?.body == b.body))
        }
        var contacts: [DashboardDebugView.Contact] = []
        for c in world.contacts() {
            guard let a = slotOfBody[c.a], let b = slotOfBody[c.b] else { continue }
            contacts.append(DashboardDebugView.Contact(a: a, b: b, depth: c.depth))
        }
        let finger = drag.map { ScenePoint(x: $0.finger.x, y: $0.finger.y) }
        return DashboardDebugView(
            step: stepCount, stateHash: stateHash, isAtRest: isAtRest, worldIsAtRest: world.isAtRest, bodies: bodies,
            contacts: contacts, dragFinger: finger)
    }
}

/// A snapshot of a dashboard's physics for debug drawing: every live bubble's collision shape,
/// position, spring target, and the contacts between them.
@_spi(Testbed) public struct DashboardDebugView: Sendable, Hashable {
    /// A collision shape, already scaled (the visual shape plus half the gap all round).
    public enum Shape: Sendable, Hashable {
        case circle(radius: Double)
        case roundedRect(width: Double, height: Double, cornerRadius: Double)
    }

    /// One live bubble's body.
    public struct Body: Sendable, Hashable {
        public var id: String
        public var shape: Shape
        public var position: ScenePoint
        /// Where its spring pulls it.
        public var target: ScenePoint
        /// The spring's frequency (Hz; 0: no spring).
        public var springFrequency: Double
        public var isKinematic: Bool
        public var isDragged: Bool
    }

    /// Two bodies whose collision shapes overlap, as indices into `bodies`.
    public struct Contact: Sendable, Hashable {
        public var a: Int
        public var b: Int
        public var depth: Double
    }

    public var step: Int
    public var stateHash: UInt64
    /// The dashboard's rest: nothing moves and no animation runs.
    public var isAtRest: Bool
    /// The physics world's own rest.
    public var worldIsAtRest: Bool
    public var bodies: [Body]
    public var contacts: [Contact]
    /// The finger of the drag in progress.
    public var dragFinger: ScenePoint?
}
