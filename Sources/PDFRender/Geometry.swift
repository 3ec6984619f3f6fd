/// An affine transformation `[a b c d e f]` as PDF writes it: x′ = a·x + c·y + e, y′ = b·x + d·y + f.
public struct PDFMatrix: Sendable, Equatable {
    /// The six coefficients, in PDF order.
    public var a, b, c, d, e, f: Double

    /// Creates a matrix from its six coefficients.
    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The identity.
    public static let identity = PDFMatrix(1, 0, 0, 1, 0, 0)

    /// A translation by (`x`, `y`).
    public static func translation(_ x: Double, _ y: Double) -> PDFMatrix { PDFMatrix(1, 0, 0, 1, x, y) }

    /// A scaling by `x` and `y`.
    public static func scaling(_ x: Double, _ y: Double) -> PDFMatrix { PDFMatrix(x, 0, 0, y, 0, 0) }

    /// `self` followed by `m` (PDF's `self × m`: apply `self` first).
    public func concatenating(_ m: PDFMatrix) -> PDFMatrix {
        PDFMatrix(a * m.a + b * m.c, a * m.b + b * m.d,
                  c * m.a + d * m.c, c * m.b + d * m.d,
                  e * m.a + f * m.c + m.e, e * m.b + f * m.d + m.f)
    }

    /// The image of the point (`x`, `y`).
    public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (a * x + c * y + e, b * x + d * y + f)
    }

    /// The inverse, nil when the matrix is singular.
    public var inverted: PDFMatrix? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        return PDFMatrix(d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    }

    /// How much the matrix scales lengths, on average (the square root of the absolute determinant).
    var scale: Double { (abs(a * d - b * c)).squareRoot() }

    /// Whether every coefficient is finite.
    var isFinite: Bool { a.isFinite && b.isFinite && c.isFinite && d.isFinite && e.isFinite && f.isFinite }
}

/// A rectangle by its corners, normalised so that `x0 ≤ x1` and `y0 ≤ y1`.
public struct PDFRect: Sendable, Equatable {
    /// The lower-left and upper-right corners.
    public var x0, y0, x1, y1: Double

    /// Creates a rectangle from two opposite corners in any order.
    public init(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        (self.x0, self.x1) = (min(x0, x1), max(x0, x1))
        (self.y0, self.y1) = (min(y0, y1), max(y0, y1))
    }

    /// The width (x1 − x0).
    public var width: Double { x1 - x0 }
    /// The height (y1 − y0).
    public var height: Double { y1 - y0 }

    /// The overlap of two rectangles (empty when they do not meet).
    func intersection(_ r: PDFRect) -> PDFRect {
        let nx0 = max(x0, r.x0), ny0 = max(y0, r.y0)
        return PDFRect(nx0, ny0, max(nx0, min(x1, r.x1)), max(ny0, min(y1, r.y1)))
    }

    /// The bounding box of the rectangle's image under `m`.
    func transformed(_ m: PDFMatrix) -> PDFRect {
        let p = [m.apply(x0, y0), m.apply(x1, y0), m.apply(x0, y1), m.apply(x1, y1)]
        return PDFRect(p.map(\.x).min()!, p.map(\.y).min()!, p.map(\.x).max()!, p.map(\.y).max()!)
    }
}

/// A path in user space: move, line, cubic curve and close operations with their points.
public struct PDFPath: Sendable {
    /// One path-building operation.
    public enum Element: Sendable {
        /// Starts a subpath at a point.
        case move(Double, Double)
        /// A straight segment to a point.
        case line(Double, Double)
        /// A cubic Bézier curve through two control points to a point.
        case curve(Double, Double, Double, Double, Double, Double)
        /// Closes the current subpath.
        case close
    }

    /// The operations in order.
    public var elements: [Element] = []
    /// The current point, if any (after the last operation).
    var current: (Double, Double)? = nil
    /// The start of the current subpath.
    var subpathStart: (Double, Double)? = nil

    /// Creates an empty path.
    public init() {}

    /// Whether the path has no operations.
    public var isEmpty: Bool { elements.isEmpty }

    mutating func move(_ x: Double, _ y: Double) {
        // A move after a move replaces it (as every renderer does).
        if case .move? = elements.last { elements.removeLast() }
        elements.append(.move(x, y)); current = (x, y); subpathStart = (x, y)
    }

    mutating func line(_ x: Double, _ y: Double) {
        if current == nil { move(x, y); return }
        elements.append(.line(x, y)); current = (x, y)
    }

    mutating func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) {
        if current == nil { move(x1, y1) }
        elements.append(.curve(x1, y1, x2, y2, x3, y3)); current = (x3, y3)
    }

    mutating func close() {
        guard current != nil else { return }
        elements.append(.close); current = subpathStart
    }

    mutating func rectangle(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        move(x, y); line(x + w, y); line(x + w, y + h); line(x, y + h); close()
    }
}

/// How the inside of a path is decided.
public enum PDFFillRule: Sendable {
    /// Non-zero winding (`f`, `W`).
    case nonZero
    /// Even-odd (`f*`, `W*`).
    case evenOdd
}
