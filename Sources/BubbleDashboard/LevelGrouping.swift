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
        guard titles.count >= 3 else { return }
        let words = titles.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let first = words[0]
        var prefix = first.count, suffix = first.count
        for w in words.dropFirst() {
            var p = 0
            while p < min(prefix, w.count) && w[p] == first[p] { p += 1 }
            prefix = p
            // Shared words at the end go too, but not a number or date ("March 2017" keeps its year).
            var s = 0
            while s < min(suffix, w.count) && w[w.count - 1 - s] == first[first.count - 1 - s]
                && !first[first.count - 1 - s].contains(where: \.isNumber) { s += 1 }
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
}

/// A run of siblings shown as one group circle.
struct GroupPlan: Sendable, Hashable {
    /// The id suffix after the parent's id and "~" ("y2015", "n101-150", "a-f", "i1-50").
    var key: String
    /// The group's title: what its children share and their range ("2015", "Jan – Jun 2016",
    /// "Store 101 – 150", "A – F", "1 – 50").
    var title: String
    /// The children it stands for: positions in the parent's child list.
    var range: Range<Int>
}

/// Groups a level's children into runs, from their titles: by date or period where almost every
/// title has one, else by number, else by first letter where the titles are in alphabetical order,
/// else by position. Groups are runs of consecutive children (data order is kept inside a group),
/// at boundaries that depend only on each child's own title (a year, a number bin of a round size,
/// a letter), so one added report changes one group, not all. Deterministic.
enum LevelGrouping {
    static let monthNames = MonthNames.englishShort

    /// At most `maxGroups` groups for the children titled `titles` (`count` >= 2 groups unless
    /// there is only one child). `prefix` is the level's shared beginning (put before a number
    /// range: "Store 101 – 150").
    static func plan(titles: [String], maxGroups: Int, capacity: Int = 30) -> [GroupPlan] {
        plan(titles: titles, keys: titles.map(TitleKey.init), maxGroups: maxGroups, capacity: capacity)
    }

    /// `plan(titles:maxGroups:)` with the titles already read. `capacity` is how many children one
    /// group's level shows without grouping again: where round bins allow, groups are as large as
    /// that (fewer taps to a report), otherwise as many as `maxGroups` (and they group again).
    /// `firstPosition` is the first child's place in its category (0 at the category itself;
    /// inside a group, where its run begins), so that position ranges continue the group's
    /// ("101 – 125" inside "101 – 200").
    static func plan(titles: [String], keys: [TitleKey], maxGroups: Int, capacity: Int = 30, firstPosition: Int = 0) -> [GroupPlan] {
        let n = titles.count
        let maxGroups = max(2, maxGroups)
        guard n > 1 else { return [GroupPlan(key: "i1-1", title: "1", range: 0..<n)] }
        let dated = keys.reduce(0) { $0 + ($1.date == nil ? 0 : 1) }
        if dated * 10 >= n * 9, let plan = byDate(keys, maxGroups: maxGroups) { return plan }
        let numbered = keys.reduce(0) { $0 + ($1.number == nil ? 0 : 1) }
        if numbered * 10 >= n * 9, let plan = byNumber(keys, titles: titles, maxGroups: maxGroups, capacity: capacity) { return plan }
        if let plan = byLetter(keys, maxGroups: maxGroups) { return plan }
        return byPosition(n, maxGroups: maxGroups, capacity: capacity, firstPosition: firstPosition)
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

    // MARK: Dates

    enum Period: Int, CaseIterable { case year, half, quarter, month, day }

    static func bucket(_ d: TitleKey.Date, _ p: Period) -> TitleKey.Date? {
        switch p {
        case .year: return TitleKey.Date(year: d.year)
        case .half:
            guard let m = d.month, d.span <= 6 else { return nil }
            return TitleKey.Date(year: d.year, month: m <= 6 ? 1 : 7, span: 6)
        case .quarter:
            guard let m = d.month, d.span <= 3 else { return nil }
            return TitleKey.Date(year: d.year, month: (m - 1) / 3 * 3 + 1, span: 3)
        case .month:
            guard let m = d.month, d.span == 1 else { return nil }
            return TitleKey.Date(year: d.year, month: m)
        case .day:
            guard let m = d.month, let day = d.day else { return nil }
            return TitleKey.Date(year: d.year, month: m, day: day)
        }
    }

    static func byDate(_ keys: [TitleKey], maxGroups: Int) -> [GroupPlan]? {
        // The coarsest period that splits the level (more than one run), in order.
        for period in Period.allCases {
            let buckets = keys.map { $0.date.flatMap { bucket($0, period) } }
            guard buckets.allSatisfy({ $0 != nil }) || period == .year else { break }
            let r = runs(buckets)
            if r.count < 2 { continue }
            guard ordered(r) else { return nil }
            let merged = merge(r.map(\.range.count), maxGroups: maxGroups)
            return merged.map { g in
                let first = r[g.lowerBound], last = r[g.upperBound - 1]
                let a = first.bucket, b = last.bucket
                let lo = min(a, b), hi = max(a, b)
                return GroupPlan(key: dateKey(lo, hi, period), title: dateTitle(lo, hi, period),
                                 range: first.range.lowerBound..<last.range.upperBound)
            }
        }
        return nil
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    static func dateKey(_ a: TitleKey.Date, _ b: TitleKey.Date, _ p: Period) -> String {
        func one(_ d: TitleKey.Date) -> String {
            switch p {
            case .year: return "\(d.year)"
            case .half: return "\(d.year)-h\((d.month ?? 1) <= 6 ? 1 : 2)"
            case .quarter: return "\(d.year)-q\(((d.month ?? 1) - 1) / 3 + 1)"
            case .month: return "\(d.year)-\(two(d.month ?? 1))"
            case .day: return "\(d.year)-\(two(d.month ?? 1))-\(two(d.day ?? 1))"
            }
        }
        return "d" + (a == b ? one(a) : one(a) + "-" + one(b))
    }

    /// "2015", "2008 – 2009", "Jan – Jun 2016", "Nov 2015 – Feb 2016", "March 2016", "1 – 15 Mar 2016".
    static func dateTitle(_ a: TitleKey.Date, _ b: TitleKey.Date, _ p: Period) -> String {
        let ma = a.month ?? 1, mb = b.month ?? 1
        switch p {
        case .year:
            return a.year == b.year ? "\(a.year)" : "\(a.year) – \(b.year)"
        case .half, .quarter, .month:
            let span = p == .half ? 6 : (p == .quarter ? 3 : 1)
            let endMonth = mb + span - 1
            if p == .month && a == b { return "\(monthNames[ma - 1]) \(a.year)" }
            if a.year == b.year { return "\(monthNames[ma - 1]) – \(monthNames[endMonth - 1]) \(a.year)" }
            return "\(monthNames[ma - 1]) \(a.year) – \(monthNames[endMonth - 1]) \(b.year)"
        case .day:
            let da = a.day ?? 1, db = b.day ?? 1
            if a == b { return "\(da) \(monthNames[ma - 1]) \(a.year)" }
            if a.year == b.year && ma == mb { return "\(da) – \(db) \(monthNames[ma - 1]) \(a.year)" }
            if a.year == b.year { return "\(da) \(monthNames[ma - 1]) – \(db) \(monthNames[mb - 1]) \(a.year)" }
            return "\(da) \(monthNames[ma - 1]) \(a.year) – \(db) \(monthNames[mb - 1]) \(b.year)"
        }
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

    static func byNumber(_ keys: [TitleKey], titles: [String], maxGroups: Int, capacity: Int) -> [GroupPlan]? {
        let numbers = keys.compactMap(\.number)
        guard let lo = numbers.min(), let hi = numbers.max(), hi > lo else { return nil }
        // Round bins starting at 1 + k·size ("101 – 150"): the largest that still splits the level
        // and keeps every bin within `capacity`, else the smallest that gives few enough bins.
        // Bins of round size from 1 ("1 – 25", "26 – 50"), or from 0 when the numbers start at 0
        // ("0 – 24": a bin never holds one number more than its size).
        let base = lo <= 0 ? 0 : 1
        func bin(_ n: Int, _ size: Int) -> Int { n - base >= 0 ? (n - base) / size : -((base - n + size - 1) / size) }
        let sizes = binSizes().filter { bin(hi, $0) - bin(lo, $0) + 1 <= maxGroups && bin(hi, $0) > bin(lo, $0) }
        guard let smallest = sizes.first else { return nil }
        var chosen = smallest
        for size in sizes.reversed() {
            let r = runs(keys.map { $0.number.map { bin($0, size) } })
            if r.count >= 2 && r.allSatisfy({ $0.range.count <= capacity }) {
                chosen = size
                break
            }
        }
        for size in [chosen] {
            let r = runs(keys.map { $0.number.map { bin($0, size) } })
            guard r.count >= 2 else { return nil }
            guard ordered(r) else { return nil }
            let merged = merge(r.map(\.range.count), maxGroups: maxGroups)
            // The word before the number when every title has the same one ("Store 101 – 150").
            return merged.map { g in
                let range = r[g.lowerBound].range.lowerBound..<r[g.upperBound - 1].range.upperBound
                let inGroup = range.compactMap { keys[$0].number }
                let firstIndex = range.first { keys[$0].number != nil }!, lastIndex = range.last { keys[$0].number != nil }!
                let a = inGroup.min()!, b = inGroup.max()!
                let fromToken = keys[firstIndex].numberToken.map { TitleKey.token(titles[firstIndex], $0) }
                let toToken = keys[lastIndex].numberToken.map { TitleKey.token(titles[lastIndex], $0) }
                let lead = fromToken?.allSatisfy(\.isNumber) == true ? wordBefore(fromToken, in: titles[firstIndex]) : nil
                let from = fromToken.map(String.init) ?? "\(a)"
                var to = toToken.map(String.init) ?? "\(b)"
                // "INV-2016-00001 – 01000": the second token without what it shares with the first.
                if let digits = to.lastIndex(where: { !$0.isNumber }).map({ to.index(after: $0) }),
                   from.hasPrefix(to[..<digits]), from.count == to.count {
                    to = String(to[digits...])
                }
                let text = from == to ? from : "\(from) – \(to)"
                return GroupPlan(key: "n\(a)-\(b)", title: lead.map { "\($0) \(text)" } ?? text, range: range)
            }
        }
        return nil
    }

    /// The word right before `token` in `title` when it is a word of letters ("Store" in "Store 101
    /// Performance Review").
    static func wordBefore(_ token: Substring?, in title: String) -> String? {
        guard let token else { return nil }
        let words = title.split(separator: " ")
        guard let i = words.firstIndex(of: token), i > 0, words[i - 1].allSatisfy(\.isLetter) else { return nil }
        return String(words[i - 1])
    }

    // MARK: Letters and positions

    static func byLetter(_ keys: [TitleKey], maxGroups: Int) -> [GroupPlan]? {
        let r = runs(keys.map(\.letter))
        guard r.count >= 2, ordered(r) else { return nil }
        // Alphabetical order, not just runs.
        for i in r.indices.dropFirst() where r[i].bucket < r[i - 1].bucket { return nil }
        let merged = merge(r.map(\.range.count), maxGroups: maxGroups)
        return merged.map { g in
            let a = r[g.lowerBound].bucket, b = r[g.upperBound - 1].bucket
            let key = a == b ? "a-\(a.lowercased())" : "a-\(a.lowercased())-\(b.lowercased())"
            return GroupPlan(key: key, title: a == b ? "\(a)" : "\(a) – \(b)",
                             range: r[g.lowerBound].range.lowerBound..<r[g.upperBound - 1].range.upperBound)
        }
    }

    /// Runs of a round size (10, 20, 25, 50, 100, …): "1 – 50", "51 – 100".
    static func byPosition(_ n: Int, maxGroups: Int, capacity: Int, firstPosition: Int = 0) -> [GroupPlan] {
        // The largest round size within `capacity` that still splits, else the smallest that gives
        // few enough runs.
        let sizes = binSizes().filter { $0 >= 10 && (n + $0 - 1) / $0 <= maxGroups && $0 < n }
        let size = sizes.last { $0 <= capacity } ?? sizes.first ?? n
        return stride(from: 0, to: n, by: size).map { start in
            let end = min(n, start + size)
            let a = firstPosition + start + 1, b = firstPosition + end
            return GroupPlan(key: "i\(a)-\(b)", title: a == b ? "\(b)" : "\(a) – \(b)", range: start..<end)
        }
    }
}
