/// Where the report preview (the viewer sheet) stands on a canvas, in points: the card, its header
/// with the back arrow, the title and the "Open PDF" button, the viewport the pages scroll in, and
/// the keyword chips at the bottom. The one source of these numbers: the dashboard hit-tests and
/// scrolls with it, the renderer draws the sheet with it.
public struct PreviewGeometry: Sendable, Hashable {
    /// Room left around the card on each side, and above and below it (pt).
    public static let margin = 20.0
    /// The card is at most this wide (pt).
    public static let maxWidth = 720.0
    /// Corner radius of the card (pt).
    public static let cornerRadius = 18.0
    /// The accent band along the card's top (pt).
    public static let accentHeight = 8.0
    /// The header under the accent band: back arrow, title and author line, "Open PDF" (pt).
    public static let headerHeight = 84.0
    /// The keyword chips' area at the bottom: heading and up to two rows of chips (pt).
    public static let keywordsHeight = 92.0
    /// The pages' viewport is inset this much from the card's sides (pt).
    public static let sideInset = 12.0
    /// Space around and between pages at fit width (pt, scaled with the zoom).
    public static let pageGap = 12.0
    /// The side of the back arrow's square target (pt).
    public static let buttonSize = 44.0
    /// Width of the "Open PDF" button (pt).
    public static let openButtonWidth = 96.0

    /// The card.
    public let card: SceneRect
    /// The back arrow's target at the header's left (a tap hides the preview).
    public let backButton: SceneRect
    /// The "Open PDF" button at the header's right.
    public let openButton: SceneRect
    /// Between the two buttons: the title and the author and pages line.
    public let titleArea: SceneRect
    /// The viewport the pages scroll and zoom in.
    public let pages: SceneRect
    /// The keyword chips' area.
    public let keywords: SceneRect

    /// Lays the sheet out on a canvas: centred, as tall as the canvas leaves after `margin`.
    public init(canvasWidth W: Double, canvasHeight H: Double) {
        let m = Self.margin
        let width = max(0, min(Self.maxWidth, W - 2 * m))
        let height = max(0, H - 2 * m)
        card = SceneRect(x: (W - width) / 2, y: m, width: width, height: height)
        let top = card.y + Self.accentHeight
        let b = Self.buttonSize
        backButton = SceneRect(x: card.x + 6, y: top + (Self.headerHeight - b) / 2, width: b, height: b)
        openButton = SceneRect(x: card.x + width - 14 - Self.openButtonWidth, y: top + (Self.headerHeight - 32) / 2,
                               width: Self.openButtonWidth, height: 32)
        titleArea = SceneRect(x: backButton.x + b + 4, y: top + 10, width: max(0, openButton.x - 12 - (backButton.x + b + 4)),
                              height: Self.headerHeight - 20)
        let pagesTop = top + Self.headerHeight
        let pagesHeight = max(0, height - Self.accentHeight - Self.headerHeight - Self.keywordsHeight)
        pages = SceneRect(x: card.x + Self.sideInset, y: pagesTop, width: max(0, width - 2 * Self.sideInset), height: pagesHeight)
        keywords = SceneRect(x: card.x + 24, y: pagesTop + pagesHeight + 12, width: max(0, width - 48), height: Self.keywordsHeight - 12)
    }

    /// False on a canvas too small for a sheet (nothing is drawn and nothing can be hit).
    public var isDrawable: Bool { pages.width > 60 && pages.height > 60 }
}

/// The pages of a report laid out one under another, as PDFKit's continuous mode shows them: at
/// zoom 1 the widest page fits the viewport's width, less `PreviewGeometry.pageGap` at each side,
/// and every page keeps its size relative to the others, centred; a zoom scales the whole column.
public struct PreviewPageColumn: Sendable, Hashable {
    /// The pages' sizes (pt), first to last.
    public let pages: [ReportPage]
    /// The viewport's width (pt).
    public let viewportWidth: Double
    /// The viewport's height (pt).
    public let viewportHeight: Double
    /// Points of the viewport per point of page at zoom 1.
    public let fitScale: Double
    /// Each page's top at zoom 1 (pt from the column's top).
    public let tops: [Double]
    /// The column's height at zoom 1 (pt), gaps included.
    public let height: Double

    /// Lays out `pages` for a viewport of this size (pt).
    public init(pages: [ReportPage], viewportWidth: Double, viewportHeight: Double) {
        self.pages = pages
        self.viewportWidth = viewportWidth
        self.viewportHeight = viewportHeight
        let gap = PreviewGeometry.pageGap
        let widest = pages.map(\.width).max() ?? 1
        fitScale = max(0, viewportWidth - 2 * gap) / max(1, widest)
        var y = gap
        var tops: [Double] = []
        tops.reserveCapacity(pages.count)
        for p in pages {
            tops.append(y)
            y += p.height * fitScale + gap
        }
        self.tops = tops
        height = y
    }

    /// The largest vertical scroll at `zoom` (pt): the column's end at the viewport's bottom.
    public func maxScroll(zoom: Double) -> Double { max(0, height * zoom - viewportHeight) }

    /// The largest horizontal offset at `zoom` (pt): the column's right edge at the viewport's.
    public func maxOffsetX(zoom: Double) -> Double { max(0, viewportWidth * (zoom - 1)) }

    /// Page `i`'s frame relative to the viewport's top left (pt), for a zoom and the scroll
    /// offsets (pt at that zoom).
    public func frame(of i: Int, zoom: Double, scrollX: Double, scrollY: Double) -> SceneRect {
        let w = pages[i].width * fitScale, h = pages[i].height * fitScale
        return SceneRect(x: zoom * (viewportWidth - w) / 2 - scrollX, y: zoom * tops[i] - scrollY, width: w * zoom, height: h * zoom)
    }

    /// The pages at least partly in the viewport, in order.
    public func visible(zoom: Double, scrollX: Double, scrollY: Double) -> [Int] {
        guard !pages.isEmpty else { return [] }
        // The first page whose bottom is below the viewport's top, by binary search.
        var lo = 0, hi = pages.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if zoom * (tops[mid] + pages[mid].height * fitScale) <= scrollY { lo = mid + 1 } else { hi = mid }
        }
        var out: [Int] = []
        var i = lo
        while i < pages.count && zoom * tops[i] < scrollY + viewportHeight {
            out.append(i)
            i += 1
        }
        return out
    }

    /// The page the reader is on: the one under the viewport's middle, or the nearest one above it
    /// (a gap counts for the page before it).
    public func current(zoom: Double, scrollY: Double) -> Int {
        guard !pages.isEmpty else { return 0 }
        let middle = (scrollY + viewportHeight / 2) / max(zoom, 1e-9)
        var lo = 0, hi = pages.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if tops[mid] <= middle { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
