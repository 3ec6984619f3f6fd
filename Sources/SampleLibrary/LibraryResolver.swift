// Turns the hand-written specification into the resolved library, filling in whatever a report
// spec leaves out from a generator seeded by the report id.

import BubbleSupport

/// Problems with the library content itself (a bug in LibraryContent.swift, not a user error).
public struct SampleContentError: Error, CustomStringConvertible {
    /// What is wrong, one line.
    public var description: String
}

struct LibraryResolver {
    /// What a category passes down to its descendants.
    private struct Context {
        var branchTitle: String
        var colour: RGB
        var theme: BranchTheme
        var path: [String]
        /// Keyword terms of the enclosing categories, nearest first.
        var terms: [[String]]
        var blurb: String
        var authors: [String]
        var paper: Paper
        var currency: String
        var zone: String
    }

    private var seenIDs: Set<String> = []

    static func resolve(_ root: CategorySpec) throws -> SampleCategory {
        var resolver = LibraryResolver()
        return try resolver.category(root, context: nil)
    }

    private mutating func register(_ id: String) throws {
        let bytes = Array(id.utf8)
        let valid =
            !bytes.isEmpty && bytes.count <= 64
            && bytes.enumerated().allSatisfy { index, byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || (index > 0 && byte == UInt8(ascii: "-"))
            }
        guard valid else { throw SampleContentError(description: "invalid id '\(id)'") }
        guard seenIDs.insert(id).inserted else {
            throw SampleContentError(description: "duplicate id '\(id)'")
        }
    }

    private mutating func category(_ spec: CategorySpec, context: Context?) throws -> SampleCategory {
        try register(spec.id)
        guard !spec.children.isEmpty else {
            throw SampleContentError(description: "category '\(spec.id)' has no children")
        }
        var children: [SampleNode] = []
        for child in spec.children {
            switch child {
            case .category(let sub):
                let subContext: Context
                if let context {
                    guard sub.colour == nil, sub.theme == nil else {
                        throw SampleContentError(
                            description: "only top-level categories set a colour or theme ('\(sub.id)')")
                    }
                    subContext = Context(
                        branchTitle: context.branchTitle, colour: context.colour, theme: context.theme,
                        path: context.path + [sub.title], terms: [sub.terms] + context.terms,
                        blurb: sub.blurb, authors: sub.authors ?? context.authors,
                        paper: sub.paper ?? context.paper, currency: sub.currency ?? context.currency,
                        zone: sub.zone ?? context.zone)
                } else {
                    // A top-level branch under the root.
                    guard let hex = sub.colour, let colour = RGB(hex: hex), let theme = sub.theme else {
                        throw SampleContentError(
                            description: "top-level category '\(sub.id)' needs a colour and a theme")
                    }
                    guard colour.contrastWithWhite >= 4.5 else {
                        throw SampleContentError(
                            description: "colour \(hex) of '\(sub.id)' has contrast "
                                + "\(colour.contrastWithWhite) with white, below 4.5")
                    }
                    subContext = Context(
                        branchTitle: sub.title, colour: colour, theme: theme, path: [sub.title],
                        terms: [sub.terms], blurb: sub.blurb, authors: sub.authors ?? theme.authors,
                        paper: sub.paper ?? .a4, currency: sub.currency ?? "€", zone: sub.zone ?? "Z")
                }
                children.append(.category(try category(sub, context: subContext)))
            case .report(let report):
                guard let context else {
                    throw SampleContentError(description: "report '\(report.id)' directly under the root")
                }
                children.append(.report(try self.report(report, context: context)))
            }
        }
        return SampleCategory(
            id: spec.id, title: spec.title, colour: context == nil ? nil : spec.colour,
            children: children)
    }

    private mutating func report(_ spec: ReportSpec, context: Context) throws -> SampleReport {
        try register(spec.id)
        var random = SampleRandom(seed: "report:" + spec.id)

        let author = spec.author ?? random.pick(context.authors)
        let subject = spec.subject ?? context.blurb.replacingAll("{title}", with: spec.title)
        let created =
            spec.date
            ?? Self.date(for: spec.title, zone: spec.zone ?? context.zone, random: &random).onWorkingDay
        var modified = created
        if random.chance(0.6) {
            modified = created.adding(days: random.int(in: 0...21)).onWorkingDay
            modified.hour = random.int(in: 8...18)
            modified.minute = random.int(in: 0...59)
            modified.second = random.int(in: 0...59)
            if modified < created { modified = created }
        }
        let keywords = spec.keywords ?? Self.keywords(for: spec, context: context)
        let separator = spec.separator ?? (random.chance(0.12) ? "; " : ", ")
        let extra: [String]
        if let given = spec.extraKeywords {
            extra = given
        } else if random.chance(0.15) {
            extra = Self.extraKeywords(overlapping: keywords, random: &random)
        } else {
            extra = []
        }
        let pages: Int
        if let given = spec.pages {
            pages = given
        } else {
            let roll = random.unit()
            pages = roll < 0.3 ? 1 : roll < 0.75 ? 2 : 3
        }

        // Everything drawn into the pages must be in DejaVu Sans (no CJK: fontconfig would fall
        // back to whatever other fonts are installed and the output would depend on the machine).
        for text in [spec.title, author, subject, spec.currency ?? context.currency] + context.path
        where !Self.isDrawable(text) {
            throw SampleContentError(description: "'\(text)' of '\(spec.id)' has characters not drawn")
        }

        return SampleReport(
            id: spec.id, title: spec.title, file: "reports/\(spec.id).pdf", extraKeywords: extra,
            author: author, subject: subject, pdfKeywords: keywords, keywordSeparator: separator,
            created: created.iso8601, modified: modified.iso8601, pageCount: pages,
            createdAt: created, paper: spec.paper ?? context.paper, branchTitle: context.branchTitle,
            branchColour: context.colour, path: context.path, theme: context.theme,
            currency: spec.currency ?? context.currency)
    }

    /// Latin letters and the punctuation and symbols the pages use, all in DejaVu Sans.
    static func isDrawable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            (0x20...0x7E).contains(scalar.value) || (0xA0...0x24F).contains(scalar.value)
                || "–—‘’“”…›·▲▼€".unicodeScalars.contains(scalar)
        }
    }

    // MARK: Derived metadata

    private static let forwardLooking: Set<String> = [
        "budget", "plan", "forecast", "forecasts", "umsatzprognose", "prévisions", "intake", "due",
        "outlook",
    ]

    /// The words of a title (letters and digits).
    static func words(_ title: String) -> [String] {
        title.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// The year a title names (2015–2018, also as `FY2017`).
    static func year(in title: String) -> Int? {
        for word in words(title) {
            let digits = word.hasPrefix("FY") ? String(word.dropFirst(2)) : word
            if digits.count == 4, let year = Int(digits), (2015...2018).contains(year) { return year }
        }
        return nil
    }

    /// A plausible issue date for a report, from the period its title names.
    static func date(for title: String, zone: String, random: inout SampleRandom) -> Timestamp {
        let words = self.words(title)
        let year = self.year(in: title)
        var y = 2016
        var m = 1
        var d = 1
        if let year, let month = words.compactMap({ MonthNames.english.firstIndex(of: $0) }).first {
            (y, m, d) = month == 11 ? (year + 1, 1, 0) : (year, month + 2, 0)
            d = random.int(in: 3...10)
        } else if let year, let q = words.first(where: { ["Q1", "Q2", "Q3", "Q4"].contains($0) }) {
            let quarter = Int(q.dropFirst())!
            (y, m) = quarter == 4 ? (year + 1, 1) : (year, quarter * 3 + 1)
            d = random.int(in: 8...25)
        } else if let year, words.contains("H1") || words.contains("H2") {
            (y, m) = words.contains("H1") ? (year, 7) : (year + 1, 1)
            d = random.int(in: 10...25)
        } else if let year, words.contains(where: { forwardLooking.contains($0.lowercased()) }) {
            (y, m, d) = (year - 1, random.int(in: 9...12), random.int(in: 1...28))
        } else if let year, year <= 2016 {
            (y, m, d) = (year + 1, random.int(in: 1...3), random.int(in: 1...28))
        } else if year != nil {
            (y, m, d) = (2017, random.int(in: 10...12), random.int(in: 1...28))
        } else {
            (y, m, d) = (random.int(in: 2016...2017), random.int(in: 1...11), random.int(in: 1...28))
        }
        return Timestamp(
            year: y, month: m, day: d, hour: random.int(in: 8...18), minute: random.int(in: 0...59),
            second: random.int(in: 0...59), zone: zone)
    }

    /// PDF keywords for a report without hand-written ones: none, one, a few, or a long list.
    private static func keywords(for spec: ReportSpec, context: Context) -> [String] {
        var random = SampleRandom(seed: "keywords:" + spec.id)
        let own = context.terms.first ?? []
        let ancestors = Array(context.terms.dropFirst().joined())
        var period: [String] = []
        if let year = year(in: spec.title) { period.append(String(year)) }

        var result: [String] = []
        func add(_ candidates: [String], upTo count: Int) {
            for candidate in candidates where result.count < count {
                if !result.contains(where: { $0.lowercased() == candidate.lowercased() }) {
                    result.append(candidate)
                }
            }
        }
        switch FNV1a64.hash("style:\(spec.id)".utf8) % 20 {
        case 0, 1:
            return []
        case 2, 3:
            add([random.pick(own.isEmpty ? context.theme.keywordPool : own)], upTo: 1)
        case 4, 5:
            let count = random.int(in: 12...16)
            add(random.shuffled(own), upTo: 3)
            add(period, upTo: count)
            add(random.shuffled(ancestors + context.theme.keywordPool + genericKeywords), upTo: count)
        default:
            let count = random.int(in: 3...7)
            add(Array(random.shuffled(own).prefix(random.int(in: 1...2))), upTo: count)
            add(period, upTo: count)
            add(random.shuffled(ancestors + context.theme.keywordPool), upTo: count)
        }
        return result
    }

    /// Keywords any report might carry; used to pad long lists.
    static let genericKeywords = [
        "management information", "internal", "confidential", "KPI", "trend", "dashboard",
        "year over year", "Übersicht", "benchmark", "commentary", "appendix", "data quality",
    ]

    /// Tags an author adds in reports.json.
    static let authorTags = [
        "board pack", "must read", "management accounts", "audit committee", "archived", "draft",
        "quarterly review", "investor relations", "year end", "action required",
    ]

    /// Author-supplied keywords, sometimes repeating one of the PDF's so de-duplication matters.
    static func extraKeywords(overlapping pdf: [String], random: inout SampleRandom) -> [String] {
        var result: [String] = []
        if !pdf.isEmpty, random.chance(0.6) { result.append(random.pick(pdf)) }
        let count = random.int(in: 1...3)
        for tag in random.shuffled(authorTags) where result.count < count {
            if !result.contains(tag) { result.append(tag) }
        }
        if result.isEmpty { result.append(random.pick(authorTags)) }
        return result
    }
}

extension String {
    /// Every occurrence of `target` replaced (Foundation-free).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
