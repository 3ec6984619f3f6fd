import BubbleRender
import Foundation
import ReportLibrary

/// Every label of a frame as drawn, as JSON (`bubbles render --labels`, the export's `labels`
/// format): one array of objects, in drawing order, with the fields
///
/// - `id`: the node id for bubble titles; for the others a name such as `page-count:ID`,
///   `breadcrumb:N`, `nav-title`, `toolbar:N`, `preview-title`, `keyword:ID:N`, `table-row:ID`;
/// - `role`: the kind of label (`bubbleTitle`, `breadcrumb`, `keywordChip`, `tableCell`, ...);
/// - `text`: what the label should say;
/// - `lines`: the lines as drawn, after wrapping, hyphenation and ellipsis, in logical order;
/// - `font_size_pt`: the font size at scale 1;
/// - `shortened`: true when text was cut (an ellipsis stands for it);
/// - `missing_glyphs`: the code points no pinned font has, drawn as boxes (`"U+0378"`);
/// - `box`: `[x, y, w, h]` in canvas points around every drawn line (`null` for a label with no
///   line).
///
/// Numbers are rounded to 1/100 pt, so the same frame always gives the same bytes.
public enum LabelsJSON {
    /// The labels as drawn, as one JSON array (UTF-8).
    public static func encode(_ labels: [LabelLayout]) -> [UInt8] {
        var out = "["
        for (i, l) in labels.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "  {\"id\": \(string(l.owner)), \"role\": \(string(l.role.rawValue)), \"text\": \(string(l.label)), "
            out += "\"lines\": [\(l.lines.map { string($0.text) }.joined(separator: ", "))], "
            out += "\"font_size_pt\": \(number(l.designFontSize ?? l.fontSize)), \"shortened\": \(l.isTruncated), "
            out += "\"missing_glyphs\": [\(l.missingCodePoints.map { string(LabelLayout.codePointName($0)) }.joined(separator: ", "))], "
            if let box = l.box {
                out += "\"box\": [\(number(box.x)), \(number(box.y)), \(number(box.width)), \(number(box.height))]}"
            } else {
                out += "\"box\": null}"
            }
        }
        out += labels.isEmpty ? "]\n" : "\n]\n"
        return Array(out.utf8)
    }

    static func number(_ v: Double) -> String { JSONLiteral.number((v * 100).rounded() / 100) }

    static func string(_ s: String) -> String { JSONLiteral.string(s) }
}

extension LabelLayout {
    /// The box around every drawn line, in canvas points (nil when nothing is drawn).
    public var box: (x: Double, y: Double, width: Double, height: Double)? {
        guard let first = lines.first else { return nil }
        var x0 = first.x, y0 = first.y, x1 = first.x + first.width, y1 = first.y + first.height
        for l in lines.dropFirst() {
            x0 = min(x0, l.x)
            y0 = min(y0, l.y)
            x1 = max(x1, l.x + l.width)
            y1 = max(y1, l.y + l.height)
        }
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
