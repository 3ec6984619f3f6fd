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

    static func trim(_ s: Substring) -> String {
        var sub = s
        while let f = sub.first, f.isWhitespace || f == "\u{FEFF}" || f == "\0" { sub.removeFirst() }
        while let l = sub.last, l.isWhitespace || l == "\u{FEFF}" || l == "\0" { sub.removeLast() }
        return String(sub)
    }
}
