import BubbleDashboard
import BubbleRender
import CCairo
import Dispatch
import PDFRender
import ReportIndex
import ReportLibrary
import Synchronization

/// The reports' PDF files as the viewer and the list rows see them: the pages of a report for the
/// dashboard (`ReportDocuments`), and pictures of them for the renderer (`PagePictures`).
///
/// - Open documents are kept, the most recently used `openDocuments` of them.
/// - Page pictures are cached by report, page and size step, under `budgetBytes` (least recently
///   used dropped first), and shared by every renderer that uses this source (the play server's
///   sessions share one).
/// - A picture asked for without waiting is drawn on a background queue; `onPageReady` is called
///   (on that queue) when it is in the cache, so a live host can draw the frame again.
///
/// Thread-safe. A page is drawn at a size step: its width in pixels rounded up to the next of
/// 256 · √2ⁿ (at most `maxPixelWidth`), so a zoom in progress does not draw every width; at
/// fit width, the viewer asks for the pixels a page covers, and the page is drawn at exactly those.
public final class ReportPageSource: ReportDocuments, PagePictures, @unchecked Sendable {
    /// The widest page picture drawn (px; default 2 896): deeper zooms scale it up.
    public static let maxPixelWidth = 2_896
    /// The size steps a page is drawn at (px).
    public static let sizeSteps: [Int] = {
        var steps: [Int] = []
        var w = 256.0
        while Int(w.rounded()) < maxPixelWidth {
            steps.append(Int(w.rounded()))
            w *= 1.4142135623730951
        }
        steps.append(maxPixelWidth)
        return steps
    }()

    struct PageKey: Hashable {
        var report: String
        var page: Int
        var width: Int
        /// The height the page is stretched to (px), or 0 for its own shape.
        var height = 0
        /// A tile's column and row, or -1 for the whole page.
        var column = -1
        var row = -1
    }

    /// An open document, used by one thread at a time (a `PDFPageDocument` is not thread-safe;
    /// several documents draw at once).
    final class OpenDocument: @unchecked Sendable {
        private let doc: PDFPageDocument
        private let lock = Mutex(())
        init(_ d: PDFPageDocument) { doc = d }
        func use<R>(_ body: (PDFPageDocument) -> R) -> R { lock.withLock { _ in body(doc) } }
    }

    struct State {
        var documents: [(report: String, doc: OpenDocument)] = []
        var pages: [PageKey: (raster: PageRaster, use: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var pending: Set<PageKey> = []
        var thumbnails: [String: PageThumbnail] = [:]
        /// Reports in `thumbnails`, oldest first (at most `keptThumbnails`).
        var thumbnailOrder: [String] = []
        var infos: [String: ReportDocument] = [:]
        var generation: UInt64 = 0
    }

    let files: [String: String]
    let thumbnailLookup: @Sendable (String) -> IndexThumbnail?
    let state = Mutex(State())
    let queue = DispatchQueue(label: "bubbles.pages", qos: .userInitiated)
    /// The most bytes of page pictures kept (default 256 MiB).
    public let budgetBytes: Int
    /// How many documents are kept open (default 8).
    public let openDocuments: Int
    /// Called on a background queue when a page asked for without waiting is ready.
    public let onPageReady: (@Sendable () -> Void)?

    /// A source for `files` (report id → PDF path); `thumbnail` gives a report's thumbnail from
    /// the index, if built.
    public init(files: [String: String], budgetBytes: Int = 256 << 20, openDocuments: Int = 8,
                thumbnail: @escaping @Sendable (String) -> IndexThumbnail? = { _ in nil }, onPageReady: (@Sendable () -> Void)? = nil) {
        self.files = files
        self.budgetBytes = max(0, budgetBytes)
        self.openDocuments = max(1, openDocuments)
        self.thumbnailLookup = thumbnail
        self.onPageReady = onPageReady
    }

    /// A source for the reports of a validated datasource: each report's resolved PDF file.
    public convenience init(tree: ReportTree, budgetBytes: Int = 256 << 20,
                            thumbnail: @escaping @Sendable (String) -> IndexThumbnail? = { _ in nil },
                            onPageReady: (@Sendable () -> Void)? = nil) {
        var files: [String: String] = [:]
        for node in tree.nodes where node.kind == .report {
            if let f = node.resolvedFile { files[node.id] = f }
        }
        self.init(files: files, budgetBytes: budgetBytes, thumbnail: thumbnail, onPageReady: onPageReady)
    }

    /// Counts the pictures drawn in the background: a live host draws a frame again when it changes.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// The bytes of page pictures held now.
    public var cachedBytes: Int { state.withLock { $0.bytes } }

    // MARK: ReportDocuments

    /// The report's pages (sizes after rotation, labels), or why it cannot be drawn.
    public func document(forReport id: String) -> ReportDocument {
        if let known = state.withLock({ $0.infos[id] }) { return known }
        let answer: ReportDocument
        switch open(id) {
        case .failure(let why): answer = .unavailable(why.text)
        case .success(let open):
            answer = open.use { doc -> ReportDocument in
                var pages: [ReportPage] = []
                pages.reserveCapacity(doc.pageCount)
                for n in 1...max(1, doc.pageCount) where n <= doc.pageCount {
                    guard let info = try? doc.pageInfo(n) else {  // a page the tree cannot give: shown at Letter size
                        pages.append(ReportPage(width: 612, height: 792, label: doc.pageLabel(n)))
                        continue
                    }
                    let (w, h) = info.size
                    pages.append(ReportPage(width: w, height: h, label: doc.pageLabel(n)))
                }
                return pages.isEmpty ? .unavailable("The PDF has no pages.") : .pages(pages)
            }
        }
        state.withLock { $0.infos[id] = answer }
        return answer
    }

    /// The open document of a report (opened now if needed; two threads opening one at once
    /// each open it, and the first kept wins).
    func open(_ id: String) -> Result<OpenDocument, Failure> {
        if let open = state.withLock({ s -> OpenDocument? in
            guard let i = s.documents.firstIndex(where: { $0.report == id }) else { return nil }
            let entry = s.documents.remove(at: i)
            s.documents.append(entry)
            return entry.doc
        }) {
            return .success(open)
        }
        guard let path = files[id] else { return .failure(Failure("The report names no PDF file.")) }
        let doc: PDFPageDocument
        do {
            doc = try PDFPageDocument(path: path)
        } catch {
            return .failure(Failure(Self.reason(error)))
        }
        let opened = OpenDocument(doc)
        let kept = state.withLock { s -> OpenDocument in
            if let other = s.documents.first(where: { $0.report == id }) { return other.doc }
            s.documents.append((id, opened))
            if s.documents.count > openDocuments { s.documents.removeFirst(s.documents.count - openDocuments) }
            return opened
        }
        return .success(kept)
    }

    struct Failure: Error {
        var text: String
        init(_ t: String) { text = t }
    }

    /// One sentence for the reader from a renderer's error.
    static func reason(_ e: PDFRenderError) -> String {
        switch e.kind {
        case .unreadable: return "The PDF file cannot be opened: \(e.message)."
        case .passwordRequired: return "The PDF needs a password."
        case .noSuchPage, .badPage, .output: return "The PDF is damaged beyond repair: \(e.message)."
        }
    }

    // MARK: PagePictures

    /// The side of a tile of a deeply zoomed page (px).
    public static let tileSide = 512
    /// The widest a page is drawn in tiles (px; 16 384).
    public static let maxTiledWidth = 16_384

    /// The size step for a wanted width (px): 256 · √2ⁿ up to `maxPixelWidth` for whole pages, and
    /// on by √2 from there up to `maxTiledWidth` for tiled ones.
    public static func step(for pixelWidth: Int) -> Int {
        if let s = Self.sizeSteps.first(where: { $0 >= pixelWidth }) { return s }
        var w = Double(maxPixelWidth)
        while Int(w.rounded()) < pixelWidth && w < Double(maxTiledWidth) { w *= 1.4142135623730951 }
        return min(maxTiledWidth, Int(w.rounded()))
    }

    /// See `PagePictures.maxPageWidth`.
    public var maxPageWidth: Int { Self.maxPixelWidth }
    /// See `PagePictures.tileSize`.
    public var tileSize: Int { Self.tileSide }
    /// See `PagePictures.step(for:)`.
    public func step(for pixelWidth: Int) -> Int { Self.step(for: pixelWidth) }

    /// See `PagePictures.tile(report:page:width:column:row:wait:)`.
    public func tile(report: String, page: Int, width: Int, column: Int, row: Int, wait: Bool) -> PageRaster? {
        guard width > Self.maxPixelWidth, width <= Self.maxTiledWidth, column >= 0, row >= 0 else { return nil }
        let key = PageKey(report: report, page: page, width: width, column: column, row: row)
        if let hit = cached(key) { return hit }
        if wait { return draw(key) }
        schedule(key)
        return nil
    }

    func schedule(_ key: PageKey) {
        let first = state.withLock { s in s.pending.insert(key).inserted }
        guard first else { return }
        queue.async { [self] in
            _ = draw(key)
            state.withLock {
                $0.pending.remove(key)
                $0.generation += 1
            }
            onPageReady?()
        }
    }

    /// True when the page's picture for `pixelWidth` (at its size step) is ready.
    public func hasPicture(report: String, page: Int, pixelWidth: Int) -> Bool {
        let key = PageKey(report: report, page: page, width: Self.step(for: max(1, pixelWidth)))
        return state.withLock { $0.pages[key] != nil }
    }

    /// True when the page's picture of exactly `width` × `height` pixels is ready (see
    /// `page(report:page:width:height:wait:)`).
    public func hasPicture(report: String, page: Int, width: Int, height: Int) -> Bool {
        state.withLock { $0.pages[PageKey(report: report, page: page, width: width, height: height)] != nil }
    }

    /// See `PagePictures.page(report:page:pixelWidth:wait:)`.
    public func page(report: String, page: Int, pixelWidth: Int, wait: Bool) -> PageRaster? {
        picture(PageKey(report: report, page: page, width: Self.step(for: max(1, pixelWidth))), wait: wait)
    }

    /// See `PagePictures.page(report:page:width:height:wait:)`: widths up to `maxPixelWidth`,
    /// heights up to four times that (else the size step's picture).
    public func page(report: String, page: Int, width: Int, height: Int, wait: Bool) -> PageRaster? {
        guard width >= 1, width <= Self.maxPixelWidth, height >= 1, height <= 4 * Self.maxPixelWidth else {
            return self.page(report: report, page: page, pixelWidth: width, wait: wait)
        }
        return picture(PageKey(report: report, page: page, width: width, height: height), wait: wait)
    }

    /// The cached picture for `key`; else drawn now (`wait`), or scheduled and the nearest ready.
    func picture(_ key: PageKey, wait: Bool) -> PageRaster? {
        if let hit = cached(key) { return hit }
        if wait { return draw(key) }
        schedule(key)
        return nearest(key)
    }

    func cached(_ key: PageKey) -> PageRaster? {
        state.withLock { s in
            guard let e = s.pages[key] else { return nil }
            s.clock += 1
            s.pages[key] = (e.raster, s.clock)
            return e.raster
        }
    }

    /// The whole picture of the same page ready at the width nearest the one asked for (at a
    /// size step or at the pixels the viewer showed it at; ties to the narrower, then the lower).
    func nearest(_ key: PageKey) -> PageRaster? {
        state.withLock { s in
            var best: (key: PageKey, raster: PageRaster)? = nil
            func rank(_ k: PageKey) -> (Int, Int, Int) { (abs(k.width - key.width), k.width, k.height) }
            for (k, e) in s.pages where k.report == key.report && k.page == key.page && k.column < 0 {
                if best == nil || rank(k) < rank(best!.key) { best = (k, e.raster) }
            }
            return best?.raster
        }
    }

    /// Draws a page at its step and caches it; nil when it cannot be drawn.
    func draw(_ key: PageKey) -> PageRaster? {
        guard case .success(let open) = open(key.report) else { return nil }
        let raster: PageRaster? = open.use { doc in
            guard key.page >= 1, key.page <= doc.pageCount,
                  let info = try? doc.pageInfo(key.page)  // its errors were told when the pages were listed
            else { return nil }
            let (w, h) = info.size
            let height = key.height > 0 ? key.height : max(1, Int((Double(key.width) * h / max(w, 1)).rounded()))
            if key.column >= 0 { return drawTile(doc, key, height: height) }
            guard let image = try? doc.render(page: key.page, width: key.width, height: height) else { return nil }  // shown as a blank page
            return PageRaster(width: image.width, height: image.height, stride: image.stride, pixels: image.pixels)
        }
        guard let raster else { return nil }
        let size = raster.stride * raster.height
        state.withLock { s in
            s.clock += 1
            if let old = s.pages[key] { s.bytes -= old.raster.stride * old.raster.height }
            s.pages[key] = (raster, s.clock)
            s.bytes += size
            while s.bytes > budgetBytes, s.pages.count > 1 {
                // The least recently used other picture goes.
                guard let victim = s.pages.filter({ $0.key != key }).min(by: { $0.value.use < $1.value.use }) else { break }
                s.bytes -= victim.value.raster.stride * victim.value.raster.height
                s.pages[victim.key] = nil
            }
        }
        return raster
    }

    /// One tile of a page `key.width` × `height` pixels, drawn into its own image.
    func drawTile(_ doc: PDFPageDocument, _ key: PageKey, height: Int) -> PageRaster? {
        let t = Self.tileSide
        let x = key.column * t, y = key.row * t
        let w = min(t, key.width - x), h = min(t, height - y)
        guard w > 0, h > 0 else { return nil }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(w)))
        var pixels = [UInt8](repeating: 0, count: stride * h)
        let ok = pixels.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let surface = cairo_image_surface_create_for_data(buffer.baseAddress, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(stride)),
                  let cr = cairo_create(surface) else { return false }
            defer {
                cairo_destroy(cr)
                cairo_surface_finish(surface)
                cairo_surface_destroy(surface)
            }
            cairo_translate(cr, Double(-x), Double(-y))
            return (try? doc.draw(page: key.page, into: cr, width: key.width, height: height)) != nil  // a failure leaves a blank tile
        }
        return ok ? PageRaster(width: w, height: h, stride: stride, pixels: pixels) : nil
    }

    /// See `PagePictures.drawVector(report:page:into:width:height:)`.
    public func drawVector(report: String, page: Int, into cr: OpaquePointer, width: Double, height: Double) -> Bool {
        guard case .success(let open) = open(report) else { return false }
        return open.use { doc in
            guard page >= 1, page <= doc.pageCount, width > 0, height > 0 else { return false }
            // The page's own drawing takes whole units (one to the point), scaled to the box.
            let w = max(1, Int(width.rounded(.up))), h = max(1, Int(height.rounded(.up)))
            cairo_save(cr)
            cairo_scale(cr, width / Double(w), height / Double(h))
            let drawn = (try? doc.draw(page: page, into: cr, width: w, height: h)) != nil  // failures leave the white page
            cairo_restore(cr)
            return drawn
        }
    }

    /// How many reports' thumbnails (decoded, about 85 KB each at 128 px) are kept: 512.
    public static let keptThumbnails = 512

    /// See `PagePictures.thumbnail(report:)`: the index's thumbnail, else a placeholder of the
    /// first page's aspect ratio when the document is open already, else of A4's. Looked up once
    /// per report while it is kept: a thumbnail built after that shows once it is dropped.
    public func thumbnail(report: String) -> PageThumbnail {
        if let t = state.withLock({ $0.thumbnails[report] }) { return t }
        let result: PageThumbnail
        let stored = thumbnailLookup(report)
        if let t = stored, let raster = PageRaster(png: t.png) {
            result = .picture(raster)
        } else if let t = stored, t.pageWidth > 0, t.pageHeight > 0 {
            result = .placeholder(aspect: t.pageWidth / t.pageHeight)
        } else if case .pages(let pages)? = state.withLock({ $0.infos[report] }), let first = pages.first {
            result = .placeholder(aspect: first.width / first.height)
        } else {
            result = .placeholder(aspect: 1 / 1.4142135623730951)
        }
        state.withLock { s in
            if s.thumbnails.updateValue(result, forKey: report) == nil { s.thumbnailOrder.append(report) }
            if s.thumbnailOrder.count > Self.keptThumbnails {
                let drop = s.thumbnailOrder.count - Self.keptThumbnails
                for r in s.thumbnailOrder.prefix(drop) { s.thumbnails[r] = nil }
                s.thumbnailOrder.removeFirst(drop)
            }
        }
        return result
    }
}
