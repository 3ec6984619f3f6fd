/// JSON literals for the package's hand-written JSON files (scenarios, settings, manifests,
/// exports, labels, the sample datasources, the play protocol, the command line's `--json`): one
/// escaping rule and one number format everywhere, so the same values always give the same bytes.
public enum JSONLiteral {
    /// A string literal. Non-ASCII text stays UTF-8; quotes, backslashes, control characters,
    /// DEL, U+2028 and U+2029 are escaped. With `htmlSafe`, `<`, `>` and `&` are escaped too, so
    /// the text can sit inside an HTML `<script>` element.
    public static func string(_ text: String, htmlSafe: Bool = false) -> String {
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
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + Hex.string(scalar.value, digits: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// A number that reads back as exactly `value`: integral values within ±2^53 as integers
    /// (`384`, `-2`; `-0.0` as `0`), others in Swift's shortest round-trip form (`0.7`, `1e-05`,
    /// `1e+16`). JSON has no NaN or infinity, so a non-finite value is written `null`; a reader that
    /// wants a number then reports it missing instead of choking on a `nan` that is not JSON.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            return value == 0 ? "0" : String(Int64(value))
        }
        return value.description
    }
}
