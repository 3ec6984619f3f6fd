// Typed errors of the physics API.

/// Limits on the values the physics API accepts. Values outside are rejected with `PhysicsError`.
public enum PhysicsLimits {
    /// Largest accepted absolute coordinate (positions, targets, offsets, bounds), pt.
    /// Doubles keep sub-nanometre precision far beyond this; the limit keeps sums finite and
    /// the broad phase's cell arithmetic exact.
    public static let maxCoordinate: Double = 1e7
    /// Smallest accepted size (radius, width, height), pt.
    public static let minSize: Double = 0.01
    /// Largest accepted size (radius, width, height), pt; the scaled size must also stay below it.
    public static let maxSize: Double = 1e6
    /// Largest accepted speed, pt/s.
    public static let maxSpeed: Double = 1e7
    /// Largest accepted spring frequency, Hz.
    public static let maxFrequency: Double = 1e4
    /// Largest accepted damping ratio.
    public static let maxDampingRatio: Double = 1e4
    /// Largest accepted visual scale.
    public static let maxScale: Double = 1e3
    /// Largest number of bodies alive at once.
    public static let maxBodies: Int = 1 << 26
}

/// An error from the physics API. Every case names the offending field or handle.
public enum PhysicsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A number was NaN, infinite or outside its allowed range.
    case invalidValue(field: String, value: Double, reason: String)
    /// A body handle does not name a live body (removed, or from another world).
    case staleBody(BodyID)
    /// A coupling handle does not name a live coupling.
    case staleCoupling(CouplingID)
    /// A coupling was asked between a body and itself.
    case selfCoupling(BodyID)
    /// More than `PhysicsLimits.maxBodies` bodies.
    case tooManyBodies(limit: Int)

    /// A human-readable message naming the field.
    public var description: String {
        switch self {
        case let .invalidValue(field, value, reason):
            return "invalid \(field): \(value) (\(reason))"
        case let .staleBody(id):
            return "stale or unknown body handle \(id)"
        case let .staleCoupling(id):
            return "stale or unknown coupling handle \(id)"
        case let .selfCoupling(id):
            return "a coupling needs two different bodies, got \(id) twice"
        case let .tooManyBodies(limit):
            return "too many bodies (limit \(limit))"
        }
    }
}

/// Validation helpers shared by definitions and setters.
enum Validate {
    static func finite(_ v: Double, _ field: String) throws(PhysicsError) {
        if v.isNaN { throw .invalidValue(field: field, value: v, reason: "not a number") }
        if !v.isFinite { throw .invalidValue(field: field, value: v, reason: "not finite") }
    }

    static func range(_ v: Double, _ field: String, _ lo: Double, _ hi: Double) throws(PhysicsError) {
        try finite(v, field)
        if v < lo || v > hi {
            throw .invalidValue(field: field, value: v, reason: "must be in \(lo)...\(hi)")
        }
    }

    static func coordinate(_ p: Vector2, _ field: String) throws(PhysicsError) {
        let m = PhysicsLimits.maxCoordinate
        try range(p.x, field + ".x", -m, m)
        try range(p.y, field + ".y", -m, m)
    }

    static func velocity(_ v: Vector2, _ field: String) throws(PhysicsError) {
        let m = PhysicsLimits.maxSpeed
        try range(v.x, field + ".x", -m, m)
        try range(v.y, field + ".y", -m, m)
    }

    static func size(_ v: Double, _ field: String) throws(PhysicsError) {
        try finite(v, field)
        if v < 0 { throw .invalidValue(field: field, value: v, reason: "negative size") }
        if v == 0 { throw .invalidValue(field: field, value: v, reason: "zero size gives a zero-area body") }
        try range(v, field, PhysicsLimits.minSize, PhysicsLimits.maxSize)
    }
}
