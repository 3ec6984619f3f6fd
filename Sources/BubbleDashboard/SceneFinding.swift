/// A rectangle in canvas points (origin top-left, y down).
public struct SceneRect: Sendable, Hashable {
    /// Left edge (pt).
    public var x: Double
    /// Top edge (pt).
    public var y: Double
    /// Width (pt).
    public var width: Double
    /// Height (pt).
    public var height: Double

    /// A rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// True when the point is inside (edges included).
    public func contains(_ p: ScenePoint) -> Bool {
        p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height
    }
}

/// One row of the search results.
public struct SceneSearchResult: Sendable, Hashable {
    /// The report's id.
    public var id: String
    /// Its title.
    public var title: String
    /// The titles of the categories above it, below the root, top first.
    public var path: [String]
    /// Its page count, when known.
    public var pageCount: Int?
    /// The parts of `title` that match the query, in Unicode scalar offsets (end exclusive).
    public var spans: [Range<Int>]
    /// The report's branch colour.
    public var colour: SceneColour?

    /// A row.
    public init(id: String, title: String, path: [String], pageCount: Int?, spans: [Range<Int>], colour: SceneColour? = nil) {
        self.id = id
        self.title = title
        self.path = path
        self.pageCount = pageCount
        self.spans = spans
        self.colour = colour
    }
}

/// The search overlay (the magnifier): the field under the navigation bar with its Cancel button,
/// and the results below it, laid out by `SearchPanelGeometry`.
public struct SceneSearch: Sendable, Hashable {
    /// The text typed so far.
    public var text: String
    /// How many reports match in all.
    public var total: Int
    /// The best matches shown, best first (at most `SearchPanelGeometry.maxResults`).
    public var results: [SceneSearchResult]
    /// How far the results are scrolled.
    public var scroll: SceneTableScroll
    /// What the results area says instead of rows: "No reports match '…'", "Search needs an
    /// index", or nil when there are rows (or nothing is typed yet).
    public var message: String?

    /// A search overlay.
    public init(text: String, total: Int, results: [SceneSearchResult], scroll: SceneTableScroll = SceneTableScroll(), message: String? = nil) {
        self.text = text
        self.total = total
        self.results = results
        self.scroll = scroll
        self.message = message
    }

    /// The line above the results: "37 reports", "1 report", or "Best 50 of 1 204 reports".
    public var totalLine: String {
        if total == 1 { return "1 report" }
        if results.count < total { return "Best \(results.count) of \(Self.grouped(total)) reports" }
        return "\(Self.grouped(total)) reports"
    }

    /// `n` with a thin space between thousands ("12 345").
    public static func grouped(_ n: Int) -> String {
        var digits = String(n.magnitude)
        var out = ""
        while digits.count > 3 {
            out = "\u{2009}" + String(digits.suffix(3)) + out
            digits.removeLast(3)
        }
        return (n < 0 ? "-" : "") + digits + out
    }
}

/// A keyword chip of the filter sheet.
public struct SceneChip: Sendable, Hashable {
    /// The keyword.
    public var keyword: String
    /// How many reports under the focus (and the filter) carry it.
    public var count: Int
    /// Whether it is selected.
    public var selected: Bool
    /// Where it stands on the canvas (pt): the hit area and the drawn pill.
    public var frame: SceneRect

    /// A chip.
    public init(keyword: String, count: Int, selected: Bool, frame: SceneRect) {
        self.keyword = keyword
        self.count = count
        self.selected = selected
        self.frame = frame
    }
}

/// The filter sheet (the Filter button): keyword chips with counts, most frequent first, a field
/// that narrows them, and Clear and Done.
public struct SceneFilterSheet: Sendable, Hashable {
    /// The sheet's layout.
    public var geometry: FilterSheetGeometry
    /// The text in the sheet's field (narrows the chips).
    public var query: String
    /// The chips that fit, in order; selected chips come first.
    public var chips: [SceneChip]
    /// Chips that match the field but did not fit.
    public var hiddenChips: Int
    /// The line under the title: "Reports with all of: a, b", or what a tap does.
    public var summary: String

    /// A filter sheet.
    public init(geometry: FilterSheetGeometry, query: String, chips: [SceneChip], hiddenChips: Int, summary: String) {
        self.geometry = geometry
        self.query = query
        self.chips = chips
        self.hiddenChips = hiddenChips
        self.summary = summary
    }
}

/// A selected keyword shown in the breadcrumb bar, with the × that removes it.
public struct SceneToken: Sendable, Hashable {
    /// The keyword.
    public var keyword: String
    /// The token's pill (pt).
    public var frame: SceneRect
    /// The × inside it (pt), the hit area that removes the keyword.
    public var closeFrame: SceneRect

    /// A token.
    public init(keyword: String, frame: SceneRect, closeFrame: SceneRect) {
        self.keyword = keyword
        self.frame = frame
        self.closeFrame = closeFrame
    }
}

/// The keyword filter in effect.
public struct SceneFilter: Sendable, Hashable {
    /// The selected keywords (reports must carry all of them).
    public var keywords: [String]
    /// How many reports in the whole library carry them all.
    public var matchingReports: Int
    /// The tokens in the breadcrumb bar, right-aligned.
    public var tokens: [SceneToken]
    /// When the focused level has no matching report: "No reports with …", shown in the middle of
    /// the canvas with a Clear button.
    public var emptyMessage: String?
    /// The Clear button under `emptyMessage` (pt).
    public var clearFrame: SceneRect?

    /// A filter.
    public init(keywords: [String], matchingReports: Int, tokens: [SceneToken] = [], emptyMessage: String? = nil, clearFrame: SceneRect? = nil) {
        self.keywords = keywords
        self.matchingReports = matchingReports
        self.tokens = tokens
        self.emptyMessage = emptyMessage
        self.clearFrame = clearFrame
    }
}

/// A short message over the canvas ("Search needs an index"), fading in and out.
public struct SceneNotice: Sendable, Hashable {
    /// The text.
    public var text: String
    /// 0 (invisible) to 1.
    public var opacity: Double

    /// A notice.
    public init(text: String, opacity: Double) {
        self.text = text
        self.opacity = opacity
    }
}

/// Where the search overlay stands on a canvas, in points: the bar under the navigation bar with
/// the field and Cancel, and the results card below it (a line with the total, then rows that
/// scroll). The one source of these numbers for the dashboard's hit tests, the renderer and the
/// scene JSON.
public struct SearchPanelGeometry: Sendable, Hashable {
    /// The most results a search shows (the total counts them all): 50.
    public static let maxResults = 50
    /// Height of the bar holding the field (pt).
    public static let barHeight = 52.0
    /// Height of a result row: the title, then the category path in small type (pt).
    public static let rowHeight = 58.0
    /// The line with the total, above the rows (pt).
    public static let totalHeight = 40.0
    /// Width of the Cancel button (pt).
    public static let cancelWidth = 76.0

    /// The bar under the navigation bar (covers the breadcrumb trail).
    public let bar: SceneRect
    /// The text field.
    public let field: SceneRect
    /// The Cancel button.
    public let cancel: SceneRect
    /// The results card.
    public let card: SceneRect
    /// The rows (the card below the total line).
    public let rowsArea: ScrollingRows

    /// Lays the overlay out for `rows` result rows (0: one row for a message).
    public init(canvasWidth W: Double, canvasHeight H: Double, chrome: SceneChrome, rows: Int) {
        let top = chrome.navigationBarHeight
        bar = SceneRect(x: 0, y: top, width: W, height: Self.barHeight)
        let margin = 16.0
        cancel = SceneRect(x: W - margin - Self.cancelWidth, y: top + 8, width: Self.cancelWidth, height: 36)
        field = SceneRect(x: margin, y: top + 8, width: max(40, cancel.x - 8 - margin), height: 36)
        let width = min(ReportsTableGeometry.maxWidth, W - 40)
        let cardTop = top + Self.barHeight + 12
        let bottomLimit = H - min(chrome.bottomBarHeight + 12, H * 0.2)
        let room = max(Self.rowHeight, bottomLimit - cardTop - Self.totalHeight - 8)
        let viewport = min(Double(max(1, rows)) * Self.rowHeight, room)
        card = SceneRect(x: (W - width) / 2, y: cardTop, width: width, height: Self.totalHeight + viewport + 8)
        rowsArea = ScrollingRows(
            rows: rows, rowHeight: Self.rowHeight, x: card.x, width: width, viewportTop: cardTop + Self.totalHeight,
            viewportHeight: viewport, isDrawable: width > 100)
    }
}

/// Where the filter sheet stands on a canvas, in points: a card in the middle with a title and a
/// summary line, a field that narrows the chips, the chips flowing in rows, and Clear and Done.
public struct FilterSheetGeometry: Sendable, Hashable {
    /// Height of a chip (pt).
    public static let chipHeight = 32.0
    /// Space between chips, across and down (pt).
    public static let chipSpacing = 8.0
    /// Inner padding of the card (pt).
    public static let padding = 20.0
    /// The title and summary block (pt).
    public static let headerHeight = 66.0
    /// The field's height (pt).
    public static let fieldHeight = 36.0
    /// The footer with Clear and Done (pt).
    public static let footerHeight = 56.0
    /// The most chip rows shown.
    public static let maxChipRows = 8

    /// The card.
    public let card: SceneRect
    /// The field that narrows the chips.
    public let field: SceneRect
    /// The area the chips flow in.
    public let chipsArea: SceneRect
    /// The Clear button.
    public let clear: SceneRect
    /// The Done button.
    public let done: SceneRect

    /// Lays the sheet out with room for `chipRows` rows of chips (at least one).
    public init(canvasWidth W: Double, canvasHeight H: Double, chrome: SceneChrome, chipRows: Int) {
        let pad = Self.padding
        let width = min(ReportsTableGeometry.maxWidth, W - 40)
        let rows = Double(min(Self.maxChipRows, max(1, chipRows)))
        let chipsHeight = rows * Self.chipHeight + (rows - 1) * Self.chipSpacing
        let height = Self.headerHeight + Self.fieldHeight + 12 + chipsHeight + 12 + Self.footerHeight
        let topLimit = min(chrome.navigationBarHeight + chrome.breadcrumbHeight + 20, H * 0.2)
        let x = (W - width) / 2
        let y = max(topLimit, (H - height) / 2)
        card = SceneRect(x: x, y: y, width: width, height: height)
        field = SceneRect(x: x + pad, y: y + Self.headerHeight, width: width - 2 * pad, height: Self.fieldHeight)
        chipsArea = SceneRect(x: x + pad, y: field.y + Self.fieldHeight + 12, width: width - 2 * pad, height: chipsHeight)
        let buttonY = y + height - Self.footerHeight + 10
        clear = SceneRect(x: x + pad, y: buttonY, width: 96, height: 36)
        done = SceneRect(x: x + width - pad - 96, y: buttonY, width: 96, height: 36)
    }

    /// The room one row of chips has (pt).
    public static func chipRowWidth(canvasWidth W: Double) -> Double { min(ReportsTableGeometry.maxWidth, W - 40) - 2 * padding }

    /// The width of a chip whose keyword-and-count text is `textWidth` points wide.
    public static func chipWidth(textWidth: Double, rowWidth: Double) -> Double { min(rowWidth, textWidth + 28) }
}
