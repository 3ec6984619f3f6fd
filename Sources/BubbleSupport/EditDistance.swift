/// The Levenshtein distance of two strings, for "did you mean" suggestions.
public enum EditDistance {
    /// The least number of single-`Character` insertions, deletions and substitutions that turn
    /// `a` into `b`. Characters (extended grapheme clusters) are what a reader sees as one letter,
    /// so `"é"` written as one scalar or as `e` plus a combining accent counts as one, and the two
    /// spellings are at distance 0. Case-sensitive; O(`a.count` × `b.count`) time.
    public static func levenshtein(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
