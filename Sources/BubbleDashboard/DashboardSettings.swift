import BubblePhysics

/// Every tunable of the dashboard in one place, with documented units (points, seconds, hertz)
/// and defaults that match the iPad app (768×1024 pt portrait).
public struct DashboardSettings: Sendable, Hashable {
    /// Canvas size in points. Any size works: portrait, landscape, phone.
    public var canvasWidth: Double = 768
    public var canvasHeight: Double = 1024
    /// The bars around the bubble area.
    public var chrome = SceneChrome()

    // MARK: Sizes (before a crowded level shrinks them; see `LevelLayout`)

    /// Category circle radius: `categoryRadiusBase + categoryRadiusPerSqrtReport · √(reports below)`,
    /// clamped to `categoryRadiusMin...categoryRadiusMax`.
    public var categoryRadiusBase: Double = 44
    public var categoryRadiusPerSqrtReport: Double = 8
    public var categoryRadiusMin: Double = 50
    public var categoryRadiusMax: Double = 92
    /// Report cards are fitted to the title: the title is broken into 1–3 lines of at most
    /// `cardCharactersPerLine` characters (estimated at `cardCharacterWidth` pt each), the card is as
    /// wide as the longest line plus padding (within `cardMinWidth...cardMaxWidth`) and
    /// `cardBaseHeight + cardLineHeight · lines` tall.
    public var cardMinWidth: Double = 116
    public var cardMaxWidth: Double = 188
    public var cardCharactersPerLine: Int = 18
    public var cardCharacterWidth: Double = 8.4
    public var cardHorizontalPadding: Double = 34
    public var cardBaseHeight: Double = 46
    public var cardLineHeight: Double = 18
    public var cardCornerRadius: Double = 14
    /// With a text measurer (`Dashboard(tree:settings:measurer:)`), cards are sized from their
    /// measured titles instead: as narrow as the title allows without taking more lines, at most
    /// `cardMaxLines` lines (a longer title is shortened by the renderer), and a category circle
    /// grows (up to `categoryRadiusMax`) until its title fits inside `1 - categoryTitleInset` of its
    /// radius.
    public var cardMaxLines: Int = 3
    public var categoryTitleInset: Double = 0.12
    /// The focused centre circle's radius on a 768 pt wide canvas (scaled with the canvas' shorter
    /// side), and the radius of the root circle alone on the start screen.
    public var focusRadius: Double = 96
    public var startRadius: Double = 150
    /// Empty space kept between neighbouring bubbles (added to every collision shape).
    public var gap: Double = 8
    /// At most this fraction of the bubble area may be covered by bubbles; a fuller level shrinks
    /// every size by the same factor (never below `minimumShrink`).
    public var fillFactor: Double = 0.5
    public var minimumShrink: Double = 0.3
    /// The legibility floor: at rest every bubble's label is at least this size at scale 1 (pt). A
    /// level whose children cannot all be shown that large is shown as groups (`LevelGrouping`).
    public var minimumLabelFontSize: Double = 11

    // MARK: Motion

    /// The spring that pulls every bubble to its place. Critically damped at 4 Hz, a bubble let go
    /// 400 pt from its place is within 1 pt of it after about 0.45 s (3 Hz and ζ 0.95 took 0.57 s,
    /// too close to the 0.6 s a transition may take to look settled).
    public var placeSpring = Spring(frequency: 4, dampingRatio: 1)
    /// Share of a touching bubble's velocity removed per sub-step (the physics world's
    /// `contactDamping`): low, so neighbours slide past each other on the way to their places.
    public var contactFriction: Double = 0.02
    /// The spring used while computing a level's home layout.
    public var layoutSpring = Spring(frequency: 1.2, dampingRatio: 1)
    /// The packing phase of a home layout ends when no bubble moves faster than this (pt/s); the
    /// phases after it settle the layout exactly. Lower packs a little tighter and takes longer (at
    /// 1.5, the live world's rest speed, a 27-card level packs in about 900 steps).
    public var packRestSpeed: Double = 12
    /// Children grow in over `appearDuration`, one after another `appearStagger` apart (the whole
    /// stagger capped at `appearStaggerTotal`).
    public var appearDuration: Double = 0.26
    /// A child appears at this fraction of its distance from the focus and glides out to its place.
    public var appearFrom: Double = 0.94
    public var appearStagger: Double = 0.012
    public var appearStaggerTotal: Double = 0.1
    /// Bubbles that leave shrink and fade over `collapseDuration`, gliding towards the focus' rim
    /// by at most `collapseGlide` points.
    public var collapseDuration: Double = 0.28
    public var collapseGlide: Double = 160
    /// A bubble that becomes (or stops being) the focus travels and resizes over `focusDuration`.
    public var focusDuration: Double = 0.36
    /// A child further than this from its new place glides there at a capped speed instead of
    /// springing (pt).
    public var springReach: Double = 160
    /// A bubble travelling further than `maxTravelSpeed · focusDuration` takes longer, so its
    /// average speed stays within `maxTravelSpeed` (pt/s). A glide's smoothstep peaks at 1.5 times
    /// its average: 1500 pt/s keeps every bubble under 40 pt per 60 Hz step, and a glide of up to
    /// 600 pt (a long drag across an iPad, re-centred) ends within 0.4 s, 95% of it within 0.35 s.
    public var maxTravelSpeed: Double = 1500
    /// Overlays fade in and out over `overlayDuration`.
    public var overlayDuration: Double = 0.2
    /// Drag coupling: the spring to the dragged bubble has `dragNearFrequency` next to it and falls
    /// off as `1 / (1 + distance / dragFalloff)` to no less than `dragFarFrequency`.
    public var dragNearFrequency: Double = 7
    public var dragFarFrequency: Double = 1.2
    public var dragFalloff: Double = 180
    public var dragDampingRatio: Double = 0.9
    /// How the reports table scrolls.
    public var tableScroll = TableScrollSettings()

    public init() {}

    /// Sizes are made for the iPad's portrait bubble area (768 × 812 pt); smaller areas scale them
    /// by the square root of the area ratio, so a level covers the same share of it.
    var canvasScale: Double {
        let content = contentRect
        return min(1, max(0.45, (content.width * content.height / (768 * 812)).squareRoot()))
    }

    /// The area bubbles live in.
    var contentRect: Rect {
        let r = chrome.contentRect(canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        return Rect(x: r.x, y: r.y, width: r.width, height: r.height)
    }

    /// Checks sizes and numbers; throws a `DashboardError.invalidNumber` naming the first bad one.
    func validate() throws(DashboardError) {
        for (name, value) in [("canvasWidth", canvasWidth), ("canvasHeight", canvasHeight)] {
            guard value.isFinite, value >= 160, value <= 16_384 else {
                throw .invalidNumber(field: name, value: value)
            }
        }
        guard minimumLabelFontSize.isFinite, minimumLabelFontSize > 0, minimumLabelFontSize <= 40 else {
            throw .invalidNumber(field: "minimumLabelFontSize", value: minimumLabelFontSize)
        }
        guard packRestSpeed.isFinite, packRestSpeed > 0, packRestSpeed <= 1000 else {
            throw .invalidNumber(field: "packRestSpeed", value: packRestSpeed)
        }
        guard cardMaxLines >= 1 && cardMaxLines <= 12 else { throw .invalidNumber(field: "cardMaxLines", value: Double(cardMaxLines)) }
        guard categoryTitleInset.isFinite, categoryTitleInset >= 0, categoryTitleInset < 0.5 else {
            throw .invalidNumber(field: "categoryTitleInset", value: categoryTitleInset)
        }
        try tableScroll.validate()
        let content = contentRect
        guard content.height >= 80 else {
            throw .invalidNumber(field: "canvasHeight (too small for the bars)", value: canvasHeight)
        }
    }
}
