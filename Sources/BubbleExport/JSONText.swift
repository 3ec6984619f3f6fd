import Foundation
import ReportLibrary

/// Deterministic JSON text: this module writes every JSON file by hand with a fixed key order and
/// fixed number formatting (no `JSONSerialization`, no dictionary iteration), so the same export
/// gives the same bytes on every run and for any number of jobs. Strings and numbers are
/// `JSONLiteral.string` and `JSONLiteral.number` (BubbleSupport).
enum JSONText {
    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    static func strings(_ items: [String], htmlSafe: Bool = false) -> String {
        array(items.map { JSONLiteral.string($0, htmlSafe: htmlSafe) })
    }
}
