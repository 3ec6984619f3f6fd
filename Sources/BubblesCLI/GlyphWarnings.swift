import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import ReportLibrary

/// The `warning:` lines for text that no pinned font can draw: one line per label, naming the node
/// and the code points. The output is still written; a glyph that no font has is never silent.
enum GlyphWarnings {
    /// Checks every title and keyword of `tree` (keywords from the datasource and, when read, the PDFs).
    static func check(_ tree: ReportTree, details: [Int: ReportDetails], source: String) {
        let coverage = GlyphCoverage()
        if let problem = coverage.fontProblem { printError("warning: \(problem)") }
        for (index, node) in tree.nodes.enumerated() {
            let place = node.jsonPath.isEmpty ? "" : node.jsonPath + "."
            warn(coverage.missingCodePoints(in: node.title), "\(source): \(place)title", node.id)
            let keywords = details[index]?.keywords ?? node.keywords
            for (k, keyword) in keywords.enumerated() {
                warn(coverage.missingCodePoints(in: keyword), "\(source): \(place)keywords[\(k)]", node.id)
            }
        }
    }

    /// Checks the labels of a drawn frame.
    static func check(_ labels: [LabelLayout], source: String) {
        for label in labels {
            warn(label.missingCodePoints, source, label.owner)
        }
    }

    static func warn(_ codePoints: [UInt32], _ place: String, _ id: String) {
        guard !codePoints.isEmpty else { return }
        let list = codePoints.map(LabelLayout.codePointName).joined(separator: " ")
        printError("warning: \(place): '\(id)' has characters no font can draw (shown as boxes): \(list)")
    }
}
