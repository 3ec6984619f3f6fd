/// JSON string literals for the package's hand-written JSON files (scenarios, settings,
/// manifests, the sample datasources, the play protocol): one escaping rule everywhere.
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
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
