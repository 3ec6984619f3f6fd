import PDFCore
import Foundation

/// Parses PDF date strings and XMP (ISO 8601) dates.
public enum PDFDate {
    /// Parses `D:YYYYMMDDHHmmSSOHH'mm'`. Everything after the year is optional; the `D:` prefix
    /// is optional too (Cairo 1.16 omits it); the apostrophes may be missing; `Z` or no offset
    /// means UTC. Returns nil when the year is missing or a field is out of range.
    public static func parse(_ s: String) -> Date? {
        var s = s
        return s.withUTF8 { parse(utf8: $0) }
    }

    private static func parse(utf8 u: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        while i < u.count, u[i] == 0x20 || u[i] == 0x09 || u[i] == 0x0A || u[i] == 0x0D || u[i] == 0 { i += 1 }
        if i + 2 <= u.count && u[i] == UInt8(ascii: "D") && u[i + 1] == UInt8(ascii: ":") { i += 2 }
        func digits(_ n: Int) -> Int? { readDigits(u, &i, n) }
        guard let year = digits(4) else { return nil }
        let month = digits(2) ?? 1
        let day = digits(2) ?? 1
        let hour = digits(2) ?? 0
        let minute = digits(2) ?? 0
        let second = digits(2) ?? 0
        var offset = 0
        if i < u.count {
            let o = u[i]
            if o == UInt8(ascii: "+") || o == UInt8(ascii: "-") {
                i += 1
                let oh = digits(2) ?? 0
                if i < u.count && u[i] == UInt8(ascii: "'") { i += 1 }
                let om = digits(2) ?? 0
                guard oh <= 23, om <= 59 else { return nil }
                offset = (oh * 60 + om) * 60 * (o == UInt8(ascii: "-") ? -1 : 1)
            }
        }
        return make(year, month, day, hour, minute, second, offset: offset)
    }

    /// Reads `n` decimal digits of `u` at `i` and moves past them; nil (and `i` unmoved) if there
    /// are not `n` digits there.
    private static func readDigits(_ u: [UInt8], _ i: inout Int, _ n: Int) -> Int? {
        u.withUnsafeBufferPointer { readDigits($0, &i, n) }
    }

    private static func readDigits(_ u: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ n: Int) -> Int? {
        guard i + n <= u.count else { return nil }
        var v = 0
        for k in 0 ..< n {
            guard isDigit(u[i + k]) else { return nil }
            v = v * 10 + Int(u[i + k] - 0x30)
        }
        i += n
        return v
    }

    /// Parses an XMP date (ISO 8601 subset: `YYYY[-MM[-DD[THH:mm[:SS[.s]][Z|±HH:mm]]]]`).
    public static func parseISO8601(_ s: String) -> Date? {
        let u = Array(s.utf8.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        var i = 0
        func digits(_ n: Int) -> Int? { readDigits(u, &i, n) }
        func skip(_ c: Character) -> Bool {
            if i < u.count && u[i] == c.asciiValue { i += 1; return true }
            return false
        }
        guard let year = digits(4) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0, offset = 0
        if skip("-"), let m = digits(2) {
            month = m
            if skip("-"), let d = digits(2) {
                day = d
                if skip("T"), let h = digits(2), skip(":"), let mi = digits(2) {
                    hour = h
                    minute = mi
                    if skip(":"), let se = digits(2) {
                        second = se
                        if skip(".") { while i < u.count && isDigit(u[i]) { i += 1 } }
                    }
                    if i < u.count && (u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-")) {
                        let sign = u[i] == UInt8(ascii: "-") ? -1 : 1
                        i += 1
                        let oh = digits(2) ?? 0
                        _ = skip(":")
                        let om = digits(2) ?? 0
                        offset = sign * (oh * 60 + om) * 60
                    }
                }
            }
        }
        return make(year, month, day, hour, minute, second, offset: offset)
    }

    static func make(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, offset: Int) -> Date? {
        guard (1 ... 12).contains(mo), (1 ... 31).contains(d), h <= 24, mi <= 59, s <= 60 else { return nil }
        // Days from the civil date (Howard Hinnant's algorithm), proleptic Gregorian.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let mp = (mo + 9) % 12
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        let secs = days * 86400 + h * 3600 + mi * 60 + s - offset
        return Date(timeIntervalSince1970: TimeInterval(secs))
    }
}
