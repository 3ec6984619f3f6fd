/// Where the reports table (toolbar button 3) stands on a canvas, in points: the card, its fixed
/// header (title and column headings, which stay while the rows scroll), the viewport the rows
/// scroll in, and the scroll indicator. The one source of these numbers: the dashboard clamps the
/// scroll and hit-tests rows with it, the renderer draws the table with it and the scene JSON
/// reports the visible rows from it.
public struct ReportsTableGeometry: Sendable, Hashable {
    /// Inner padding of the card.
    public static let padding = 20.0
    /// Corner radius of the card (pt).
    public static let cornerRadius = 18.0
    /// The card is at most this wide, and leaves 20 pt at each side of a narrower canvas.
    public static let maxWidth = 680.0
    /// The title block ("Reports in …" and the count).
    public static let headerHeight = 70.0
    /// The column headings (TITLE, PAGES, KEYWORDS).
    public static let columnsHeight = 32.0
    /// Height of a row (pt).
    public static let rowHeight = 44.0
    /// The scroll indicator: its thickness, its inset from the viewport's right edge and ends, and
    /// its shortest length.
    public static let indicatorThickness = 3.0
    /// The indicator's inset from the viewport's right edge and ends (pt).
    public static let indicatorInset = 3.0
    /// The indicator's shortest length (pt).
    public static let indicatorMinLength = 36.0

    /// Rows of the table (an empty table shows one row with a message).
    public let rows: Int
    /// The card.
    public let x: Double
    /// Top of the card (pt).
    public let y: Double
    /// Width of the card (pt).
    public let width: Double
    /// Height of the card (pt).
    public let height: Double
    /// The area the rows scroll in: under the column headings, as wide as the card.
    public let viewportTop: Double
    /// Height of the area the rows scroll in (pt).
    public let viewportHeight: Double

    /// Lays the table out on a canvas: centred, between the bars (with 20 pt to spare, or a fifth
    /// of the canvas at most each), as tall as its rows need and no taller than that space.
    public init(canvasWidth W: Double, canvasHeight H: Double, chrome: SceneChrome, rows: Int) {
        let rowH = Self.rowHeight
        self.rows = max(0, rows)
        width = min(Self.maxWidth, W - 40)
        let topLimit = min(chrome.navigationBarHeight + chrome.breadcrumbHeight + 20, H * 0.2)
        let bottomLimit = H - min(chrome.bottomBarHeight + 20, H * 0.2)
        let room = bottomLimit - topLimit - Self.headerHeight - Self.columnsHeight - Self.padding / 2
        let content = Double(max(1, self.rows)) * rowH
        viewportHeight = min(content, max(rowH, room))
        height = Self.headerHeight + Self.columnsHeight + viewportHeight + Self.padding / 2
        x = (W - width) / 2
        y = max(topLimit, (H - height) / 2)
        viewportTop = y + Self.headerHeight + Self.columnsHeight
    }

    /// False on a canvas too narrow for the table (nothing is drawn and nothing can be hit).
    public var isDrawable: Bool { width > 2 * Self.padding + 60 }

    /// The rows' viewport: the one source of scrolling, visible rows and the indicator.
    public var rowsArea: ScrollingRows {
        ScrollingRows(rows: rows, rowHeight: Self.rowHeight, x: x, width: width, viewportTop: viewportTop,
                      viewportHeight: viewportHeight, isDrawable: isDrawable)
    }

    /// The height of all rows (the empty table's message row counts as one).
    public var contentHeight: Double { rowsArea.contentHeight }

    /// The largest scroll offset at rest: the last row's bottom at the viewport's bottom.
    public var maxScroll: Double { rowsArea.maxScroll }

    /// True when the rows do not all fit and the table scrolls.
    public var isScrollable: Bool { rowsArea.isScrollable }

    /// Top of row `i` on the canvas at a scroll offset.
    public func rowTop(_ i: Int, scroll: Double) -> Double { rowsArea.rowTop(i, scroll: scroll) }

    /// The first and last rows at least partly inside the viewport at a scroll offset (pulled
    /// past an end, the rows at that end); nil for a table without rows.
    public func visibleRows(scroll: Double) -> ClosedRange<Int>? { rowsArea.visibleRows(scroll: scroll) }

    /// True when the point is on the card.
    public func cardContains(_ p: ScenePoint) -> Bool {
        isDrawable && p.x >= x && p.x <= x + width && p.y >= y && p.y <= y + height
    }

    /// True when the point is in the viewport the rows scroll in.
    public func viewportContains(_ p: ScenePoint) -> Bool { rowsArea.viewportContains(p) }

    /// The row under a point at a scroll offset, if any.
    public func row(at p: ScenePoint, scroll: Double) -> Int? { rowsArea.row(at: p, scroll: scroll) }

    /// The scroll indicator at a scroll offset (see `ScrollingRows.indicator(scroll:)`).
    public func indicator(scroll: Double) -> (x: Double, y: Double, width: Double, height: Double)? {
        rowsArea.indicator(scroll: scroll)
    }
}

/// Rows of equal height scrolling in a viewport, in canvas points: the reports table's and the
/// search results'. Gives the scroll range, the rows in view, the row under a finger and the
/// scroll indicator.
public struct ScrollingRows: Sendable, Hashable {
    /// Number of rows (an empty list shows one row with a message).
    public var rows: Int
    /// Height of a row (pt).
    public var rowHeight: Double
    /// Left edge of the viewport (pt).
    public var x: Double
    /// Width of the viewport (pt).
    public var width: Double
    /// Top of the viewport (pt).
    public var viewportTop: Double
    /// Height of the viewport (pt).
    public var viewportHeight: Double
    /// False when the list is too narrow to draw (nothing can be hit).
    public var isDrawable: Bool

    /// A viewport of rows.
    public init(rows: Int, rowHeight: Double, x: Double, width: Double, viewportTop: Double, viewportHeight: Double, isDrawable: Bool = true) {
        self.rows = max(0, rows)
        self.rowHeight = rowHeight
        self.x = x
        self.width = width
        self.viewportTop = viewportTop
        self.viewportHeight = viewportHeight
        self.isDrawable = isDrawable
    }

    /// The height of all rows (an empty list's message row counts as one).
    public var contentHeight: Double { Double(max(1, rows)) * rowHeight }

    /// The largest scroll offset at rest: the last row's bottom at the viewport's bottom.
    public var maxScroll: Double { max(0, contentHeight - viewportHeight) }

    /// True when the rows do not all fit and the list scrolls.
    public var isScrollable: Bool { maxScroll > 0 }

    /// Top of row `i` on the canvas at a scroll offset.
    public func rowTop(_ i: Int, scroll: Double) -> Double { viewportTop + Double(i) * rowHeight - scroll }

    /// The first and last rows at least partly inside the viewport at a scroll offset (pulled
    /// past an end, the rows at that end); nil for a list without rows.
    public func visibleRows(scroll: Double) -> ClosedRange<Int>? {
        guard rows > 0, scroll.isFinite else { return nil }
        let top = max(0, scroll)
        let bottom = min(contentHeight, scroll + viewportHeight)
        var first = Int((top / rowHeight).rounded(.down))
        var last = Int((bottom / rowHeight).rounded(.up)) - 1
        first = min(max(first, 0), rows - 1)
        last = min(max(last, first), rows - 1)
        return first...last
    }

    /// True when the point is in the viewport.
    public func viewportContains(_ p: ScenePoint) -> Bool {
        isDrawable && p.x >= x && p.x <= x + width && p.y >= viewportTop && p.y < viewportTop + viewportHeight
    }

    /// The row under a point at a scroll offset, if any.
    public func row(at p: ScenePoint, scroll: Double) -> Int? {
        guard rows > 0, viewportContains(p) else { return nil }
        let k = ((p.y - viewportTop + scroll) / rowHeight).rounded(.down)
        guard k >= 0, k < Double(rows) else { return nil }
        return Int(k)
    }

    /// The scroll indicator at a scroll offset: a bar along the viewport's right edge whose length
    /// is the visible share of the rows, shortened while the rows are pulled past an end (as
    /// UIScrollView's). Nil when the list does not scroll.
    public func indicator(scroll: Double) -> (x: Double, y: Double, width: Double, height: Double)? {
        typealias T = ReportsTableGeometry
        guard isScrollable, scroll.isFinite else { return nil }
        let inset = T.indicatorInset
        let track = viewportHeight - 2 * inset
        guard track > T.indicatorThickness else { return nil }
        var length = max(min(T.indicatorMinLength, track), track * viewportHeight / contentHeight)
        let over = scroll < 0 ? -scroll : max(0, scroll - maxScroll)
        length = max(min(T.indicatorThickness * 2, track), length - over)
        let fraction = min(1, max(0, scroll / maxScroll))
        let top = viewportTop + inset + (track - length) * fraction
        return (x + width - inset - T.indicatorThickness, top, T.indicatorThickness, length)
    }
}
