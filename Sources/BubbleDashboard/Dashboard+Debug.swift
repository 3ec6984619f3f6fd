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
        /// A circle of this radius (pt).
        case circle(radius: Double)
        /// A rounded rectangle of this size and corner radius (pt).
        case roundedRect(width: Double, height: Double, cornerRadius: Double)
    }

    /// One live bubble's body.
    public struct Body: Sendable, Hashable {
        /// The bubble's node id.
        public var id: String
        /// The collision shape, scaled.
        public var shape: Shape
        /// Where the body is (canvas pt).
        public var position: ScenePoint
        /// Where its spring pulls it.
        public var target: ScenePoint
        /// The spring's frequency (Hz; 0: no spring).
        public var springFrequency: Double
        /// Whether it is moved by the dashboard (a glide, the focus, a drag) rather than by springs.
        public var isKinematic: Bool
        /// Whether a finger holds it.
        public var isDragged: Bool
    }

    /// Two bodies whose collision shapes overlap, as indices into `bodies`.
    public struct Contact: Sendable, Hashable {
        /// One body, as an index into `bodies`.
        public var a: Int
        /// The other body.
        public var b: Int
        /// How deep the shapes overlap (pt).
        public var depth: Double
    }

    /// The dashboard's step count.
    public var step: Int
    /// The dashboard's state hash (`Dashboard.stateHash`).
    public var stateHash: UInt64
    /// The dashboard's rest: nothing moves and no animation runs.
    public var isAtRest: Bool
    /// The physics world's own rest.
    public var worldIsAtRest: Bool
    /// Every live bubble's body, in the dashboard's order.
    public var bodies: [Body]
    /// The overlapping pairs.
    public var contacts: [Contact]
    /// The finger of the drag in progress.
    public var dragFinger: ScenePoint?
}
