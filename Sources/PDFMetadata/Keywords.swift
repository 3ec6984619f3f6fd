/// Turns a keywords string into a list.
///
/// Rules: split on commas and semicolons (ASCII, and the full-width `，` `；` and ideographic
/// `、` forms), and on line breaks (LF, CR, U+2028, U+2029); trim white space (including
/// no-break spaces) from each piece; drop empty pieces; remove duplicates keeping the first.
///
/// Duplicates are found **case-insensitively** (and up to Unicode canonical equivalence):
/// `PDF, pdf` gives `["PDF"]`. Keywords are tags that people type and search for without caring
/// about case, and two spellings of one tag only make a bubble noisier. The first spelling wins,
/// so the author's capitalisation is kept. ``key(_:)`` is the comparison key, for callers that
/// merge keyword lists from other sources with the same rule.
public enum PDFKeywords {
    /// Splits, trims and de-duplicates a keywords string.
    public static func split(_ s: String) -> [String] {
        if let fast = splitASCII(s) { return fast }
        var out: [String] = []
        var seen = Set<String>()
        for piece in s.split(whereSeparator: isSeparator) {
            let t = trim(piece)
            if t.isEmpty { continue }
            if seen.insert(key(t)).inserted { out.append(t) }
        }
        return out
    }

    /// Merges lists with the same de-duplication rule, keeping the first spelling.
    public static func merge(_ lists: [String]...) -> [String] {
        var out: [String] = []
        var seen = Set<String>()
        for list in lists {
            for k in list {
                let t = trim(Substring(k))
                if !t.isEmpty && seen.insert(key(t)).inserted { out.append(t) }
            }
        }
        return out
    }

    /// The comparison key used for de-duplication (case-folded).
    public static func key(_ keyword: String) -> String {
        keyword.lowercased()
    }

    static func isSeparator(_ c: Character) -> Bool {
        switch c {
        case ",", ";", "\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{FF0C}", "\u{FF1B}", "\u{3001}":
            return true
        default:
            return false
        }
    }

    /// ``split(_:)`` for an all-ASCII string, on bytes: in ASCII every character is one byte
    /// (but CR LF, a separator either way), the separators are `,` `;` LF CR and the white space
    /// that `Character.isWhitespace` trims is HT, LF, VT, FF, CR and space. Nil for other strings.
    static func splitASCII(_ s: String) -> [String]? {
        var s = s
        return s.withUTF8 { u -> [String]? in
            // One pass: no byte above ASCII, and how many pieces at most (for the arrays' room).
            var pieces = 1
            for c in u {
                if c >= 0x80 { return nil }
                if c == UInt8(ascii: ",") || c == UInt8(ascii: ";") || c == 0x0A || c == 0x0D { pieces += 1 }
            }
            var out: [String] = []
            out.reserveCapacity(pieces)
            // The pieces kept so far, as byte ranges: duplicates are found by comparing bytes
            // with ASCII case folded (what `lowercased()` does to ASCII), without a set of keys.
            // The first eight without an allocation: a keywords string rarely has more pieces.
            var kept = SmallList<8, (Int, Int)>(filler: (0, 0))
            func isTrimmed(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) || b == 0 }
            func fold(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
            func piece(_ from: Int, _ to: Int) {
                var a = from, z = to
                while a < z && isTrimmed(u[a]) { a += 1 }
                while z > a && isTrimmed(u[z - 1]) { z -= 1 }
                if a == z { return }
                for i in 0 ..< kept.count {
                    let (ka, kz) = kept[i]
                    guard kz - ka == z - a else { continue }
                    var k = 0
                    while k < z - a && fold(u[ka + k]) == fold(u[a + k]) { k += 1 }
                    if k == z - a { return }
                }
                kept.append((a, z))
                out.append(String(decoding: UnsafeBufferPointer(rebasing: u[a ..< z]), as: UTF8.self))
            }
            var start = 0
            for i in 0 ..< u.count {
                switch u[i] {
                case UInt8(ascii: ","), UInt8(ascii: ";"), 0x0A, 0x0D:
                    piece(start, i)
                    start = i + 1
                default:
                    break
                }
            }
            piece(start, u.count)
            return out
        }
    }

    static func trim(_ s: Substring) -> String {
        // Fast path: a printable ASCII first and last byte cannot belong to a character that is
        // white space, U+FEFF or NUL, so there is nothing to trim.
        if let f = s.utf8.first, let l = s.utf8.last, f > 0x20, f < 0x7F, l > 0x20, l < 0x7F {
            return String(s)
        }
        var sub = s
        while let f = sub.first, f.isWhitespace || f == "\u{FEFF}" || f == "\0" { sub.removeFirst() }
        while let l = sub.last, l.isWhitespace || l == "\u{FEFF}" || l == "\0" { sub.removeLast() }
        return String(sub)
    }
}
