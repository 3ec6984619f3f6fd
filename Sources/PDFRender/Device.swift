/// How a stroke is drawn: width in user space, caps, joins, miter limit and dashes.
struct StrokeStyle {
    var width: Double = 1
    /// 0 butt, 1 round, 2 projecting square.
    var cap = 0
    /// 0 miter, 1 round, 2 bevel.
    var join = 0
    var miterLimit: Double = 10
    var dash: [Double] = []
    var dashPhase: Double = 0
}

/// The PDF blend modes (Normal plus the separable and non-separable ones).
enum BlendMode: String {
    case normal = "Normal", multiply = "Multiply", screen = "Screen", overlay = "Overlay", darken = "Darken"
    case lighten = "Lighten", colorDodge = "ColorDodge", colorBurn = "ColorBurn", hardLight = "HardLight"
    case softLight = "SoftLight", difference = "Difference", exclusion = "Exclusion", hue = "Hue"
    case saturation = "Saturation", color = "Color", luminosity = "Luminosity"
}

/// A shading in its own coordinate space: an axial or radial gradient (with stops), a mesh of
/// patches and triangles, or a function sampled into an image.
struct ShadingSpec {
    enum Geometry {
        case axial(Double, Double, Double, Double)
        case radial(Double, Double, Double, Double, Double, Double)
        case mesh([MeshPatch])
        /// An image whose unit square the matrix maps into shading space.
        case sampled(DecodedImage, PDFMatrix)
    }
    var geometry: Geometry
    /// (t in 0…1, colour) pairs, increasing t.
    var stops: [(Double, RGB)]
    var extendStart: Bool
    var extendEnd: Bool
    /// Shading space → user space at the time of painting (the pattern matrix for patterns).
    var matrix: PDFMatrix
    /// A background colour, for shading patterns that declare one (unused by `sh`).
    var background: RGB?
}

/// A tiling pattern's cell, drawn by the interpreter onto a device the device makes.
struct TilingSpec {
    var bbox: PDFRect
    var xStep: Double
    var yStep: Double
    /// Pattern space → device space.
    var matrix: PDFMatrix
    /// Draws one cell in pattern space on the given device.
    var drawCell: (PageDevice) -> Void
}

/// A soft mask from an ExtGState: its group drawn on a device the device makes.
final class SoftMaskSpec {
    var luminosity: Bool
    var backdrop: RGB
    /// Draws the mask's group (in the coordinates the page device uses).
    var drawGroup: (PageDevice) -> Void
    /// The transfer function (`/TR`) as a table of the 256 mask values, nil for the identity.
    var transfer: [UInt8]?
    /// Set by the device: its rendered mask, reused while the mask is in force.
    var cached: AnyObject?
    init(luminosity: Bool, backdrop: RGB, transfer: [UInt8]? = nil, drawGroup: @escaping (PageDevice) -> Void) {
        self.luminosity = luminosity
        self.backdrop = backdrop
        self.transfer = transfer
        self.drawGroup = drawGroup
    }
}

/// What fills or strokes: a colour, a gradient or a tiling pattern.
enum DevicePaint {
    case color(RGB)
    case gradient(ShadingSpec)
    case tiling(TilingSpec)
}

/// Everything a painting operation needs besides its geometry.
struct PaintState {
    var paint: DevicePaint
    var alpha: Double
    var blend: BlendMode
    var softMask: SoftMaskSpec?
}

/// A decoded image: premultiplied ARGB32 (colour) or A8 (a stencil mask) pixels, top row first.
/// The device pixels an image's unit square spans: the length of its x axis (`width`) and of its
/// y axis (`height`) on the page being drawn.
struct ImageTarget {
    var width: Double
    var height: Double

    /// Whether `width` × `height` samples divided by `k` on each axis still give the pixels drawn:
    /// on each axis against `target` (a raster), else by their geometric mean against `scale` (px).
    static func keepsPixels(width: Int, height: Int, dividedBy k: Int, target: ImageTarget?, scale: Double) -> Bool {
        if let t = target { return Double(width) / Double(k) >= t.width && Double(height) / Double(k) >= t.height }
        return (Double(width) * Double(height)).squareRoot() / Double(k) >= scale
    }
}

final class DecodedImage {
    let width: Int
    let height: Int
    let stride: Int
    let isMask: Bool
    let pixels: UnsafeMutableRawPointer

    init(width: Int, height: Int, isMask: Bool) {
        self.width = width
        self.height = height
        self.isMask = isMask
        stride = isMask ? (width + 3) & ~3 : width * 4
        pixels = UnsafeMutableRawPointer.allocate(byteCount: max(1, stride * height), alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, stride * height))
    }

    deinit { pixels.deallocate() }
}

/// Glyphs placed along a text line, drawn with one face at one size.
struct GlyphRun {
    var font: PDFFont
    /// Text space → user space... → device: the text matrix times the CTM.
    var matrix: PDFMatrix
    /// Font size times horizontal scaling, and font size.
    var sizeX: Double
    var sizeY: Double
    /// Glyph index, origin in text space (x along the line, y the rise) and an extra x scale.
    var glyphs: [(id: UInt32, x: Double, y: Double, scale: Double)]
}

/// The drawing device: what the interpreter asks of whatever draws a page. The interpreter
/// knows PDF; a device knows its graphics library (Cairo here; Core Graphics could be another).
protocol PageDevice: AnyObject {
    /// Saves the clip (the interpreter keeps the rest of the graphics state itself).
    func save()
    /// Restores the clip saved by the matching ``save()``.
    func restore()
    /// Intersects the clip with a path.
    func clip(_ path: PDFPath, ctm: PDFMatrix, rule: PDFFillRule)
    func fill(_ path: PDFPath, ctm: PDFMatrix, rule: PDFFillRule, state: PaintState)
    func stroke(_ path: PDFPath, ctm: PDFMatrix, style: StrokeStyle, state: PaintState)
    /// Draws glyphs: filled, stroked, both, and/or added to the pending text clip.
    func glyphs(_ run: GlyphRun, fill: PaintState?, stroke: (StrokeStyle, PaintState, PDFMatrix)?, addToClip: Bool)
    /// Intersects the clip with the glyphs added since the text object began (ET after clip modes).
    func applyTextClip()
    /// Draws an image onto the unit square mapped by `ctm`.
    func image(_ image: DecodedImage, ctm: PDFMatrix, state: PaintState, interpolate: Bool)
    /// Paints the current paint through a stencil mask on the unit square mapped by `ctm`.
    func stencil(_ mask: DecodedImage, ctm: PDFMatrix, state: PaintState)
    /// Paints a gradient over the whole clip (the `sh` operator).
    func paintGradient(_ g: ShadingSpec, ctm: PDFMatrix, state: PaintState)
    /// Starts a transparency group: what follows is drawn into it.
    func beginGroup()
    /// Ends the group and composites it with the state's alpha, blend mode and soft mask.
    func endGroup(state: PaintState)
}
