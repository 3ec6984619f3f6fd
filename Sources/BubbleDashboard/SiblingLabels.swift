import BubbleSupport

/// What siblings' titles share, and the labels that tell them apart.
///
/// Among 27 "Month-End Close Pack — March 2017" cards the words every title shares at its start
/// and end are said once (the level's caption, "Month-End Close Pack — …"), and each card shows
/// the rest ("March 2017"); 120 "Department N" circles show their numbers. Titles that are all the
/// same keep their title and get their place ("Weekly Update #12").
struct SiblingLabels: Sendable, Hashable {
    /// One label per sibling, in order.
    var labels: [String]
    /// What they share, with "…" where the labels go ("Store … Performance Review"); nil when
    /// nothing was taken away.
    var caption: String?

    /// `firstNumber` numbers titles that are all the same: the first sibling's place in its
    /// category (1, or more inside a group: "Untitled #26" … in "26 – 50").
    init(titles: [String], firstNumber: Int = 1) {
        labels = titles
        caption = nil
        defer { labels = Self.distinct(labels) }
        guard titles.count >= 3 else { return }
        let words = titles.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let first = words[0]
        var prefix = first.count, suffix = first.count
        for w in words.dropFirst() {
            var p = 0
            while p < min(prefix, w.count) && w[p] == first[p] { p += 1 }
            prefix = p
            // Shared words at the end go too, but not a bare number ("March 2017" keeps its
            // year); a code with letters in it does ("wk 12 FY2021" → "12", "… FY2021").
            var s = 0
            while s < min(suffix, w.count) && w[w.count - 1 - s] == first[first.count - 1 - s]
                && !Self.isBareNumber(first[first.count - 1 - s]) { s += 1 }
            suffix = s
            if prefix == 0 && suffix == 0 { return }
        }
        // Every label keeps at least one word.
        let shortest = words.map(\.count).min() ?? 0
        if prefix + suffix >= shortest {
            if prefix >= shortest {
                // All the same (or one title is the others' beginning): number them instead.
                if Set(titles).count == 1 {
                    labels = titles.indices.map { "\(titles[$0]) #\($0 + firstNumber)" }
                }
                return
            }
            suffix = max(0, shortest - 1 - prefix)
        }
        labels = words.map { w in w[prefix ..< w.count - suffix].joined(separator: " ") }
        let head = first[0..<prefix].joined(separator: " ")
        let tail = first[first.count - suffix ..< first.count].joined(separator: " ")
        caption = [head, "…", tail].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Whether `word` has digits and no letters ("2017", "12.5", "(3)"): a value that belongs to
    /// the label, not to the shared caption.
    static func isBareNumber(_ word: Substring) -> Bool {
        word.contains(where: \.isNumber) && !word.contains(where: \.isLetter)
    }

    /// What `titles` share, word by word, with "…" where they differ ("Store … weekly P&L wk …
    /// FY2021" for "Store #101 weekly P&L wk 1 FY2021" … "Store #106 weekly P&L wk 52 FY2021"):
    /// the caption of a grouped level, read from the titles at its groups' edges. Titles of
    /// different word counts give the shared words at the start and end only (`init`'s caption);
    /// nil when nothing or everything is shared.
    static func fieldCaption(_ titles: [String]) -> String? {
        let words = titles.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        guard let first = words.first, first.count >= 2, words.allSatisfy({ $0.count == first.count }) else {
            return SiblingLabels(titles: titles).caption
        }
        var parts: [String] = []
        var varied = false
        for (i, word) in first.enumerated() {
            if words.allSatisfy({ $0[i] == word }) {
                parts.append(String(word))
            } else {
                varied = true
                if parts.last != "…" { parts.append("…") }
            }
        }
        guard varied, parts != ["…"] else { return nil }
        return parts.joined(separator: " ")
    }

    /// `labels` with every label that repeats numbered by its occurrence ("Customer Review #1",
    /// "Customer Review #2"), so that siblings never show the same label.
    static func distinct(_ labels: [String]) -> [String] {
        var seen: [String: Int] = [:]
        for l in labels { seen[l, default: 0] += 1 }
        guard seen.count < labels.count else { return labels }
        var occurrence: [String: Int] = [:]
        return labels.map { l in
            guard seen[l, default: 0] > 1 else { return l }
            occurrence[l, default: 0] += 1
            return "\(l) #\(occurrence[l]!)"
        }
    }
}
