import BubbleDashboard
import CCairo
import Foundation

/// Draws a `Scene` with Cairo: into an image at a pixel scale (PNG), or into any Cairo context
/// (SVG). Keeps caches of what rarely changes between frames — the background, the bars, the
/// blurred focus circle, shadow sprites and text layouts — so it is meant to be kept and reused
/// for a sequence of frames. Not thread-safe: use one renderer per thread.
public final class SceneRenderer {
    /// Palette, fonts and metrics.
    public let style: RenderStyle
    /// Device pixels per canvas point for raster output (2 → 768×1024 pt becomes 1536×2048 px).
    public let pixelScale: Double

    let engine: TextEngine
    let fitter: TextFitter
    var bubbleTexts: [BubbleTextKey: BubbleText] = [:]
    var paints: [SceneColour: BubblePaint] = [:]
    /// The last few blurred foci per pixel scale (the raster frame's, and 1 for SVG), most recent
    /// last: a level coming back, or a filter toggled, finds its focus still blurred.
    var focusCache: [Double: [FocusImage]] = [:]
    /// How many blurred foci are kept per pixel scale: 8. Each filter gives the focus a slightly
    /// different size, so a filter toggled among four keywords and cleared takes five in turn
    /// (with 4, every one of them was blurred again).
    static let keptFoci = 8
    var shadowSprites: [SceneShape: Sprite] = [:]
    var bodySprites: [BodyKey: Sprite] = [:]
    var spriteBytes = 0
    var shadowBytes = 0
    var bubbleTextBytes = 0
    /// The most bytes the bubble and shadow sprites and the page pictures scaled for the viewer
    /// may hold together (default 96 MiB; the pages at most half of it); past it the sprites are
    /// dropped and drawn again as needed, and the oldest pages go. A host with several renderers
    /// (the play server) splits one budget between them. Lowering it drops them at once.
    public var spriteBudgetBytes = 96 << 20 {
        didSet {
            trimShownPages()
            if spriteBytes + shadowBytes + shownBytes > spriteBudgetBytes { dropSprites() }
        }
    }
    /// Page pictures scaled to the pixels they are shown at, most recent last (see `paintShownPage`).
    var shownPages: [(key: ShownPageKey, image: RenderedImage)] = []
    /// The bytes of `shownPages`.
    var shownBytes = 0
    /// The most page pictures kept scaled: 6 (the pages of a viewport and their neighbours).
    static let keptShownPages = 6
    var backgroundCache: (key: CanvasKey, image: RenderedImage)?
    var topBarCache: (key: TopBarKey, image: RenderedImage)?
    var bottomBarCache: (key: CanvasKey, image: RenderedImage)?

    /// How often the blurred focus image was computed and reused (for tests and the benchmark).
    public internal(set) var blurComputations = 0
    /// See `blurComputations`.
    public internal(set) var blurCacheHits = 0
    /// How many bubbles were left undrawn because an overlay's opaque card covered them (for tests
    /// and the benchmark).
    public internal(set) var bubblesUnderCards = 0
    /// Whether what an overlay's opaque card paints over is left undrawn: the bubbles wholly under
    /// it, and the dimming and the card's own shadow under its inside (default true; the pixels
    /// are the same either way).
    @_spi(Testbed) public var skipsWorkUnderCards = true
    /// Pictures of reports' pages for the preview and the thumbnails of list rows (nil: the
    /// preview draws a stand-in page and rows show placeholders).
    public var pictures: (any PagePictures)? = nil
    /// Whether a frame waits for a sharp page that is not drawn yet (default true: exports and
    /// renders always show it). A live host sets false: the nearest picture ready, the thumbnail
    /// or a placeholder stands in, and the page is drawn off the frame's thread.
    public var waitsForPages = true

    /// A renderer with `style` (default: the standard one) at `pixelScale` device pixels per point (default 2).
    public init(style: RenderStyle = RenderStyle(), pixelScale: Double = 2) {
        self.style = style
        self.pixelScale = pixelScale
        engine = TextEngine(family: style.fontFamily)
        fitter = TextFitter(engine: engine)
    }

    /// Drops every cache (the next frame is drawn from scratch).
    public func clearCaches() {
        bubbleTexts.removeAll()
        bubbleTextBytes = 0
        paints.removeAll()
        focusCache.removeAll()
        dropSprites()
        shownPages.removeAll()
        shownBytes = 0
        backgroundCache = nil
        topBarCache = nil
        bottomBarCache = nil
    }

    func dropSprites() {
        shadowSprites.removeAll()
        bodySprites.removeAll()
        spriteBytes = 0
        shadowBytes = 0
    }

    /// The bytes of the raster caches (sprites, background, bars, blurred focus, scaled pages), in bytes of
    /// pixels; the text layouts are bounded by count (`TextEngine`) and not included.
    public var rasterCacheBytes: Int {
        func bytes(_ i: RenderedImage?) -> Int { i.map { $0.width * $0.height * 4 } ?? 0 }
        var n = spriteBytes + shadowBytes + bytes(backgroundCache?.image) + bytes(topBarCache?.image) + bytes(bottomBarCache?.image)
        for list in focusCache.values { for f in list { n += bytes(f.sprite.image) } }
        return n + shownBytes
    }

    /// Cached text entries (bubble labels and text layouts), for statistics.
    public var textCacheEntries: Int { bubbleTexts.count + engine.cachedEntries }

    /// The most bytes the text caches may hold, estimated (the layouts, and the fitted labels
    /// that keep layouts alive; default unbounded: then only their entry bounds apply). A host
    /// with several renderers splits one budget between them. Lowering it takes effect as the
    /// caches fill.
    public var textBudgetBytes: Int {
        get { engine.layoutBudgetBytes }
        set { engine.layoutBudgetBytes = newValue }
    }

    /// The text caches' size by that estimate, in bytes.
    public var textCacheBytes: Int { engine.layoutCacheBytes + bubbleTextBytes }

    /// The pixel size of a scene's frame at this renderer's scale.
    public func pixelSize(of scene: Scene) -> (width: Int, height: Int) {
        (Int((scene.canvasWidth * pixelScale).rounded()), Int((scene.canvasHeight * pixelScale).rounded()))
    }

    // MARK: Raster

    /// Renders one frame into a new ARGB32 image at `pixelScale`.
    public func render(_ scene: Scene) throws -> RenderedImage {
        try render(scene, reusing: nil)
    }

    /// Renders one frame, into `image` when it has the frame's size (every pixel is overwritten),
    /// which saves allocating and clearing 12 MB per frame in an animation.
    public func render(_ scene: Scene, reusing previous: RenderedImage?) throws -> RenderedImage {
        let (w, h) = pixelSize(of: scene)
        let image: RenderedImage
        if let previous, previous.width == max(1, w), previous.height == max(1, h), previous.isARGB32 {
            image = previous
        } else {
            image = try RenderedImage(width: max(1, w), height: max(1, h))
        }
        try draw(scene, into: image, inside: nil)
        return image
    }

    /// Draws `scene` into `image` at `pixelScale`, only inside `regions` (pixels) when given.
    /// Regions inside the preview's page viewport (see `viewportInterior(_:)`) are drawn with the
    /// viewport alone, everything under it being hidden there.
    private func draw(_ scene: Scene, into image: RenderedImage, inside regions: [PixelRect]?) throws {
        let cr = cairo_create(image.surface)!
        defer { cairo_destroy(cr) }
        func drawn(inside rects: [PixelRect]?, _ body: (Scene, Frame) -> Void) {
            if let rects, rects.isEmpty { return }
            cairo_save(cr)
            if let rects {
                for r in rects { cairo_rectangle(cr, Double(r.x), Double(r.y), Double(r.width), Double(r.height)) }
                cairo_clip(cr)
            }
            cairo_scale(cr, pixelScale, pixelScale)
            body(scene, Frame(cr: cr, raster: true, records: false))
            cairo_restore(cr)
        }
        if let regions, let (v, c) = viewportInterior(scene) {
            // The interior: a middle band of full height, and the side bands between the corners.
            let bands = [
                PixelRect(x: v.x + c, y: v.y, width: v.width - 2 * c, height: v.height),
                PixelRect(x: v.x, y: v.y + c, width: c, height: v.height - 2 * c),
                PixelRect(x: v.x + v.width - c, y: v.y + c, width: c, height: v.height - 2 * c),
            ]
            let corners = v.cornerSquares(side: c)
            let inner = regions.flatMap { r in bands.compactMap { r.intersection($0) } }
            let outer = regions.flatMap { r in r.subtracting(v) + corners.compactMap { r.intersection($0) } }
            drawn(inside: outer, drawScene)
            drawn(inside: inner, drawViewportOnly)
        } else {
            drawn(inside: regions, drawScene)
        }
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(file: nil, status: String(cString: cairo_status_to_string(status)))
        }
    }

    /// A rectangle of a picture's pixels.
    public struct PixelRect: Sendable, Equatable {
        /// The left column and top row.
        public var x, y: Int
        /// Columns and rows.
        public var width, height: Int

        /// A rectangle of pixels.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// The pixels in both; nil when none.
        public func intersection(_ o: PixelRect) -> PixelRect? {
            let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(x + width, o.x + o.width), y1 = min(y + height, o.y + o.height)
            return x1 > x0 && y1 > y0 ? PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }

        /// The four `side` × `side` squares at its corners.
        public func cornerSquares(side c: Int) -> [PixelRect] {
            [(x, y), (x + width - c, y), (x, y + height - c), (x + width - c, y + height - c)].map { PixelRect(x: $0.0, y: $0.1, width: c, height: c) }
        }

        /// The pixels not in `o`, as up to four rectangles (the rows above and below it, then the
        /// columns beside it).
        public func subtracting(_ o: PixelRect) -> [PixelRect] {
            guard let c = intersection(o) else { return width > 0 && height > 0 ? [self] : [] }
            return [
                PixelRect(x: x, y: y, width: width, height: c.y - y),
                PixelRect(x: x, y: c.y + c.height, width: width, height: y + height - c.y - c.height),
                PixelRect(x: x, y: c.y, width: c.x - x, height: c.height),
                PixelRect(x: c.x + c.width, y: c.y, width: x + width - c.x - c.width, height: c.height),
            ].filter { $0.width > 0 && $0.height > 0 }
        }
    }

    /// Draws `scene` into `image` (of the frame's size at `pixelScale`) inside `regions` only,
    /// leaving every other pixel as it is: when the image shows a scene that differs from this
    /// one only inside them, it then shows this scene, as `render(_:)` would draw it (the regions
    /// are whole pixels, so what is drawn inside them does not depend on them).
    public func render(_ scene: Scene, over image: RenderedImage, inside regions: [PixelRect]) throws {
        let (w, h) = pixelSize(of: scene)
        guard image.width == max(1, w), image.height == max(1, h), image.isARGB32 else {
            throw RenderError.cairo(file: nil, status: "an image of \(image.width)×\(image.height) for a frame of \(w)×\(h)")
        }
        let drawn = regions.filter { $0.width > 0 && $0.height > 0 }
        guard !drawn.isEmpty else { return }
        try draw(scene, into: image, inside: drawn)
    }

    /// Renders `scene` and writes it as PNG to `path` (atomically).
    public func writePNG(_ scene: Scene, to path: String, encoder: PNGEncoderChoice = .fast, using fs: FileSystemCalls = .system) throws {
        let image: RenderedImage
        do { image = try render(scene) } catch RenderError.cairo(_, let status) { throw RenderError.cairo(file: path, status: status) }
        try image.writePNG(to: path, encoder: encoder, using: fs)
    }

    /// Draws `scene` into any Cairo context whose user space is canvas points. With `pixelAligned`
    /// (an image surface at `pixelScale`), cached raster layers are used; otherwise everything is
    /// drawn as vectors except the blurred focus, which is an embedded raster.
    public func draw(_ scene: Scene, into cr: OpaquePointer, pixelAligned: Bool) {
        drawScene(scene, Frame(cr: cr, raster: pixelAligned, records: false))
    }

    // MARK: SVG

    /// The frame as an SVG document (Cairo's SVG surface, size in points).
    ///
    /// The blurred focus circle is an embedded raster (a PNG in an `<image>`), not an SVG filter:
    /// Cairo's SVG surface cannot emit filters, injecting a `<filter>` into Cairo's output would mean
    /// rewriting its XML, and `feGaussianBlur` renders differently across viewers (and not at all in
    /// some converters). The raster looks exactly like the PNG frame and costs one small image, since
    /// a blurred image compresses well. Cairo 1.16 draws text as glyph outlines (`<symbol>`s used per
    /// glyph), so text is not selectable; each glyph outline is stored once per font size. The raster
    /// is embedded at 1 px per point.
    public func svg(_ scene: Scene) throws -> [UInt8] {
        let sink = ByteSink()
        let surface = cairo_svg_surface_create_for_stream(
            byteSinkWrite, Unmanaged.passUnretained(sink).toOpaque(), scene.canvasWidth, scene.canvasHeight)!
        cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
        let cr = cairo_create(surface)!
        drawScene(scene, Frame(cr: cr, raster: false, records: false))
        var status = cairo_status(cr)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        if status == CAIRO_STATUS_SUCCESS { status = cairo_surface_status(surface) }
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(file: nil, status: String(cString: cairo_status_to_string(status)))
        }
        return withExtendedLifetime(sink) { sink.bytes }
    }

    /// Renders `scene` as SVG to `path` (atomically).
    public func writeSVG(_ scene: Scene, to path: String, using fs: FileSystemCalls = .system) throws {
        let bytes: [UInt8]
        do { bytes = try svg(scene) } catch RenderError.cairo(_, let status) { throw RenderError.cairo(file: path, status: status) }
        try AtomicFile.write(bytes, to: path, using: fs)
    }

    // MARK: Labels

    /// Every label of the frame as laid out and drawn: lines with measured extents in canvas points,
    /// the shape each belongs to, and its text and background colours.
    public func layoutLabels(_ scene: Scene) -> [LabelLayout] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)!
        let cr = cairo_create(surface)!
        cairo_rectangle(cr, 0, 0, 0, 0)
        cairo_clip(cr)
        let frame = Frame(cr: cr, raster: false, records: true)
        drawScene(scene, frame)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        return frame.labels
    }

    /// (label, text colour, background colour) for every label of the frame.
    public func labelColours(_ scene: Scene) -> [LabelColours] {
        layoutLabels(scene).map { LabelColours(label: $0.label, textColour: $0.textColour, backgroundColour: $0.backgroundColour) }
    }

    // MARK: Frame

    func drawScene(_ scene: Scene, _ f: Frame) {
        let cr = f.cr
        drawBackground(scene, f)
        // Bubbles wholly under an open overlay's opaque card are not drawn: the card paints over
        // every pixel they would touch (in pictures only; labels are still recorded).
        let cover = f.raster && !f.records && skipsWorkUnderCards ? overlayCover(scene) : nil
        for bubble in scene.bubbles {
            if let cover, isHidden(bubble, under: cover) {
                bubblesUnderCards += 1
                continue
            }
            drawBubble(bubble, f)
            drawBubbleMarks(bubble, f)
        }
        if let filter = scene.filter { drawFilterEmpty(filter, scene: scene, f) }
        if let pan = scene.pan { drawPanIndicators(pan, f) }
        drawTopBars(scene, f)
        drawBottomBar(scene, f)
        if let overlay = scene.overlay, scene.overlayOpacity > 0 {
            let o = min(1, scene.overlayOpacity)
            cairo_save(cr)
            setColour(cr, style.dimColour.withAlpha(style.dimColour.alpha * o))
            cairo_rectangle(cr, 0, 0, scene.canvasWidth, scene.canvasHeight)
            if let cover {
                // Not under the card, which paints over it.
                cairo_rectangle(cr, cover.x, cover.y, cover.width, cover.height)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            }
            cairo_fill(cr)
            cairo_restore(cr)
            drawOverlay(overlay, opacity: o, scene: scene, f)
        }
        if let notice = scene.notice { drawNotice(notice, scene: scene, f) }
    }

    func drawBackground(_ scene: Scene, _ f: Frame) {
        let cr = f.cr
        if f.raster {
            let key = CanvasKey(width: scene.canvasWidth, height: scene.canvasHeight, chrome: scene.chrome)
            let (w, h) = pixelSize(of: scene)
            if backgroundCache?.key != key, let img = try? RenderedImage(width: max(1, w), height: max(1, h)) {  // no cache: drawn directly
                let c = cairo_create(img.surface)!
                cairo_scale(c, pixelScale, pixelScale)
                paintBackground(scene, c)
                cairo_destroy(c)
                backgroundCache = (key, img)
            }
            if let bg = backgroundCache?.image {
                cairo_save(cr)
                cairo_identity_matrix(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_set_source_surface(cr, bg.surface, 0, 0)
                cairo_paint(cr)
                cairo_restore(cr)
                return
            }
        }
        paintBackground(scene, cr)
    }

    private func paintBackground(_ scene: Scene, _ cr: OpaquePointer) {
        cairo_rectangle(cr, 0, 0, scene.canvasWidth, scene.canvasHeight)
        fillVerticalGradient(cr, y0: 0, y1: scene.canvasHeight, top: style.backgroundTop, bottom: style.backgroundBottom)
        guard style.backgroundGlow > 0 else { return }
        // A faint light pool behind the centre of the content area.
        let r = scene.chrome.contentRect(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2
        let radius = max(r.width, r.height) * 0.6
        let p = cairo_pattern_create_radial(cx, cy, 0, cx, cy, radius)!
        cairo_pattern_add_color_stop_rgba(p, 0, 1, 1, 1, style.backgroundGlow)
        cairo_pattern_add_color_stop_rgba(p, 1, 1, 1, 1, 0)
        cairo_set_source(cr, p)
        cairo_rectangle(cr, 0, 0, scene.canvasWidth, scene.canvasHeight)
        cairo_fill(cr)
        cairo_pattern_destroy(p)
    }
}

/// The drawing state of one frame.
final class Frame {
    let cr: OpaquePointer
    /// Drawing into an image at the renderer's pixel scale: cached raster layers may be used.
    let raster: Bool
    /// Collecting label layouts (and skipping raster-only work).
    let records: Bool
    var labels: [LabelLayout] = []

    init(cr: OpaquePointer, raster: Bool, records: Bool) {
        self.cr = cr
        self.raster = raster
        self.records = records
    }
}

struct CanvasKey: Hashable {
    var width: Double
    var height: Double
    var chrome: SceneChrome
}

struct TopBarKey: Hashable {
    var canvas: CanvasKey
    var breadcrumbs: [String]
    var caption: String?
    var tokens: [SceneToken] = []
}

extension SceneRenderer {
    /// Where a line of text stands relative to its x.
    public enum TextAnchor: Sendable {
        case start, end
    }

    /// Draws one line of text through this renderer's text layout (Pango, the pinned fonts) into
    /// any Cairo context, in its current source colour, with its first baseline at `baseline`:
    /// starting at `x`, or ending there with `.end`. Shortened with an ellipsis at the end to
    /// `maxWidth` when given. Returns the width drawn. For captions around frames (the export's
    /// contact sheet).
    @discardableResult
    public func drawText(
        _ text: String, in cr: OpaquePointer, x: Double, baseline: Double, size: Double, bold: Bool = false,
        maxWidth: Double? = nil, anchor: TextAnchor = .start
    ) -> Double {
        let font = FontKey(bold: bold, size: size)
        let layout = maxWidth.map { fitter.singleLine(text, width: $0, font: font) } ?? engine.line(text, font)
        layout.draw(cr, x: anchor == .start ? x : x - layout.width, y: baseline - layout.baseline)
        return layout.width
    }
}
