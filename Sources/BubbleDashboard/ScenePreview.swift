/// One page of the preview in view.
public struct ScenePreviewPage: Sendable, Hashable {
    /// The page number, 1-based.
    public var page: Int
    /// Where it is drawn (canvas pt, before the sheet's slide and swipe); it may reach past the
    /// viewport, which clips it.
    public var frame: SceneRect
    /// Its size in the document (pt), so a renderer can scale the page into `frame`.
    public var size: SceneSize

    /// A page in view.
    public init(page: Int, frame: SceneRect, size: SceneSize) {
        self.page = page
        self.frame = frame
        self.size = size
    }
}

/// The viewer of the open report preview: the sheet's layout, the pages in view, the zoom and the
/// swipe. `Scene.preview` carries it while the preview is shown.
public struct ScenePreview: Sendable, Hashable {
    /// The report shown.
    public var reportID: String
    /// The sheet's layout.
    public var geometry: PreviewGeometry
    /// The pages at least partly in the viewport, in order (empty when none can be drawn).
    public var pages: [ScenePreviewPage]
    /// The page the reader is on, 1-based (0 when there are no pages).
    public var page: Int
    /// The document's page count (0 when it cannot be drawn or is not known).
    public var pageCount: Int
    /// The current page's label from the document, when it has one.
    public var pageLabel: String?
    /// The zoom: 1 is the fit width, up to `PreviewViewerSettings.maxZoom`.
    public var zoom: Double
    /// How far the sheet is moved right by a swipe (pt).
    public var swipe: Double
    /// The page indicator's opacity, 0...1 (shown while the pages move).
    public var indicatorOpacity: Double
    /// Why the document cannot be drawn, shown in the page's place; nil when it can.
    public var unavailable: String?
    /// True when the host gives no documents: the renderer draws a stand-in page.
    public var standIn: Bool
    /// How far the pages are scrolled down (pt, 0 at the top of the first page): the pages'
    /// frames already include it. A raster renderer rounds it to whole device pixels, so that
    /// between two frames the pages move by whole pixels and a host can send the move as a copy.
    public var scrollY: Double
    /// How far a zoomed page is panned right (pt; 0 at fit width).
    public var scrollX: Double

    /// A viewer state; `scrollY` and `scrollX` default to 0.
    public init(reportID: String, geometry: PreviewGeometry, pages: [ScenePreviewPage], page: Int, pageCount: Int,
                pageLabel: String?, zoom: Double, swipe: Double, indicatorOpacity: Double, unavailable: String?, standIn: Bool,
                scrollY: Double = 0, scrollX: Double = 0) {
        self.scrollY = scrollY
        self.scrollX = scrollX
        self.reportID = reportID
        self.geometry = geometry
        self.pages = pages
        self.page = page
        self.pageCount = pageCount
        self.pageLabel = pageLabel
        self.zoom = zoom
        self.swipe = swipe
        self.indicatorOpacity = indicatorOpacity
        self.unavailable = unavailable
        self.standIn = standIn
    }

    /// The page indicator's text: the page label when the document has one, else "3 / 12".
    public var indicatorText: String {
        if let l = pageLabel, !l.isEmpty { return "\(l) (\(page) / \(pageCount))" }
        return "\(page) / \(pageCount)"
    }
}
