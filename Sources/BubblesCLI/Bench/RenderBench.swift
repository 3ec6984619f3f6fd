import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import RenderFixtures

/// `bubbles bench render`: per-stage frame costs at 1536×2048 for real dashboard levels of the
/// sample data and for the representative frame (40 circles, 20 cards, blurred centre),
/// with Cairo's own `cairo_surface_write_to_png` timed beside our encoder in the same run.
enum RenderBench {
    struct Case {
        var name: String
        var scene: Scene
    }

    static func cases(data: String) throws -> [Case] {
        var result = [Case(name: "representative frame (40 circles, 20 cards)", scene: SampleScenes.benchmark())]
        let library = try LibraryLoader.load(data)
        let tree = try LibraryBridge.dashboardTree(library, details: LibraryBridge.details(for: library))
        for path in [["root"], ["root", "finance", "monthly-close"]] {
            let dashboard = try Dashboard(tree: tree, measurer: PangoTextMeasurer())
            for id in path where tree.index(of: id) != nil {
                try dashboard.send(.tapBubble(id))
                dashboard.settle(limit: 3000)
            }
            result.append(Case(name: "sample level '\(path.last!)'", scene: dashboard.scene()))
        }
        return result
    }

    static func run(data: String, runs: Int, json: Bool) throws {
        var objects: [String] = []
        for c in try cases(data: data) {
            let r = try RenderBenchmark.run(scene: c.scene, pixelScale: 2, runs: runs)
            if json {
                objects.append(
                    """
                    {"scene": "\(c.name)", "width": \(r.width), "height": \(r.height), "runs": \(r.runs), \
                    "draw_ms": \(r.drawMilliseconds), "cold_draw_ms": \(r.coldDrawMilliseconds), "blur_ms": \(r.blurMilliseconds), \
                    "fast_png_ms": \(r.fastPNGMilliseconds), "cairo_png_ms": \(r.cairoPNGMilliseconds), "svg_ms": \(r.svgMilliseconds), \
                    "frame_ms": \(r.frameMilliseconds), "frame_vs_cairo_png": \(r.ratio), "fast_png_bytes": \(r.fastPNGBytes), \
                    "cairo_png_bytes": \(r.cairoPNGBytes), "svg_bytes": \(r.svgBytes), "svg_glyph_bytes": \(r.svgGlyphBytes)}
                    """)
            } else {
                print("\(c.name):")
                print(r.summary.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            }
        }
        if json { print("[" + objects.joined(separator: ",\n ") + "]") }
    }
}

/// `bubbles bench render`.
struct BenchRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Benchmark frame rendering at 1536x2048: drawing, blur, our PNG encoder, Cairo's PNG writer, SVG.",
        discussion: """
            Real dashboard levels of the datasource and a representative frame (40 circles, 20 \
            cards, blurred centre), each stage timed over --repeats frames (at least 3); Cairo's \
            own cairo_surface_write_to_png is timed beside our encoder in the same run.
            """)

    @Option(help: "The datasource.")
    var input: String = "Data/reports.json"

    @Option(help: "Frames per stage (at least 3 are drawn).")
    var repeats: Int = 5

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
    }

    func run() throws {
        try Bench.running(global) { try RenderBench.run(data: input, runs: max(3, repeats), json: json) }
    }
}
