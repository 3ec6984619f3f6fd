// Springs in physical terms (hertz and damping ratio), turned into step coefficients in ONE place.

import BubbleSupport

/// A damped spring given the way UIKit attachments and Box2D soft constraints give it.
///
/// `frequency` is the undamped natural frequency in hertz (oscillations per second of a body on
/// that spring, independent of its mass); `dampingRatio` is 0 for no damping, 1 for critical
/// damping (fastest approach without overshoot) and above 1 for an over-damped, sluggish spring.
/// A frequency of 0 means "no spring".
public struct Spring: Hashable, Sendable, CustomStringConvertible {
    /// Natural frequency in Hz, `0...PhysicsLimits.maxFrequency`; 0 disables the spring.
    public var frequency: Double
    /// Damping ratio, `0...PhysicsLimits.maxDampingRatio` (1 = critically damped).
    public var dampingRatio: Double

    /// Creates a spring from its natural frequency (Hz) and damping ratio.
    public init(frequency: Double, dampingRatio: Double) {
        self.frequency = frequency
        self.dampingRatio = dampingRatio
    }

    /// No spring at all.
    public static let none = Spring(frequency: 0, dampingRatio: 0)

    /// Whether this spring does anything.
    public var isActive: Bool { frequency > 0 }

    /// A short description.
    public var description: String { "Spring(\(frequency) Hz, ζ \(dampingRatio))" }

    func validate(_ field: String) throws(PhysicsError) {
        try Validate.range(frequency, "\(field).frequency", 0, PhysicsLimits.maxFrequency)
        try Validate.range(dampingRatio, "\(field).dampingRatio", 0, PhysicsLimits.maxDampingRatio)
    }
}

/// Soft-constraint coefficients for one time step (Box2D v3 `b2MakeSoft`).
///
/// This is the only place where hertz and damping ratio become numbers the solver uses. Applied as
/// `v += -massScale * (v + biasRate * C)` (C is the constraint error, for a target spring
/// `x - target`), it is exactly the implicit-Euler update of a spring-damper with stiffness `ω²`
/// and damping `2ζω` per unit mass: unconditionally stable for any frequency and step.
/// Only `+ - * /` are used; `2π` is a literal constant (`DeterministicMath.twoPi`), so no platform library changes the bits.
struct SoftCoefficients: Sendable {
    /// Multiplies the position error to give a velocity (1/s).
    var biasRate: Double
    /// Fraction of the velocity error removed in one step (dimensionless).
    var massScale: Double

    static let zero = SoftCoefficients(biasRate: 0, massScale: 0)

    init(biasRate: Double, massScale: Double) {
        self.biasRate = biasRate
        self.massScale = massScale
    }

    /// Coefficients for a spring of `frequency` Hz and `dampingRatio`, over a step of `h` seconds.
    init(frequency: Double, dampingRatio: Double, timeStep h: Double) {
        if !(frequency > 0) {
            self = .zero
            return
        }
        let omega = DeterministicMath.twoPi * frequency
        let a1 = 2 * dampingRatio + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
    }
}
