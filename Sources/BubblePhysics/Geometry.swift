// Small value types for points, vectors and rectangles, in points (pt) with y pointing down.

/// A 2-D vector or point in points (pt), y pointing down.
public struct Vector2: Hashable, Sendable, CustomStringConvertible {
    /// Horizontal component, pt.
    public var x: Double
    /// Vertical component, pt (y points down).
    public var y: Double

    /// Creates a vector from its components.
    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// Creates a vector from its components.
    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The zero vector.
    public static let zero = Vector2(0, 0)

    /// Squared Euclidean length.
    @inlinable public var lengthSquared: Double { x * x + y * y }

    /// Euclidean length (`sqrt` only).
    @inlinable public var length: Double { lengthSquared.squareRoot() }

    /// Component-wise sum.
    @inlinable public static func + (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x + b.x, a.y + b.y) }
    /// Component-wise difference.
    @inlinable public static func - (a: Vector2, b: Vector2) -> Vector2 { Vector2(a.x - b.x, a.y - b.y) }
    /// Scaling by a scalar.
    @inlinable public static func * (a: Vector2, s: Double) -> Vector2 { Vector2(a.x * s, a.y * s) }
    /// Scaling by a scalar.
    @inlinable public static func * (s: Double, a: Vector2) -> Vector2 { Vector2(a.x * s, a.y * s) }
    /// Negation.
    @inlinable public static prefix func - (a: Vector2) -> Vector2 { Vector2(-a.x, -a.y) }

    /// A short description such as `(1.5, -2.0)`.
    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle in points: origin is the top-left corner (y down).
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// Left edge, pt.
    public var x: Double
    /// Top edge, pt.
    public var y: Double
    /// Width, pt (must be positive where a rectangle is required).
    public var width: Double
    /// Height, pt (must be positive where a rectangle is required).
    public var height: Double

    /// Creates a rectangle from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Left edge.
    public var minX: Double { x }
    /// Top edge.
    public var minY: Double { y }
    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// Centre point.
    public var center: Vector2 { Vector2(x + width * 0.5, y + height * 0.5) }

    /// A short description.
    public var description: String { "Rect(x: \(x), y: \(y), width: \(width), height: \(height))" }
}
