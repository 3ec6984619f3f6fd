@_spi(Testbed) import BubbleDashboard
import BubbleRender
import CCairo
import Foundation

/// `contact-sheet.png`: every k-th frame of the export in a grid, each with its frame number, time
/// and the scenario events that fired from it up to the next cell, so a whole transition is seen at
/// a glance. Thumbnails are drawn from the frames' scenes by a renderer at the thumbnail's scale
/// (the same drawing as the frames, at 240 px on the long side), so the sheet needs no decoding of
/// frame files and works for any `--format`.
public enum ContactSheet {
    struct Cell {
        var frame: Int
        var time: Double
        var events: [String]
        var scene: Scene
    }

    static let thumbLongSide = 240.0
    static let captionHeight = 40
    static let gap = 12
    static let margin = 16
    static let headerHeight = 40

    /// Every k-th frame for about 24–48 cells: the smallest "round" k (1, 2, 3, 4, 5, 6, 8, 10, 12,
    /// 15, 20, 24, 30, 40, 45, 60, then multiples of 30) that leaves at most 48 cells.
    public static func every(frames: Int) -> Int {
        let minimum = max(1, (frames + 47) / 48)
        for k in [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 24, 30, 40, 45, 60] where k >= minimum { return k }
        return (minimum + 29) / 30 * 30
    }

    struct Layout {
        var columns: Int
        var rows: Int
        var thumbWidth: Int
        var thumbHeight: Int
        var scale: Double
        var width: Int
        var height: Int
    }

    static func layout(cells: Int, canvasWidth: Double, canvasHeight: Double) -> Layout {
        let scale = thumbLongSide / max(canvasWidth, canvasHeight)
        let tw = max(1, Int((canvasWidth * scale).rounded())), th = max(1, Int((canvasHeight * scale).rounded()))
        let cellW = Double(tw + gap), cellH = Double(th + captionHeight + gap)
        // Columns for a sheet of about 16:10, nudged to leave few empty cells in the last row.
        let n = max(1, cells)
        let ideal = (Double(n) * cellH / cellW * 1.6).squareRoot()
        var columns = max(1, min(n, Int(ideal.rounded())))
        var bestCost = Double.infinity
        for c in max(1, Int(ideal.rounded()) - 2)...max(1, min(n, Int(ideal.rounded()) + 2)) where c <= n {
            let empty = (n + c - 1) / c * c - n
            let cost = Double(empty) + 1.5 * abs(Double(c) - ideal)
            if cost < bestCost { (bestCost, columns) = (cost, c) }
        }
        let rows = (n + columns - 1) / columns
        let width = 2 * margin + columns * tw + (columns - 1) * gap
        let height = headerHeight + margin + rows * (th + captionHeight) + (rows - 1) * gap + margin
        return Layout(columns: columns, rows: rows, thumbWidth: tw, thumbHeight: th, scale: scale, width: width, height: height)
    }

    /// The sheet's size in pixels for `cells` cells of a canvas.
    public static func size(cells: Int, canvasWidth: Double, canvasHeight: Double) -> (width: Int, height: Int) {
        let l = layout(cells: cells, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        return (l.width, l.height)
    }

    static func render(title: String, cells: [Cell], canvasWidth: Double, canvasHeight: Double) throws -> [UInt8] {
        let l = layout(cells: cells.count, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        let sheet = try RenderedImage(width: l.width, height: l.height)
        let renderer = SceneRenderer(pixelScale: l.scale)
        let cr = cairo_create(sheet.surface)!
        defer { cairo_destroy(cr) }
        cairo_set_source_rgb(cr, 0.125, 0.141, 0.172)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0.94, 0.95, 0.97)
        renderer.drawText(title, in: cr, x: Double(margin), baseline: 27, size: 17, bold: true, maxWidth: Double(l.width - 2 * margin))

        var image: RenderedImage? = nil
        for (k, cell) in cells.enumerated() {
            let x = margin + (k % l.columns) * (l.thumbWidth + gap)
            let y = headerHeight + margin + (k / l.columns) * (l.thumbHeight + captionHeight + gap)
            let thumb = try renderer.render(cell.scene, reusing: image)
            image = thumb
            cairo_save(cr)
            cairo_rectangle(cr, Double(x), Double(y), Double(l.thumbWidth), Double(l.thumbHeight))
            cairo_clip(cr)
            cairo_set_source_surface(cr, thumb.surface, Double(x), Double(y))
            cairo_paint(cr)
            cairo_restore(cr)
            let hasEvents = !cell.events.isEmpty
            // A frame around the thumbnail, amber where an event fired.
            if hasEvents { cairo_set_source_rgb(cr, 1.0, 0.76, 0.28) } else { cairo_set_source_rgb(cr, 0.33, 0.36, 0.42) }
            cairo_set_line_width(cr, hasEvents ? 2 : 1)
            let inset = hasEvents ? 1.0 : 0.5
            cairo_rectangle(cr, Double(x) - inset, Double(y) - inset, Double(l.thumbWidth) + 2 * inset, Double(l.thumbHeight) + 2 * inset)
            cairo_stroke(cr)

            let ty = Double(y + l.thumbHeight)
            cairo_set_source_rgb(cr, 0.94, 0.95, 0.97)
            renderer.drawText(String(format: "%.2f s", cell.time), in: cr, x: Double(x), baseline: ty + 16, size: 12, bold: true)
            cairo_set_source_rgb(cr, 0.62, 0.66, 0.73)
            renderer.drawText("#\(cell.frame)", in: cr, x: Double(x + l.thumbWidth), baseline: ty + 16, size: 11, anchor: .end)
            if hasEvents {
                cairo_set_source_rgb(cr, 1.0, 0.78, 0.34)
                renderer.drawText(cell.events.joined(separator: " · "), in: cr, x: Double(x), baseline: ty + 32, size: 11,
                                  maxWidth: Double(l.thumbWidth))
            }
        }
        cairo_surface_flush(sheet.surface)
        return try sheet.fastPNG()
    }
}
