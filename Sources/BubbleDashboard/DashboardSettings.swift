import BubblePhysics

/// Every tunable of the dashboard, grouped by concern, in points, seconds and hertz, with defaults
/// that match the iPad app (768 × 1024 pt portrait).
///
/// Every number has a range (`DashboardSettings.fields`, the one table of them), and
/// `Dashboard(tree:settings:measurer:)` checks them all before it starts: a bad value is refused
/// there, naming its field, not at the first tap.
public struct DashboardSettings: Sendable, Hashable {
    /// Canvas width (pt; default 768, range 160–16 384). Any shape works: portrait, landscape,
    /// phone. `Dashboard.resize(to:)` changes it on a running dashboard.
    public var canvasWidth: Double = 768
    /// Canvas height (pt; default 1024, range 160–16 384).
    public var canvasHeight: Double = 1024
    /// The bars around the bubble area (their heights and buttons).
    public var chrome = SceneChrome()
    /// The sizes of circles and the share of the canvas a level covers.
    public var sizes = Sizes()
    /// How report cards are fitted to their titles.
    public var cards = Cards()
    /// The simulation that finds a level's home layout.
    public var layout = Layout()
    /// How bubbles move: springs, transitions, glides, overlays.
    public var motion = Motion()
    /// How the other bubbles follow a dragged one.
    public var drag = Drag()
    /// How the reports table scrolls.
    public var tableScroll = TableScrollSettings()

    /// The default settings.
    public init() {}

    /// Sizes of circles, spacing and the legibility floor, before a crowded level shrinks them (see
    /// `LevelLayout`). On a bubble area smaller than the iPad's portrait one (768 × 812 pt) every
    /// size is scaled by the square root of the area ratio (never below 0.45).
    public struct Sizes: Sendable, Hashable {
        /// Category circle radius at no reports (pt; default 44, range 1–1000): a circle's radius is
        /// `categoryRadiusBase + categoryRadiusPerSqrtReport · √(reports below)`, clamped to
        /// `categoryRadiusMin...categoryRadiusMax`.
        public var categoryRadiusBase: Double = 44
        /// Radius added per square root of the reports below (pt; default 8, range 0–1000).
        public var categoryRadiusPerSqrtReport: Double = 8
        /// Smallest category circle radius (pt; default 50, range 1–1000).
        public var categoryRadiusMin: Double = 50
        /// Largest category circle radius (pt; default 92, range 1–1000, at least `categoryRadiusMin`).
        public var categoryRadiusMax: Double = 92
        /// With a text measurer, a category circle grows (up to `categoryRadiusMax`) until its title
        /// fits inside `1 - categoryTitleInset` of its radius (default 0.12, range 0–0.49).
        public var categoryTitleInset: Double = 0.12
        /// The focused centre circle's radius on a 768 pt wide canvas (pt; default 96, range 1–1000).
        public var focusRadius: Double = 96
        /// The root circle's radius alone on the start screen (pt; default 150, range 1–2000).
        public var startRadius: Double = 150
        /// Empty space kept between neighbouring bubbles, added to every collision shape (pt;
        /// default 8, range 0–200).
        public var gap: Double = 8
        /// The most of the bubble area a level may cover (default 0.5, range 0.05–1); a fuller
        /// level shrinks every size by one common factor.
        public var fillFactor: Double = 0.5
        /// The least that common factor may be (default 0.3, range 0.01–1).
        public var minimumShrink: Double = 0.3
        /// The legibility floor: at rest every label is at least this size at scale 1 (pt; default
        /// 11, range 1–40). A level whose children cannot all be shown so is shown as groups
        /// (`LevelGrouping`).
        public var minimumLabelFontSize: Double = 11

        /// The default sizes.
        public init() {}
    }

    /// Report cards. With a text measurer (`Dashboard(tree:settings:measurer:)`) a card is as
    /// narrow as its title allows without taking more lines, at most `maxLines` lines. Without
    /// one, the title is broken into lines of at most `charactersPerLine` characters of
    /// `characterWidth` each.
    public struct Cards: Sendable, Hashable {
        /// Narrowest card (pt; default 116, range 10–2000).
        public var minWidth: Double = 116
        /// Widest card (pt; default 188, range 10–2000, at least `minWidth`).
        public var maxWidth: Double = 188
        /// Without a measurer: the most characters on a line (default 18, range 1–200).
        public var charactersPerLine: Int = 18
        /// Without a measurer: the width of a character (pt; default 8.4, range 1–100).
        public var characterWidth: Double = 8.4
        /// Left plus right padding around the title (pt; default 34, range 0–500).
        public var horizontalPadding: Double = 34
        /// Card height without its title lines (pt; default 46, range 0–1000).
        public var baseHeight: Double = 46
        /// Height added per title line (pt; default 18, range 1–200).
        public var lineHeight: Double = 18
        /// Corner radius (pt; default 14, range 0–200).
        public var cornerRadius: Double = 14
        /// The most title lines; a longer title is shortened by the renderer (default 3, range 1–12).
        public var maxLines: Int = 3

        /// The default cards.
        public init() {}
    }

    /// The simulation that packs a level's children around the focus into their home layout.
    public struct Layout: Sendable, Hashable {
        /// The spring pulling each child towards the focus while packing (default 1.2 Hz, damping
        /// ratio 1; frequency 0.1–30 Hz, damping ratio 0.05–2).
        public var spring = Spring(frequency: 1.2, dampingRatio: 1)
        /// Packing ends once no bubble moves faster than this; lower packs a little tighter and
        /// takes longer (pt/s; default 12, range 0.1–1000).
        public var restSpeed: Double = 12

        /// The default layout simulation.
        public init() {}
    }

    /// How bubbles move once a level is shown.
    public struct Motion: Sendable, Hashable {
        /// The spring that pulls every bubble to its place (default 4 Hz, damping ratio 1;
        /// frequency 0.1–30 Hz, damping ratio 0.05–2): a bubble let go 400 pt away is within 1 pt
        /// of its place after about 0.45 s.
        public var placeSpring = Spring(frequency: 4, dampingRatio: 1)
        /// Share of a touching bubble's velocity removed per sub-step (default 0.02, range 0–1):
        /// low, so neighbours slide past each other on the way to their places.
        public var contactFriction: Double = 0.02
        /// Children grow in over this (s; default 0.26, range 0–5).
        public var appearDuration: Double = 0.26
        /// A child appears at this share of its distance from the focus and glides out to its
        /// place (default 0.94, range 0–1).
        public var appearFrom: Double = 0.94
        /// Delay between one child growing in and the next (s; default 0.012, range 0–1).
        public var appearStagger: Double = 0.012
        /// The most the whole stagger may take (s; default 0.1, range 0–5).
        public var appearStaggerTotal: Double = 0.1
        /// Leaving bubbles shrink and fade over this (s; default 0.28, range 0–5).
        public var collapseDuration: Double = 0.28
        /// Leaving bubbles glide towards the focus' rim by at most this (pt; default 160, range 0–2000).
        public var collapseGlide: Double = 160
        /// A bubble becoming, or ceasing to be, the focus travels and resizes over this (s; default
        /// 0.36, range 0–5).
        public var focusDuration: Double = 0.36
        /// A child further than this from its new place glides there instead of springing (pt;
        /// default 160, range 0–5000).
        public var springReach: Double = 160
        /// A glide's average speed is at most this; a longer journey takes longer than its
        /// transition (pt/s; default 1500, range 50–20 000). A glide peaks at 1.5 times it.
        public var maxTravelSpeed: Double = 1500
        /// Overlays fade in and out over this (s; default 0.2, range 0–5).
        public var overlayDuration: Double = 0.2

        /// The default motion.
        public init() {}
    }

    /// Drag coupling: every other child follows the dragged bubble on a spring whose frequency is
    /// `nearFrequency / (1 + distance / falloff)`, and never less than `farFrequency`.
    public struct Drag: Sendable, Hashable {
        /// The coupling's frequency next to the dragged bubble (Hz; default 7, range 0.1–30).
        public var nearFrequency: Double = 7
        /// The least frequency, far away (Hz; default 1.2, range 0.1–30).
        public var farFrequency: Double = 1.2
        /// The distance over which the frequency halves (pt; default 180, range 1–10 000).
        public var falloff: Double = 180
        /// The coupling's damping ratio (default 0.9, range 0.05–2).
        public var dampingRatio: Double = 0.9

        /// The default drag coupling.
        public init() {}
    }

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
}

// MARK: - The range table

extension DashboardSettings {
    /// One number of the settings: its name, range, unit and where it lives. `DashboardSettings.fields`
    /// lists them all; the dashboard checks them at creation, the settings file reads and writes
    /// the motion ones (`isLive`) by these names, and the play page's panel shows them.
    public struct Field: Sendable {
        /// The name in settings files and error messages ("placeSpring.frequency", "cards.minWidth").
        public let name: String
        /// The values accepted (inclusive).
        public let range: ClosedRange<Double>
        /// The unit ("pt", "s", "Hz", "pt/s"; empty for a ratio or a count).
        public let unit: String
        /// A short description for the play page's settings panel.
        public let help: String
        /// Whether a running dashboard takes a new value (`Dashboard.updateFeel(_:)`, the
        /// `settings` event) rather than only at creation.
        public let isLive: Bool
        /// Whether the value is a whole number.
        public let isInteger: Bool
        private let get: @Sendable (DashboardSettings) -> Double
        private let set: @Sendable (inout DashboardSettings, Double) -> Void
        /// For a spring's frequency or damping ratio: the spring's name and the spring, so that a bad
        /// value is reported as `DashboardError.invalidSpring`.
        let spring: (name: String, of: @Sendable (DashboardSettings) -> Spring)?

        init(
            _ name: String, _ keyPath: WritableKeyPath<DashboardSettings, Double> & Sendable, _ range: ClosedRange<Double>,
            _ unit: String, _ help: String, live: Bool = false,
            spring: (name: String, keyPath: KeyPath<DashboardSettings, Spring> & Sendable)? = nil
        ) {
            self.name = name
            self.range = range
            self.unit = unit
            self.help = help
            isLive = live
            isInteger = false
            get = { $0[keyPath: keyPath] }
            set = { $0[keyPath: keyPath] = $1 }
            self.spring = spring.map { s in (s.name, { $0[keyPath: s.keyPath] }) }
        }

        init(
            _ name: String, _ keyPath: WritableKeyPath<DashboardSettings, Int> & Sendable, _ range: ClosedRange<Double>,
            _ unit: String, _ help: String
        ) {
            self.name = name
            self.range = range
            self.unit = unit
            self.help = help
            isLive = false
            isInteger = true
            spring = nil
            get = { Double($0[keyPath: keyPath]) }
            set = { $0[keyPath: keyPath] = Int($1) }
        }

        /// This field's value in `settings`.
        public func value(in settings: DashboardSettings) -> Double { get(settings) }

        /// `settings` with this field set to `value`, or the error naming the field when the value
        /// is not finite, not in `range`, or not whole where it must be.
        public func setting(_ value: Double, in settings: DashboardSettings) throws(DashboardError) -> DashboardSettings {
            try check(value)
            var s = settings
            set(&s, value)
            return s
        }

        func check(_ value: Double) throws(DashboardError) {
            guard value.isFinite, range.contains(value), !isInteger || value == value.rounded() else {
                throw .invalidSetting(field: name, value: value, range: range)
            }
        }
    }

    /// Every number of the settings with its range, in a fixed order (the settings file's order for
    /// the live ones).
    public static let fields: [Field] = [
        Field("canvasWidth", \.canvasWidth, 160...16_384, "pt", "canvas width"),
        Field("canvasHeight", \.canvasHeight, 160...16_384, "pt", "canvas height"),
        Field("sizes.categoryRadiusBase", \.sizes.categoryRadiusBase, 1...1000, "pt", "category radius at no reports"),
        Field("sizes.categoryRadiusPerSqrtReport", \.sizes.categoryRadiusPerSqrtReport, 0...1000, "pt", "radius per √reports"),
        Field("sizes.categoryRadiusMin", \.sizes.categoryRadiusMin, 1...1000, "pt", "smallest category circle"),
        Field("sizes.categoryRadiusMax", \.sizes.categoryRadiusMax, 1...1000, "pt", "largest category circle"),
        Field("sizes.categoryTitleInset", \.sizes.categoryTitleInset, 0...0.49, "", "title inset in a circle"),
        Field("sizes.focusRadius", \.sizes.focusRadius, 1...1000, "pt", "focus circle radius"),
        Field("sizes.startRadius", \.sizes.startRadius, 1...2000, "pt", "start screen circle radius"),
        Field("sizes.gap", \.sizes.gap, 0...200, "pt", "space between bubbles"),
        Field("sizes.fillFactor", \.sizes.fillFactor, 0.05...1, "", "most of the area a level covers"),
        Field("sizes.minimumShrink", \.sizes.minimumShrink, 0.01...1, "", "least common shrink"),
        Field("sizes.minimumLabelFontSize", \.sizes.minimumLabelFontSize, 1...40, "pt", "legibility floor"),
        Field("cards.minWidth", \.cards.minWidth, 10...2000, "pt", "narrowest card"),
        Field("cards.maxWidth", \.cards.maxWidth, 10...2000, "pt", "widest card"),
        Field("cards.charactersPerLine", \.cards.charactersPerLine, 1...200, "", "characters per line, estimated"),
        Field("cards.characterWidth", \.cards.characterWidth, 1...100, "pt", "character width, estimated"),
        Field("cards.horizontalPadding", \.cards.horizontalPadding, 0...500, "pt", "padding around a title"),
        Field("cards.baseHeight", \.cards.baseHeight, 0...1000, "pt", "card height without lines"),
        Field("cards.lineHeight", \.cards.lineHeight, 1...200, "pt", "height per title line"),
        Field("cards.cornerRadius", \.cards.cornerRadius, 0...200, "pt", "corner radius"),
        Field("cards.maxLines", \.cards.maxLines, 1...12, "", "most title lines"),
        Field("layout.spring.frequency", \.layout.spring.frequency, 0.1...30, "Hz", "packing spring",
              spring: ("layout.spring", \.layout.spring)),
        Field("layout.spring.dampingRatio", \.layout.spring.dampingRatio, 0.05...2, "", "its damping ratio",
              spring: ("layout.spring", \.layout.spring)),
        Field("layout.restSpeed", \.layout.restSpeed, 0.1...1000, "pt/s", "packing ends below this speed"),
        Field("placeSpring.frequency", \.motion.placeSpring.frequency, 0.1...30, "Hz", "spring to a bubble's place (Hz)", live: true,
              spring: ("placeSpring", \.motion.placeSpring)),
        Field("placeSpring.dampingRatio", \.motion.placeSpring.dampingRatio, 0.05...2, "", "its damping ratio", live: true,
              spring: ("placeSpring", \.motion.placeSpring)),
        Field("contactFriction", \.motion.contactFriction, 0...1, "", "velocity removed per sub-step in contact", live: true),
        Field("appearDuration", \.motion.appearDuration, 0...5, "s", "children grow in (s)", live: true),
        Field("appearFrom", \.motion.appearFrom, 0...1, "", "children start at this share of their way out", live: true),
        Field("appearStagger", \.motion.appearStagger, 0...1, "s", "delay between children (s)", live: true),
        Field("appearStaggerTotal", \.motion.appearStaggerTotal, 0...5, "s", "cap on the whole stagger (s)", live: true),
        Field("collapseDuration", \.motion.collapseDuration, 0...5, "s", "leaving bubbles fade (s)", live: true),
        Field("collapseGlide", \.motion.collapseGlide, 0...2000, "pt", "leaving bubbles glide at most (pt)", live: true),
        Field("focusDuration", \.motion.focusDuration, 0...5, "s", "a bubble becomes the focus (s)", live: true),
        Field("springReach", \.motion.springReach, 0...5000, "pt", "further than this a child glides (pt)", live: true),
        Field("maxTravelSpeed", \.motion.maxTravelSpeed, 50...20_000, "pt/s", "average glide speed cap (pt/s)", live: true),
        Field("overlayDuration", \.motion.overlayDuration, 0...5, "s", "overlays fade (s)", live: true),
        Field("dragNearFrequency", \.drag.nearFrequency, 0.1...30, "Hz", "drag coupling next to the dragged bubble (Hz)", live: true),
        Field("dragFarFrequency", \.drag.farFrequency, 0.1...30, "Hz", "drag coupling far away (Hz)", live: true),
        Field("dragFalloff", \.drag.falloff, 1...10_000, "pt", "distance the coupling halves over (pt)", live: true),
        Field("dragDampingRatio", \.drag.dampingRatio, 0.05...2, "", "damping of the drag coupling", live: true),
        Field("tableScroll.decelerationRate", \.tableScroll.decelerationRate, 0.9...0.9999, "", "table fling decay per ms", live: true),
        Field("tableScroll.rubberBandConstant", \.tableScroll.rubberBandConstant, 0...1, "", "table rubber band", live: true),
        Field("tableScroll.bounceFrequency", \.tableScroll.bounceFrequency, 0.1...30, "Hz", "table bounce spring (Hz)", live: true),
        Field("tableScroll.maxOvershoot", \.tableScroll.maxOvershoot, 0...10_000, "pt", "table overshoot at most (pt)", live: true),
        Field("tableScroll.maxVelocity", \.tableScroll.maxVelocity, 1...1_000_000, "pt/s", "fastest table fling (pt/s)", live: true),
        Field("tableScroll.restDistance", \.tableScroll.restDistance, 0.001...10, "pt", "a fling ends this close (pt)", live: true),
        Field("tableScroll.indicatorFadeDelay", \.tableScroll.indicatorFadeDelay, 0...10, "s", "indicator fades after (s)", live: true),
        Field("tableScroll.indicatorFadeDuration", \.tableScroll.indicatorFadeDuration, 0...10, "s", "indicator fades over (s)", live: true),
    ]

    /// Checks every field against its range (`fields`), then what ties fields together; throws
    /// the error naming the first bad one.
    func validate() throws(DashboardError) {
        for field in Self.fields {
            let v = field.value(in: self)
            guard v.isFinite, field.range.contains(v) else {
                if let spring = field.spring {
                    let s = spring.of(self)
                    throw .invalidSpring(field: spring.name, frequency: s.frequency, dampingRatio: s.dampingRatio)
                }
                throw .invalidSetting(field: field.name, value: v, range: field.range)
            }
        }
        guard sizes.categoryRadiusMin <= sizes.categoryRadiusMax else {
            throw .invalidSetting(field: "sizes.categoryRadiusMax", value: sizes.categoryRadiusMax, range: sizes.categoryRadiusMin...1000)
        }
        guard cards.minWidth <= cards.maxWidth else {
            throw .invalidSetting(field: "cards.maxWidth", value: cards.maxWidth, range: cards.minWidth...2000)
        }
        guard contentRect.height >= 80 else {
            throw .invalidNumber(field: "canvasHeight (too small for the bars)", value: canvasHeight)
        }
    }
}
