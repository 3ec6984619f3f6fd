import BubbleDashboard
import BubbleSupport

/// Where a label was laid out, in canvas points, with the colours it is drawn in. One per drawn text
/// run group: bubble titles, page counts, breadcrumbs, bar captions and overlay texts.
public struct LabelLayout: Sendable, Hashable {
    /// The area a label must stay inside.
    public enum Container: Sendable, Hashable {
        case circle(centre: ScenePoint, radius: Double)
        case roundedRect(x: Double, y: Double, width: Double, height: Double, cornerRadius: Double)
        case rect(x: Double, y: Double, width: Double, height: Double)

        /// Whether the point lies inside (or within `tolerance` points of) the container.
        public func contains(x px: Double, y py: Double, tolerance: Double = 0.01) -> Bool {
            switch self {
            case .circle(let c, let r):
                let dx = px - c.x, dy = py - c.y
                return (dx * dx + dy * dy).squareRoot() <= r + tolerance
            case .rect(let x, let y, let w, let h):
                return px >= x - tolerance && px <= x + w + tolerance && py >= y - tolerance && py <= y + h + tolerance
            case .roundedRect(let x, let y, let w, let h, let r):
                guard px >= x - tolerance, px <= x + w + tolerance, py >= y - tolerance, py <= y + h + tolerance else {
                    return false
                }
                let rr = min(r, w / 2, h / 2)
                let cx = min(max(px, x + rr), x + w - rr)
                let cy = min(max(py, y + rr), y + h - rr)
                let dx = px - cx, dy = py - cy
                return (dx * dx + dy * dy).squareRoot() <= rr + tolerance
            }
        }
    }

    /// One drawn line: its text and the box (canvas points) that bounds its advance, ink, ascent and
    /// descent.
    public struct Line: Sendable, Hashable {
        /// The line's text as drawn (an ellipsis included).
        public var text: String
        /// The left edge of the box, canvas points.
        public var x: Double
        /// The top edge of the box, canvas points.
        public var y: Double
        /// The box's width, canvas points.
        public var width: Double
        /// The box's height, canvas points.
        public var height: Double
        /// Where the line's first character in logical order begins: at the left for left-to-right
        /// text, at the right for right-to-left text (canvas points).
        public var leadingEdge: Double? = nil

        /// Whether all four corners lie inside `container`.
        public func isInside(_ container: Container, tolerance: Double = 0.01) -> Bool {
            container.contains(x: x, y: y, tolerance: tolerance)
                && container.contains(x: x + width, y: y, tolerance: tolerance)
                && container.contains(x: x, y: y + height, tolerance: tolerance)
                && container.contains(x: x + width, y: y + height, tolerance: tolerance)
        }
    }

    /// What kind of label it is; the labels JSON's `role` (see `docs/output-formats.md`).
    public enum Role: String, Sendable, Hashable {
        case bubbleTitle, pageCount, navigation, breadcrumb, toolbar, staticArea, overlayTitle, overlayText,
             keywordChip, tableHeader, tableCell,
             /// A picture (a page of the preview, a thumbnail): no lines; the container is its frame.
             picture
    }

    /// The bubble id for bubble titles; otherwise a name such as "nav-title", "breadcrumb:2",
    /// "keyword:REPORT-ID:0" or "table-row:REPORT-ID" (`docs/output-formats.md` lists them).
    public var owner: String
    /// What kind of label it is.
    public var role: Role
    /// The text before wrapping or truncation.
    public var label: String
    /// The drawn font size in canvas points (after the bubble's scale).
    public var fontSize: Double
    /// The drawn lines, top to bottom.
    public var lines: [Line]
    /// True when the label was shortened with an ellipsis.
    public var isTruncated: Bool
    /// The shape the label must stay inside.
    public var container: Container
    /// The colour the text is drawn in.
    public var textColour: SceneColour
    /// The fill behind the text (the worse stop of a gradient).
    public var backgroundColour: SceneColour

    /// Code points of the text that no pinned font has (drawn as boxes), in order of first
    /// appearance; empty is right.
    public var missingCodePoints: [UInt32] = []
    /// The font size at scale 1 (before the bubble's scale), when it differs from `fontSize`.
    public var designFontSize: Double? = nil

    /// `U+XXXX` (at least four hex digits), as warnings and the labels JSON name a code point.
    public static func codePointName(_ value: UInt32) -> String {
        "U+" + Hex.string(value, digits: 4, uppercase: true)
    }

    /// How many characters are drawn as boxes.
    public var missingGlyphs: Int { missingCodePoints.count }

    /// The WCAG contrast ratio of the text on its background (1...21).
    public var contrastRatio: Double { Contrast.ratio(textColour, backgroundColour) }
}

/// A label with the colours it is drawn in: what a contrast test needs.
public struct LabelColours: Sendable, Hashable {
    /// The label's text.
    public var label: String
    /// The colour the text is drawn in.
    public var textColour: SceneColour
    /// The fill behind the text.
    public var backgroundColour: SceneColour
    /// The WCAG contrast ratio of the text on its background (1...21).
    public var contrastRatio: Double { Contrast.ratio(textColour, backgroundColour) }
}
