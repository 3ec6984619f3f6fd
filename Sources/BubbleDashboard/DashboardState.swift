import BubblePhysics

/// A bubble on screen that has a body in the physics world.
struct LiveBubble {
    enum Role: Sendable, Hashable {
        /// The focused centre circle (kinematic: pushes the children, is not pushed).
        case focus
        /// A child of the focus (dynamic, springs to its place).
        case child
    }

    var node: Int
    var body: BodyID
    var role: Role
    /// The visual shape, unscaled (the body's collision shape adds the gap all round).
    var shape: Shape
    var scale: Tween
    var opacity: Tween
    var blur: Tween
    /// Set while the bubble travels as a kinematic body (becoming or leaving the focus).
    var transit: Transit?
    /// Where the bubble was at the step before the current one (nil if it appeared since):
    /// `scene(at:)` interpolates from there.
    var previous: Vector2? = nil

    /// Whether its glide is under way at `time` (then its position and radius are the glide's).
    func glides(at time: Double) -> Bool { transit.map { time >= $0.start } ?? false }

    func displayScale(at time: Double) -> Double { scale.value(at: time) }

    func isSettled(at time: Double) -> Bool {
        transit == nil && scale.isFinished(at: time) && opacity.isFinished(at: time) && blur.isFinished(at: time)
    }
}

/// A kinematic journey from one point to another with a radius change on the way.
struct Transit {
    var from: Vector2
    var to: Vector2
    var start: Double
    var duration: Double
    var radius: Tween
    /// When it ends the body becomes dynamic again and springs to `to` (a focus going back to being
    /// a child); otherwise it stays kinematic (a child becoming the focus).
    var endsDynamic: Bool

    func position(at time: Double) -> Vector2 {
        if duration <= 0 || time >= start + duration { return to }
        if time <= start { return from }
        let e = Ease.inOut((time - start) / duration)
        return Vector2(from.x + (to.x - from.x) * e, from.y + (to.y - from.y) * e)
    }

    func isFinished(at time: Double) -> Bool {
        (duration <= 0 || time >= start + duration) && radius.isFinished(at: time)
    }
}

/// A bubble on its way out: no body any more, just a tweened shrink, fade and glide.
struct Ghost {
    var node: Int
    var role: LiveBubble.Role
    var shape: Shape
    var from: Vector2
    var to: Vector2
    var start: Double
    var duration: Double
    var scale: Tween
    var opacity: Tween
    var blur: Double

    func position(at time: Double) -> Vector2 {
        Transit(from: from, to: to, start: start, duration: duration, radius: .constant(0), endsDynamic: false).position(at: time)
    }

    func isFinished(at time: Double) -> Bool { time >= start + duration }
}

/// The drag in progress.
struct DragState {
    var node: Int
    var body: BodyID
    /// Bubble centre minus finger, kept for the whole drag so the bubble follows the finger exactly.
    var grab: Vector2
    var finger: Vector2
    /// The couplings that make the other children follow, with the coupled body and its offset.
    var couplings: [(id: CouplingID, body: BodyID, offset: Vector2)]
}

/// An open (or closing) overlay.
struct OverlayState {
    enum Content: Hashable {
        case preview(Int)
        case reports(Int)
        case search
        case filterSheet
    }

    var content: Content
    var opacity: Tween
    var closing: Bool

    var kindCode: Int {
        switch content {
        case .preview(let n): 2 * n + 1
        case .reports(let n): 2 * n + 2
        case .search: Int.max - 1
        case .filterSheet: Int.max - 2
        }
    }
}
