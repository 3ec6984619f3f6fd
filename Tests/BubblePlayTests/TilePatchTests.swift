@_spi(Testbed) import BubbleDashboard
@testable import BubblePlay
import BubbleRender
import Foundation
import Testing

/// The picture as the page keeps it: whole frames replace it, patch frames draw their tiles in.
struct PictureOnPage {
    var width = 0, height = 0
    /// RGB of every pixel (alpha left out: Cairo decodes an RGB PNG with an undefined alpha byte).
    var pixels: [UInt32] = []
    var wholeFrames = 0, patchFrames = 0, emptyFrames = 0, tilesDrawn = 0

    mutating func apply(png: [UInt8], tiles: [Int]?, columns: Int, tileSize t: Int) throws {
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
        try apply(png: frame.png, tiles: frame.tiles, columns: h["columns"] as? Int ?? 0, tileSize: h["tileSize"] as? Int ?? 0)
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

    /// A session's frames, applied as the page applies them, show at every frame exactly the
    /// picture of the dashboard at the frame's time: taps, a drag and a pinch.
    @Test func sessionFramesRebuildEveryPicture() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let renderer = SceneRenderer(pixelScale: 1)
        var page = PictureOnPage()
        var now = 0.0
        var mismatches: [Int] = []
        func run(_ seconds: Double) throws {
            let end = now + seconds
            while now < end {
                now += 1.0 / 60
                _ = session.handle(.ready, now: now)
                guard let frame = try session.frame(now: now) else { continue }
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
