/// Hexadecimal text of integers, zero-padded: the 16-digit hashes of the manifests, scenario files
/// and the play protocol, `#RRGGBB` colours, `U+XXXX` code points and JSON's `\uXXXX` escapes.
public enum Hex {
    /// `value` in base 16, zero-padded on the left to at least `digits` digits (a longer value is
    /// written in full). Lower-case letters unless `uppercase`.
    public static func string(_ value: some BinaryInteger, digits: Int, uppercase: Bool = false) -> String {
        let s = String(value, radix: 16, uppercase: uppercase)
        return s.count >= digits ? s : String(repeating: "0", count: digits - s.count) + s
    }

    /// A 64-bit value as exactly 16 lower-case hex digits, as the package writes its hashes
    /// (`00a1b2c3d4e5f607`).
    public static func hash(_ value: UInt64) -> String { string(value, digits: 16) }
}
