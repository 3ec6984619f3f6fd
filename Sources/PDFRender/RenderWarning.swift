/// Something the renderer skipped, approximated or repaired on a page. Every feature that is not
/// drawn exactly as the PDF specifies is one of these, never silence.
public struct PDFRenderWarning: Sendable, Equatable, CustomStringConvertible {
    /// The category of a warning, stable enough to branch on.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A content-stream operator that is unknown, has the wrong operands or comes out of place.
        case contentSyntax
        /// A font could not be loaded or a glyph not found; text may be drawn with a substitute.
        case font
        /// A font that the PDF names but does not embed is drawn with a free metric-compatible substitute.
        case fontSubstituted
        /// An image could not be decoded (filter, colour space, damaged data); it is left out.
        case image
        /// An image coding this renderer does not decode (JBIG2's Huffman-coded segments and custom
        /// tables): that part of the image is left out.
        case unsupportedImageFilter
        /// A colour space that is approximated (ICC profiles by their component count, Lab, CalRGB).
        case colorApproximated
        /// A shading that is skipped or approximated (mesh shadings, one-sided extends).
        case shading
        /// A pattern that is skipped or approximated.
        case pattern
        /// Transparency that is approximated (knockout groups, unusual soft masks).
        case transparency
        /// An optional-content expression that is approximated (visibility expressions).
        case optionalContent
        /// A limit was reached: operand stack, nesting, form recursion, image pixels.
        case limit
        /// The page took longer than the timeout; what was drawn until then is returned.
        case timeout
        /// An object the page needs could not be read (damaged or missing).
        case unreadableObject
    }

    /// The category.
    public var kind: Kind
    /// What happened, in words.
    public var message: String
    /// The object number concerned, when known.
    public var object: Int?
    /// The byte offset concerned, when known (in the file, or in the content stream for `contentSyntax`).
    public var offset: Int?

    /// Creates a warning.
    public init(_ kind: Kind, _ message: String, object: Int? = nil, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.object = object
        self.offset = offset
    }

    /// "kind (object N, byte B): message".
    public var description: String {
        var place: [String] = []
        if let object { place.append("object \(object)") }
        if let offset { place.append("byte \(offset)") }
        return place.isEmpty ? "\(kind.rawValue): \(message)" : "\(kind.rawValue) (\(place.joined(separator: ", "))): \(message)"
    }
}

/// Collects a page's warnings, each distinct warning once, up to a bound.
struct WarningSink {
    private(set) var list: [PDFRenderWarning] = []
    /// The most distinct warnings kept for one page.
    static let maxWarnings = 200

    mutating func add(_ w: PDFRenderWarning) {
        guard list.count < Self.maxWarnings, !list.contains(w) else { return }
        list.append(w)
    }
}
