import BubbleSupport

/// Siblings shown as one group circle: a run of consecutive children, or, for an alphabetical
/// range, the children whose titles fall in it, in collation order.
struct GroupPlan: Sendable, Hashable {
    /// The id suffix after the parent's id and "~" ("d2015", "n101-150", "a-pa-pr", "i1-50").
    var key: String
    /// The group's title: what its children share and their range ("2015", "Jan – Jun 2016",
    /// "Store 101 – 150", "A – F", "1 – 50"), with no-break spaces around the dash.
    var title: String
    /// The children it stands for, in the order it shows them: positions in the parent's child
    /// list.
    var members: [Int]

    /// A group of the run `range` of the parent's children, in data order.
    init(key: String, title: String, range: Range<Int>) {
        self.init(key: key, title: title, members: Array(range))
    }

    /// A group of the children at `members`, shown in that order.
    init(key: String, title: String, members: [Int]) {
        self.key = key
        self.title = title
        self.members = members
    }

    /// From the first member's position to one past the last: the run for a group of consecutive
    /// children.
    var range: Range<Int> { (members.first ?? 0)..<((members.last ?? -1) + 1) }
}

/// Groups a level's children from the fields of their titles.
///
/// The fields are what varies from title to title: a date or period ("March 2017", "Q3 2016",
/// "2020-01-05", "FY2021"), and numbers or identifiers ("#101", "0100", "wk 1"), read by
/// `TitleKey`; a number field is the n-th number of each title outside its date. The word field is
/// the first word after the words all titles share ("Acme" in "Supplier Acme invoice 7"); it
/// groups only when each word forms one run and they fit as groups, one word per group. A field counts
/// when nine titles in ten have it and it takes more than one value. The level is grouped by the
/// field that varies most slowly in data order (the fewest runs of equal values; the date first on
/// a tie, then the earlier number), provided each of its values forms about one run; a group's own
/// level is grouped by the next field when it is crowded in turn ("Store #101", then "wk 1 – 13").
/// Such groups are runs of consecutive children (data order is kept inside a group), at boundaries
/// that depend only on each child's own field (a year, a number bin of a round size), so one added
/// report changes one group, not all.
///
/// When no field fits, titles with different texts are grouped into alphabetical ranges ("A – C",
/// "Pa – Pr") by `CollationKey`, each group's children in collation order; titles that are mostly
/// the same are grouped by position ("1 – 50"). Sibling groups never share a title, and their
/// ranges never overlap. Deterministic.
enum LevelGrouping {
    static let monthNames = MonthNames.englishShort
    /// The dash between a range's ends, so a wrapped label keeps "51 – 52" on one line: no-break
    /// spaces around it, and a word joiner after it (Unicode line breaking allows a break after an
    /// en dash even before a no-break space; Pango follows it).
    static let dash = "\u{00A0}–\u{2060}\u{00A0}"

    /// At most `maxGroups` groups for the children titled `titles` (`count` >= 2 groups unless
    /// there is only one child). `prefix` is the level's shared beginning (put before a number
    /// range: "Store 101 – 150").
    static func plan(titles: [String], maxGroups: Int, capacity: Int = 30) -> [GroupPlan] {
        plan(titles: titles, keys: titles.map { TitleKey($0) }, maxGroups: maxGroups, capacity: capacity)
    }

    /// A varying field of a level's titles (see `fields(of:)`).
    enum Field: Sendable, Hashable {
        /// The date or period.
        case date
        /// The number field at this place among a title's numbers (0 for the first).
        case number(Int)
        /// The first word after the words every title begins with, when it has letters and no
        /// digit ("Acme" in "Supplier Acme invoice 7").
        case word
    }

    /// The word field (see `Field.word`): the place of the word after the words every title
    /// begins with, and each title's hash of the word there (nil where the title has none); nil
    /// altogether when more than one title in ten has none (it is then no field), or when the
    /// titles share more than `TitleKey.maxWords - 1` words. Read from the keys' word hashes.
    static func wordField(of keys: ChildKeys) -> (place: Int, hashes: [UInt64?])? {
        guard let first = keys.first else { return (0, []) }
        // The words every title begins with, each followed by a space (so never a title's last).
        var shared = first.wordCount - 1
        keys.forEachKey { k in
            guard shared > 0 else { return }
            var p = 0
            let m = min(shared, k.pointee.wordCount - 1)
            while p < m && k.pointee.wordHash(at: p) == first.wordHash(at: p) { p += 1 }
            shared = p
        }
        let cut = max(0, shared)
        guard cut < TitleKey.maxWords else { return nil }
        var missing = 0
        let allowed = keys.count / 10
        var hashes: [UInt64?] = []
        hashes.reserveCapacity(keys.count)
        keys.forEachKey { k in
            guard missing <= allowed else { return }
            if k.pointee.wordCount > cut && k.pointee.isPlainWord(at: cut), let h = k.pointee.wordHash(at: cut) {
                hashes.append(h)
            } else {
                missing += 1
                hashes.append(nil)
            }
        }
        return missing > allowed ? nil : (cut, hashes)
    }

    /// The word at `place` of `title` (words are runs of bytes between spaces).
    static func word(at place: Int, of title: String) -> String {
        let words = title.utf8.split(separator: 32)
        return place < words.count ? String(decoding: words[place], as: UTF8.self) : ""
    }

    /// The level's varying fields, the most slowly varying first: each with the runs of equal
    /// values it forms in data order. Fields that nine titles in ten have and that take more than
    /// one value; the word field only with `words`.
    static func fields(of keys: [TitleKey], words: Bool = false) -> [(field: Field, runs: Int)] {
        fields(of: ChildKeys(keys), words: words)
    }

    /// `fields(of:words:)` for a level's children, read in one pass over their keys.
    static func fields(of keys: ChildKeys, words: Bool = false) -> [(field: Field, runs: Int)] {
        let n = keys.count
        guard n > 1 else { return [] }
        var found: [(field: Field, runs: Int)] = []
        /// The tally of one field: titles that have it, runs of equal values, and whether it varies.
        struct Tally {
            var present = 0, runs = 0, varies = false
            var last = TitleKey.none, first = TitleKey.none
            mutating func add(_ v: Int) {
                guard v != TitleKey.none else { return }
                present += 1
                if present == 1 { first = v } else if v != first { varies = true }
                if last != v { runs += 1 }
                last = v
            }
        }
        var d = Tally()
        var n0 = Tally(), n1 = Tally(), n2 = Tally(), n3 = Tally()
        var places = 0
        keys.forEachKey { k in
            d.add(k.pointee.dateCode)
            let count = k.pointee.numberCount
            guard count > 0 else { return }
            places = max(places, count)
            n0.add(k.pointee.numberValue(at: 0))
            if count > 1 { n1.add(k.pointee.numberValue(at: 1)) }
            if count > 2 { n2.add(k.pointee.numberValue(at: 2)) }
            if count > 3 { n3.add(k.pointee.numberValue(at: 3)) }
        }
        let numbers = [n0, n1, n2, n3]
        places = min(places, TitleKey.maxNumberFields)
        if d.present * 10 >= n * 9 && d.varies { found.append((.date, d.runs)) }
        for place in 0..<places {
            let c = numbers[place]
            if c.present * 10 >= n * 9 && c.varies { found.append((.number(place), c.runs)) }
        }
        if words, let w = wordField(of: keys) {
            var present = 0, runs = 0
            var last: UInt64? = nil
            for word in w.hashes {
                guard let word else { continue }
                present += 1
                if last != word { runs += 1 }
                last = word
            }
            if present * 10 >= n * 9 && runs > 1 { found.append((.word, runs)) }
        }
        // Stable: on equal runs the date, then the earlier number.
        return found.enumerated().sorted { ($0.element.runs, $0.offset) < ($1.element.runs, $1.offset) }.map(\.element)
    }

    /// `plan(titles:maxGroups:)` with the titles already read. `capacity` is how many children one
    /// group's level shows without grouping again: where round bins allow, groups are as large as
    /// that (fewer taps to a report), otherwise as many as `maxGroups` (and they group again).
    /// `firstPosition` is the first child's place in its category (0 at the category itself;
    /// inside a group, where its run begins), so that position ranges continue the group's
    /// ("101 – 125" inside "101 – 200").
    /// `fields` are `fields(of: keys)` when already found (a level planned again with fewer groups).
    static func plan(
        titles: [String], keys: [TitleKey], maxGroups: Int, capacity: Int = 30, firstPosition: Int = 0,
        fields known: [(field: Field, runs: Int)]? = nil
    ) -> [GroupPlan] {
        var alphabet: AlphabetOrder? = nil
        return plan(
            titles: titles, keys: ChildKeys(keys), maxGroups: maxGroups, capacity: capacity, firstPosition: firstPosition,
            fields: known, alphabet: &alphabet)
    }

    /// `plan(titles:keys:maxGroups:capacity:firstPosition:fields:)` for a level's children.
    /// `alphabet` is the titles' collation order when already made (made here when first needed,
    /// so that a level planned again does not sort its titles again).
    static func plan<Titles: RandomAccessCollection<String>>(
        titles: Titles, keys: ChildKeys, maxGroups: Int, capacity: Int = 30, firstPosition: Int = 0,
        fields known: [(field: Field, runs: Int)]? = nil, alphabet: inout AlphabetOrder?,
        collation: (keys: [CollationKey?], ranks: [Int32], nodes: [Int])? = nil
    ) -> [GroupPlan] where Titles.Index == Int {
        let n = titles.count
        let maxGroups = max(2, maxGroups)
        guard n > 1 else { return [GroupPlan(key: "i1-1", title: "1", range: 0..<n)] }
        for (field, _) in known ?? fields(of: keys, words: true) {
            switch field {
            case .word:
                if let plan = byWord(keys, titles: titles, maxGroups: maxGroups) { return plan }
            case .date:
                if let plan = byDate(keys, maxGroups: maxGroups) { return plan }
            case .number(let place):
                let chosen = keys.mapKeys { $0.pointee.number(at: place) }
                if let plan = byNumber(chosen, titles: titles, maxGroups: maxGroups) { return plan }
            }
        }
        if alphabet == nil { alphabet = AlphabetOrder(titles: titles, keys: keys, collation: collation) }
        if let plan = byAlphabet(titles, maxGroups: maxGroups, capacity: capacity, order: alphabet) { return plan }
        return byPosition(n, maxGroups: maxGroups, firstPosition: firstPosition)
    }

    /// One group per distinct value of the level's most slowly varying field (`fields.first`),
    /// named by the value ("PRJ-0042", "Store #101", "North", "March 2017"), when that field takes
    /// from 2 to `limit` values and each forms one run in data order. Nil otherwise: the level is
    /// then grouped by `plan`, into ranges.
    static func byValue<Titles: RandomAccessCollection<String>>(
        titles: Titles, keys: ChildKeys, fields: [(field: Field, runs: Int)], limit: Int
    ) -> [GroupPlan]? where Titles.Index == Int {
        guard let slowest = fields.first, limit >= 2 else { return nil }
        switch slowest.field {
        case .word:
            return byWord(keys, titles: titles, maxGroups: limit)
        case .date:
            let count = distinctCount(keys.mapKeys { $0.pointee.dateCode == TitleKey.none ? nil : $0.pointee.dateCode }, limit: limit)
            guard let count, count >= 2, let plans = byDate(keys, maxGroups: limit), plans.count == count else { return nil }
            return plans
        case .number(let place):
            let chosen = keys.mapKeys { $0.pointee.number(at: place) }
            guard let count = distinctCount(chosen.map { $0?.value }, limit: limit), count >= 2,
                  let plans = byNumber(chosen, titles: titles, maxGroups: limit), plans.count == count else { return nil }
            return plans
        }
    }

    /// How many distinct values `values` holds (nils aside), or nil when more than `limit`.
    /// Reads each run of equal values once.
    static func distinctCount<V: Equatable>(_ values: [V?], limit: Int) -> Int? {
        var seen: [V] = []
        var last: V? = nil
        for case let v? in values where v != last {
            last = v
            if !seen.contains(v) {
                guard seen.count < limit else { return nil }
                seen.append(v)
            }
        }
        return seen.count
    }

    // MARK: Runs

    /// Consecutive children with the same bucket, as (bucket, range); nil buckets join the run before.
    static func runs<B: Equatable>(_ buckets: [B?]) -> [(bucket: B, range: Range<Int>)] {
        var result: [(bucket: B, range: Range<Int>)] = []
        for (i, b) in buckets.enumerated() {
            if let b, result.last?.bucket != b {
                result.append((b, i..<i + 1))
            } else if !result.isEmpty {
                result[result.count - 1].range = result[result.count - 1].range.lowerBound..<i + 1
            } else {
                continue
            }
        }
        // Children before the first bucket join the first run.
        if let first = result.first, first.range.lowerBound > 0 { result[0].range = 0..<first.range.upperBound }
        return result
    }

    /// Whether the runs follow an order (each bucket forms about one run): otherwise grouping
    /// by them would scatter one bucket over many groups.
    static func ordered<B: Hashable>(_ runs: [(bucket: B, range: Range<Int>)]) -> Bool {
        var distinct = Set<B>()
        for r in runs { distinct.insert(r.bucket) }
        return runs.count <= distinct.count + max(1, distinct.count / 10)
    }

    /// Joins neighbouring runs into at most `maxGroups` groups of similar size (whole runs only).
    static func merge(_ counts: [Int], maxGroups: Int) -> [Range<Int>] {
        guard counts.count > maxGroups else { return counts.indices.map { $0..<$0 + 1 } }
        let total = counts.reduce(0, +)
        var groups: [Range<Int>] = []
        var start = 0, sum = 0, done = 0
        for (i, c) in counts.enumerated() {
            sum += c
            let remainingGroups = maxGroups - groups.count
            let target = Double(total - done) / Double(max(1, remainingGroups))
            let runsLeft = counts.count - i - 1
            if (Double(sum) >= target && remainingGroups > 1) || runsLeft < remainingGroups - 1 || i == counts.count - 1 {
                groups.append(start..<i + 1)
                done += sum
                sum = 0
                start = i + 1
            }
        }
        return groups
    }

    // MARK: Numbers

    /// Round bin sizes: 1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1 000, …
    static func binSizes() -> [Int] {
        var sizes = [1, 2, 5]
        var scale = 10
        while scale <= 1_000_000_000 {
            sizes += [scale, 2 * scale, 5 * scale / 2, 5 * scale]
            scale *= 10
        }
        return sizes
    }

    static func byNumber<Titles: RandomAccessCollection<String>>(
        _ numbers: [TitleKey.NumberField?], titles: Titles, maxGroups: Int
    ) -> [GroupPlan]? where Titles.Index == Int {
        var lo = Int.max, hi = Int.min
        for case let f? in numbers {
            lo = min(lo, f.value)
            hi = max(hi, f.value)
        }
        guard lo <= hi, hi > lo else { return nil }
        // Values few enough to be a group each are never joined into a range.
        if let count = distinctCount(numbers.map { $0?.value }, limit: maxGroups), count >= 2,
           let plans = numberGroups(numbers, titles: titles, maxGroups: maxGroups, bin: { $0 }) {
            return plans
        }
        // Round bins starting at 1 + k·size ("101 – 150"): the smallest that gives few enough bins,
        // so the level shows as many groups as fit (twelve "Department 1 – 10", not five of 25).
        // Bins of round size from 1 ("1 – 25", "26 – 50"), or from 0 when the numbers start at 0
        // ("0 – 24": a bin never holds one number more than its size).
        let base = lo <= 0 ? 0 : 1
        func bin(_ n: Int, _ size: Int) -> Int { n - base >= 0 ? (n - base) / size : -((base - n + size - 1) / size) }
        let sizes = binSizes().filter { bin(hi, $0) - bin(lo, $0) + 1 <= maxGroups && bin(hi, $0) > bin(lo, $0) }
        guard let size = sizes.first else { return nil }
        return numberGroups(numbers, titles: titles, maxGroups: maxGroups, bin: { bin($0, size) })
    }

    /// Groups of the runs of equal `bin(value)` of `numbers`, joined into at most `maxGroups`,
    /// named by the numbers' tokens at their ends; nil when the runs do not follow an order or
    /// a number is met in two groups.
    static func numberGroups<Titles: RandomAccessCollection<String>>(
        _ numbers: [TitleKey.NumberField?], titles: Titles, maxGroups: Int, bin: (Int) -> Int
    ) -> [GroupPlan]? where Titles.Index == Int {
        let r = runs(numbers.map { $0.map { bin($0.value) } })
        guard r.count >= 2 else { return nil }
        guard ordered(r) else { return nil }
        let merged = merge(r.map(\.range.count), maxGroups: maxGroups)
        var spans: [(Int, Int)] = []
        // The word before the number when every title has the same one ("Store 101 – 150").
        let plans = merged.map { g in
            let range = r[g.lowerBound].range.lowerBound..<r[g.upperBound - 1].range.upperBound
            var a = Int.max, b = Int.min
            for case let f? in numbers[range] {
                a = min(a, f.value)
                b = max(b, f.value)
            }
            let firstIndex = range.first { numbers[$0] != nil }!, lastIndex = range.last { numbers[$0] != nil }!
            spans.append((a, b))
            let fromToken = numbers[firstIndex].map { TitleKey.token(titles[firstIndex], $0.token) }
            let toToken = numbers[lastIndex].map { TitleKey.token(titles[lastIndex], $0.token) }
            let lead = fromToken.map(isPlainNumber) == true ? wordBefore(fromToken, in: titles[firstIndex]) : nil
            let from = fromToken.map(String.init) ?? "\(a)"
            var to = toToken.map(String.init) ?? "\(b)"
            // "INV-2016-00001 – 01000": the second token without what it shares with the first.
            if let digits = to.lastIndex(where: { !$0.isNumber }).map({ to.index(after: $0) }),
               from.hasPrefix(to[..<digits]), from.count == to.count {
                to = String(to[digits...])
            }
            let text = a == b || from == to ? from : "\(from)\(dash)\(to)"
            return GroupPlan(key: "n\(a)-\(b)", title: lead.map { "\($0) \(text)" } ?? text, range: range)
        }
        // A number met in two runs would give two groups of the same name.
        guard disjoint(spans) else { return nil }
        return plans
    }

    /// Whether `token` is digits, perhaps after "#" or "№" ("101", "#101", "0100"): a number that
    /// reads better after the word before it ("Store #101").
    static func isPlainNumber(_ token: Substring) -> Bool {
        let digits = token.first == "#" || token.first == "№" ? token.dropFirst() : token[...]
        return !digits.isEmpty && digits.allSatisfy(\.isNumber)
    }

    /// The word right before `token` (a slice of `title`) when it is a word of letters ("Store" in
    /// "Store 101 Performance Review", "wk" in "… wk 1 FY2021").
    static func wordBefore(_ token: Substring?, in title: String) -> String? {
        guard let token else { return nil }
        var end = token.startIndex
        while end > title.startIndex, title[title.index(before: end)] == " " { end = title.index(before: end) }
        guard end < token.startIndex else { return nil }
        var start = end
        while start > title.startIndex, title[title.index(before: start)] != " " { start = title.index(before: start) }
        let word = title[start..<end]
        return !word.isEmpty && word.allSatisfy(\.isLetter) ? String(word) : nil
    }

    // MARK: Letters and positions

    /// One group per word of the word field ("Acme", "Globex"), in data order: only when every
    /// word forms one run and there are no more runs than `maxGroups` (a range of words in data
    /// order would not read as a range).
    static func byWord<Titles: RandomAccessCollection<String>>(
        _ keys: ChildKeys, titles: Titles, maxGroups: Int
    ) -> [GroupPlan]? where Titles.Index == Int {
        guard let field = wordField(of: keys) else { return nil }
        let r = runs(field.hashes)
        guard r.count >= 2, r.count <= maxGroups else { return nil }
        var seen: [UInt64] = []
        for run in r {
            if seen.contains(run.bucket) { return nil }
            seen.append(run.bucket)
        }
        return r.map { run in
            // The run's first title with the word (children before the first word join its run).
            let at = run.range.first { field.hashes[$0] != nil } ?? run.range.lowerBound
            let word = word(at: field.place, of: titles[at])
            let key = "w-" + word.lowercased().map { $0 == "~" ? "-" : String($0) }.joined()
            return GroupPlan(key: key, title: word, range: run.range)
        }
    }

    /// How deep alphabetical ranges go: up to this many letters ("Pa – Pr" is two).
    static let alphabetDepth = 3

    /// Alphabetical ranges ("A – C", "Pa – Pr") of the titles after the words they all begin with,
    /// each group's children in collation order (`CollationKey`; equal keys keep data order). A
    /// range is a run of first letters, and a first letter that holds more than `capacity`
    /// children while there is room for more groups is split by its second letter (then third).
    /// Nil when more than half the titles are one and the same (they are told apart by position).
    static func byAlphabet<Titles: RandomAccessCollection<String>>(
        _ titles: Titles, maxGroups: Int, capacity: Int, order known: AlphabetOrder? = nil
    ) -> [GroupPlan]? where Titles.Index == Int {
        let n = titles.count
        let alphabet = known ?? AlphabetOrder(titles: titles, keys: nil)
        guard !alphabet.mostlyOne else { return nil }
        let order = alphabet.order

        /// The runs of equal `depth`-letter prefixes within `span` of the sorted order. A prefix
        /// ends before a number ("#" for titles that begin with one), so numbers are never split
        /// digit by digit.
        func split(_ span: Range<Int>, _ depth: Int) -> [(prefix: ArraySlice<UInt32>, span: Range<Int>)] {
            var result: [(prefix: ArraySlice<UInt32>, span: Range<Int>)] = []
            for i in span {
                var p = alphabet.elements(at: order[i]).prefix(depth)
                if let digit = p.firstIndex(where: CollationKey.isNumeric) { p = p[..<digit] }
                if let last = result.last, last.prefix == p {
                    result[result.count - 1].span = last.span.lowerBound..<i + 1
                } else {
                    result.append((p, i..<i + 1))
                }
            }
            return result
        }
        var depth = 1
        var buckets = split(0..<n, depth)
        while buckets.count < 2 && depth < alphabetDepth {
            depth += 1
            buckets = split(0..<n, depth)
        }
        guard buckets.count >= 2 else { return nil }
        // Crowded letters split by their next letter while there is room for more groups.
        var settled = [Bool](repeating: false, count: buckets.count)
        while buckets.count < maxGroups {
            var pick = -1
            for (i, b) in buckets.enumerated() where !settled[i] && b.span.count > capacity && b.prefix.count < alphabetDepth {
                if pick < 0 || b.span.count > buckets[pick].span.count { pick = i }
            }
            guard pick >= 0 else { break }
            let finer = split(buckets[pick].span, buckets[pick].prefix.count + 1)
            guard finer.count >= 2, buckets.count + finer.count - 1 <= maxGroups else {
                settled[pick] = true
                continue
            }
            buckets.replaceSubrange(pick...pick, with: finer)
            settled.replaceSubrange(pick...pick, with: [Bool](repeating: false, count: finer.count))
        }
        func shown(_ p: ArraySlice<UInt32>) -> String { p.isEmpty ? "#" : CollationKey.display(p) }
        return merge(buckets.map(\.span.count), maxGroups: maxGroups).map { g in
            let a = shown(buckets[g.lowerBound].prefix), b = shown(buckets[g.upperBound - 1].prefix)
            let members = Array(order[buckets[g.lowerBound].span.lowerBound..<buckets[g.upperBound - 1].span.upperBound])
            let key = a == b ? "a-\(a.lowercased())" : "a-\(a.lowercased())-\(b.lowercased())"
            return GroupPlan(key: key, title: a == b ? a : "\(a)\(dash)\(b)", members: members)
        }
    }

    /// Runs of a round size (10, 20, 25, 50, 100, …): "1 – 50", "51 – 100".
    static func byPosition(_ n: Int, maxGroups: Int, firstPosition: Int = 0) -> [GroupPlan] {
        // The smallest round size that gives few enough runs: as many groups as fit.
        let sizes = binSizes().filter { $0 >= 10 && (n + $0 - 1) / $0 <= maxGroups && $0 < n }
        let size = sizes.first ?? n
        return stride(from: 0, to: n, by: size).map { start in
            let end = min(n, start + size)
            let a = firstPosition + start + 1, b = firstPosition + end
            return GroupPlan(key: "i\(a)-\(b)", title: a == b ? "\(b)" : "\(a)\(dash)\(b)", range: start..<end)
        }
    }
}

/// A level's titles in collation order, after the words they all begin with (which say nothing
/// about the order): what alphabetical grouping needs, made once per level.
struct AlphabetOrder: Sendable {
    /// Per title, the first `LevelGrouping.alphabetDepth` elements of its key after the shared
    /// words (fewer where the key is shorter: `headCounts`), side by side.
    private var heads: [UInt32] = []
    private var headCounts: [UInt8] = []
    /// The titles' positions sorted by key (equal keys keep data order).
    var order: [Int]
    /// Whether more than half the titles have one and the same key (they are then told apart by
    /// position, not alphabetically).
    var mostlyOne: Bool

    /// The key elements of the title at `position`, from its first word not every title shares.
    func elements(at position: Int) -> ArraySlice<UInt32> {
        let start = position * LevelGrouping.alphabetDepth
        return heads[start..<start + Int(headCounts[position])]
    }

    /// Keeps the heads of `keys` (after `offset` elements) by position.
    private mutating func keepHeads(_ keys: [CollationKey?], slots: some Sequence<Int>, offset: Int) {
        let depth = LevelGrouping.alphabetDepth
        for slot in slots {
            let elements = keys[slot]?.elements ?? []
            let start = min(offset, elements.count), end = min(elements.count, start + depth)
            for k in start..<end { heads.append(elements[k]) }
            for _ in (end - start)..<depth { heads.append(0) }
            headCounts.append(UInt8(end - start))
        }
    }

    /// The order of `titles`; `keys` are their title keys when at hand (their word hashes find the
    /// shared words without splitting every title), and `collation` the tree's keys and ranks of
    /// whole titles, when it has them for every title of the level (then nothing is sorted by key).
    init<Titles: RandomAccessCollection<String>>(
        titles: Titles, keys: ChildKeys?, collation: (keys: [CollationKey?], ranks: [Int32], nodes: [Int])? = nil
    ) where Titles.Index == Int {
        let n = titles.count
        var shared = -1
        var wholeShared = false
        if let keys, let first = keys.first {
            // The words every title begins with, from the word hashes (when they lie within them).
            shared = first.wordCount
            keys.forEachKey { k in
                guard shared > 0 else { return }
                var p = 0
                let m = min(shared, k.pointee.wordCount, TitleKey.maxWords)
                while p < m && k.pointee.wordHash(at: p) == first.wordHash(at: p) { p += 1 }
                shared = p
            }
            if shared >= TitleKey.maxWords { shared = -1 }
            // A title that is only the shared words is keyed whole (not from the tree's ranks).
            if shared > 0 { keys.forEachKey { k in if k.pointee.wordCount <= shared { wholeShared = true } } }
        }
        if shared < 0 {
            let words = titles.map { $0.utf8.split(separator: 32) }
            shared = words.first?.count ?? 0
            for w in words.dropFirst() {
                var p = 0
                while p < min(shared, w.count) && w[p].elementsEqual(words[0][p]) { p += 1 }
                shared = p
            }
            wholeShared = true
        }
        if let collation, !wholeShared, n > 0 {
            // Whole-title keys sort as the keys after the shared words do (those elements are the
            // same in every title): sort by the tree's ranks.
            let ranks = collation.ranks, nodes = collation.nodes
            let offset = shared == 0 ? 0 : CollationKey(titles[titles.startIndex], fromWord: 0).elements.count
                - CollationKey(titles[titles.startIndex], fromWord: shared).elements.count
            // One integer per title, rank then position: sorted plainly, they give the order.
            var packed = [UInt64]()
            packed.reserveCapacity(n)
            for (position, node) in nodes.enumerated() { packed.append(UInt64(UInt32(ranks[node])) << 32 | UInt64(position)) }
            packed.sort()
            order = packed.map { Int($0 & 0xFFFF_FFFF) }
            var largest = 1, run = 1
            for i in order.indices.dropFirst() {
                run = ranks[nodes[order[i]]] == ranks[nodes[order[i - 1]]] ? run + 1 : 1
                largest = max(largest, run)
            }
            mostlyOne = largest * 2 > n
            keepHeads(collation.keys, slots: nodes, offset: offset)
            return
        }
        var own: [CollationKey?] = []
        own.reserveCapacity(n)
        for t in titles { own.append(CollationKey(t, fromWord: shared)) }
        order = own.indices.sorted {
            let c = CollationKey.compare(own[$0]!, own[$1]!)
            return c != 0 ? c < 0 : $0 < $1
        }
        var largest = n > 0 ? 1 : 0, run = 1
        for i in order.indices.dropFirst() {
            run = own[order[i]] == own[order[i - 1]] ? run + 1 : 1
            largest = max(largest, run)
        }
        mostlyOne = largest * 2 > n
        keepHeads(own, slots: 0..<n, offset: 0)
    }
}
