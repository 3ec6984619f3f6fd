import BubbleSupport

// Groups by date: the periods titles name, their buckets, keys and titles.
extension LevelGrouping {
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

    static func byDate(_ keys: ChildKeys, maxGroups: Int) -> [GroupPlan]? {
        // The finest period whose runs fit in `maxGroups` (twelve months of daily reports, not two
        // halves), else the coarsest that splits the level (more than one run), merged; in order.
        var chosen: (period: Period, runs: [(bucket: TitleKey.Date, range: Range<Int>)])? = nil
        for period in Period.allCases {
            let buckets = keys.mapKeys { $0.pointee.date.flatMap { bucket($0, period) } }
            guard buckets.allSatisfy({ $0 != nil }) || period == .year else { break }
            let r = runs(buckets)
            if r.count < 2 { continue }
            guard ordered(r) else { break }
            if chosen != nil && r.count > maxGroups { break }
            chosen = (period, r)
            if r.count > maxGroups { break }
        }
        if let (period, r) = chosen {
            let merged = merge(r.map(\.range.count), maxGroups: maxGroups)
            var spans: [(TitleKey.Date, TitleKey.Date)] = []
            let plans = merged.map { g in
                let first = r[g.lowerBound], last = r[g.upperBound - 1]
                var lo = first.bucket, hi = first.bucket
                for run in r[g] { lo = min(lo, run.bucket); hi = max(hi, run.bucket) }
                spans.append((lo, hi))
                return GroupPlan(key: dateKey(lo, hi, period), title: dateTitle(lo, hi, period),
                                 range: first.range.lowerBound..<last.range.upperBound)
            }
            // Sibling groups whose periods overlap (a period met twice) would read alike.
            guard disjoint(spans) else { return nil }
            return plans
        }
        return nil
    }

    /// Whether the closed spans follow one another without overlapping, all rising or all falling.
    static func disjoint<T: Comparable>(_ spans: [(T, T)]) -> Bool {
        guard spans.count > 1 else { return true }
        let rising = spans.indices.dropFirst().allSatisfy { spans[$0].0 > spans[$0 - 1].1 }
        let falling = spans.indices.dropFirst().allSatisfy { spans[$0].1 < spans[$0 - 1].0 }
        return rising || falling
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

    /// "2015", "2008 – 2009", "Jan – Jun 2016", "Nov 2015 – Feb 2016", "March 2016", "1 – 15 Mar 2016",
    /// with `dash` between the ends and, where the ends carry a year, no-break spaces inside them.
    static func dateTitle(_ a: TitleKey.Date, _ b: TitleKey.Date, _ p: Period) -> String {
        let ma = a.month ?? 1, mb = b.month ?? 1
        let nb = "\u{00A0}"
        switch p {
        case .year:
            return a.year == b.year ? "\(a.year)" : "\(a.year)\(dash)\(b.year)"
        case .half, .quarter, .month:
            let span = p == .half ? 6 : (p == .quarter ? 3 : 1)
            let endMonth = mb + span - 1
            if p == .month && a == b { return "\(monthNames[ma - 1]) \(a.year)" }
            if a.year == b.year { return "\(monthNames[ma - 1])\(dash)\(monthNames[endMonth - 1]) \(a.year)" }
            return "\(monthNames[ma - 1])\(nb)\(a.year)\(dash)\(monthNames[endMonth - 1])\(nb)\(b.year)"
        case .day:
            let da = a.day ?? 1, db = b.day ?? 1
            if a == b { return "\(da) \(monthNames[ma - 1]) \(a.year)" }
            if a.year == b.year && ma == mb { return "\(da)\(dash)\(db) \(monthNames[ma - 1]) \(a.year)" }
            if a.year == b.year { return "\(da)\(nb)\(monthNames[ma - 1])\(dash)\(db)\(nb)\(monthNames[mb - 1]) \(a.year)" }
            return "\(da)\(nb)\(monthNames[ma - 1])\(nb)\(a.year)\(dash)\(db)\(nb)\(monthNames[mb - 1])\(nb)\(b.year)"
        }
    }
}
