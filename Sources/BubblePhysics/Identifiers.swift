// Small opaque handles (Box2D's `b2BodyId` style): an index plus a generation.

/// A handle to a body in a `World`: a slot index plus a generation counter.
///
/// When a body is removed its index may be reused by a later body, but with a new generation, so
/// the old handle is reported as stale (`PhysicsError.staleBody`) instead of silently naming the
/// new body. A handle also names its world, so another world refuses it the same way.
public struct BodyID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Index of the handle slot (small, dense, reused after removal).
    public let index: UInt32
    /// Generation of that slot when the body was created (odd while alive).
    public let generation: UInt32
    /// The `World.identity` of the world that made it (0: none; every world refuses it).
    public let world: UInt32

    /// Creates a handle from its parts (mostly for tests and serialisation); `world` defaults to 0,
    /// which no world accepts.
    public init(index: UInt32, generation: UInt32, world: UInt32 = 0) {
        self.index = index
        self.generation = generation
        self.world = world
    }

    /// Handle order: by index, then generation (the order of `World.stateHash`), then world.
    public static func < (a: BodyID, b: BodyID) -> Bool {
        (a.index, a.generation, a.world) < (b.index, b.generation, b.world)
    }

    /// A short description such as `body#3.1`.
    public var description: String { "body#\(index).\(generation)" }
}

/// A handle to a coupling spring between two bodies (index plus generation, like `BodyID`).
public struct CouplingID: Hashable, Sendable, CustomStringConvertible {
    /// Index of the coupling slot.
    public let index: UInt32
    /// Generation of that slot when the coupling was created.
    public let generation: UInt32
    /// The `World.identity` of the world that made it (0: none; every world refuses it).
    public let world: UInt32

    /// Creates a handle from its parts; `world` defaults to 0, which no world accepts.
    public init(index: UInt32, generation: UInt32, world: UInt32 = 0) {
        self.index = index
        self.generation = generation
        self.world = world
    }

    /// A short description such as `coupling#0.1`.
    public var description: String { "coupling#\(index).\(generation)" }
}
