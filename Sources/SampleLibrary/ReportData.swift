// The numbers and sentences drawn into one report's pages, all drawn from generators seeded with
// the report id so every run produces the same document.

import BubbleSupport
import Foundation

struct ReportData {
    struct KPI {
        var label: String
        var value: String
        /// Change against the comparison series, in percent.
        var change: Double
        var higherIsBetter: Bool
    }

    struct Row {
        var label: String
        var actual: Double
        var comparison: Double
    }

    var classification: String
    var summary: String
    /// `Jan 2016 – Dec 2016`.
    var periodDescription: String
    /// One-line findings under the main chart.
    var highlights: [String]
    var kpis: [KPI]
    var chartTitle: String
    var lineChart: Bool
    var periodEnd: Timestamp
    var monthLabels: [String]
    var monthlyActual: [Double]
    var monthlyComparison: [Double]
    var quarterLabels: [String]
    var quarterlyActual: [Double]
    var quarterlyComparison: [Double]
    var rows: [Row]
    var higherIsBetter: Bool
    var unitNote: String
    var commentary: [String]
    var risks: [String]
    var notes: [String]

    private var tableKind: BranchTheme.ValueKind
    private var currency: String

    init(report: SampleReport) {
        var random = SampleRandom(seed: "content:" + report.id)
        let theme = report.theme
        currency = report.currency
        tableKind = theme.tableKind
        let currencyScale = report.currency == "¥" ? 120.0 : 1
        let currencyLabel = report.currency.trimmingCharacters(in: .whitespaces)

        classification = random.pick(["Internal", "Internal", "Confidential", "Restricted"])

        // The reporting period ends with the month before the issue date.
        let created = report.createdAt
        let endMonth = created.month == 1 ? 12 : created.month - 1
        let endYear = created.month == 1 ? created.year - 1 : created.year
        periodEnd = Timestamp(
            year: endYear, month: endMonth, day: Timestamp.daysIn(month: endMonth, year: endYear),
            hour: 0, minute: 0, second: 0, zone: "Z")
        summary =
            report.subject
            + " Figures cover the twelve months to \(MonthNames.english[endMonth - 1]) \(endYear) and are "
            + "compared with \(theme.series.1.lowercased()) throughout."

        kpis = Self.kpiTiles(report: report, currencyScale: currencyScale, random: &random)

        let startMonth = endMonth == 12 ? 1 : endMonth + 1
        let startYear = endMonth == 12 ? endYear : endYear - 1
        let startName = MonthNames.englishShort[startMonth - 1]
        let endName = MonthNames.englishShort[endMonth - 1]
        periodDescription = "\(startName) \(startYear) – \(endName) \(endYear)"
        highlights = kpis.prefix(3).map { kpi in
            let favourable = (kpi.change >= 0) == kpi.higherIsBetter
            return "\(kpi.label) of \(kpi.value) is "
                + "\(Format.grouped(abs(kpi.change), decimals: 1))% "
                + "\(kpi.change >= 0 ? "above" : "below") \(theme.series.1.lowercased())"
                + (favourable ? "." : "; the gap is being reviewed.")
        }

        // Main chart: twelve months.
        let isMoney = theme.tableKind == .money
        chartTitle = random.pick(theme.chartTitles).replacingAll(
            " ({unit})", with: isMoney ? " (\(currencyLabel) thousands)" : "")
        lineChart = random.chance(0.45)
        monthLabels = (0..<12).map { offset in
            var month = endMonth - 11 + offset
            var year = endYear
            if month < 1 {
                month += 12
                year -= 1
            }
            return Format.shortMonth(month, year)
        }
        let base =
            random.double(in: theme.tableRange.lowerBound * 4...theme.tableRange.upperBound * 2)
            * (isMoney ? currencyScale : 1)
        (monthlyActual, monthlyComparison) = Self.series(count: 12, base: base, random: &random)
        quarterLabels = (0..<8).map { offset in
            let quarterIndex = (endYear * 4 + (endMonth - 1) / 3) - 7 + offset
            return "Q\(quarterIndex % 4 + 1) \(quarterIndex / 4)"
        }
        (quarterlyActual, quarterlyComparison) = Self.series(count: 8, base: base * 3, random: &random)

        rows = Self.detailRows(theme: theme, scale: isMoney ? currencyScale : 1, random: &random)
        higherIsBetter = true
        unitNote =
            switch theme.tableKind {
            case .money: "Amounts in \(currencyLabel) thousands."
            case .count: "Figures are counts for the period."
            case .percent: "Figures are percentages."
            case .decimal: "Figures are averages for the period."
            }

        commentary = Self.commentary(rows: rows, report: report, random: &random)
        risks = Array(random.shuffled(Self.riskPool).prefix(random.int(in: 3...4)))
        notes = [
            "Source: \(report.branchTitle) reporting database, extracted \(Format.longDate(created)).",
            "Totals may not add up because of rounding.",
            "Comparisons are against the \(theme.series.1.lowercased()) approved for the period.",
            "Report reference: \(report.id). Questions to \(report.author).",
        ]
    }

    /// The commentary on the detail table: the totals against the comparison, the largest
    /// favourable and unfavourable rows, and two closing sentences.
    static func commentary(rows: [Row], report: SampleReport, random: inout SampleRandom) -> [String] {
        let theme = report.theme
        let isMoney = theme.tableKind == .money
        let totalActual = rows.reduce(0) { $0 + $1.actual }
        let totalComparison = rows.reduce(0) { $0 + $1.comparison }
        let totalVariance = (totalActual - totalComparison) / totalComparison * 100
        let comparisonName = theme.series.1.lowercased()
        let best = rows.max { ($0.actual - $0.comparison) < ($1.actual - $1.comparison) }!
        let worst = rows.min { ($0.actual - $0.comparison) < ($1.actual - $1.comparison) }!
        var paragraphs: [String] = []
        let tableValue = { (value: Double) -> String in
            isMoney ? report.currency + Format.grouped(value) + "k" : Format.grouped(value)
        }
        paragraphs.append(
            "Total \(theme.series.0.lowercased()) for the period was \(tableValue(totalActual)) against "
                + "\(comparisonName) of \(tableValue(totalComparison)), "
                + "\(Format.grouped(abs(totalVariance), decimals: 1))% "
                + "\(totalVariance >= 0 ? "above" : "below") \(comparisonName).")
        if best.actual > best.comparison, worst.actual < worst.comparison {
            paragraphs.append(
                "\(best.label) contributed the largest favourable variance "
                    + "(+\(tableValue(best.actual - best.comparison))), while \(worst.label) fell short "
                    + "by \(tableValue(worst.comparison - worst.actual)).")
        }
        paragraphs.append(random.shuffled(Self.closingSentences).prefix(2).joined(separator: " "))
        return paragraphs
    }

    /// The closing sentences of the commentary, two of them a report.
    static let closingSentences = [
        "Figures are unaudited and may be restated in the next reporting cycle.",
        "Management expects the trend to continue into the next quarter, with the usual seasonal "
            + "peak in November and December.",
        "Corrective actions agreed at the last review are on track; owners and dates are listed "
            + "under risks and actions.",
        "Comparatives have been restated for the reorganisation announced in January 2016.",
        "Two adjustments were posted after the preliminary figures; both are reflected here.",
    ]

    /// The risks a report lists, three or four of them.
    static let riskPool = [
        "Currency: a stronger euro against sterling and the dollar reduces reported results "
            + "from the UK and North America.",
        "Suppliers: price increases announced for the second half may compress gross margin by "
            + "up to half a point.",
        "People: hiring for key roles is behind plan; interim cover has been arranged.",
        "Systems: the ERP upgrade cut-over in the fourth quarter could delay month-end reporting.",
        "Demand: seasonal trading remains uncertain; weekly tracking starts in October.",
        "Regulation: the General Data Protection Regulation applies from May 2018; readiness "
            + "work is under way.",
        "Property: two lease renewals fall due next year; negotiations with the landlords have "
            + "started.",
        "Security: phishing attempts have increased; a company-wide awareness campaign runs "
            + "this quarter.",
        "Data quality: some regional figures are estimates pending the final close and may change.",
    ]

    /// The KPI tiles: all of the theme's on landscape pages, four on portrait ones.
    static func kpiTiles(report: SampleReport, currencyScale: Double, random: inout SampleRandom) -> [KPI] {
        let theme = report.theme
        let lowerIsBetter = ["attrition", "cost", "incidents", "hours", "days", "overdue", "open"]
        let kpiCount = report.paper == .a4Landscape ? theme.kpis.count : min(theme.kpis.count, 4)
        return theme.kpis.prefix(kpiCount).map { kpi in
            let scale = kpi.kind == .money ? currencyScale : 1
            let value = random.double(in: kpi.range) * scale
            let change = random.double(in: -6.5...9.5)
            let better = !lowerIsBetter.contains { kpi.label.lowercased().contains($0) }
            return KPI(
                label: kpi.label, value: Format.kpi(value, kind: kpi.kind, currency: report.currency),
                change: change, higherIsBetter: better)
        }
    }

    /// The detail table: seven to ten of the theme's line items, in the theme's order, values
    /// times `scale`.
    static func detailRows(theme: BranchTheme, scale: Double, random: inout SampleRandom) -> [Row] {
        let rowCount = min(theme.lineItems.count, random.int(in: 7...10))
        let chosen = random.shuffled(Array(theme.lineItems.indices)).prefix(rowCount).sorted()
        let low = theme.tableRange.lowerBound
        let high = theme.tableRange.upperBound
        return chosen.map { index in
            // Items listed first in the theme tend to be the larger ones.
            let weight = (0.3 + 0.7 * random.unit()) * (1 - 0.06 * Double(index))
            let actual = (low + (high - low) * weight) * scale
            let comparison = actual * (1 + random.double(in: -0.12...0.1))
            return Row(
                label: theme.lineItems[index], actual: actual.rounded(), comparison: comparison.rounded())
        }
    }

    /// A table cell value in the table's unit.
    func tableValue(_ value: Double) -> String {
        switch tableKind {
        case .money: currency + Format.grouped(value)
        case .percent: Format.grouped(value, decimals: 1) + "%"
        case .decimal: Format.grouped(value, decimals: 1)
        case .count: Format.grouped(value)
        }
    }

    /// An actual series with trend, seasonality and noise, and a smoother comparison series.
    private static func series(count: Int, base: Double, random: inout SampleRandom)
        -> ([Double], [Double])
    {
        let trend = random.double(in: -0.12...0.25)
        let phase = random.double(in: 0...(2 * Double.pi))
        let seasonality = random.double(in: 0.03...0.12)
        let bias = random.double(in: -0.05...0.05)
        var actual: [Double] = []
        var comparison: [Double] = []
        for index in 0..<count {
            let t = Double(index) / Double(count - 1)
            let season = sin(2 * Double.pi * Double(index) / 12 * (12 / Double(count)) + phase)
            actual.append(base * (1 + trend * t + seasonality * season + random.double(in: -0.06...0.06)))
            comparison.append(base * (1 + trend * 0.8 * t + seasonality * 0.7 * season) * (1 + bias))
        }
        return (actual, comparison)
    }
}
