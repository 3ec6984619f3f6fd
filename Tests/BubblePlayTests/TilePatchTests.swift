@_spi(Testbed) import BubbleDashboard
@testable import BubblePlay
import BubbleRender
import Foundation
import TestSupport
import Testing

/// The picture as the page keeps it: whole frames replace it, patch frames draw their tiles in.
struct PictureOnPage {
    var width = 0, height = 0
    /// RGB of every pixel (alpha left out: Cairo decodes an RGB PNG with an undefined alpha byte).
    var pixels: [UInt32] = []
    var wholeFrames = 0, patchFrames = 0, emptyFrames = 0, tilesDrawn = 0

    var copies = 0

    /// The header's `copy` ([x, y, w, h, dy]) made in `pixels`, as play.js makes it.
    mutating func move(_ copy: [Int]) {
        guard copy.count == 5 else { return }
        let (x, y, w, h, dy) = (copy[0], copy[1], copy[2], copy[3], copy[4])
        let before = pixels
        for r in y..<(y + h) where r - dy >= y && r - dy < y + h {
            for c in x..<(x + w) { pixels[r * width + c] = before[(r - dy) * width + c] }
        }
        copies += 1
    }

    mutating func apply(png: [UInt8], tiles: [Int]?, columns: Int, tileSize t: Int, copy: [Int]? = nil) throws {
        if let copy, tiles != nil { move(copy) }
        guard let tiles else {
            let image = try RenderedImage.decodePNG(png)
            width = image.width
            height = image.height
            pixels = Self.rgb(image)
            wholeFrames += 1
            return
        }
        if tiles.isEmpty {
            #expect(png.isEmpty)
            emptyFrames += 1
            return
        }
        let packed = try RenderedImage.decodePNG(png)
        let source = Self.rgb(packed)
        let grid = (width + t - 1) / t
        for (k, index) in tiles.enumerated() {
            let x0 = (index % grid) * t, y0 = (index / grid) * t
            let sx = (k % columns) * t, sy = (k / columns) * t
            for y in 0..<min(t, height - y0) {
                for x in 0..<min(t, width - x0) {
                    pixels[(y0 + y) * width + x0 + x] = source[(sy + y) * packed.width + sx + x]
                }
            }
        }
        patchFrames += 1
        tilesDrawn += tiles.count
    }

    mutating func apply(_ frame: PlayFrame) throws {
        let h = object(frame.header)
        try apply(png: frame.png, tiles: frame.tiles, columns: h["columns"] as? Int ?? 0, tileSize: h["tileSize"] as? Int ?? 0,
                  copy: h["copy"] as? [Int])
        if let tiles = frame.tiles { #expect(h["tiles"] as? [Int] == tiles) }
    }

    static func rgb(_ image: RenderedImage) -> [UInt32] {
        image.withPixels { data, stride in
            var out: [UInt32] = []
            out.reserveCapacity(image.width * image.height)
            for y in 0..<image.height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<image.width { out.append(row[x] & 0x00FF_FFFF) }
            }
            return out
        }
    }
}

@Suite("Play frames: changed tiles")
struct TilePatchTests {
    /// A picture of `width`×`height` with filled rectangles `(x, y, w, h, rgb)`.
    static func picture(_ width: Int, _ height: Int, _ rects: [(Int, Int, Int, Int, UInt32)]) throws -> RenderedImage {
        let image = try RenderedImage(width: width, height: height)
        image.withPixels { data, stride in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    var v: UInt32 = 0xFF20_3040
                    for r in rects where x >= r.0 && x < r.0 + r.2 && y >= r.1 && y < r.1 + r.3 { v = 0xFF00_0000 | r.4 }
                    row[x] = v
                }
            }
        }
        return image
    }

    /// Patches of pictures whose sizes are not multiples of the tile, with changes in the last
    /// (narrower) column and row, rebuild the new picture exactly.
    @Test func patchesRebuildThePictureAtItsEdges() throws {
        let patcher = TilePatcher(tileSize: 16)
        let encoder = PNGEncoder()
        let a = try Self.picture(70, 45, [(3, 3, 10, 10, 0xFF0000)])
        let b = try Self.picture(70, 45, [(5, 3, 10, 10, 0xFF0000), (66, 40, 4, 5, 0x00FF00), (33, 17, 1, 1, 0x0000FF)])
        var page = PictureOnPage()
        let first = try patcher.picture(a, shown: nil, encoder: encoder)
        #expect(first.tiles == nil)
        try page.apply(png: first.png, tiles: first.tiles, columns: first.columns, tileSize: first.tileSize)
        let patch = try patcher.picture(b, shown: a, encoder: encoder)
        // Grid 5×3: tile 0 (the red square moved), 4 + 2·5 = 14 (corner), 2 + 1·5 = 7 (one pixel).
        #expect(patch.tiles == [0, 7, 14])
        #expect(patch.columns == 3)
        try page.apply(png: patch.png, tiles: patch.tiles, columns: patch.columns, tileSize: patch.tileSize)
        #expect(page.pixels == PictureOnPage.rgb(b))
        // Packed tiles only: 3 tiles of 16×16, not the 70×45 picture.
        let packed = try RenderedImage.decodePNG(patch.png)
        #expect(packed.width == 48 && packed.height == 16)
    }

    @Test func unchangedPicturesSendNothingAndLargeChangesSendTheWhole() throws {
        let patcher = TilePatcher(tileSize: 16)
        let encoder = PNGEncoder()
        let a = try Self.picture(64, 64, [(0, 0, 8, 8, 0xFFFFFF)])
        let same = try Self.picture(64, 64, [(0, 0, 8, 8, 0xFFFFFF)])
        let none = try patcher.picture(same, shown: a, encoder: encoder)
        #expect(none.tiles == [] && none.png.isEmpty)
        // 12 of 16 tiles change: more than 60 %.
        let most = try Self.picture(64, 64, [(0, 0, 64, 48, 0x808080)])
        #expect(try patcher.picture(most, shown: a, encoder: encoder).tiles == nil)
        // Another size (the page's scale changed): the whole picture.
        let larger = try Self.picture(80, 64, [])
        #expect(try patcher.picture(larger, shown: a, encoder: encoder).tiles == nil)
    }

    @Test func aCopyMovesRowsAndOnlyTheRowsItCannotFillAreSent() throws {
        let patcher = TilePatcher(tileSize: 16)
        let encoder = PNGEncoder()
        // Stripes 4 px apart in x 16…63, y 16…79 (the rectangle that scrolls), a mark outside it.
        var stripes: [(Int, Int, Int, Int, UInt32)] = [(0, 0, 8, 8, 0x00FF00)]
        for k in 0..<16 { stripes.append((16, 16 + 4 * k, 48, 2, UInt32(0x100000 * (k + 1)))) }
        let a = try Self.picture(80, 96, stripes)
        // The same stripes 16 px higher (the content scrolled down the page), new ones below.
        var moved: [(Int, Int, Int, Int, UInt32)] = [(0, 0, 8, 8, 0x00FF00)]
        for k in 0..<16 where 16 + 4 * k - 16 >= 16 { moved.append((16, 4 * k, 48, 2, UInt32(0x100000 * (k + 1)))) }
        for k in 0..<4 { moved.append((16, 64 + 4 * k, 48, 2, UInt32(0x0000F0 + k))) }
        let b = try Self.picture(80, 96, moved)
        var page = PictureOnPage()
        let first = try patcher.picture(a, shown: nil, encoder: encoder)
        try page.apply(png: first.png, tiles: first.tiles, columns: first.columns, tileSize: first.tileSize)
        let copy = PictureCopy(x: 16, y: 16, width: 48, height: 64, dy: -16)
        copy.apply(to: a)
        let patch = try patcher.picture(b, shown: a, encoder: encoder, copy: copy)
        #expect(patch.copy == copy)
        // Only the exposed row of tiles (y 64…79, x 16…63: tiles 4·5 + 1…3) differs after the move.
        #expect(patch.tiles == [21, 22, 23])
        try page.apply(png: patch.png, tiles: patch.tiles, columns: patch.columns, tileSize: patch.tileSize,
                       copy: [copy.x, copy.y, copy.width, copy.height, copy.dy])
        #expect(page.pixels == PictureOnPage.rgb(b))
        #expect(page.copies == 1)
    }

    /// A scrolled preview at scale 1.5 (pages at fractions of a pixel): the frames carry the pages' move as a copy, send a fraction
    /// of the viewport's tiles, and the page's picture is the server's after every frame.
    @Test func scrollingThePreviewIsSentAsACopyAndThePictureStaysExact() throws {
        let source = try viewerSource()
        var now = 0.0
        let session = try PlaySession(source: source, scale: 1.5, now: now)
        let d = session.dashboard
        let pages = try #require(source.pages)
        // The truth: every frame drawn whole, with the same pages.
        let truth = SceneRenderer(pixelScale: 1.5)
        truth.pictures = pages
        truth.waitsForPages = false
        var checksTruth = false, truthFrames = 0
        var page = PictureOnPage()
        var copyFrames = 0, copyTiles = 0, gridTiles = 0
        func run(_ seconds: Double) throws {
            try session.showFrames(for: seconds, now: &now) { frame in
                try page.apply(frame)
                let shown = try #require(session.shownImage)
                let same = page.pixels == PictureOnPage.rgb(shown)
                #expect(same, "the page's picture differs from the server's at step \(frame.step)")
                truthFrames += 1
                if checksTruth && truthFrames % 3 == 0 {
                    let time = try #require(object(frame.header)["time"] as? Double)
                    let whole = PictureOnPage.rgb(try truth.render(d.scene(at: time)))
                    var differing = 0, box = (Int.max, Int.max, -1, -1)
                    let pixels = whole == page.pixels ? [] : page.pixels
                    for (i, (a, b)) in zip(whole, pixels).enumerated() where a != b {
                        differing += 1
                        let x = i % page.width, y = i / page.width
                        box = (min(box.0, x), min(box.1, y), max(box.2, x), max(box.3, y))
                    }
                    #expect(differing == 0, "step \(frame.step): \(differing) pixels differ from the scene drawn whole, in \(box)")
                }
                gridTiles = ((shown.width + 63) / 64) * ((shown.height + 63) / 64)
                if object(frame.header)["copy"] != nil {
                    copyFrames += 1
                    copyTiles += frame.tiles?.count ?? gridTiles
                }
            }
        }
        // Down to the report's level on the session's clock alone (no frames: the test is the viewer).
        try session.tapDown(through: ["root", "finance", "financial-statements", "quarterly-results"], now: &now)
        let card = try #require(d.scene().bubbles.first { $0.id == "q1-2016" })
        _ = session.handle(.tap(card.centre), now: now)
        try run(1.0)
        #expect(d.scene().preview?.pageCount == 2)
        // Both pages drawn at the pixels they are shown at (as the frames ask for them) before the
        // scroll, so that a frame drawn whole later shows the same pictures.
        let frame = try #require(d.scene().preview?.pages.first).frame
        let (width, height) = (Int((frame.width * 1.5).rounded()), Int((frame.height * 1.5).rounded()))
        for n in 1...2 { _ = pages.page(report: "q1-2016", page: n, width: width, height: height, wait: true) }
        try run(0.3)
        checksTruth = true
        for distance in [420.0, -300.0] {
            _ = session.handle(.scroll(distance), now: now)
            try run(0.8)
        }
        #expect(copyFrames >= 8, "\(copyFrames) frames carried a copy")
        #expect(session.partialFrames >= 8, "\(session.partialFrames) frames were drawn in part")
        // A scroll frame sends the rows the move exposes and the indicator, not the viewport.
        #expect(Double(copyTiles) / Double(max(1, copyFrames)) < 0.2 * Double(gridTiles), "\(copyTiles) tiles in \(copyFrames) frames of \(gridTiles)")
    }

    /// A session's frames, applied as the page applies them, show at every frame exactly the
    /// picture of the dashboard at the frame's time: taps, a drag and a pinch.
    @Test func sessionFramesRebuildEveryPicture() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let renderer = SceneRenderer(pixelScale: 1)
        var page = PictureOnPage()
        var now = 0.0
        var mismatches: [Int] = []
        func run(_ seconds: Double) throws {
            try session.showFrames(for: seconds, now: &now) { frame in
                try page.apply(frame)
                let time = try #require(object(frame.header)["time"] as? Double)
                let truth = try renderer.render(session.dashboard.scene(at: time))
                if page.pixels != PictureOnPage.rgb(truth) { mismatches.append(frame.step) }
            }
        }
        try run(0.1)
        _ = session.handle(.tap(ScenePoint(x: 384, y: 540)), now: now)
        try run(2.5)
        let body = try #require(session.dashboard.debugView().bodies.first { !$0.isKinematic })
        _ = session.handle(.press(body.position), now: now)
        for k in 1...10 {
            try run(1.0 / 60)
            _ = session.handle(.move(ScenePoint(x: body.position.x + Double(k) * 6, y: body.position.y + Double(k) * 4)), now: now)
        }
        _ = session.handle(.release, now: now)
        try run(2)
        _ = session.handle(.pinch, now: now)
        try run(2.5)
        #expect(mismatches.isEmpty, "the page's picture differed from the dashboard's at steps \(mismatches)")
        #expect(page.wholeFrames >= 1)
        #expect(page.patchFrames > 20, "most frames while bubbles move are patches")
    }
}
