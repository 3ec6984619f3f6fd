import PDFCore

/// The text state: font, size and spacing (PDF 32000-1 §9.3).
struct TextState {
    var font: PDFFont? = nil
    var size: Double = 0
    var charSpacing: Double = 0
    var wordSpacing: Double = 0
    /// Horizontal scaling as a fraction (Tz / 100).
    var hScale: Double = 1
    var leading: Double = 0
    var rise: Double = 0
    var renderMode = 0
}

/// A colour in force: its space, its components, and the pattern when the space is Pattern.
struct ColorState {
    var space: ColorSpace = .gray
    var components: [Double] = [0]
    var rgb: RGB = .black
    /// The pattern resource, when painting with a pattern.
    var pattern: PDFObject? = nil
}

/// The graphics state that `q` saves and `Q` restores.
struct GState {
    var ctm: PDFMatrix
    var fill = ColorState()
    var stroke = ColorState()
    var line = StrokeStyle()
    var fillAlpha: Double = 1
    var strokeAlpha: Double = 1
    var blend: BlendMode = .normal
    var softMask: SoftMaskSpec? = nil
    var text = TextState()
}
