// Locale-independent formatting of numbers and dates for the drawn pages. (Foundation's formatters
// follow the process locale; the sample PDFs must not.)

import BubbleSupport

enum Format {
    /// `1234567.891` with 1 decimal → `1,234,567.9`.
    static func grouped(_ value: Double, decimals: Int = 0) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = scaled % Int64(scale)
        var digits = String(whole)
        var groupedDigits = ""
        while digits.count > 3 {
            groupedDigits = "," + digits.suffix(3) + groupedDigits
            digits = String(digits.dropLast(3))
        }
        groupedDigits = digits + groupedDigits
        if decimals > 0 {
            groupedDigits += "." + pad(Int(fraction), decimals)
        }
        return (value < 0 && scaled != 0 ? "−" : "") + groupedDigits
    }

    /// A KPI value: money given in thousands, counts, percentages, plain decimals.
    static func kpi(_ value: Double, kind: BranchTheme.ValueKind, currency: String) -> String {
        switch kind {
        case .money:
            if abs(value) >= 1_000_000 { return currency + grouped(value / 1_000_000, decimals: 2) + "bn" }
            if abs(value) >= 1_000 { return currency + grouped(value / 1_000, decimals: 1) + "m" }
            return currency + grouped(value) + "k"
        case .count:
            if abs(value) >= 1_000_000 { return grouped(value / 1_000_000, decimals: 1) + "m" }
            return grouped(value)
        case .percent:
            return grouped(value, decimals: value >= 99 ? 2 : 1) + "%"
        case .decimal:
            return grouped(value, decimals: 1)
        }
    }

    /// An axis label: short and without a unit.
    /// All labels of one axis use the same unit, chosen from the axis' top value.
    static func axis(_ value: Double, step: Double, top: Double) -> String {
        if value == 0 { return "0" }
        if top >= 2_000_000 {
            return grouped(
                value / 1_000_000, decimals: step.truncatingRemainder(dividingBy: 1_000_000) == 0 ? 0 : 1)
                + "m"
        }
        if top >= 10_000 {
            return grouped(value / 1_000, decimals: step.truncatingRemainder(dividingBy: 1_000) == 0 ? 0 : 1)
                + "k"
        }
        return grouped(value, decimals: step.truncatingRemainder(dividingBy: 1) == 0 ? 0 : 1)
    }

    /// `21 April 2016`.
    static func longDate(_ date: Timestamp) -> String {
        "\(date.day) \(MonthNames.english[date.month - 1]) \(date.year)"
    }

    /// `Apr ’16`.
    static func shortMonth(_ month: Int, _ year: Int) -> String {
        MonthNames.englishShort[month - 1] + " ’" + pad(year % 100)
    }
}
