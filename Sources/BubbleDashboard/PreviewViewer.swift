import BubbleSupport

/// How the preview's viewer responds: zoom range, double tap, swipe to dismiss, page indicator.
public enum PreviewViewerSettings {
    /// The deepest zoom: 4 times the fit width.
    public static let maxZoom = 4.0
    /// A double tap zooms to this from the fit width (and back).
    public static let doubleTapZoom = 2.0
    /// Two taps at most this far apart in time make a double tap (s).
    public static let doubleTapInterval = 0.35
    /// Two taps at most this far apart (pt) make a double tap.
    public static let doubleTapDistance = 30.0
    /// A `zoom` event or a double tap animates over this long (s).
    public static let zoomDuration = 0.25
    /// A finger moves this far (pt) before its gesture is told apart: a swipe (right, mostly
    /// sideways) or a scroll.
    public static let touchSlop = 8.0
    /// A swipe released past this share of the card's width dismisses the sheet.
    public static let dismissFraction = 1.0 / 3.0
    /// A swipe released faster than this (pt/s, to the right) dismisses the sheet, however far.
    public static let dismissVelocity = 700.0
    /// A swipe that does not dismiss springs back over this long (s).
    public static let springBackDuration = 0.3
    /// The page indicator stays this long after the pages stop (s), then fades over
    /// `TableScrollSettings.indicatorFadeDuration`.
    public static let indicatorHold = 1.0
}

/// The open preview's viewer: the document's pages, their scroll and zoom, and the swipe that
/// dismisses the sheet. Advanced by the dashboard's fixed step with `+ - * /` only.
struct PreviewViewer: Sendable {
    /// What a finger on the sheet is doing.
    enum Gesture: Sendable, Hashable {
        case none
        /// Down, not yet moved past the touch slop.
        case pending(start: ScenePoint, inPages: Bool)
        /// Moving the sheet sideways: the finger's x when the swipe began at offset 0.
        case swiping(anchor: Double, finger: Double)
        /// Scrolling the pages (vertically through `scroll`); sideways it pans a zoomed page.
        case panning(anchorX: Double, anchorScrollX: Double, fingerX: Double)
        /// Down on the header or the chips, not moving the sheet.
        case ignored
    }

    /// A zoom in progress: the column point (at zoom 1) held under a viewport point.
    struct ZoomAnimation: Sendable, Hashable {
        var zoom: Tween
        var columnX: Double
        var columnY: Double
        var viewX: Double
        var viewY: Double
    }

    var report: String
    /// The document's pages (nil when the host gives no documents: the stand-in page is drawn).
    var document: ReportDocument?
    var column: PreviewPageColumn?
    var geometry: PreviewGeometry
    var zoom = 1.0
    var zoomAnimation: ZoomAnimation?
    /// Vertical scroll (pt at the current zoom), with UIScrollView's fling and rubber band.
    var scroll = TableScroll()
    /// Horizontal offset of a zoomed column (pt at the current zoom).
    var scrollX = 0.0
    var gesture = Gesture.none
    /// How far the sheet is moved right (pt) and how fast (pt/s).
    var swipe = 0.0
    var swipeVelocity = 0.0
    /// The sheet springing back or leaving after a swipe.
    var swipeTween: Tween?
    var dismissing = false
    /// The page indicator's opacity.
    var indicator = Tween.constant(0)
    /// The last single tap on the pages, for a double tap: time (s) and point.
    var lastTap: (time: Double, point: ScenePoint)?

    init(report: String, document: ReportDocument?, geometry: PreviewGeometry) {
        self.report = report
        self.document = document
        self.geometry = geometry
        relayout(geometry)
    }

    /// Lays the pages out for a (new) sheet, keeping the zoom and the reader's place.
    mutating func relayout(_ g: PreviewGeometry) {
        let share = column.map { c in c.height > 0 ? scroll.offset / (c.height * zoom) : 0 } ?? 0
        geometry = g
        if case .pages(let pages) = document {
            column = PreviewPageColumn(pages: pages, viewportWidth: g.pages.width, viewportHeight: g.pages.height)
        } else {
            column = nil
        }
        if let c = column {
            scroll.offset = min(max(share * c.height * zoom, 0), c.maxScroll(zoom: zoom))
            scrollX = min(max(scrollX, 0), c.maxOffsetX(zoom: zoom))
        }
        scroll.geometry = ScrollingRows(rows: 1, rowHeight: column?.height ?? 0, x: g.pages.x, width: g.pages.width,
                                        viewportTop: g.pages.y, viewportHeight: g.pages.height, isDrawable: g.isDrawable)
    }

    var maxScroll: Double { column?.maxScroll(zoom: zoom) ?? 0 }

    var isAtRest: Bool {
        zoomAnimation == nil && swipeTween == nil && gesture == .none && scroll.phase == .idle
            && scroll.offset >= 0 && scroll.offset <= maxScroll
    }

    /// Folds the viewer into a state hash.
    func combine(into h: inout FNV1a64, at time: Double) {
        h.combine(bytes: report.utf8)
        h.combine(zoom)
        h.combine(scrollX)
        h.combine(swipe)
        h.combine(swipeVelocity)
        h.combine(UInt64(dismissing ? 1 : 0))
        h.combine(indicator.value(at: time))
        if let z = zoomAnimation {
            h.combine(z.zoom.value(at: time))
            h.combine(z.columnX)
            h.combine(z.columnY)
        }
        if let t = swipeTween { h.combine(t.value(at: time)) }
        switch gesture {
        case .none: h.combine(UInt64(0))
        case .pending(let s, let inPages):
            h.combine(UInt64(inPages ? 1 : 2))
            h.combine(s.x)
            h.combine(s.y)
        case .swiping(let a, let f):
            h.combine(UInt64(3))
            h.combine(a)
            h.combine(f)
        case .panning(let a, let o, let f):
            h.combine(UInt64(4))
            h.combine(a)
            h.combine(o)
            h.combine(f)
        case .ignored: h.combine(UInt64(5))
        }
        scroll.combine(into: &h, at: time)
    }
}
