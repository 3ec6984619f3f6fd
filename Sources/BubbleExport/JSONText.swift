import Foundation

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

    /// A string literal. Non-ASCII text stays UTF-8; quotes, backslashes and control characters are
    /// escaped. With `htmlSafe`, `<`, `>`, `&`, U+2028 and U+2029 are escaped too, so the text can
    /// sit inside an HTML `<script>` element.
    static func string(_ text: String, htmlSafe: Bool = false) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<" where htmlSafe: out += "\\u003c"
            case ">" where htmlSafe: out += "\\u003e"
            case "&" where htmlSafe: out += "\\u0026"
            case "\u{2028}", "\u{2029}": out += scalar == "\u{2028}" ? "\\u2028" : "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + hex4(scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

    static func strings(_ items: [String], htmlSafe: Bool = false) -> String {
        array(items.map { string($0, htmlSafe: htmlSafe) })
    }
}
