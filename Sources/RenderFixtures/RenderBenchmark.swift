import BubbleRender
import BubbleDashboard
import Foundation

/// Medians of the render pipeline for one scene, in milliseconds, and output sizes in bytes.
public struct RenderBenchmarkResult: Sendable, Hashable {
    /// The frame's width in pixels.
    public var width: Int
    /// The frame's height in pixels.
    public var height: Int
    /// Runs of each stage; the times are their medians.
    public var runs: Int
    /// Drawing a frame with warm caches (background, bars, bubble sprites, text layouts and the
    /// blurred focus reused) into the previous frame's image, as in an animation.
    public var drawMilliseconds: Double
    /// Drawing the first frame with empty caches (includes the blur).
    public var coldDrawMilliseconds: Double
    /// Drawing the focus offscreen and blurring it (three box passes each way), uncached.
    public var blurMilliseconds: Double
    /// This module's PNG encoder.
    public var fastPNGMilliseconds: Double
    /// `cairo_surface_write_to_png_stream` (zlib level 6, adaptive filters).
    public var cairoPNGMilliseconds: Double
    /// The whole SVG document (a fresh renderer each run, so the blurred raster is included).
    public var svgMilliseconds: Double
    /// The size of this module's PNG of the frame, bytes.
    public var fastPNGBytes: Int
    /// The size of Cairo's PNG of the frame, bytes.
    public var cairoPNGBytes: Int
    /// The size of the SVG document, bytes.
    public var svgBytes: Int
    /// The bytes of the SVG spent on glyph outlines (`<symbol>`s in `<defs>`).
    public var svgGlyphBytes: Int

    /// Draw + blur + fast PNG: a frame whose blur is recomputed (the conservative case).
    public var frameMilliseconds: Double { drawMilliseconds + blurMilliseconds + fastPNGMilliseconds }
    /// `frameMilliseconds` over the time of `cairo_surface_write_to_png` alone for the same frame.
    /// The target is at most 1/3.
    public var ratio: Double { cairoPNGMilliseconds > 0 ? frameMilliseconds / cairoPNGMilliseconds : .infinity }

    /// The figures as a table for a terminal.
    public var summary: String {
        func ms(_ v: Double) -> String { String(format: "%8.2f ms", v) }
        func kb(_ v: Int) -> String { String(format: "%8.1f KB", Double(v) / 1024) }
        return """
        render benchmark, \(width)×\(height) px, median of \(runs) runs
          draw (warm caches)      \(ms(drawMilliseconds))
          draw (cold caches)      \(ms(coldDrawMilliseconds))
          blur (focus, uncached)  \(ms(blurMilliseconds))
          fast PNG encode         \(ms(fastPNGMilliseconds))   \(kb(fastPNGBytes))
          cairo PNG encode        \(ms(cairoPNGMilliseconds))   \(kb(cairoPNGBytes))
          SVG document            \(ms(svgMilliseconds))   \(kb(svgBytes)) (glyph outlines \(kb(svgGlyphBytes)))
          frame = draw + blur + fast PNG \(ms(frameMilliseconds)); ratio to cairo PNG \(String(format: "%.3f", ratio)) (target ≤ 0.333)
        """
    }
}

/// Times the stages of rendering a scene separately (median over `runs`).
public enum RenderBenchmark {
    /// Times each stage of rendering `scene` at `pixelScale` (default 2) over `runs` frames (default 9, at least 1).
    public static func run(scene: Scene, pixelScale: Double = 2, runs: Int = 9, style: RenderStyle = RenderStyle()) throws -> RenderBenchmarkResult {
        let runs = max(1, runs)
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        }
        func median(_ v: [Double]) -> Double {
            let s = v.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        let renderer = SceneRenderer(style: style, pixelScale: pixelScale)
        var frame: RenderedImage? = nil
        let cold = try time { frame = try renderer.render(scene) }
        var draws: [Double] = [], blurs: [Double] = [], fast: [Double] = [], cairo: [Double] = [], svgs: [Double] = []
        var fastBytes = 0, cairoBytes = 0, svgBytes = 0, glyphBytes = 0
        let focus = scene.bubbles.first { $0.kind == .focus && $0.blur > 0.001 }
        let encoder = PNGEncoder()
        for _ in 0..<runs {
            draws.append(try time { frame = try renderer.render(scene, reusing: frame) })
            if let focus { blurs.append(time { _ = renderer.makeBlurredFocus(focus, pixelScale: pixelScale) }) }
            let image = frame!
            var bytes: [UInt8] = []
            fast.append(try time { bytes = try encoder.encode(image) })
            fastBytes = bytes.count
            cairo.append(try time { bytes = try image.cairoPNG() })
            cairoBytes = bytes.count
            svgs.append(try time { bytes = try SceneRenderer(style: style, pixelScale: pixelScale).svg(scene) })
            svgBytes = bytes.count
        }
        if let s = String(bytes: try renderer.svg(scene), encoding: .utf8) {
            glyphBytes = glyphOutlineBytes(s)
        }
        let (w, h) = renderer.pixelSize(of: scene)
        return RenderBenchmarkResult(
            width: w, height: h, runs: runs, drawMilliseconds: median(draws), coldDrawMilliseconds: cold,
            blurMilliseconds: blurs.isEmpty ? 0 : median(blurs), fastPNGMilliseconds: median(fast),
            cairoPNGMilliseconds: median(cairo), svgMilliseconds: median(svgs), fastPNGBytes: fastBytes,
            cairoPNGBytes: cairoBytes, svgBytes: svgBytes, svgGlyphBytes: glyphBytes)
    }

    /// Bytes between the first `<symbol` and the last `</symbol>`.
    static func glyphOutlineBytes(_ svg: String) -> Int {
        let u = Array(svg.utf8)
        guard let a = svg.range(of: "<symbol"), let b = svg.range(of: "</symbol>", options: .backwards) else { return 0 }
        _ = u
        return svg.utf8.distance(from: a.lowerBound, to: b.upperBound)
    }
}
