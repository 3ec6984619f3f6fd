import BubbleSupport
/// What a title says that can order it: a date or period, its numbers, and its words (hashed).
/// Read from the title's UTF-8 bytes without allocating, once per title when the tree is made
/// (`DashboardTree`), so grouping a level of 100 000 titles reads none of them again.
struct TitleKey: Sendable {
    /// A date, as precise as the title gives it: year only, a half (month 1 or 7 with `span` 6), a
    /// quarter (`span` 3), a month, or a day.
    struct Date: Sendable, Hashable, Comparable {
        var year: Int
        var month: Int?
        var day: Int?
        /// Months the period covers from `month` (1 for a month or a day, 3 for a quarter, 6 for a half).
        var span = 1

        static func < (a: Date, b: Date) -> Bool {
            (a.year, a.month ?? 0, a.day ?? 0) < (b.year, b.month ?? 0, b.day ?? 0)
        }
    }

    /// The date, decoded from `dateCode`.
    var date: Date? {
        guard dateCode != TitleKey.none else { return nil }
        let month = (dateCode >> 8) & 15, day = (dateCode >> 3) & 31
        return Date(year: dateCode >> 12, month: month == 0 ? nil : month, day: day == 0 ? nil : day, span: dateCode & 7)
    }
    /// The date as one number that compares as equal exactly when the dates are (`none` without
    /// one): year, month (0 for none), day (0 for none) and span in bit fields. Keys are kept
    /// small (about 110 bytes) because a level's passes read 100 000 of them.
    private(set) var dateCode = TitleKey.none
    /// The value of a field a title does not have, in `dateCode` and `numberValue(at:)`.
    static let none = Int.min
    /// How many numbers the title has outside the date's tokens (its number fields; the first
    /// `maxNumberFields` are kept, inline, so reading 100 000 titles allocates nothing).
    var numberCount: Int { Int(numberTally) }
    private var numberTally: UInt8 = 0
    private var number0 = NumberField(), number1 = NumberField(), number2 = NumberField(), number3 = NumberField()
    /// How many words (runs of bytes between spaces) the title has (at most 255 counted).
    var wordCount: Int { Int(wordTally) }
    private var wordTally: UInt8 = 0
    /// A hash of each of the first `maxWords` words (FNV-1a of its UTF-8), and per word a bit:
    /// set when it has a letter and no ASCII digit (what the word field asks of a word).
    private var wordHashes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var plainWords: UInt8 = 0

    /// Number fields kept per title.
    static let maxNumberFields = 4
    /// Words whose hashes are kept per title.
    static let maxWords = 8

    /// The number field at `place` in reading order ("#101" at 0 and "1" at 1 in "Store #101 weekly
    /// P&L wk 1 FY2021"); nil past the last (or past `maxNumberFields`).
    func number(at place: Int) -> NumberField? {
        guard place < min(numberCount, TitleKey.maxNumberFields) else { return nil }
        switch place {
        case 0: return number0
        case 1: return number1
        case 2: return number2
        default: return number3
        }
    }

    /// The value of the number field at `place`, or `none`.
    func numberValue(at place: Int) -> Int { number(at: place)?.value ?? TitleKey.none }

    /// The kept number fields, in reading order.
    var numbers: [NumberField] { (0..<min(numberCount, TitleKey.maxNumberFields)).compactMap(number(at:)) }

    /// The hash of the word at `place` (0 for the first), nil past the last or past `maxWords`.
    func wordHash(at place: Int) -> UInt64? {
        guard place < min(wordCount, TitleKey.maxWords) else { return nil }
        return withUnsafeBytes(of: wordHashes) { $0.load(fromByteOffset: place * 8, as: UInt64.self) }
    }

    /// Whether the word at `place` has a letter and no ASCII digit (false past `maxWords`).
    func isPlainWord(at place: Int) -> Bool { place < TitleKey.maxWords && plainWords & (1 << UInt8(place)) != 0 }

    private mutating func appendNumber(_ field: NumberField) {
        switch numberTally {
        case 0: number0 = field
        case 1: number1 = field
        case 2: number2 = field
        case 3: number3 = field
        default: break
        }
        if numberTally < 255 { numberTally += 1 }
    }

    /// One number field of a title: its value and the token that holds it, kept as written
    /// ("#101", "0100", "INV-2016-00017").
    struct NumberField: Sendable, Hashable {
        private var stored: Int32 = 0
        private var start: UInt16 = 0, end: UInt16 = 0
        /// The value of the token's last run of digits (17 in "INV-2016-00017"; at most nine digits
        /// are read).
        var value: Int { Int(stored) }
        /// Where the token lies in the title's UTF-8 (offsets past 65 535 are cut there).
        var token: Range<Int> { Int(start)..<Int(end) }

        init() {}

        init(value: Int, token: Range<Int>) {
            stored = Int32(clamping: value)
            start = UInt16(clamping: token.lowerBound)
            end = UInt16(clamping: token.upperBound)
        }
    }

    /// The token of `title` at UTF-8 offsets `range`.
    static func token(_ title: String, _ range: Range<Int>) -> Substring {
        let u = title.utf8
        let a = u.index(u.startIndex, offsetBy: min(range.lowerBound, u.count)), b = u.index(u.startIndex, offsetBy: min(range.upperBound, u.count))
        return title[a..<b]
    }

    /// Tokens read per title (a longer title's later tokens are not read).
    static let maxTokens = 48

    init(_ title: String) {
        var t = title
        self = t.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * TitleKey.maxTokens) { buffer in
                TitleKey(bytes: bytes, starts: UnsafeMutableBufferPointer(rebasing: buffer[0..<TitleKey.maxTokens]),
                         ends: UnsafeMutableBufferPointer(rebasing: buffer[TitleKey.maxTokens...]))
            }
        }
    }

    private init(bytes u: UnsafeBufferPointer<UInt8>, starts: UnsafeMutableBufferPointer<Int>,
                 ends: UnsafeMutableBufferPointer<Int>) {
        let count = TitleKey.tokenize(u, starts: starts, ends: ends)
        let bytes = TitleBytes(u: u)
        let (date, dateToken, dateFirst) = TitleKey.findDate(bytes, starts: starts, ends: ends, count: count)
        dateCode = date.map { (($0.year * 16 + ($0.month ?? 0)) * 32 + ($0.day ?? 0)) * 8 + $0.span } ?? TitleKey.none
        // The number fields: every token with a digit run outside the date's tokens.
        for k in 0..<count where dateToken < 0 || k < dateFirst || k > dateToken {
            var e = ends[k]
            while e > starts[k] && !(u[e - 1] >= 48 && u[e - 1] <= 57) { e -= 1 }
            guard e > starts[k] else { continue }
            var s = e
            while s > starts[k] && u[s - 1] >= 48 && u[s - 1] <= 57 { s -= 1 }
            if let n = bytes.digits(s, e) { appendNumber(NumberField(value: n, token: starts[k]..<ends[k])) }
        }
        readWords(u)
    }

    /// Cuts the title into tokens, runs of bytes between spaces, commas, parentheses and "·"
    /// (C2 B7): their byte ranges in `starts` and `ends`, at most `maxTokens`; returns how many.
    private static func tokenize(_ u: UnsafeBufferPointer<UInt8>, starts: UnsafeMutableBufferPointer<Int>,
                                 ends: UnsafeMutableBufferPointer<Int>) -> Int {
        var count = 0
        var i = 0, start = -1
        while i < u.count && count < TitleKey.maxTokens {
            let b = u[i]
            var width = 0
            if b == 32 || b == 44 || b == 40 || b == 41 { width = 1 } else if b == 0xC2, i + 1 < u.count, u[i + 1] == 0xB7 { width = 2 }
            if width > 0 {
                if start >= 0 {
                    starts[count] = start
                    ends[count] = i
                    count += 1
                    start = -1
                }
                i += width
            } else {
                if start < 0 { start = i }
                i += 1
            }
        }
        if start >= 0 && count < TitleKey.maxTokens {
            starts[count] = start
            ends[count] = i
            count += 1
        }
        return count
    }

    /// The readings of a title's bytes that a date is made of: digit runs, years, ISO and German
    /// dates, quarters and halves, month names.
    private struct TitleBytes {
        let u: UnsafeBufferPointer<UInt8>

        func digits(_ a: Int, _ b: Int) -> Int? {
            guard b > a, b - a <= 9 else { return nil }
            var v = 0
            for k in a..<b {
                let c = u[k]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c &- 48)
            }
            return v
        }
        func year(_ a: Int, _ b: Int) -> Int? {
            guard b - a == 4, let y = digits(a, b), y >= 1900, y <= 2099 else { return nil }
            return y
        }
        func isoDate(_ a: Int, _ b: Int) -> Date? {
            let n = b - a
            guard n == 7 || n == 10, u[a + 4] == 45 || u[a + 4] == 47, let y = year(a, a + 4),
                  let m = digits(a + 5, a + 7), m >= 1, m <= 12 else { return nil }
            if n == 7 { return Date(year: y, month: m) }
            guard u[a + 7] == u[a + 4], let d = digits(a + 8, a + 10), d >= 1, d <= 31 else { return nil }
            return Date(year: y, month: m, day: d)
        }
        func germanDate(_ a: Int, _ b: Int) -> Date? {
            // d.m.yyyy to dd.mm.yyyy
            guard b - a >= 8, b - a <= 10, u[b - 5] == 46, let y = year(b - 4, b) else { return nil }
            var dot = -1
            for k in a..<(b - 5) where u[k] == 46 { dot = k }
            guard dot > a, let d = digits(a, dot), let m = digits(dot + 1, b - 5), (1...31).contains(d), (1...12).contains(m) else { return nil }
            return Date(year: y, month: m, day: d)
        }
        func period(_ a: Int, _ b: Int, _ letter: UInt8, _ limit: Int) -> Int? {
            guard b - a == 2, u[a] == letter, let n = digits(a + 1, b), n >= 1, n <= limit else { return nil }
            return n
        }
        func month(_ a: Int, _ b: Int) -> Int? {
            var end = b
            if end > a, u[end - 1] == 46 { end -= 1 }  // "Mar."
            guard end - a >= 3, end - a <= 10 else { return nil }
            return MonthNames.lowerCased[String(decoding: UnsafeBufferPointer(rebasing: u[a..<end]), as: UTF8.self).lowercased()]
        }
    }

    /// The title's date, the token it ends at and the token it starts at (-1 for none): a token
    /// that is a date, else a month, quarter or half and a year, else the last year alone.
    private static func findDate(_ t: TitleBytes, starts: UnsafeMutableBufferPointer<Int>, ends: UnsafeMutableBufferPointer<Int>,
                                 count: Int) -> (date: Date?, token: Int, first: Int) {
        let u = t.u
        var date: Date? = nil
        var dateToken = -1
        // The tokens the date is read from (a day, a month or quarter, a year).
        var dateFirst = -1
        // 1. A token that is a date: 2016-03-01, 2016-03, 2016/03, 01.03.2016.
        for k in 0..<count where date == nil {
            if let d = t.isoDate(starts[k], ends[k]) ?? t.germanDate(starts[k], ends[k]) {
                date = d
                dateToken = k
            }
        }
        // 2. A month, quarter or half and a year: "March 2017", "Mar. 2017", "März 2017", "Q1 2016",
        //    "H2 2016", with a day before the month ("1 March 2017").
        if date == nil {
            for k in 0..<max(0, count - 1) {
                guard let y = t.year(starts[k + 1], ends[k + 1]) else { continue }
                if let m = t.month(starts[k], ends[k]) {
                    var day: Int? = nil
                    if k > 0 {
                        var e = ends[k - 1]
                        if e > starts[k - 1], u[e - 1] == 46 { e -= 1 }
                        if let d = t.digits(starts[k - 1], e), d >= 1, d <= 31 { day = d }
                    }
                    date = Date(year: y, month: m, day: day)
                } else if let q = t.period(starts[k], ends[k], 81, 4) {
                    date = Date(year: y, month: 3 * q - 2, span: 3)
                } else if let h = t.period(starts[k], ends[k], 72, 2) {
                    date = Date(year: y, month: 6 * h - 5, span: 6)
                }
                if date != nil {
                    dateToken = k + 1
                    dateFirst = date?.day != nil ? k - 1 : k
                    break
                }
            }
        }
        // 3. A year alone, the last one: "2016", "FY2016".
        if date == nil {
            for k in stride(from: count - 1, through: 0, by: -1) {
                var a = starts[k]
                if ends[k] - a == 6, u[a] == 70, u[a + 1] == 89 { a += 2 }  // FY2016
                if let y = t.year(a, ends[k]) {
                    date = Date(year: y)
                    dateToken = k
                    break
                }
            }
        }
        if dateFirst < 0 { dateFirst = dateToken }
        return (date, dateToken, dateFirst)
    }

    /// The first `maxWords` words' hashes (FNV-1a of their bytes, words between spaces), which
    /// of them have a letter and no digit, and how many words there are.
    private mutating func readWords(_ u: UnsafeBufferPointer<UInt8>) {
        var w = 0, hash: UInt64 = 0xcbf2_9ce4_8422_2325, plain = false, digit = false, inWord = false
        var hashes = wordHashes
        withUnsafeMutableBytes(of: &hashes) { out in
            for k in 0...u.count {
                let c: UInt8 = k < u.count ? u[k] : 32
                if c == 32 {
                    if inWord {
                        if w < TitleKey.maxWords {
                            out.storeBytes(of: hash, toByteOffset: w * 8, as: UInt64.self)
                            if plain && !digit { plainWords |= 1 << UInt8(w) }
                        }
                        w += 1
                        inWord = false
                    }
                    continue
                }
                if !inWord {
                    inWord = true
                    hash = 0xcbf2_9ce4_8422_2325
                    plain = false
                    digit = false
                }
                hash = (hash ^ UInt64(c)) &* 0x100_0000_01b3
                if c >= 48 && c <= 57 { digit = true }
                if c >= 0x80 || (c | 0x20 >= 97 && c | 0x20 <= 122) { plain = true }
            }
        }
        wordHashes = hashes
        wordTally = UInt8(clamping: w)
    }
}
