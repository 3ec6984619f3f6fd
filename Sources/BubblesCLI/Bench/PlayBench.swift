import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubblePlay
@_spi(Testbed) import BubbleScenario
import Foundation
import BubbleSupport

/// `bubbles bench play`: the play server's costs, in process, with the real message parser,
/// session and renderer (what is left out is the WebSocket write, a loopback copy). The page is
/// simulated on a virtual clock at a 60 Hz display: it asks for a frame every 1/60 s of that
/// clock, so each frame shows what a real page would see; the server's own time is measured.
/// - latency: a message arriving between two frames, to the next frame (which shows its effect)
///   ready to leave: taps that start a transition, pinches back and finger moves of a drag, at
///   scale 1;
/// - while bubbles move, at scale 1 and 2: the server's time per frame, so the frames per second
///   it can sustain, with the draw and PNG split and the bytes sent; once with changed tiles only
///   (what the server does) and once with the whole picture in every frame, for the ratio;
/// - at rest: frames drawn while a page keeps its credit, and CPU time over two seconds.
enum PlayBench {
    /// The simulated display's rate.
    static let displayHz = 60.0

    struct Moving {
        var scale: Double
        var wholeOnly: Bool
        var times: [Double] = [], draws: [Double] = [], encodes: [Double] = [], kilobytes: [Double] = []
        var whole = 0, patches = 0, unchanged = 0, tiles = 0, gridTiles = 0

        var framesPerSecond: Double { times.isEmpty ? 0 : 1000 / (times.reduce(0, +) / Double(times.count)) }
        var meanKB: Double { kilobytes.isEmpty ? 0 : kilobytes.reduce(0, +) / Double(kilobytes.count) }
        /// The share of the picture's tiles a patch frame carries, on average.
        var tileShare: Double { patches == 0 || gridTiles == 0 ? 0 : Double(tiles) / Double(patches * gridTiles) }
    }

    struct Figures {
        var latencyMedianMs = 0.0
        var latencyP90Ms = 0.0
        var latencySamples = 0
        var latencyShown = 0
        var moving: [Moving] = []
        var restFrames = 0
        var restCPUPercent = 0.0
    }

    static func now() -> Double { MonotonicClock.seconds() }

    /// A message arriving half a display frame after the clock, timed to the next frame; nil if
    /// no frame was drawn. `shown`: the frame's picture differs from the one before.
    static func timed(_ session: PlaySession, _ text: String, clock: inout Double) throws -> (ms: Double, shown: Bool)? {
        _ = session.handle(.ready, now: clock)
        let t0 = now()
        let message = try session.parser.parse(Array(text.utf8))
        _ = session.handle(message, now: clock + 0.5 / displayHz)
        clock += 1 / displayHz
        guard let frame = try session.frame(now: clock) else { return nil }
        return ((now() - t0) * 1000, frame.tiles != [])
    }

    /// Frames at the display's rate until the dashboard rests (at most a minute of its clock).
    static func runToRest(_ session: PlaySession, clock: inout Double, into m: inout Moving) throws {
        var n = 0
        while !session.dashboard.isAtRest && n < 3600 {
            clock += 1 / displayHz
            n += 1
            let t0 = now()
            _ = session.handle(.ready, now: clock)
            guard let f = try session.frame(now: clock) else { continue }
            m.times.append((now() - t0) * 1000)
            m.draws.append(f.drawSeconds * 1000)
            m.encodes.append(f.encodeSeconds * 1000)
            m.kilobytes.append(Double(f.png.count) / 1024)
            switch f.tiles {
            case nil: m.whole += 1
            case let t? where t.isEmpty: m.unchanged += 1
            case let t?:
                m.patches += 1
                m.tiles += t.count
                if m.gridTiles == 0 { m.gridTiles = gridTiles(of: f.header) }
            }
        }
    }

    /// How many tiles the picture's grid has, from a patch frame's header.
    static func gridTiles(of header: String) -> Int {
        let h = (try? JSONSerialization.jsonObject(with: Data(header.utf8))) as? [String: Any] ?? [:]  // the server's own header
        guard let w = h["width"] as? Int, let ht = h["height"] as? Int, let t = h["tileSize"] as? Int, t > 0 else { return 0 }
        return ((w + t - 1) / t) * ((ht + t - 1) / t)
    }

    static func run(data: String, json: Bool, viewerPDF: String? = nil, viewerReports: Int = 12, viewerOnly: Bool = false) throws {
        if viewerOnly {
            var viewer = ViewerBench.Figures()
            try ViewerBench.run(data: data, pdf: viewerPDF, reports: viewerReports, into: &viewer)
            printReport(nil, viewer: viewer, json: json)
            return
        }
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let source = try PlaySource.load(dataPath: data, settings: settings, readPDFs: true)
        var figures = Figures()
        let categories = source.tree.nodes.indices.filter { source.tree.parents[$0] == 0 && $0 != 0 && source.tree.opensLevel($0) }
            .map { source.tree.nodes[$0].id }

        // Latency at scale 1.
        var latencies: [(ms: Double, shown: Bool)] = []
        do {
            var clock = 0.0
            let session = try PlaySession(source: source, scale: 1, now: clock)
            var ignored = Moving(scale: 1, wholeOnly: false)
            if let l = try timed(session, #"{"type": "tap", "x": 384, "y": 540}"#, clock: &clock) { latencies.append(l) }
            try runToRest(session, clock: &clock, into: &ignored)
            for round in 0..<12 {
                let bodies = session.dashboard.debugView().bodies
                let id = categories[round % categories.count]
                guard let b = bodies.first(where: { $0.id == id }) else { continue }
                if let l = try timed(session, "{\"type\": \"tap\", \"x\": \(b.position.x), \"y\": \(b.position.y)}", clock: &clock) {
                    latencies.append(l)
                }
                try runToRest(session, clock: &clock, into: &ignored)
                if let l = try timed(session, #"{"type": "pinch"}"#, clock: &clock) { latencies.append(l) }
                try runToRest(session, clock: &clock, into: &ignored)
                // A drag: press, 20 moves towards the middle of the canvas (each timed to its
                // frame), release.
                if let c = session.dashboard.debugView().bodies.first(where: { !$0.isKinematic }) {
                    _ = session.handle(.press(c.position), now: clock)
                    let dx = c.position.x < 384 ? 4.0 : -4.0, dy = c.position.y < 512 ? 3.0 : -3.0
                    for k in 1...20 {
                        let x = c.position.x + Double(k) * dx, y = c.position.y + Double(k) * dy
                        if let l = try timed(session, "{\"type\": \"move\", \"x\": \(x), \"y\": \(y)}", clock: &clock) {
                            latencies.append(l)
                        }
                    }
                    _ = session.handle(.release, now: clock)
                    try runToRest(session, clock: &clock, into: &ignored)
                }
            }
            // At rest: the page holds a credit; nothing is drawn, and the process idles.
            _ = session.handle(.ready, now: clock)
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu0 = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            let wall0 = now()
            var drawn = 0
            while now() - wall0 < 2 {
                // A page at rest sends nothing; the server would wait. Poll 60 times a second to show no frame is due.
                if session.wantsFrame, try session.frame(now: clock + now() - wall0) != nil { drawn += 1 }
                Thread.sleep(forTimeInterval: 1.0 / 60)
            }
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu1 = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            figures.restFrames = drawn
            figures.restCPUPercent = (cpu1 - cpu0) / (now() - wall0) * 100
        }
        figures.latencyMedianMs = BenchStatistics.median(latencies.map(\.ms))
        figures.latencyP90Ms = BenchStatistics.percentile(latencies.map(\.ms), 0.9)
        figures.latencySamples = latencies.count
        figures.latencyShown = latencies.filter(\.shown).count

        // While bubbles move: the root's level opens, then six categories in and out.
        for scale in [1.0, 2.0] {
            for wholeOnly in [false, true] {
                var clock = 0.0
                let session = try PlaySession(source: source, scale: scale, now: clock)
                session.sendsChangedTiles = !wholeOnly
                var m = Moving(scale: scale, wholeOnly: wholeOnly)
                _ = session.handle(.tap(ScenePoint(x: 384, y: 540)), now: clock)
                try runToRest(session, clock: &clock, into: &m)
                for round in 0..<6 {
                    let id = categories[round % categories.count]
                    guard let b = session.dashboard.debugView().bodies.first(where: { $0.id == id }) else { continue }
                    _ = session.handle(.tap(b.position), now: clock)
                    try runToRest(session, clock: &clock, into: &m)
                    _ = session.handle(.pinch, now: clock)
                    try runToRest(session, clock: &clock, into: &m)
                }
                figures.moving.append(m)
            }
        }

        var viewer = ViewerBench.Figures()
        try ViewerBench.run(data: data, pdf: viewerPDF, reports: viewerReports, into: &viewer)
        printReport(figures, viewer: viewer, json: json)
    }

    /// The benchmark's result: one JSON object, or lines of text.
    static func printReport(_ figures: Figures?, viewer: ViewerBench.Figures, json: Bool) {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        let parts = viewer.firstFrameParts
        let tapMs = BenchStatistics.median(parts.map(\.tap)), drawMs = BenchStatistics.median(parts.map(\.draw))
        let encodeMs = BenchStatistics.median(parts.map(\.encode))
        let viewerJSON = "{\"reports_opened\": \(viewer.reports), \"sheet_first_frame_median_ms\": \(f(BenchStatistics.median(viewer.firstFrameMs))), "
            + "\"sheet_first_frame_tap_median_ms\": \(f(tapMs)), \"sheet_first_frame_draw_median_ms\": \(f(drawMs)), "
            + "\"sheet_first_frame_png_median_ms\": \(f(encodeMs)), "
            + "\"sheet_first_frame_max_ms\": \(f(viewer.firstFrameMs.max() ?? 0)), \"sharp_first_page_median_ms\": \(f(BenchStatistics.median(viewer.sharpMs))), "
            + "\"sharp_first_page_p90_ms\": \(f(BenchStatistics.percentile(viewer.sharpMs, 0.9))), \"scroll\": ["
            + viewer.scroll.map { s in
                "{\"scale\": \(f(s.scale)), \"pages\": \(s.pages), \"frames\": \(s.frameMs.count), \"frame_median_ms\": \(f(BenchStatistics.median(s.frameMs))), "
                    + "\"frame_p95_ms\": \(f(BenchStatistics.percentile(s.frameMs, 0.95))), \"draw_median_ms\": \(f(BenchStatistics.median(s.drawMs))), "
                    + "\"png_median_ms\": \(f(BenchStatistics.median(s.encodeMs))), \"pages_drawn_off_frame\": \(s.pagesDrawn), \"frames_drawn_in_part\": \(s.partialFrames)}"
            }.joined(separator: ", ") + "]}"
        guard let figures else {
            if json {
                print("{\"viewer\": \(viewerJSON)}")
            } else {
                printViewer(viewer, tapMs: tapMs, drawMs: drawMs, encodeMs: encodeMs)
            }
            return
        }
        if json {
            let moving = figures.moving.map { m in
                "{\"scale\": \(f(m.scale)), \"frames\": \(m.wholeOnly ? "\"whole\"" : "\"changed tiles\""), \"frames_per_second\": \(f(m.framesPerSecond)), "
                    + "\"frame_median_ms\": \(f(BenchStatistics.median(m.times))), \"draw_median_ms\": \(f(BenchStatistics.median(m.draws))), "
                    + "\"png_encode_median_ms\": \(f(BenchStatistics.median(m.encodes))), \"png_mean_kb\": \(f(m.meanKB)), \"frames_drawn\": \(m.times.count), "
                    + "\"whole_frames\": \(m.whole), \"patch_frames\": \(m.patches), \"unchanged_frames\": \(m.unchanged), "
                    + "\"patch_tile_share\": \(f(m.tileShare))}"
            }
            print(
                """
                {"canvas": [768, 1024], "display_hz": \(f(displayHz)), "latency_median_ms": \(f(figures.latencyMedianMs)), \
                "latency_p90_ms": \(f(figures.latencyP90Ms)), "latency_samples": \(figures.latencySamples), \
                "latency_frames_showing_the_input": \(figures.latencyShown), "moving": [\(moving.joined(separator: ", "))], \
                "rest_frames_in_2_s": \(figures.restFrames), "rest_cpu_percent": \(f(figures.restCPUPercent)), \
                "viewer": \(viewerJSON)}
                """)
        } else {
            print("bubbles play, in process (768x1024 pt; parser, session, renderer, PNG; not the socket write; a page at \(f(displayHz)) Hz):")
            print("  input message -> its frame ready to send: median \(f(figures.latencyMedianMs)) ms, p90 \(f(figures.latencyP90Ms)) ms "
                + "(\(figures.latencySamples) taps, pinches and drag moves, scale 1; \(figures.latencyShown) of the frames show a change)")
            for m in figures.moving {
                let kind = m.wholeOnly ? "whole pictures    " : "changed tiles only"
                var line = "  while bubbles move, scale \(f(m.scale)), \(kind): \(f(m.framesPerSecond)) frames/s sustainable "
                line += "(frame median \(f(BenchStatistics.median(m.times))) ms: draw \(f(BenchStatistics.median(m.draws))), PNG \(f(BenchStatistics.median(m.encodes))); "
                line += "\(f(m.meanKB)) KB a frame; \(m.times.count) frames"
                if !m.wholeOnly { line += ": \(m.whole) whole, \(m.patches) patches of \(f(m.tileShare * 100)) % of the tiles, \(m.unchanged) unchanged" }
                print(line + ")")
            }
            for scale in [1.0, 2.0] {
                if let a = figures.moving.first(where: { $0.scale == scale && !$0.wholeOnly }),
                    let b = figures.moving.first(where: { $0.scale == scale && $0.wholeOnly }), b.framesPerSecond > 0 {
                    print("  changed tiles vs whole pictures, scale \(f(scale)): \(f(a.framesPerSecond / b.framesPerSecond))x the frames/s, \(f(a.meanKB / max(b.meanKB, 1e-9)))x the bytes")
                }
            }
            print("  at rest: \(figures.restFrames) frames in 2 s, CPU \(f(figures.restCPUPercent)) % of one core")
            printViewer(viewer, tapMs: tapMs, drawMs: drawMs, encodeMs: encodeMs)
        }
    }

    /// The viewer's lines of the text report.
    static func printViewer(_ viewer: ViewerBench.Figures, tapMs: Double, drawMs: Double, encodeMs: Double) {
        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        print("  tapping a report (scale 2, a new page cache each): the sheet's first frame median \(f(BenchStatistics.median(viewer.firstFrameMs))) ms "
            + "(max \(f(viewer.firstFrameMs.max() ?? 0))), the sharp first page on screen median \(f(BenchStatistics.median(viewer.sharpMs))) ms, "
            + "p90 \(f(BenchStatistics.percentile(viewer.sharpMs, 0.9))) ms (\(viewer.reports) reports); the first frame's medians: "
            + "the tap \(f(tapMs)) ms, drawing \(f(drawMs)) ms, PNG \(f(encodeMs)) ms")
        for s in viewer.scroll {
            print("  scrolling a \(s.pages)-page report at 60 Hz, scale \(f(s.scale)): frame median \(f(BenchStatistics.median(s.frameMs))) ms, "
                + "p95 \(f(BenchStatistics.percentile(s.frameMs, 0.95))) ms (draw \(f(BenchStatistics.median(s.drawMs))), "
                + "tiles and PNG \(f(BenchStatistics.median(s.encodeMs))); \(s.frameMs.count) frames, \(s.partialFrames) drawn only where the pages changed; \(s.pagesDrawn) pages drawn off the frame path)")
        }
    }
}

/// `bubbles bench play`.
struct BenchPlay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Benchmark the play server: input message to frame, frames/s while moving at scale 1 and 2, rest.",
        discussion: """
            In process, with the real message parser, session, renderer and encoder; a page is \
            simulated on a virtual 60 Hz clock. Latency: a message arriving between two frames, to \
            the next frame ready to leave (median and 90th percentile, nearest rank). Frames per \
            second the server sustains while bubbles move at scale 1 and 2 (with changed tiles and, \
            for the ratio, with whole pictures); frames and CPU at rest. The viewer, on a real \
            clock: tapping a report card to the sheet's first frame and to the sharp first page (a \
            new page cache each), and frame times while a long report scrolls (pages drawn off the \
            frame path).
            """)

    @Option(help: "The datasource.")
    var input: String = "Data/reports.json"

    @Option(help: "A long PDF to scroll in the viewer's figures (default: a 50-page report drawn for the bench).")
    var viewerPDF: String?

    @Option(help: "How many of the datasource's reports the viewer's figures open, in datasource order.")
    var viewerReports: Int = 12

    @Flag(help: "Only the viewer's figures.")
    var viewerOnly = false

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Bench.running(global) {
            try PlayBench.run(data: input, json: json, viewerPDF: viewerPDF, viewerReports: max(1, viewerReports), viewerOnly: viewerOnly)
        }
    }
}
