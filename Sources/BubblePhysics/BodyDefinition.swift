// The definition value a body is created from (Box2D's `b2BodyDef` style: documented units and defaults).

import BubbleSupport

/// The collision and hit-test shape of a body, before its visual `scale` is applied.
public enum Shape: Hashable, Sendable {
    /// A circle of the given radius, pt.
    case circle(radius: Double)
    /// An axis-aligned rectangle with rounded corners; sizes in pt.
    /// `cornerRadius` is `0...min(width, height) / 2` (0 gives sharp corners).
    case roundedRect(width: Double, height: Double, cornerRadius: Double)

    /// Half width, half height and corner radius, pt (a circle is a rounded square with corner =
    /// radius).
    public var halfExtents: (hw: Double, hh: Double, corner: Double) {
        switch self {
        case let .circle(r): return (r, r, r)
        case let .roundedRect(w, h, c): return (w * 0.5, h * 0.5, c)
        }
    }

    /// Area in pt² (the body's mass, at unit density).
    public var area: Double {
        let (hw, hh, c) = halfExtents
        // A rounded rectangle is the rectangle minus four corner squares plus four quarter discs.
        return 4 * hw * hh - (4 - DeterministicMath.pi) * c * c
    }

    func validate(_ field: String) throws(PhysicsError) {
        switch self {
        case let .circle(r):
            try Validate.size(r, field + ".radius")
        case let .roundedRect(w, h, c):
            try Validate.size(w, field + ".width")
            try Validate.size(h, field + ".height")
            try Validate.finite(c, field + ".cornerRadius")
            let limit = (w < h ? w : h) * 0.5
            if c < 0 || c > limit {
                throw .invalidValue(field: field + ".cornerRadius", value: c,
                                    reason: "must be in 0...\(limit) (half the shorter side)")
            }
        }
    }
}

/// Everything needed to create a body. All lengths in pt (y down), times in s.
public struct BodyDefinition: Hashable, Sendable {
    /// Collision and hit-test shape at scale 1.
    public var shape: Shape
    /// Centre position, pt. |x|, |y| ≤ `PhysicsLimits.maxCoordinate`. Default (0, 0).
    public var position: Vector2
    /// Initial velocity, pt/s. Default zero.
    public var velocity: Vector2
    /// Where the target spring pulls the centre to, pt. Default: the same as `position`.
    public var target: Vector2?
    /// Spring from the centre to `target`; `Spring.none` (the default) for no target spring.
    public var spring: Spring
    /// Visual scale, `0...PhysicsLimits.maxScale`; the collision and hit-test size follow it.
    /// A scale of 0 makes the body take part in nothing but springs. Default 1.
    public var scale: Double
    /// Opacity `0...1`; stored for the renderer, no effect on physics. Default 1.
    public var opacity: Double
    /// A kinematic body is moved by the caller (`World.moveKinematic`), pushes others and is not
    /// pushed. Default false.
    public var isKinematic: Bool
    /// A disabled body is frozen: no motion, no collisions, no hit testing. Default true.
    public var isEnabled: Bool

    /// Creates a definition; only the shape is required.
    public init(
        shape: Shape, position: Vector2 = .zero, velocity: Vector2 = .zero, target: Vector2? = nil,
        spring: Spring = .none, scale: Double = 1, opacity: Double = 1,
        isKinematic: Bool = false, isEnabled: Bool = true
    ) {
        self.shape = shape
        self.position = position
        self.velocity = velocity
        self.target = target
        self.spring = spring
        self.scale = scale
        self.opacity = opacity
        self.isKinematic = isKinematic
        self.isEnabled = isEnabled
    }

    /// Checks every field; throws a `PhysicsError.invalidValue` naming the first bad one.
    public func validate() throws(PhysicsError) {
        try shape.validate("shape")
        try Validate.coordinate(position, "position")
        try Validate.velocity(velocity, "velocity")
        if let target { try Validate.coordinate(target, "target") }
        try spring.validate("spring")
        try validateScale(scale, shape)
        try Validate.range(opacity, "opacity", 0, 1)
    }
}

func validateScale(_ scale: Double, _ shape: Shape) throws(PhysicsError) {
    try Validate.range(scale, "scale", 0, PhysicsLimits.maxScale)
    let (hw, hh, _) = shape.halfExtents
    if (hw > hh ? hw : hh) * 2 * scale > PhysicsLimits.maxSize {
        throw .invalidValue(field: "scale", value: scale,
                            reason: "scaled size exceeds \(PhysicsLimits.maxSize) pt")
    }
}
