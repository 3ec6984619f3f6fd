// The shape of the sample library: the hand-written specification (`NodeSpec`) and the resolved
// tree (`SampleCategory`, `SampleReport`) in which every report has its final metadata.
//
// Content lives in LibraryContent.swift; this file turns it into concrete values. Everything not
// written out by hand (author, keywords, dates, page count) is derived from the report id with
// `SampleRandom`, so it is stable across runs and machines.

import Foundation

// MARK: - Specification

/// Paper format of a generated PDF.
enum Paper: Sendable, Equatable {
    case a4, letter, a4Landscape

    /// Width and height in PDF points.
    var size: (width: Double, height: Double) {
        switch self {
        case .a4: (595.28, 841.89)
        case .letter: (612, 792)
        case .a4Landscape: (841.89, 595.28)
        }
    }
}

/// What a branch's reports measure: labels and value ranges used to draw plausible charts and tables.
struct BranchTheme: Sendable {
    enum ValueKind: Sendable { case money, percent, count, decimal }

    struct KPI: Sendable {
        var label: String
        var kind: ValueKind
        var range: ClosedRange<Double>
    }

    var kpis: [KPI]
    /// Chart titles for the main chart; `{unit}` is replaced by the unit caption.
    var chartTitles: [String]
    /// Series names: actual and comparison (budget, plan, target, prior year).
    var series: (String, String)
    /// Row labels of the detail table.
    var lineItems: [String]
    /// The kind and range of table values.
    var tableKind: ValueKind
    var tableRange: ClosedRange<Double>
    /// Title of the detail table's first column.
    var itemHeading: String
    /// Authors (people and departments) who write this branch's reports.
    var authors: [String]
    /// Generic keywords of the branch, some of them not ASCII.
    var keywordPool: [String]
}

/// A date and time with a fixed UTC offset, in the form Cairo's metadata API takes.
struct Timestamp: Sendable, Comparable {
    var year, month, day, hour, minute, second: Int
    /// `Z` or `±HH:MM`.
    var zone: String

    /// ISO 8601, the input format of `cairo_pdf_surface_set_metadata` for dates.
    var iso8601: String {
        "\(pad(year, 4))-\(pad(month))-\(pad(day))T\(pad(hour)):\(pad(minute)):\(pad(second))\(zone)"
    }

    static func < (a: Timestamp, b: Timestamp) -> Bool {
        (a.year, a.month, a.day, a.hour, a.minute, a.second)
            < (b.year, b.month, b.day, b.hour, b.minute, b.second)
    }

    /// This timestamp moved forward by whole days (calendar arithmetic, no time zones involved).
    func adding(days: Int) -> Timestamp {
        var result = self
        result.day += days
        while result.day > Timestamp.daysIn(month: result.month, year: result.year) {
            result.day -= Timestamp.daysIn(month: result.month, year: result.year)
            result.month += 1
            if result.month > 12 {
                result.month = 1
                result.year += 1
            }
        }
        return result
    }

    /// Day of the week, 0 for Sunday to 6 for Saturday (Sakamoto's method).
    var weekday: Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        return (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7
    }

    /// This timestamp, moved to the following Monday if it falls on a weekend.
    var onWorkingDay: Timestamp {
        switch weekday {
        case 6: adding(days: 2)
        case 0: adding(days: 1)
        default: self
        }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

func pad(_ value: Int, _ width: Int = 2) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// A hand-written category: children plus what its reports inherit.
struct CategorySpec: Sendable {
    var id: String
    var title: String
    /// Only on top-level branches; descendants inherit it.
    var colour: String?
    var theme: BranchTheme?
    /// The end of a sentence describing reports in this category, used for the PDF Subject.
    var blurb: String
    /// Keywords typical of this category, most specific first.
    var terms: [String]
    var authors: [String]?
    var paper: Paper?
    var currency: String?
    var zone: String?
    var children: [NodeSpec]
}

/// A hand-written report. Everything optional is derived from the id when left out.
struct ReportSpec: Sendable {
    var id: String
    var title: String
    var date: Timestamp?
    var author: String?
    var subject: String?
    /// Exact PDF keywords (an empty array: none).
    var keywords: [String]?
    /// Keyword separator in the PDF (`", "` unless given or drawn).
    var separator: String?
    /// Author-supplied keywords for the JSON (an empty array: none).
    var extraKeywords: [String]?
    var pages: Int?
    var paper: Paper?
    var currency: String?
    /// UTC offset of the report's dates (`Z` or `±HH:MM`).
    var zone: String?
}

indirect enum NodeSpec: Sendable {
    case category(CategorySpec)
    case report(ReportSpec)
}

// MARK: - Resolved tree

/// A category of the generated library.
public struct SampleCategory: Sendable {
    /// The node's id in reports.json.
    public var id: String
    /// The node's title.
    public var title: String
    /// `#RRGGBB`, on top-level categories only.
    public var colour: String?
    /// The category's children, in order.
    public var children: [SampleNode]
}

/// A report of the generated library with the metadata written into its PDF.
public struct SampleReport: Sendable {
    /// The node's id in reports.json.
    public var id: String
    /// The node's title.
    public var title: String
    /// The PDF's path relative to reports.json.
    public var file: String
    /// Author-supplied keywords written to reports.json (empty: the key is left out).
    public var extraKeywords: [String]
    /// The author written into the PDF.
    public var author: String
    /// The subject written into the PDF.
    public var subject: String
    /// Keywords in the PDF's Info dictionary, in order (empty: no /Keywords entry).
    public var pdfKeywords: [String]
    /// The separator used to join `pdfKeywords` (`", "` or `"; "`).
    public var keywordSeparator: String
    /// The creation date written into the PDF (`D:` form).
    public var created: String
    /// The modification date written into the PDF (`D:` form).
    public var modified: String
    /// The PDF's pages (1...3).
    public var pageCount: Int

    // Drawing context (not public API).
    var createdAt: Timestamp
    var paper: Paper
    var branchTitle: String
    var branchColour: RGB
    var path: [String]
    var theme: BranchTheme
    var currency: String
}

/// A node of the generated library.
public enum SampleNode: Sendable {
    case category(SampleCategory)
    case report(SampleReport)
}

/// An sRGB colour with components in 0...1.
struct RGB: Sendable, Equatable {
    var r, g, b: Double

    init(r: Double, g: Double, b: Double) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// Parses `#RRGGBB`.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var values: [Double] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let v = UInt8(String(decoding: digits[i..<(i + 2)], as: UTF8.self), radix: 16)
            else { return nil }
            values.append(Double(v) / 255)
        }
        self.init(r: values[0], g: values[1], b: values[2])
    }

    /// Mix with white: 0 keeps the colour, 1 gives white.
    func tint(_ amount: Double) -> RGB {
        RGB(r: r + (1 - r) * amount, g: g + (1 - g) * amount, b: b + (1 - b) * amount)
    }

    /// Mix with black: 0 keeps the colour, 1 gives black.
    func shade(_ amount: Double) -> RGB {
        RGB(r: r * (1 - amount), g: g * (1 - amount), b: b * (1 - amount))
    }

    /// WCAG 2 relative luminance.
    var luminance: Double {
        func channel(_ c: Double) -> Double {
            c <= 0.039_28 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG 2 contrast ratio against white.
    var contrastWithWhite: Double {
        1.05 / (luminance + 0.05)
    }
}
