import BubbleDashboard
import BubblePlay
import BubbleScenario
import Foundation

/// `bubbles bench --play`: the play server's costs, in process, with the real message parser,
/// session and renderer (what is left out is the WebSocket write, a loopback copy):
/// - latency: from a message's bytes to the frame that shows its effect, PNG encoded and ready to
///   leave (taps that start a transition, pinches back, and finger moves of a drag), at scale 1;
/// - frames per second the server can send while bubbles move (a page that acks at once), at
///   scale 1 and 2, with the median frame time and PNG size;
/// - at rest: frames drawn while a page keeps its credit, and CPU time over two seconds.
enum PlayBench {
    struct Figures {
        var latencyMedianMs = 0.0
        var latencyP90Ms = 0.0
        var latencySamples = 0
        var fps: [(scale: Double, fps: Double, frameMedianMs: Double, drawMedianMs: Double, encodeMedianMs: Double, pngMedianKB: Double, frames: Int)] = []
        var restFrames = 0
        var restCPUPercent = 0.0
    }

    static func now() -> Double { monotonicNow() }

    static func median(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func percentile(_ v: [Double], _ p: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
    }

    /// Sends a message as the page would and times it to the frame.
    static func timed(_ session: PlaySession, _ text: String) throws -> Double {
        _ = session.handle(.ready, now: now())
        let t0 = now()
        let message = try session.parser.parse(Array(text.utf8))
        _ = session.handle(message, now: now())
        guard try session.frame(now: now()) != nil else { return -1 }
        return (now() - t0) * 1000
    }

    /// Frames as fast as the session draws them until the dashboard rests.
    static func runToRest(
        _ session: PlaySession, frameTimes: inout [Double], sizes: inout [Double], split: inout [(draw: Double, encode: Double)]
    ) throws -> (frames: Int, seconds: Double) {
        let start = now()
        var frames = 0
        while !session.dashboard.isAtRest && now() - start < 10 {
            _ = session.handle(.ready, now: now())
            let t0 = now()
            if let f = try session.frame(now: now()) {
                frameTimes.append((now() - t0) * 1000)
                sizes.append(Double(f.png.count) / 1024)
                split.append((f.drawSeconds * 1000, f.encodeSeconds * 1000))
                frames += 1
            }
        }
        return (frames, now() - start)
    }

    static func run(data: String, json: Bool) throws {
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let source = try PlaySource.load(dataPath: data, settings: settings, readPDFs: true)
        var figures = Figures()
        let categories = source.tree.nodes.indices.filter { source.tree.parents[$0] == 0 && $0 != 0 && source.tree.opensLevel($0) }
            .map { source.tree.nodes[$0].id }

        // Latency at scale 1.
        var latencies: [Double] = []
        do {
            let session = try PlaySession(source: source, scale: 1, now: now())
            var ft: [Double] = [], sz: [Double] = []
            var sp: [(draw: Double, encode: Double)] = []
            latencies.append(try timed(session, #"{"type": "tap", "x": 384, "y": 540}"#))
            _ = try runToRest(session, frameTimes: &ft, sizes: &sz, split: &sp)
            for round in 0..<12 {
                let bodies = session.dashboard.debugView().bodies
                let id = categories[round % categories.count]
                guard let b = bodies.first(where: { $0.id == id }) else { continue }
                latencies.append(try timed(session, "{\"type\": \"tap\", \"x\": \(b.position.x), \"y\": \(b.position.y)}"))
                _ = try runToRest(session, frameTimes: &ft, sizes: &sz, split: &sp)
                latencies.append(try timed(session, #"{"type": "pinch"}"#))
                _ = try runToRest(session, frameTimes: &ft, sizes: &sz, split: &sp)
                // A drag: press, 20 moves (each timed to its frame), release.
                if let c = session.dashboard.debugView().bodies.first(where: { !$0.isKinematic }) {
                    _ = session.handle(.press(c.position), now: now())
                    for k in 1...20 {
                        let x = c.position.x + Double(k) * 4, y = c.position.y + Double(k) * 3
                        latencies.append(try timed(session, "{\"type\": \"move\", \"x\": \(x), \"y\": \(y)}"))
                    }
                    _ = session.handle(.release, now: now())
                    _ = try runToRest(session, frameTimes: &ft, sizes: &sz, split: &sp)
                }
            }
            // At rest: the page holds a credit; nothing is drawn, and the process idles.
            _ = session.handle(.ready, now: now())
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu0 = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            let wall0 = now()
            var drawn = 0
            while now() - wall0 < 2 {
                // A page at rest sends nothing; the server would wait. Poll 60 times a second to show no frame is due.
                if session.wantsFrame, try session.frame(now: now()) != nil { drawn += 1 }
                Thread.sleep(forTimeInterval: 1.0 / 60)
            }
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let cpu1 = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
            figures.restFrames = drawn
            figures.restCPUPercent = (cpu1 - cpu0) / (now() - wall0) * 100
        }
        let valid = latencies.filter { $0 >= 0 }
        figures.latencyMedianMs = median(valid)
        figures.latencyP90Ms = percentile(valid, 0.9)
        figures.latencySamples = valid.count

        // Frames per second while bubbles move.
        for scale in [1.0, 2.0] {
            let session = try PlaySession(source: source, scale: scale, now: now())
            var frameTimes: [Double] = [], sizes: [Double] = []
            var split: [(draw: Double, encode: Double)] = []
            var frames = 0
            var seconds = 0.0
            _ = session.handle(.tap(ScenePoint(x: 384, y: 540)), now: now())
            var r = try runToRest(session, frameTimes: &frameTimes, sizes: &sizes, split: &split)
            frames += r.frames
            seconds += r.seconds
            for round in 0..<6 {
                let id = categories[round % categories.count]
                guard let b = session.dashboard.debugView().bodies.first(where: { $0.id == id }) else { continue }
                _ = session.handle(.tap(b.position), now: now())
                r = try runToRest(session, frameTimes: &frameTimes, sizes: &sizes, split: &split)
                frames += r.frames
                seconds += r.seconds
                _ = session.handle(.pinch, now: now())
                r = try runToRest(session, frameTimes: &frameTimes, sizes: &sizes, split: &split)
                frames += r.frames
                seconds += r.seconds
            }
            figures.fps.append(
                (scale, Double(frames) / max(seconds, 1e-9), median(frameTimes), median(split.map(\.draw)), median(split.map(\.encode)), median(sizes), frames))
        }

        func f(_ v: Double) -> String { String(format: "%.2f", v) }
        if json {
            let fps = figures.fps.map {
                "{\"scale\": \(f($0.scale)), \"frames_per_second\": \(f($0.fps)), \"frame_median_ms\": \(f($0.frameMedianMs)), \"draw_median_ms\": \(f($0.drawMedianMs)), \"png_encode_median_ms\": \(f($0.encodeMedianMs)), \"png_median_kb\": \(f($0.pngMedianKB)), \"frames\": \($0.frames)}"
            }
            print(
                """
                {"canvas": [768, 1024], "latency_median_ms": \(f(figures.latencyMedianMs)), "latency_p90_ms": \(f(figures.latencyP90Ms)), \
                "latency_samples": \(figures.latencySamples), "moving": [\(fps.joined(separator: ", "))], \
                "rest_frames_in_2_s": \(figures.restFrames), "rest_cpu_percent": \(f(figures.restCPUPercent))}
                """)
        } else {
            print("bubbles play, in process (768x1024 pt; parser, session, renderer, PNG; not the socket write):")
            print("  input message -> frame ready to send: median \(f(figures.latencyMedianMs)) ms, p90 \(f(figures.latencyP90Ms)) ms (\(figures.latencySamples) taps, pinches and drag moves, scale 1)")
            for m in figures.fps {
                print("  while bubbles move at scale \(f(m.scale)): \(f(m.fps)) frames/s (frame median \(f(m.frameMedianMs)) ms: draw \(f(m.drawMedianMs)), PNG encode \(f(m.encodeMedianMs)); PNG median \(f(m.pngMedianKB)) KB, \(m.frames) frames)")
            }
            print("  at rest: \(figures.restFrames) frames in 2 s, CPU \(f(figures.restCPUPercent)) % of one core")
        }
    }
}
