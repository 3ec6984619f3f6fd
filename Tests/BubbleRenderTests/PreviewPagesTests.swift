@_spi(Testbed) import BubbleDashboard
import BubbleRender
import CCairo
import Foundation
import RenderFixtures
import Testing

/// Pictures of one flat colour, counting what the renderer asks for.
final class SolidPictures: PagePictures, @unchecked Sendable {
    var pagesAsked = 0
    var vectorsDrawn = 0
    let ready: Bool
    let thumbnailReady: Bool
    init(ready: Bool = true, thumbnailReady: Bool = true) {
        self.ready = ready
        self.thumbnailReady = thumbnailReady
    }

    static func raster(_ w: Int, _ h: Int, argb: UInt32) -> PageRaster {
        var px = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<(w * h) {
            px[i * 4] = UInt8(argb & 0xFF)
            px[i * 4 + 1] = UInt8((argb >> 8) & 0xFF)
            px[i * 4 + 2] = UInt8((argb >> 16) & 0xFF)
            px[i * 4 + 3] = UInt8(argb >> 24)
        }
        return PageRaster(width: w, height: h, stride: w * 4, pixels: px)!
    }

    var maxPageWidth: Int { 2896 }
    var tileSize: Int { 512 }
    func step(for pixelWidth: Int) -> Int { pixelWidth }
    func page(report: String, page: Int, pixelWidth: Int, wait: Bool) -> PageRaster? {
        pagesAsked += 1
        return ready || wait ? Self.raster(64, 82, argb: 0xFF20_C040) : nil
    }
    func page(report: String, page: Int, width: Int, height: Int, wait: Bool) -> PageRaster? {
        pagesAsked += 1
        return ready || wait ? Self.raster(width, height, argb: 0xFF20_C040) : nil
    }
    func tile(report: String, page: Int, width: Int, column: Int, row: Int, wait: Bool) -> PageRaster? {
        Self.raster(512, 512, argb: 0xFF20_C040)
    }
    func drawVector(report: String, page: Int, into cr: OpaquePointer, width: Double, height: Double) -> Bool {
        vectorsDrawn += 1
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_set_source_rgb(cr, 0.125, 0.75, 0.25)
        cairo_fill(cr)
        return true
    }
    func thumbnail(report: String) -> PageThumbnail {
        thumbnailReady ? .picture(Self.raster(32, 41, argb: 0xFFC0_2040)) : .placeholder(aspect: 0.5)
    }
}

/// The preview's pages and the rows' thumbnails as the renderer draws them.
@Suite("Preview pages")
struct PreviewPagesTests {
    /// A preview scene whose viewer shows two pages of 612 × 792 pt at fit width.
    static func scene(unavailable: String? = nil, standIn: Bool = false, indicator: Double = 0, zoom: Double = 1) -> Scene {
        var scene = SampleScenes.level(categories: 6, reports: 6, seed: 1, overlay: .reportPreview(SampleScenes.report(index: 2, keywordCount: 5)))
        let g = PreviewGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        let column = PreviewPageColumn(pages: Array(repeating: ReportPage(width: 612, height: 792), count: 2), viewportWidth: g.pages.width,
                                       viewportHeight: g.pages.height)
        var pages: [ScenePreviewPage] = []
        if unavailable == nil && !standIn {
            for i in column.visible(zoom: zoom, scrollX: 0, scrollY: 0) {
                let f = column.frame(of: i, zoom: zoom, scrollX: 0, scrollY: 0)
                pages.append(ScenePreviewPage(page: i + 1, frame: SceneRect(x: g.pages.x + f.x, y: g.pages.y + f.y, width: f.width, height: f.height),
                                              size: SceneSize(width: 612, height: 792)))
            }
        }
        scene.preview = ScenePreview(reportID: "r", geometry: g, pages: pages, page: pages.isEmpty ? 0 : 1, pageCount: pages.isEmpty ? 0 : 2,
                                     pageLabel: nil, zoom: zoom, swipe: 0, indicatorOpacity: indicator, unavailable: unavailable, standIn: standIn)
        return scene
    }

    static func pixel(_ image: RenderedImage, _ x: Double, _ y: Double, scale: Double) -> (r: Int, g: Int, b: Int) {
        let p = image.pixel(x: Int(x * scale), y: Int(y * scale))
        return (Int(p.r), Int(p.g), Int(p.b))
    }

    @Test func thePagePictureFillsThePageFrame() throws {
        let scene = Self.scene()
        let r = SceneRenderer(pixelScale: 1)
        let pictures = SolidPictures()
        r.pictures = pictures
        let image = try r.render(scene)
        let page = try #require(scene.preview?.pages.first?.frame)
        let c = Self.pixel(image, page.x + page.width / 2, page.y + page.height / 2, scale: 1)
        #expect(abs(c.r - 0x20) <= 2 && abs(c.g - 0xC0) <= 2 && abs(c.b - 0x40) <= 2)
        #expect(pictures.pagesAsked >= 1)
    }

    /// Drawn again only inside rectangles over the page viewport (its corners, its edges, its
    /// inside, where the viewport alone is drawn), a frame has the pixels of the frame drawn whole.
    @Test(arguments: [(1.0, 1.0), (1.5, 1.0), (2.0, 1.0), (1.5, 2.5)])
    func drawingInsideTheViewportGivesTheWholeFramesPixels(scale: Double, zoom: Double) throws {
        let r = SceneRenderer(pixelScale: scale)
        r.pictures = SolidPictures()
        let before = Self.scene(indicator: 0, zoom: zoom), after = Self.scene(indicator: 0.7, zoom: zoom)
        let v = try #require(after.preview?.geometry.pages)
        let px = { (x: Double) in Int((x * scale).rounded(.down)) }
        let edge = SceneRenderer.PixelRect(x: px(v.x) - 1, y: px(v.y) - 1, width: px(v.width) + 3, height: px(v.height) + 3)
        let regionSets: [[SceneRenderer.PixelRect]] = [
            [edge],
            [SceneRenderer.PixelRect(x: px(v.x) - 3, y: px(v.y) - 3, width: px(40), height: px(60)),
             SceneRenderer.PixelRect(x: px(v.x + 30), y: px(v.y + 5), width: px(v.width - 60), height: px(50)),
             SceneRenderer.PixelRect(x: px(v.x + 100), y: px(v.y + 200), width: px(120), height: px(90))],
        ]
        let whole = try r.render(after)
        for regions in regionSets {
            let image = try r.render(before)
            try r.render(after, over: image, inside: regions)
            #expect(Self.samePixels(image, whole), "regions \(regions)")
        }
    }

    /// Pages scaled for the viewer (zoomed, from pictures of another size) are kept within half
    /// the sprite budget: six copies of about 11 MB would be 66 MB.
    @Test func scaledPagesStayWithinHalfTheSpriteBudget() throws {
        let r = SceneRenderer(pixelScale: 2)
        r.pictures = SolidPictures()
        _ = try r.render(Self.scene(standIn: true))
        let base = r.rasterCacheBytes
        for zoom in [1.01, 1.03, 1.05, 1.07, 1.09] { _ = try r.render(Self.scene(zoom: zoom)) }
        let pages = r.rasterCacheBytes - base
        #expect(pages > 20 << 20, "copies were kept: \(pages) bytes")
        #expect(pages <= r.spriteBudgetBytes / 2, "\(pages) bytes of scaled pages")
    }

    static func samePixels(_ a: RenderedImage, _ b: RenderedImage) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        return a.withPixels { (pa: UnsafeMutablePointer<UInt8>, sa: Int) -> Bool in
            b.withPixels { (pb: UnsafeMutablePointer<UInt8>, sb: Int) -> Bool in
                for y in 0..<a.height where memcmp(pa + y * sa, pb + y * sb, a.width * 4) != 0 { return false }
                return true
            }
        }
    }

    @Test func vectorFramesDrawThePagesAsVectors() throws {
        let r = SceneRenderer(pixelScale: 1)
        let pictures = SolidPictures()
        r.pictures = pictures
        _ = try r.svg(Self.scene())
        #expect(pictures.vectorsDrawn >= 1)
        #expect(pictures.pagesAsked == 0, "no raster in an SVG frame")
    }

    @Test func aLiveFrameShowsTheThumbnailUntilThePageIsReady() throws {
        let scene = Self.scene()
        let r = SceneRenderer(pixelScale: 1)
        r.pictures = SolidPictures(ready: false)
        r.waitsForPages = false
        let image = try r.render(scene)
        let page = try #require(scene.preview?.pages.first?.frame)
        let c = Self.pixel(image, page.x + page.width / 2, page.y + page.height / 2, scale: 1)
        #expect(abs(c.r - 0xC0) <= 2 && abs(c.g - 0x20) <= 2 && abs(c.b - 0x40) <= 2, "page 1 shows the thumbnail")
        // Page 2 has no thumbnail: a white page, never a blank hole.
        if let second = scene.preview?.pages.dropFirst().first?.frame, second.y + 40 < scene.preview!.geometry.pages.y + scene.preview!.geometry.pages.height {
            let w = Self.pixel(image, second.x + 4, second.y + 4, scale: 1)
            #expect(w.r > 240 && w.g > 240 && w.b > 240)
        }
    }

    @Test func labelsNameThePagesTheIndicatorAndTheReason() {
        let r = SceneRenderer(pixelScale: 1)
        r.pictures = SolidPictures()
        let owners = Set(r.layoutLabels(Self.scene(indicator: 1)).map(\.owner))
        #expect(owners.isSuperset(of: ["preview-page:1", "preview-page-indicator", "preview-open-pdf", "preview-back", "preview-title"]))
        let broken = Set(r.layoutLabels(Self.scene(unavailable: "The PDF needs a password.")).map(\.owner))
        #expect(broken.isSuperset(of: ["preview-unavailable", "preview-unavailable-reason", "preview-title", "keyword:\(SampleScenes.report(index: 2).id):0"]))
        #expect(!broken.contains("preview-page:1"))
        let quiet = Set(r.layoutLabels(Self.scene(indicator: 0)).map(\.owner))
        #expect(!quiet.contains("preview-page-indicator"))
    }

    @Test func tableRowsShowAThumbnailOrAPlaceholderOfThePagesAspect() {
        let scene = SampleScenes.level(categories: 6, reports: 6, seed: 1,
                                       overlay: .reportsTable(title: "Accounting", reports: SampleScenes.reports(count: 4)))
        for ready in [true, false] {
            let r = SceneRenderer(pixelScale: 1)
            r.pictures = SolidPictures(thumbnailReady: ready)
            let thumbs = r.layoutLabels(scene).filter { $0.owner.hasPrefix("table-row:") && $0.owner.hasSuffix(":thumbnail") }
            #expect(thumbs.count == 4)
            for t in thumbs {
                guard case .rect(_, _, let w, let h) = t.container else { Issue.record("not a rect"); continue }
                #expect(t.role == .picture)
                #expect(abs(w / h - (ready ? 32.0 / 41.0 : 0.5)) < 0.02)
            }
        }
        // Without pictures at all, the rows still show a page-shaped placeholder.
        let plain = SceneRenderer(pixelScale: 1).layoutLabels(scene).filter { $0.owner.hasSuffix(":thumbnail") }
        #expect(plain.count == 4)
    }

    @Test func aPNGThumbnailDecodes() throws {
        let r = SceneRenderer(pixelScale: 1)
        let image = try r.render(Self.scene(standIn: true))
        let png = try image.cairoPNG()
        let decoded = try #require(PageRaster(png: png))
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(PageRaster(png: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]) == nil)
    }
}
