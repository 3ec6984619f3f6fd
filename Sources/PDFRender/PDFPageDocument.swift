import CCairo
import PDFCore

/// An error that stops a whole document or page from being drawn, with its place.
public struct PDFRenderError: Error, Sendable, CustomStringConvertible {
    /// The category.
    public enum Kind: String, Sendable {
        /// The file could not be read as a PDF (see `underlying`).
        case unreadable
        /// The document is encrypted and the password does not open it.
        case passwordRequired
        /// The page number is outside the document.
        case noSuchPage
        /// The page's dictionary is damaged past repair.
        case badPage
        /// The output surface could not be made (size too large, out of memory) or written.
        case output
    }
    /// The category.
    public var kind: Kind
    /// What happened, in words.
    public var message: String
    /// The 1-based page, when the error concerns one.
    public var page: Int?
    /// The object number concerned, when known.
    public var object: Int?
    /// The byte offset in the file, when known.
    public var offset: Int?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, page: Int? = nil, object: Int? = nil, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.page = page
        self.object = object
        self.offset = offset
    }

    /// "page N, object O, byte B: message".
    public var description: String {
        var place: [String] = []
        if let page { place.append("page \(page)") }
        if let object { place.append("object \(object)") }
        if let offset { place.append("byte \(offset)") }
        return place.isEmpty ? message : "\(place.joined(separator: ", ")): \(message)"
    }
}

/// Options for drawing pages.
public struct PDFRenderOptions: Sendable {
    /// The user password to try (the empty one opens most "protected" reports).
    public var password: String = ""
    /// Whether the page gets a white background (else transparent). Default true.
    public var whiteBackground = true
    /// How long one page may take before drawing stops with a `timeout` warning (default 10 s; nil: no limit).
    public var timeout: Duration? = .seconds(10)
    /// Whether annotations' appearance streams are drawn (default true).
    public var annotations = true
    /// The most bytes one stream (content, image, font) may decode to (default 256 MiB).
    public var maxStreamBytes: Int = 256 << 20
    /// The most bytes of font programs a document keeps loaded (default 64 MiB).
    public var fontCacheBytes: Int = 64 << 20

    /// Creates options with the defaults.
    public init() {}
}

/// A page's drawn pixels: premultiplied ARGB32 in native byte order, top row first.
public struct PDFPageImage: Sendable {
    /// Width and height in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes per row.
    public var stride: Int
    /// The pixels, `stride × height` bytes.
    public var pixels: [UInt8]
    /// What was skipped or approximated on the page.
    public var warnings: [PDFRenderWarning]
}

/// The geometry of one page.
public struct PDFPageInfo: Sendable, Equatable {
    /// The visible area (the crop box within the media box), in points (1/72 inch × UserUnit).
    public var box: PDFRect
    /// The page's rotation in degrees clockwise: 0, 90, 180 or 270.
    public var rotation: Int
    /// Points per user-space unit (`/UserUnit`, default 1).
    public var userUnit: Double
    /// The page's size as displayed (after rotation), in points.
    public var size: (width: Double, height: Double) {
        let w = box.width * userUnit, h = box.height * userUnit
        return rotation % 180 == 0 ? (w, h) : (h, w)
    }

    /// Equal boxes, rotations and user units.
    public static func == (a: PDFPageInfo, b: PDFPageInfo) -> Bool {
        a.box == b.box && a.rotation == b.rotation && a.userUnit == b.userUnit
    }
}

/// One PDF opened for drawing its pages. Not thread-safe: one document per thread; several
/// documents can draw on several threads at once.
public final class PDFPageDocument {
    let reader: ResourceReader
    let options: PDFRenderOptions
    let fonts: FontCache
    let catalog: PDFDict?
    /// The page dictionaries in order, with their inherited attributes resolved.
    private var pages: [PageEntry] = []
    let optionalContent: OptionalContent

    struct PageEntry {
        var dict: PDFDict
        var object: Int?
        var resources: PDFDict?
        var mediaBox: PDFRect?
        var cropBox: PDFRect?
        var rotate: Int
    }

    /// Opens the PDF at `path`.
    public convenience init(path: String, options: PDFRenderOptions = PDFRenderOptions()) throws(PDFRenderError) {
        let src: ByteSource
        do {
            src = try ByteSource(path: path)
        } catch {
            throw PDFRenderError(.unreadable, "\(error)")
        }
        try self.init(src: src, options: options)
    }

    /// Opens a PDF held in memory.
    public convenience init(data: [UInt8], options: PDFRenderOptions = PDFRenderOptions()) throws(PDFRenderError) {
        try self.init(src: ByteSource(bytes: data), options: options)
    }

    init(src: ByteSource, options: PDFRenderOptions) throws(PDFRenderError) {
        var ro = PDFReadOptions()
        ro.password = options.password
        ro.readXMP = false
        ro.maxDecompressedSize = options.maxStreamBytes
        let doc = Document(src: src, options: ro)
        do {
            try doc.open()
        } catch let e as PDFError {
            throw PDFRenderError(e.kind == .passwordRequired ? .passwordRequired : .unreadable, e.message, offset: e.offset)
        } catch {
            throw PDFRenderError(.unreadable, "\(error)")
        }
        if let sec = doc.security, sec.locked {
            throw PDFRenderError(.passwordRequired, "the password does not open this encrypted document")
        }
        self.options = options
        reader = ResourceReader(doc: doc, maxStreamBytes: options.maxStreamBytes)
        fonts = FontCache(budget: options.fontCacheBytes)
        catalog = reader.dict(doc.trailer["Root"])
        optionalContent = OptionalContent(catalog: catalog, reader)
        collectPages()
        if pages.isEmpty {
            throw PDFRenderError(.badPage, "the document has no readable page")
        }
    }

    /// The number of pages.
    public var pageCount: Int { pages.count }

    /// Warnings about the document as a whole (the page tree, the cross-reference data).
    public var documentWarnings: [PDFRenderWarning] {
        reader.doc.warnings.map { PDFRenderWarning(.unreadableObject, $0.message, offset: $0.offset) } + reader.warnings.list
    }

    private func collectPages() {
        guard let root = catalog?["Pages"] else { return }
        var seen = Set<Int>()
        func walk(_ node: PDFObject, inherited: PageEntry, depth: Int) {
            guard depth < 64, pages.count < 1_000_000 else { return }
            if let n = node.refValue?.num {
                if seen.contains(n) { return }
                seen.insert(n)
            }
            guard let d = reader.dict(node) else { return }
            var e = inherited
            e.dict = d
            e.object = node.refValue?.num
            if let res = reader.dict(d["Resources"]) { e.resources = res }
            if let mb = reader.rect(d["MediaBox"]) { e.mediaBox = mb }
            if let cb = reader.rect(d["CropBox"]) { e.cropBox = cb }
            if let rot = reader.int(d["Rotate"]) { e.rotate = rot }
            let kids = reader.resolve(d["Kids"])
            let type = reader.name(d["Type"])
            if type == "Pages" || (type != "Page" && kids.arrayValue != nil) {
                for k in kids.arrayValue ?? [] { walk(k, inherited: e, depth: depth + 1) }
                if case .dict = kids { walk(kids, inherited: e, depth: depth + 1) }
            } else {
                pages.append(e)
            }
        }
        walk(root, inherited: PageEntry(dict: [:], object: nil, resources: nil, mediaBox: nil, cropBox: nil, rotate: 0), depth: 0)
    }

    private func entry(_ page: Int) throws(PDFRenderError) -> PageEntry {
        guard page >= 1 && page <= pages.count else {
            throw PDFRenderError(.noSuchPage, "page \(page) is outside the document's \(pages.count) pages", page: page)
        }
        return pages[page - 1]
    }

    /// The geometry of page `page` (1-based).
    public func pageInfo(_ page: Int) throws(PDFRenderError) -> PDFPageInfo {
        let e = try entry(page)
        var media = e.mediaBox ?? PDFRect(0, 0, 612, 792)
        // Boxes outside what any viewer shows (under a point, over 200 inches × UserUnit) read as Letter.
        if !(media.width >= 1 && media.height >= 1 && media.width <= 14_400 && media.height <= 14_400) {
            media = PDFRect(0, 0, 612, 792)
        }
        var box = media
        if let cb = e.cropBox {
            let i = cb.intersection(media)
            if i.width >= 1 && i.height >= 1 { box = i }
        }
        var rot = ((e.rotate % 360) + 360) % 360
        rot = (rot / 90) * 90
        let uu = reader.number(e.dict["UserUnit"]) ?? 1
        return PDFPageInfo(box: box, rotation: rot, userUnit: uu > 0 && uu < 100 ? uu : 1)
    }

    /// The page's label (from the catalog's `/PageLabels`), nil when the document has none.
    public func pageLabel(_ page: Int) -> String? {
        guard page >= 1 && page <= pages.count, let labels = reader.dict(catalog?["PageLabels"]) else { return nil }
        // The number tree, flattened (bounded).
        var ranges: [(start: Int, dict: PDFDict)] = []
        func walk(_ node: PDFDict, depth: Int) {
            guard depth < 16, ranges.count < 100_000 else { return }
            if let nums = reader.array(node["Nums"]) {
                var i = 0
                while i + 1 < nums.count {
                    if let s = reader.int(nums[i]), let d = reader.dict(nums[i + 1]) { ranges.append((s, d)) }
                    i += 2
                }
            }
            for k in reader.array(node["Kids"]) ?? [] { if let kd = reader.dict(k) { walk(kd, depth: depth + 1) } }
        }
        walk(labels, depth: 0)
        let index = page - 1
        guard let range = ranges.filter({ $0.start <= index }).max(by: { $0.start < $1.start }) else { return nil }
        let first = reader.int(range.dict["St"]) ?? 1
        let n = first + index - range.start
        var prefix = ""
        if case .string(let b) = reader.resolve(range.dict["P"]) { prefix = PDFTextString(bytes: b).text }
        var number = ""
        switch reader.name(range.dict["S"]) {
        case "D": number = String(n)
        case "R": number = Self.roman(n).uppercased()
        case "r": number = Self.roman(n)
        case "A": number = Self.letters(n)
        case "a": number = Self.letters(n).lowercased()
        default: break
        }
        return prefix + number
    }

    static func roman(_ n: Int) -> String {
        guard n > 0 && n < 5000 else { return String(n) }
        let table: [(Int, String)] = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var v = n, out = ""
        for (k, s) in table { while v >= k { out += s; v -= k } }
        return out
    }

    static func letters(_ n: Int) -> String {
        guard n > 0 else { return "" }
        let letter = Character(Unicode.Scalar(UInt8(65 + (n - 1) % 26)))
        return String(repeating: letter, count: (n - 1) / 26 + 1)
    }

    /// The transformation from the page's user space to a target of `width` × `height` pixels
    /// showing the whole page (crop box, rotation, user unit).
    public func pageTransform(_ page: Int, width: Int, height: Int) throws(PDFRenderError) -> PDFMatrix {
        let info = try pageInfo(page)
        let (pw, ph) = info.size
        let sx = Double(width) / pw, sy = Double(height) / ph
        let b = info.box
        // User space → points with the origin at the box's lower left, rotated clockwise, y down.
        var m = PDFMatrix.translation(-b.x0, -b.y0).concatenating(.scaling(info.userUnit, info.userUnit))
        let w = b.width * info.userUnit, h = b.height * info.userUnit
        switch info.rotation {
        case 90: m = m.concatenating(PDFMatrix(0, 1, 1, 0, 0, 0))
        case 180: m = m.concatenating(PDFMatrix(-1, 0, 0, 1, w, 0))
        case 270: m = m.concatenating(PDFMatrix(0, -1, -1, 0, h, w))
        default: m = m.concatenating(PDFMatrix(1, 0, 0, -1, 0, h))
        }
        return m.concatenating(.scaling(sx, sy))
    }

    /// Draws page `page` (1-based) into a Cairo context whose user space is pixels of a target
    /// of `width` × `height`; returns the page's warnings.
    @discardableResult
    public func draw(page: Int, into cr: OpaquePointer, width: Int, height: Int) throws(PDFRenderError) -> [PDFRenderWarning] {
        let e = try entry(page)
        let base = try pageTransform(page, width: width, height: height)
        let info = try pageInfo(page)
        reader.warnings = WarningSink()
        let deadline = options.timeout.map { ContinuousClock.now + $0 }
        let ctx = RenderContext(reader: reader, fonts: fonts, deadline: deadline, optionalContent: optionalContent)
        ctx.deviceScale = 1
        if cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE {
            var matrix = cairo_matrix_t()
            cairo_get_matrix(cr, &matrix)
            ctx.rasterScale = abs(matrix.xx * matrix.yy - matrix.xy * matrix.yx).squareRoot()
        }
        cairo_save(cr)
        if options.whiteBackground {
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_paint(cr)
        }
        let device = CairoDevice(cr: cr, width: width, height: height)
        device.warnings = reader
        // Clip to the visible box.
        var clipPath = PDFPath()
        clipPath.rectangle(info.box.x0, info.box.y0, info.box.width, info.box.height)
        device.clip(clipPath, ctm: base, rule: .nonZero)
        let interp = Interpreter(ctx: ctx, device: device, resources: e.resources, ctm: base)
        interp.run(contentData(e), object: e.object)
        if options.annotations && !ctx.timedOut { drawAnnotations(e, ctx: ctx, device: device, base: base) }
        cairo_restore(cr)
        if ctx.timedOut {
            reader.warn(.timeout, "page \(page) took longer than the timeout; what was drawn until then is returned", object: e.object)
        }
        return reader.warnings.list
    }

    /// The page's content: its streams joined with white space between them.
    func contentData(_ e: PageEntry) -> [UInt8] {
        var out: [UInt8] = []
        switch reader.resolve(e.dict["Contents"]) {
        case .stream(let s):
            out = reader.streamData(s) ?? []
        case .array(let parts):
            for p in parts {
                if case .stream(let s) = reader.resolve(p), let d = reader.streamData(s) {
                    out += d
                    out.append(0x0A)
                }
            }
        default: break
        }
        return out
    }

    /// Draws page `page` into an image of `width` × `height` pixels.
    public func render(page: Int, width: Int, height: Int) throws(PDFRenderError) -> PDFPageImage {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, width * height <= 1 << 28 else {
            throw PDFRenderError(.output, "an image of \(width)×\(height) pixels is outside the supported size", page: page)
        }
        // Cairo draws straight into the image's own bytes: no second buffer, no copy.
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        var pixels = [UInt8](repeating: 0, count: stride * height)
        let result: Result<[PDFRenderWarning], PDFRenderError> = pixels.withUnsafeMutableBufferPointer { buffer in
            guard let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(width),
                                                                    Int32(height), Int32(stride)),
                  cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
                return .failure(PDFRenderError(.output, "could not make a \(width)×\(height) image", page: page))
            }
            defer {
                cairo_destroy(cr)
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
            }
            do throws(PDFRenderError) {
                return .success(try draw(page: page, into: cr, width: width, height: height))
            } catch {
                return .failure(error)
            }
        }
        let warnings = try result.get()
        return PDFPageImage(width: width, height: height, stride: stride, pixels: pixels, warnings: warnings)
    }

    /// The pixel size of page `page` at `dpi` dots per inch (rounded up, at least 1).
    public func pixelSize(page: Int, dpi: Double) throws(PDFRenderError) -> (width: Int, height: Int) {
        let (w, h) = try pageInfo(page).size
        return (max(1, toInt((w * dpi / 72).rounded(.up))), max(1, toInt((h * dpi / 72).rounded(.up))))
    }

    /// Writes page `page` as an SVG file of `width` × `height` pixels at `path` (written under a
    /// temporary name, then renamed).
    public func writeSVG(page: Int, width: Int, height: Int, to path: String) throws(PDFRenderError) -> [PDFRenderWarning] {
        let tmp = path + ".tmp"
        guard let surface = cairo_svg_surface_create(tmp, Double(width), Double(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cr = cairo_create(surface) else {
            throw PDFRenderError(.output, "could not create \(path)", page: page)
        }
        let warnings: [PDFRenderWarning]
        do {
            warnings = try draw(page: page, into: cr, width: width, height: height)
        } catch {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
            unlink(tmp)
            throw error
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS, rename(tmp, path) == 0 else {
            unlink(tmp)
            throw PDFRenderError(.output, "could not write \(path)", page: page)
        }
        return warnings
    }
}

#if canImport(Glibc)
import Glibc
#endif
