import Foundation
import ReportLibrary

/// Deterministic JSON text: this module writes every JSON file by hand with a fixed key order and
/// fixed number formatting (no `JSONSerialization`, no dictionary iteration), so the same export
/// gives the same bytes on every run and for any number of jobs.
enum JSONText {
    /// A number: integral values within ±2^53 as integers (`384`), others in Swift's shortest
    /// round-trip form (`0.7`, `1e-05`), so the value read back is the exact `Double`; NaN and
    /// infinities (never produced by the dashboard) as `null`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return value.description
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    static func strings(_ items: [String], htmlSafe: Bool = false) -> String {
        array(items.map { JSONLiteral.string($0, htmlSafe: htmlSafe) })
    }
}
