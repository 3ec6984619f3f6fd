// World-wide settings with units and defaults in one struct.

/// Settings of a `World`. Lengths in pt (y down), times in s, frequencies in Hz.
public struct WorldSettings: Hashable, Sendable {
    /// Length of one `World.step()`, s. Default 1/60 (one display frame).
    public var timeStep: Double = 1.0 / 60.0
    /// Sub-steps per step (springs, integration and collisions run this many times per step).
    /// `1...64`, default 2.
    public var subSteps: Int = 2
    /// Overlap-relaxation sweeps per sub-step (alternating forward and backward Gauss–Seidel).
    /// `1...64`, default 2: with static friction, two sweeps settle the standard piles as well as
    /// four did (1 000 bodies, 24 seeds: 21 at rest within 300 steps with either) at 60 % of the
    /// cost.
    public var iterations: Int = 2
    /// Row bands of the overlap sweeps in worlds of at least `World.bandMinBodies` bodies,
    /// `1...maxBands`, default 2. The bands' interiors, and then the seams between them, are
    /// independent, so `World.executor` can sweep them on as many threads at once. The results
    /// depend on this number, never on the executor or the thread count: the same bands give the
    /// same bits on one thread and on many.
    public var bands: Int = 2
    /// The largest `bands`.
    public static let maxBands = 16
    /// Bodies closer than this gap count as touching and support each other, pt. Default 0.1.
    public var contactSlop: Double = 0.1
    /// Fraction of its velocity a touching body loses per sub-step, `0...1`: the bubbles'
    /// viscous friction, which settles piles without creep and keeps springs from squeezing
    /// them. Higher values settle piles faster but make touching bodies sluggish (and can stop a
    /// loose pile before it is compact). Default 0.5.
    public var contactDamping: Double = 0.5
    /// Static friction, as a speed, pt/s: a touching dynamic body whose motion over a sub-step
    /// (springs, pushes and all) is slower than this stays where the sub-step found it, at rest.
    /// With `staticFriction`, a pile whose spring load is carried by its contacts stands still
    /// instead of creeping, so it comes to rest (the standard 1 000-body pile by step ~220 instead
    /// of flowing on at 2–4 pt/s). A touching body may stop up to about `staticSpeed / (2π f)`
    /// short of its target (f: its spring's frequency). 0 turns it off. Default 4.
    public var staticSpeed: Double = 4
    /// Static friction, as a ratio, `0...1`, default 0.9: a touching dynamic body whose motion over
    /// a sub-step is slower than `staticFriction` times the speed its contacts pushed it with (the
    /// sweeps' correction over h) stays where the sub-step found it, at rest, like a body held in a
    /// groove by Coulomb friction: its contacts carry its drive. Without it a loaded pile keeps
    /// rearranging. 0 turns it off.
    public var staticFriction: Double = 0.9
    /// Static friction in piles pressed by strong springs, `0...100`, default 2. An overlap deeper
    /// than 2 pt plus `driveAllowance` times how far the two bodies' velocities carry them towards
    /// their own targets in one sub-step (`BodyPass.noteDrive`) frees both bodies, and every body
    /// it overlaps, from static friction for the sub-step, so a jammed pile goes on opening. 0
    /// frees them at any overlap deeper than 2 pt, and a large pile, whose springs drive its rim
    /// that deep every sub-step, then never comes to rest.
    public var driveAllowance: Double = 2
    /// Whether either form of static friction is on (`World.deepMark` is kept only then).
    var hasStaticFriction: Bool { staticSpeed > 0 || staticFriction > 0 }
    /// Constant acceleration, pt/s². Default none.
    public var gravity: Vector2 = .zero
    /// The canvas. When set, a soft spring (`boundsSpring`) pulls every body whose scaled shape
    /// plus `boundsMargin` reaches outside back in. It only ever pulls inwards, so a body outside
    /// (teleported, or pushed out) is brought back gently and is never trapped. Default nil (none).
    public var bounds: Rect? = nil
    /// Gap kept between a body's edge and the canvas edge, pt. Default 8.
    public var boundsMargin: Double = 8
    /// Spring of the keep-on-canvas pull. Default 2 Hz, critically damped.
    public var boundsSpring = Spring(frequency: 2, dampingRatio: 1)
    /// The world is at rest when no dynamic body moved faster than this for `restSteps` steps in a
    /// row, pt/s. Default 1.5 pt/s (0.025 pt per step at 60 Hz, far below a pixel).
    public var restSpeed: Double = 1.5
    /// Consecutive quiet steps before the world reports rest. `1...10_000`, default 10.
    public var restSteps: Int = 10
    /// When the world comes to rest, overlap relaxation (positions only) runs on until no pair
    /// overlaps by more than this, pt, or `restPolishSweeps` sweeps have run; so a settled pile is
    /// free of the last fractions of a point that the sub-steps' few sweeps leave under spring
    /// load. nil turns it off. Default 0.25.
    public var restOverlapTolerance: Double? = 0.25
    /// The most relaxation sweeps of the rest polish (see `restOverlapTolerance`), `0...10 000`,
    /// default 1024. The polish stops as soon as the tolerance is met, so the cap costs only the
    /// piles that need it (a large jammed pile needs hundreds).
    public var restPolishSweeps: Int = 1024
    /// Seed of the tie-breaking random generator (coincident centres).
    public var seed: UInt64 = 0x5EED_B0BB_1E5

    /// The default settings.
    public init() {}

    /// Checks every field; throws a `PhysicsError.invalidValue` naming the first bad one.
    public func validate() throws(PhysicsError) {
        try Validate.range(timeStep, "settings.timeStep", 1e-6, 1)
        try Validate.range(Double(subSteps), "settings.subSteps", 1, 64)
        try Validate.range(Double(iterations), "settings.iterations", 1, 64)
        try Validate.range(Double(bands), "settings.bands", 1, Double(WorldSettings.maxBands))
        try Validate.range(contactSlop, "settings.contactSlop", 0, 1000)
        try Validate.range(contactDamping, "settings.contactDamping", 0, 1)
        try Validate.range(staticSpeed, "settings.staticSpeed", 0, PhysicsLimits.maxSpeed)
        try Validate.range(staticFriction, "settings.staticFriction", 0, 100)
        try Validate.range(driveAllowance, "settings.driveAllowance", 0, 100)
        let g = PhysicsLimits.maxSpeed
        try Validate.range(gravity.x, "settings.gravity.x", -g, g)
        try Validate.range(gravity.y, "settings.gravity.y", -g, g)
        if let b = bounds {
            try Validate.coordinate(Vector2(b.x, b.y), "settings.bounds.origin")
            try Validate.size(b.width, "settings.bounds.width")
            try Validate.size(b.height, "settings.bounds.height")
            try Validate.coordinate(Vector2(b.maxX, b.maxY), "settings.bounds.maxCorner")
        }
        try Validate.range(boundsMargin, "settings.boundsMargin", 0, PhysicsLimits.maxSize)
        try boundsSpring.validate("settings.boundsSpring")
        try Validate.range(restSpeed, "settings.restSpeed", 0, PhysicsLimits.maxSpeed)
        try Validate.range(Double(restSteps), "settings.restSteps", 1, 10_000)
        if let t = restOverlapTolerance { try Validate.range(t, "settings.restOverlapTolerance", 0, PhysicsLimits.maxSize) }
        try Validate.range(Double(restPolishSweeps), "settings.restPolishSweeps", 0, 10_000)
    }
}
