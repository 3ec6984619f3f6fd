/// A colour in sRGB, 0...255 per channel.
public struct SceneColour: Sendable, Hashable {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// A colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// A point or size in canvas points (origin top-left, y down).
public struct ScenePoint: Sendable, Hashable {
    /// Horizontal, from the left (pt).
    public var x: Double
    /// Vertical, from the top (pt).
    public var y: Double

    /// A point at (`x`, `y`) pt.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The outline of a bubble, unscaled, in points.
public enum SceneShape: Sendable, Hashable {
    /// A category circle.
    case circle(radius: Double)
    /// A report card: an axis-aligned rounded rectangle.
    case roundedRect(width: Double, height: Double, cornerRadius: Double)
}

/// What a bubble stands for.
public enum SceneBubbleKind: String, Sendable, Hashable {
    /// The focused node in the middle of the level (the centre circle).
    case focus
    /// A child category (a circle).
    case category
    /// A child report (a rounded rectangle).
    case report
    /// A group of a large level's children (a circle that opens like a category).
    case group
}

/// Everything the renderer needs about one visible bubble. Plain values only: the renderer never
/// sees the physics world.
public struct SceneBubble: Sendable, Hashable {
    /// The node's id in the datasource.
    public var id: String
    /// Focus, category, group or report.
    public var kind: SceneBubbleKind
    /// The unscaled outline; the drawn size is the outline times `scale`.
    public var shape: SceneShape
    /// The centre, in canvas points.
    public var centre: ScenePoint
    /// Visual scale, 0 (vanished) to 1 (full size); slightly above 1 while popping in.
    public var scale: Double
    /// 0 (invisible) to 1 (opaque).
    public var opacity: Double
    /// The title to draw inside the shape.
    public var label: String
    /// The colour of the bubble's top-level branch; nil for the root and uncoloured branches.
    public var colour: SceneColour?
    /// For reports: the page count read from the PDF, when known.
    public var pageCount: Int?
    /// How blurred the bubble is drawn, 0 (sharp) to 1 (fully blurred); only the focus blurs.
    public var blur: Double
    /// For groups: how many children the group stands for.
    public var count: Int?
    /// Under a keyword filter: how many matching reports the bubble stands for (its badge); nil
    /// without a filter and for the focus.
    public var matchCount: Int? = nil
    /// The ring that marks a report found by a search: 1 as it lands, fading to 0 over about a
    /// second.
    public var marked: Double = 0
    /// For a circle changing size (a child becoming the focus, a focus going back to being a
    /// child): the radius it lands at (pt). Its title is laid out once for that radius and drawn
    /// scaled with the circle, so its lines stay as they will be. Nil when the circle keeps its size.
    public var labelRadius: Double? = nil
    /// For a report card: the scale its level was laid out at (the canvas scale times the level's
    /// shrink), which its title was measured for. A renderer draws the title at most at its full
    /// size times this, so that every card of a level has titles of one size (a short title on a
    /// card of the least width does not come out larger than its neighbours'). Nil: no such cap.
    public var titleScale: Double? = nil

    /// A bubble; `pageCount`, `blur` and `count` default to none, 0 and none.
    public init(
        id: String, kind: SceneBubbleKind, shape: SceneShape, centre: ScenePoint, scale: Double, opacity: Double,
        label: String, colour: SceneColour?, pageCount: Int? = nil, blur: Double = 0, count: Int? = nil
    ) {
        self.count = count
        self.id = id
        self.kind = kind
        self.shape = shape
        self.centre = centre
        self.scale = scale
        self.opacity = opacity
        self.label = label
        self.colour = colour
        self.pageCount = pageCount
        self.blur = blur
    }
}

/// Details of one report for the preview overlay and the reports table.
public struct SceneReport: Sendable, Hashable {
    /// The report's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its author, from the PDF or the datasource, when known.
    public var author: String?
    /// Its page count, when known.
    public var pageCount: Int?
    /// Its keywords (datasource and PDF, merged).
    public var keywords: [String]
    /// Its branch colour.
    public var colour: SceneColour?

    /// A report's details.
    public init(id: String, title: String, author: String?, pageCount: Int?, keywords: [String], colour: SceneColour?) {
        self.id = id
        self.title = title
        self.author = author
        self.pageCount = pageCount
        self.keywords = keywords
        self.colour = colour
    }
}

/// An overlay over the (dimmed) dashboard.
public enum SceneOverlay: Sendable, Hashable {
    /// The preview of one report (toolbar-free sheet with its keywords as chips).
    case reportPreview(SceneReport)
    /// The table of the current level's reports (toolbar button 3), scrolled by `scroll`; laid
    /// out by `ReportsTableGeometry`.
    case reportsTable(title: String, reports: [SceneReport], scroll: SceneTableScroll = SceneTableScroll())
    /// The search field and its results (the magnifier), laid out by `SearchPanelGeometry`.
    case search(SceneSearch)
    /// The filter sheet's keyword chips (the Filter button).
    case filterSheet(SceneFilterSheet)
}

/// How far the reports table is scrolled in a frame.
public struct SceneTableScroll: Sendable, Hashable {
    /// The scroll offset in points: 0 shows the first row at the top, `maxScroll` of the table's
    /// `ReportsTableGeometry` the last row at the bottom; beyond either while rubber-banding.
    public var offset: Double
    /// The scroll indicator's opacity, 0 (hidden) to 1.
    public var indicatorOpacity: Double

    /// A scroll state; both default to 0.
    public init(offset: Double = 0, indicatorOpacity: Double = 0) {
        self.offset = offset
        self.indicatorOpacity = indicatorOpacity
    }
}

/// One frame of the dashboard as plain values: what the renderer draws and the frame exporter
/// writes as JSON.
public struct Scene: Sendable, Hashable {
    /// The canvas size in points.
    public var canvasWidth: Double
    /// See `canvasWidth`.
    public var canvasHeight: Double
    /// The visible bubbles, back to front (the focus first).
    public var bubbles: [SceneBubble]
    /// The breadcrumb trail: titles from the root to the focus.
    public var breadcrumbs: [String]
    /// The overlay shown, if any, and how far it has faded in (0...1).
    public var overlay: SceneOverlay?
    /// How far the overlay has faded in, 0...1.
    public var overlayOpacity: Double
    /// The bars around the bubble area.
    public var chrome: SceneChrome
    /// What the titles of the level's children share, said once ("Month-End Close Pack — …"), when
    /// the bubbles show only the part that tells them apart.
    public var caption: String?
    /// The keyword filter in effect, if any.
    public var filter: SceneFilter? = nil
    /// A short message over the canvas, if one is showing.
    public var notice: SceneNotice? = nil
    /// For a level larger than the bubble area, which pans: where it lies and its scroll
    /// indicators (nil when the level fits).
    public var pan: ScenePan? = nil
    /// With the report preview shown: its viewer (pages, zoom, swipe).
    public var preview: ScenePreview? = nil
    /// With the reports table open under a filter: the table lists only matching reports.
    public var tableFiltered: Bool { filter != nil }

    /// A scene; the overlay defaults to none (opacity 1), the chrome to the iPad's bars.
    public init(
        canvasWidth: Double, canvasHeight: Double, bubbles: [SceneBubble], breadcrumbs: [String],
        overlay: SceneOverlay? = nil, overlayOpacity: Double = 1, chrome: SceneChrome = SceneChrome(), caption: String? = nil
    ) {
        self.caption = caption
        self.chrome = chrome
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.bubbles = bubbles
        self.breadcrumbs = breadcrumbs
        self.overlay = overlay
        self.overlayOpacity = overlayOpacity
    }
}

/// A level larger than the bubble area, which pans (a drag on empty space moves it): what a
/// renderer needs for the scroll indicators that show there is more of it, and where.
public struct ScenePan: Sendable, Hashable {
    /// The level's extent as drawn now (canvas pt): its bubbles at home, and the bubble area.
    public var extent: SceneRect
    /// The bubble area that shows it (canvas pt).
    public var viewport: SceneRect
    /// The scroll indicators' opacity, 0...1: 1 while the level moves, then a faint hint.
    public var indicatorOpacity: Double

    /// A pan.
    public init(extent: SceneRect, viewport: SceneRect, indicatorOpacity: Double) {
        self.extent = extent
        self.viewport = viewport
        self.indicatorOpacity = indicatorOpacity
    }
}

/// The fixed bars around the bubble area, in points. The dashboard keeps bubbles inside the area
/// they leave free; the renderer draws the bars into them.
public struct SceneChrome: Sendable, Hashable {
    /// Status bar and navigation bar with its icon buttons.
    public var navigationBarHeight: Double
    /// The breadcrumb trail under the navigation bar.
    public var breadcrumbHeight: Double
    /// The toolbar (buttons 1–3 and the filter button) and the blue static area under it.
    public var bottomBarHeight: Double

    /// Bars of these heights (pt; defaults 64, 36 and 112, the iPad app's).
    public init(navigationBarHeight: Double = 64, breadcrumbHeight: Double = 36, bottomBarHeight: Double = 112) {
        self.navigationBarHeight = navigationBarHeight
        self.breadcrumbHeight = breadcrumbHeight
        self.bottomBarHeight = bottomBarHeight
    }

    /// The area left for bubbles on a canvas: (x, y, width, height) in points.
    public func contentRect(canvasWidth: Double, canvasHeight: Double) -> (x: Double, y: Double, width: Double, height: Double) {
        let top = navigationBarHeight + breadcrumbHeight
        return (0, top, canvasWidth, max(0, canvasHeight - top - bottomBarHeight))
    }
}
