import BubbleRender
import Foundation

/// The picture part of a play frame: the whole picture, or only the tiles that changed since the
/// frame before it.
///
/// While bubbles move, most of the picture stays as it was: on the sample tour at scale 2, one
/// frame differs from the one before in 15 % of its 64-pixel tiles on average. Sending those
/// tiles packed into one PNG costs the server a fraction of the whole picture's encoding (and
/// the network a fraction of its bytes); the page draws each tile where it belongs.
struct PlayPicture: Sendable, Equatable {
    /// A PNG: the whole picture, or the changed tiles packed `columns` to a row in the order of
    /// `tiles`. Empty when no tile changed.
    var png: [UInt8]
    /// nil for a whole picture; otherwise the changed tiles, each as its index in the picture's
    /// grid of `tileSize` squares, row by row (the last column and row may be narrower).
    var tiles: [Int]?
    /// Tiles per row of the packed PNG.
    var columns: Int
    /// The tiles' edge in pixels.
    var tileSize: Int
    /// A move the page makes in its picture before it draws the tiles (scrolled pages); nil for none.
    var copy: PictureCopy? = nil
}

/// Rows of a rectangle of the picture moved by `dy` pixels within it (down when positive): row r
/// of the rectangle takes what row r − dy showed, where that row is inside; the other rows keep
/// what they showed. Pixels; the rectangle lies inside the picture and `dy` is less than its height.
struct PictureCopy: Sendable, Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var dy: Int

    /// `[x, y, width, height, dy]`, the frame header's `copy`.
    var json: String { "[\(x), \(y), \(width), \(height), \(dy)]" }

    /// Makes the move in `image`'s pixels.
    func apply(to image: RenderedImage) {
        guard dy != 0, abs(dy) < height, width > 0, x >= 0, y >= 0, x + width <= image.width, y + height <= image.height else { return }
        image.withPixels { data, stride in
            let rows = height - abs(dy)
            // Rows are moved in the order that reads each before it is overwritten.
            for k in 0..<rows {
                let r = dy > 0 ? y + height - 1 - k : y + k
                memmove(data + r * stride + x * 4, data + (r - dy) * stride + x * 4, width * 4)
            }
        }
    }
}

/// Compares each frame with the one the page shows and packs the tiles that differ.
final class TilePatcher {
    /// The tiles' edge in pixels.
    let tileSize: Int
    /// Above this share of changed tiles, the whole picture is sent (packing them would cost as
    /// much and compress a little worse).
    let wholeShare: Double
    /// The packed tiles' pixels (the first `width × height` of them): grows to the largest frame's
    /// and is reused.
    private var packed: [UInt32] = []

    init(tileSize: Int = 64, wholeShare: Double = 0.6) {
        self.tileSize = tileSize
        self.wholeShare = wholeShare
    }

    /// The picture part for `image`, given the picture the page shows (`shown`, nil for none).
    /// With `copy`, the page is told to make that move first; `shown` (the page's picture) has
    /// been moved the same way by the caller, so only the tiles that still differ are sent.
    /// `regions`: where `image` can differ from `shown` (pixels; nil: anywhere).
    func picture(_ image: RenderedImage, shown: RenderedImage?, encoder: PNGEncoder, copy: PictureCopy? = nil,
                 regions: [SceneRenderer.PixelRect]? = nil) throws -> PlayPicture {
        let t = tileSize
        guard let shown, shown.width == image.width, shown.height == image.height else {
            return PlayPicture(png: try encoder.encode(image), tiles: nil, columns: 0, tileSize: t)
        }
        let gridColumns = (image.width + t - 1) / t, gridRows = (image.height + t - 1) / t
        let changed = changedTiles(image, shown, gridColumns: gridColumns, gridRows: gridRows, regions: regions)
        if Double(changed.count) > wholeShare * Double(gridColumns * gridRows) {
            return PlayPicture(png: try encoder.encode(image), tiles: nil, columns: 0, tileSize: t)
        }
        if changed.isEmpty { return PlayPicture(png: [], tiles: [], columns: 0, tileSize: t, copy: copy) }

        let columns = min(changed.count, gridColumns)
        let rows = (changed.count + columns - 1) / columns
        let width = columns * t, height = rows * t
        let n = width * height
        if packed.count < n { packed = [UInt32](repeating: 0, count: n) }
        return try packed.withUnsafeMutableBufferPointer { buffer in
            let out = buffer.baseAddress!
            // Opaque black where an edge tile is narrower than its cell, so that the PNG stays RGB
            // (a loop of our own: `append(contentsOf: repeatElement(…))` is a generic call per
            // pixel in a debug build).
            for i in 0..<n { out[i] = 0xFF00_0000 }
            image.withPixels { data, stride in
                for (k, index) in changed.enumerated() {
                    let x0 = (index % gridColumns) * t, y0 = (index / gridColumns) * t
                    let w = min(t, image.width - x0), h = min(t, image.height - y0)
                    let cell = out + (k / columns) * t * width + (k % columns) * t
                    for y in 0..<h {
                        let src = UnsafeRawPointer(data + (y0 + y) * stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
                        (cell + y * width).update(from: src, count: w)
                    }
                }
            }
            let png = try UnsafeRawPointer(out).withMemoryRebound(to: UInt8.self, capacity: width * height * 4) {
                try encoder.encode(argb32: $0, width: width, height: height, stride: width * 4)
            }
            return PlayPicture(png: png, tiles: changed, columns: columns, tileSize: t, copy: copy)
        }
    }

    /// The indices of the tiles in which `a` and `b` (of one size) differ, in grid order.
    /// Only the tiles that meet `regions` (pixels) are compared when they are given: the caller
    /// knows that nothing outside them changed.
    func changedTiles(_ a: RenderedImage, _ b: RenderedImage, gridColumns: Int, gridRows: Int,
                      regions: [SceneRenderer.PixelRect]? = nil) -> [Int] {
        let t = tileSize
        var changed: [Int] = []
        var bandChanged = [Bool](repeating: false, count: gridColumns)
        let candidate = tiles(meeting: regions, gridColumns: gridColumns, gridRows: gridRows)
        a.withPixels { pa, strideA in
            b.withPixels { pb, strideB in
                for ty in 0..<gridRows {
                    let columns = (0..<gridColumns).filter { candidate[ty * gridColumns + $0] }
                    guard !columns.isEmpty else { continue }
                    for i in 0..<gridColumns { bandChanged[i] = false }
                    var left = columns.count
                    let y1 = min(a.height, (ty + 1) * t)
                    var y = ty * t
                    while y < y1 && left > 0 {
                        let ra = pa + y * strideA, rb = pb + y * strideB
                        for tx in columns where !bandChanged[tx] {
                            let x0 = tx * t * 4
                            let n = min(t, a.width - tx * t) * 4
                            if memcmp(ra + x0, rb + x0, n) != 0 {
                                bandChanged[tx] = true
                                left -= 1
                            }
                        }
                        y += 1
                    }
                    for tx in columns where bandChanged[tx] { changed.append(ty * gridColumns + tx) }
                }
            }
        }
        return changed
    }

    /// For each tile of the grid, whether it meets one of `regions` (pixels; nil: every tile).
    func tiles(meeting regions: [SceneRenderer.PixelRect]?, gridColumns: Int, gridRows: Int) -> [Bool] {
        let t = tileSize
        var meets = [Bool](repeating: regions == nil, count: gridColumns * gridRows)
        for r in regions ?? [] where r.width > 0 && r.height > 0 {
            for ty in max(0, r.y / t)..<min(gridRows, max(0, (r.y + r.height + t - 1) / t)) {
                for tx in max(0, r.x / t)..<min(gridColumns, max(0, (r.x + r.width + t - 1) / t)) { meets[ty * gridColumns + tx] = true }
            }
        }
        return meets
    }

    /// Copies the tiles of `image` that meet `regions` into `copy` (of its size): what
    /// `picture(_:shown:encoder:copy:regions:)` compares with after `image` is drawn again there.
    func keepTiles(of image: RenderedImage, into copy: RenderedImage, meeting regions: [SceneRenderer.PixelRect]) {
        guard image.width == copy.width, image.height == copy.height else { return }
        let t = tileSize
        let gridColumns = (image.width + t - 1) / t, gridRows = (image.height + t - 1) / t
        let meets = tiles(meeting: regions, gridColumns: gridColumns, gridRows: gridRows)
        image.withPixels { src, srcStride in
            copy.withPixels { dst, dstStride in
                for ty in 0..<gridRows {
                    // Runs of tiles in the row: one copy of each of their pixel rows.
                    var tx = 0
                    while tx < gridColumns {
                        guard meets[ty * gridColumns + tx] else {
                            tx += 1
                            continue
                        }
                        var end = tx
                        while end < gridColumns && meets[ty * gridColumns + end] { end += 1 }
                        let x0 = tx * t, x1 = min(image.width, end * t)
                        for y in (ty * t)..<min(image.height, (ty + 1) * t) {
                            memcpy(dst + y * dstStride + x0 * 4, src + y * srcStride + x0 * 4, (x1 - x0) * 4)
                        }
                        tx = end
                    }
                }
            }
        }
    }
}
