import BubbleDashboard
import CCairo

/// A picture of a page: Cairo ARGB32 pixels (premultiplied, native byte order), never changed once
/// made, so one picture may be drawn by several renderers at once.
public struct PageRaster: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    /// `stride × height` bytes.
    public let pixels: [UInt8]

    /// A picture of these pixels; nil when the sizes do not match the bytes.
    public init?(width: Int, height: Int, stride: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, stride >= width * 4, pixels.count >= stride * height else { return nil }
        self.width = width
        self.height = height
        self.stride = stride
        self.pixels = pixels
    }

    /// The picture a PNG file holds (decoded by Cairo); nil when the bytes are not a PNG Cairo reads.
    public init?(png: [UInt8]) {
        final class Reader {
            let bytes: [UInt8]
            var at = 0
            init(_ b: [UInt8]) { bytes = b }
        }
        let reader = Reader(png)
        let read: cairo_read_func_t = { closure, data, length in
            let r = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
            let n = Int(length)
            guard r.at + n <= r.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
            r.bytes.withUnsafeBufferPointer { data.update(from: $0.baseAddress! + r.at, count: n) }
            r.at += n
            return CAIRO_STATUS_SUCCESS
        }
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(read, Unmanaged.passUnretained(reader).toOpaque())!
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        // Cairo gives PNGs as ARGB32 or RGB24; both keep 4 bytes a pixel, the latter with an
        // undefined alpha byte, which is set opaque here.
        let format = cairo_image_surface_get_format(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let s = Int(cairo_image_surface_get_stride(surface))
        guard w > 0, h > 0, let data = cairo_image_surface_get_data(surface) else { return nil }
        var bytes = Array(UnsafeBufferPointer(start: data, count: s * h))
        if format == CAIRO_FORMAT_RGB24 {
            for y in 0..<h {
                for x in 0..<w { bytes[y * s + x * 4 + 3] = 255 }
            }
        } else if format != CAIRO_FORMAT_ARGB32 {
            return nil
        }
        self.init(width: w, height: h, stride: s, pixels: bytes)
    }
}

/// A report's first-page thumbnail for list rows, or what stands in for it.
public enum PageThumbnail: Sendable {
    /// The thumbnail.
    case picture(PageRaster)
    /// Not built yet: a neutral placeholder of the page's width / height (portrait < 1).
    case placeholder(aspect: Double)
}

/// Gives the renderer pictures of reports' pages: the host's bridge to its PDF files and its
/// library index (see `DashboardLibrary.ReportPageSource`). Called from the renderer's thread;
/// an implementation shared by several renderers must be thread-safe.
public protocol PagePictures: AnyObject, Sendable {
    /// A picture of page `page` (1-based) of the report, at least `pixelWidth` pixels wide (or as
    /// near as the source allows). With `wait`, it is drawn now if it is not ready; without, it
    /// returns the nearest picture ready (any size) or nil, and has the page drawn off the
    /// caller's thread. Nil also when the page cannot be drawn.
    func page(report: String, page: Int, pixelWidth: Int, wait: Bool) -> PageRaster?
    /// A picture of page `page` exactly `width` × `height` pixels (the page stretched to them), at
    /// most `maxPageWidth` wide: the viewer at fit width asks for the pixels a page covers, so
    /// that a frame copies the picture rather than resampling it. With and without `wait` as
    /// `page(report:page:pixelWidth:wait:)` (without, the nearest picture ready may be of
    /// another size).
    func page(report: String, page: Int, width: Int, height: Int, wait: Bool) -> PageRaster?
    /// The widest picture of a whole page `page(report:page:pixelWidth:wait:)` gives (px); a page
    /// drawn wider (deep zoom) is drawn in tiles of `tileSize` pixels, only those in view.
    var maxPageWidth: Int { get }
    /// The side of a tile (px).
    var tileSize: Int { get }
    /// The size step a page wanted `pixelWidth` pixels wide is drawn at (px, at least that wide
    /// where it can be).
    func step(for pixelWidth: Int) -> Int
    /// Tile (`column`, `row`) of page `page` drawn `width` pixels wide (a size step above
    /// `maxPageWidth`): `tileSize` square, less at the page's right and bottom edges. With `wait`
    /// as for `page(report:page:pixelWidth:wait:)`; without, nil until it is drawn.
    func tile(report: String, page: Int, width: Int, column: Int, row: Int, wait: Bool) -> PageRaster?
    /// Draws page `page` (1-based) as vectors into `cr`, filling the box (0, 0, width, height) of
    /// its user space (pt). False when it cannot (nothing is drawn then).
    func drawVector(report: String, page: Int, into cr: OpaquePointer, width: Double, height: Double) -> Bool
    /// The report's first-page thumbnail, or the placeholder's aspect ratio.
    func thumbnail(report: String) -> PageThumbnail
}

/// A page picture scaled to the pixels it is shown at.
struct ShownPageKey: Hashable {
    var report: String
    var page: Int
    var sourceWidth: Int
    var sourceHeight: Int
    var width: Int
    var height: Int
}

extension SceneRenderer {
    /// The device pixels `rect` (pt; its corners on whole device pixels) covers: its top left
    /// corner and its size, nil when it is empty or wider or higher than 16 384.
    func devicePixels(_ rect: SceneRect, _ cr: OpaquePointer) -> (x: Double, y: Double, width: Int, height: Int)? {
        var x = rect.x, y = rect.y
        cairo_user_to_device(cr, &x, &y)
        var x1 = rect.x + rect.width, y1 = rect.y + rect.height
        cairo_user_to_device(cr, &x1, &y1)
        let w = Int((x1 - x).rounded()), h = Int((y1 - y).rounded())
        guard w > 0, h > 0, w <= 16_384, h <= 16_384 else { return nil }
        return (x.rounded(), y.rounded(), w, h)
    }

    /// Paints page `page`'s `raster` into `rect` (pt; its corners on whole device pixels): copied
    /// as it is when it has the pixels `rect` covers, else from a copy scaled once to them. Drawn
    /// again at another whole-pixel place (a scroll), the page has exactly the same pixels, and
    /// each frame copies instead of resampling.
    func paintShownPage(_ raster: PageRaster, report: String, page: Int, into rect: SceneRect, _ f: Frame) {
        let cr = f.cr
        guard let (dx, dy, w, h) = devicePixels(rect, cr) else { return paint(raster, into: rect, f) }
        if raster.width == w, raster.height == h, f.raster {
            raster.pixels.withUnsafeBytes { buf in
                let base = UnsafeMutablePointer(mutating: buf.bindMemory(to: UInt8.self).baseAddress!)
                // Only read, while this frame paints it.
                let source = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(raster.stride))!
                blit(source, x: dx, y: dy, width: w, height: h, cr)
                cairo_surface_destroy(source)
            }
            return
        }
        // A copy larger than a third of what the copies may hold (a zoomed page) is not made:
        // that page is scaled into every frame.
        guard w * h * 4 <= shownPagesBudget / 3 else { return paint(raster, into: rect, f) }
        let key = ShownPageKey(report: report, page: page, sourceWidth: raster.width, sourceHeight: raster.height, width: w, height: h)
        let image: RenderedImage
        if let i = shownPages.firstIndex(where: { $0.key == key }) {
            let hit = shownPages.remove(at: i)
            shownPages.append(hit)
            image = hit.image
        } else {
            guard let made = try? RenderedImage(width: w, height: h) else { return paint(raster, into: rect, f) }
            let c = cairo_create(made.surface)!
            paint(raster, into: SceneRect(x: 0, y: 0, width: Double(w), height: Double(h)), Frame(cr: c, raster: true, records: false))
            cairo_destroy(c)
            image = made
            shownPages.append((key, made))
            shownBytes += w * h * 4
            trimShownPages()
        }
        blit(image.surface, x: dx, y: dy, width: w, height: h, cr)
    }

    /// The most bytes of page pictures kept scaled: half the sprite budget.
    var shownPagesBudget: Int { spriteBudgetBytes / 2 }

    /// Drops the oldest scaled page pictures past `keptShownPages` or `shownPagesBudget` (the
    /// newest stays: the frame being drawn shows it).
    func trimShownPages() {
        while shownPages.count > 1 && (shownPages.count > Self.keptShownPages || shownBytes > shownPagesBudget) {
            let old = shownPages.removeFirst().image
            shownBytes -= old.width * old.height * 4
        }
    }

    /// Copies `source` (`width` × `height` pixels) to device pixel (`x`, `y`), unfiltered.
    private func blit(_ source: OpaquePointer, x: Double, y: Double, width: Int, height: Int, _ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, x, y, Double(width), Double(height))
        cairo_clip(cr)
        cairo_set_source_surface(cr, source, x, y)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Paints `raster` scaled into `rect` (pt), smoothly filtered.
    func paint(_ raster: PageRaster, into rect: SceneRect, _ f: Frame) {
        let cr = f.cr
        raster.pixels.withUnsafeBytes { buf in
            let base = UnsafeMutablePointer(mutating: buf.bindMemory(to: UInt8.self).baseAddress!)
            let source: OpaquePointer
            if f.raster {
                // Painted at once into an image: the pixels are read in place.
                source = cairo_image_surface_create_for_data(base, CAIRO_FORMAT_ARGB32, Int32(raster.width), Int32(raster.height),
                                                            Int32(raster.stride))!
            } else {
                // A vector surface keeps its sources until it is finished: a copy it owns.
                source = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(raster.width), Int32(raster.height))!
                cairo_surface_flush(source)
                let stride = Int(cairo_image_surface_get_stride(source))
                if let dst = cairo_image_surface_get_data(source) {
                    for y in 0..<raster.height {
                        (dst + y * stride).update(from: base + y * raster.stride, count: raster.width * 4)
                    }
                }
                cairo_surface_mark_dirty(source)
            }
            cairo_save(cr)
            cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
            cairo_clip(cr)
            cairo_translate(cr, rect.x, rect.y)
            cairo_scale(cr, rect.width / Double(raster.width), rect.height / Double(raster.height))
            cairo_set_source_surface(cr, source, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
            cairo_paint(cr)
            cairo_restore(cr)
            cairo_surface_destroy(source)
        }
    }

    /// Records a picture (a page, a thumbnail) in the labels: no lines, its frame as container.
    func recordPicture(_ f: Frame, owner: String, label: String, frame r: SceneRect) {
        guard f.records else { return }
        f.labels.append(LabelLayout(owner: owner, role: .picture, label: label, fontSize: 0, lines: [], isTruncated: false,
                                    container: .rect(x: r.x, y: r.y, width: r.width, height: r.height),
                                    textColour: style.darkTextColour, backgroundColour: SceneColour(red: 255, green: 255, blue: 255)))
    }

    /// A report's thumbnail in a list row: the first page (or a neutral page of its aspect ratio)
    /// fitted into `box`, with a hairline frame; recorded as `owner`.
    func drawThumbnail(report: String, in box: SceneRect, owner: String, _ f: Frame) {
        let cr = f.cr
        let thumb = pictures?.thumbnail(report: report) ?? .placeholder(aspect: 1 / 1.4142)
        let aspect: Double
        switch thumb {
        case .picture(let r): aspect = Double(r.width) / Double(r.height)
        case .placeholder(let a): aspect = a > 0 && a.isFinite ? a : 1 / 1.4142
        }
        var w = box.width, h = w / aspect
        if h > box.height {
            h = box.height
            w = h * aspect
        }
        let r = SceneRect(x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        switch thumb {
        case .picture(let raster):
            setColour(cr, RenderColour.white)
            cairo_fill(cr)
            paint(raster, into: r, f)
        case .placeholder:
            setColour(cr, RenderColour(hex: 0xEEF1F5))
            cairo_fill(cr)
            // Three faint lines: a page, not a picture of one.
            setColour(cr, RenderColour(hex: 0xD6DCE4))
            for k in 0..<3 {
                let lw = r.width * (k == 2 ? 0.4 : 0.64)
                cairo_rectangle(cr, r.x + r.width * 0.18, r.y + r.height * (0.22 + 0.14 * Double(k)), lw, max(1, r.height * 0.05))
            }
            cairo_fill(cr)
        }
        cairo_rectangle(cr, r.x + 0.25, r.y + 0.25, r.width - 0.5, r.height - 0.5)
        setColour(cr, RenderColour(hex: 0xC3CBD6))
        cairo_set_line_width(cr, 0.5)
        cairo_stroke(cr)
        recordPicture(f, owner: owner, label: report, frame: r)
    }
}
