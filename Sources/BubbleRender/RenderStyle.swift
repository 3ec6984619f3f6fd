import BubbleDashboard

/// A colour with alpha, components 0...1, used for the renderer's palette.
public struct RenderColour: Sendable, Hashable {
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Opacity, 0...1 (default 1).
    public var alpha: Double

    /// The colour with these components (0...1; `alpha` default 1).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// From a 0xRRGGBB literal.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    /// A scene colour (8 bits per channel) with `alpha` (default 1).
    public init(_ colour: SceneColour, alpha: Double = 1) {
        self.init(red: Double(colour.red) / 255, green: Double(colour.green) / 255, blue: Double(colour.blue) / 255, alpha: alpha)
    }

    /// The opaque sRGB colour, rounded to 8 bits per channel (alpha dropped).
    public var sceneColour: SceneColour {
        func c(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return SceneColour(red: c(red), green: c(green), blue: c(blue))
    }

    /// Mixes towards `other` by `t` (0 = self, 1 = other), alpha included.
    public func mixed(with other: RenderColour, _ t: Double) -> RenderColour {
        RenderColour(
            red: red + (other.red - red) * t, green: green + (other.green - green) * t,
            blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// The same colour with opacity `a` (0...1).
    public func withAlpha(_ a: Double) -> RenderColour { RenderColour(red: red, green: green, blue: blue, alpha: a) }

    /// Opaque white.
    public static let white = RenderColour(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = RenderColour(red: 0, green: 0, blue: 0)
}

/// Everything that styles a frame: palette, type sizes and the few metrics that are not in the
/// scene. All sizes are in canvas points; the renderer multiplies by the pixel scale.
///
/// The defaults give a light iOS-like look: a calm blue-grey background, white translucent-looking
/// bars, a saturated blue static area, and category circles in their branch colours.
public struct RenderStyle: Sendable, Hashable {
    /// The first font family of every label. Characters it has no glyph for are drawn from the
    /// pinned fallback fonts (`PinnedFonts`: Noto for the other scripts, Noto Color Emoji), one glyph
    /// at a time; no other font on the machine is ever used.
    public var fontFamily = "DejaVu Sans"

    // MARK: Palette
    /// Content background: a vertical gradient from `backgroundTop` to `backgroundBottom`.
    public var backgroundTop = RenderColour(hex: 0xF3F6FA)
    /// See `backgroundTop`.
    public var backgroundBottom = RenderColour(hex: 0xE3E9F1)
    /// Opacity of a soft white glow behind the centre of the content area (0 for none). It makes
    /// every background pixel differ from its neighbours, which costs PNG encoding time and size.
    public var backgroundGlow = 0.0
    /// Navigation bar, breadcrumb strip and toolbar fill.
    public var barColour = RenderColour(hex: 0xFCFDFE)
    /// Hairlines between bars and content.
    public var separatorColour = RenderColour(hex: 0xD5DBE4)
    /// The accent: icons, links in the breadcrumb trail.
    public var tintColour = RenderColour(hex: 0x0A5FCC)
    /// The blue static area under the toolbar.
    public var staticAreaColour = RenderColour(hex: 0x1552B0)
    /// Fill for bubbles without a branch colour (the root and uncoloured branches): a neutral slate.
    public var neutralBubbleColour = SceneColour(red: 0x5B, green: 0x6B, blue: 0x82)
    /// Dark text; light text is white.
    public var darkTextColour = SceneColour(red: 0x17, green: 0x1E, blue: 0x29)
    /// Secondary text on white (authors, page counts): still ≥ 4.5:1 on white and on `barColour`.
    public var secondaryTextColour = SceneColour(red: 0x55, green: 0x60, blue: 0x6E)
    /// Report card fill.
    public var cardColour = RenderColour(hex: 0xFFFFFF)
    /// Drop shadow under bubbles and cards.
    public var shadowColour = RenderColour(hex: 0x1A2B44, alpha: 0.22)
    /// Dimming over the dashboard when an overlay is fully shown.
    public var dimColour = RenderColour(hex: 0x0B1220, alpha: 0.45)

    // MARK: Type
    /// Largest and smallest title size inside category circles.
    public var circleTitleFontSize = 17.0
    /// The smallest title size inside category circles (pt, default 9).
    public var minimumCircleTitleFontSize = 9.0
    /// The size a category circle grows to hold its whole title at (`PangoTextMeasurer`).
    public var measuredCircleTitleFontSize = 14.0
    /// Largest title size inside the focus circle.
    public var focusTitleFontSize = 26.0
    /// Largest and smallest title size inside report cards (pt; defaults 14 and 10). A card whose
    /// scene bubble has a `titleScale` starts at `cardTitleFontSize` times that (never below the
    /// smallest), so every card of a level shows one title size.
    public var cardTitleFontSize = 14.0
    /// See `cardTitleFontSize` (pt, default 10).
    public var minimumCardTitleFontSize = 10.0
    /// The page count ("12 pp") on cards.
    public var pageCountFontSize = 10.5
    /// The navigation bar's title (pt, default 17).
    public var navigationTitleFontSize = 17.0
    /// The breadcrumb trail (pt, default 13).
    public var breadcrumbFontSize = 13.0
    /// The toolbar buttons' captions (pt, default 10).
    public var toolbarCaptionFontSize = 10.0
    /// The static area's title (pt, default 15).
    public var staticTitleFontSize = 15.0
    /// The static area's caption (pt, default 11.5).
    public var staticCaptionFontSize = 11.5
    /// An overlay's title (pt, default 21).
    public var overlayTitleFontSize = 21.0
    /// An overlay's text (pt, default 14).
    public var overlayBodyFontSize = 14.0
    /// The preview's keyword chips (pt, default 12).
    public var chipFontSize = 12.0
    /// The filter sheet's keyword chips and the filter tokens in the breadcrumb strip (regular
    /// weight, pt; the size `PangoTextMeasurer` measures `.chip` text at): 14.
    public var filterChipFontSize = 14.0
    /// The search field's text (pt): 16.
    public var searchFieldFontSize = 16.0
    /// The titles of search results (pt): 15; their category path is 12, their page count 13.
    public var searchResultFontSize = 15.0
    /// The reports table's rows (pt, default 13).
    public var tableFontSize = 13.0
    /// Line height as a multiple of the font size.
    public var lineSpacing = 1.18

    // MARK: Metrics
    /// Gaussian sigma of the focus blur at `blur == 1`, in points (three box passes approximate it).
    public var focusBlurRadius = 10.0
    /// Shadow: offset down and blur sigma, in points.
    public var shadowOffset = 3.0
    /// See `shadowOffset` (pt, default 5).
    public var shadowBlur = 5.0
    /// Static texts.
    public var appTitle = "Report Library"
    /// The static area's title.
    public var staticAreaTitle = "Bubbles"
    /// The static area's caption.
    public var staticAreaCaption = "Tap a bubble to open it · pinch to go back"
    /// Minimum WCAG contrast ratio for every label; fills are darkened or lightened to reach it.
    public var minimumContrast = 4.5
    /// Bubbles whose branch colour gives white text at least this contrast get white text, the fill
    /// being darkened just enough to reach `minimumContrast`; lighter fills get dark text.
    public var preferLightTextAbove = 2.9

    /// The default style.
    public init() {}
}
