import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubbleExport
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation

/// `bubbles bench export`: the export pipeline on a scenario (the tour) at 1536×2048 (768×1024 pt
/// at scale 2, PNG), at 60 and at 120 fps (frames at their exact times, interpolated between the
/// 60 Hz steps), with 1 and 2 render jobs: frames per second of the whole command (loading, PDF
/// metadata, simulation, drawing, encoding, writing, manifest, contact sheet, review page),
/// the speed-up from 1 to 2 jobs, the time per frame in each stage, and how many frames were
/// duplicates (hard links, not drawn), beside how many there would be if every frame showed the
/// step at or after its time (as before interpolation). Then the same with `--video` (MP4, 2
/// jobs): what the video costs per frame. Every configuration runs twice, interleaved; the
/// faster run counts.
enum ExportBench {
    struct Config: Hashable {
        var fps: Double
        var jobs: Int
        var video: Bool
        var label: String { "\(Int(fps)) fps, \(jobs) job\(jobs == 1 ? " " : "s")" + (video ? " + mp4" : "") }
    }

    struct Row {
        var config: Config
        var summary: ExportSummary
        var all: [Double]
        var steppedDuplicates: Int
    }

    /// Duplicates the export would have if each frame showed the step at or after its time.
    static func steppedDuplicates(scenario path: String, fps: Double) throws -> Int {
        let scenario = try Scenario.load(path)
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let details = LibraryBridge.details(for: scenario.library, readPDFs: true)
        let d = try Dashboard(tree: try LibraryBridge.dashboardTree(scenario.library, details: details), settings: settings)
        let player = ScenarioPlayer(dashboard: d, script: scenario.script)
        var previous: Scene? = nil
        var duplicates = 0
        for i in 0...Int((scenario.duration * fps).rounded()) {
            player.advance(toStep: player.step(atTime: Double(i) / fps))
            let scene = d.scene()
            if scene == previous { duplicates += 1 }
            previous = scene
        }
        return duplicates
    }

    static func run(scenario: String, json: Bool) throws {
        let configs = [60.0, 120].flatMap { fps in [1, 2].map { Config(fps: fps, jobs: $0, video: false) } }
            + [60.0, 120].map { Config(fps: $0, jobs: 2, video: true) }
        var stepped: [Double: Int] = [:]
        for fps in [60.0, 120] { stepped[fps] = try steppedDuplicates(scenario: scenario, fps: fps) }
        var best: [Config: Row] = [:]
        for round in 0..<2 {
            for config in configs {
                let folder = NSTemporaryDirectory() + "bubbles-export-bench-\(UUID().uuidString)"
                defer { try? FileManager.default.removeItem(atPath: folder) }  // scratch folder
                var options = ExportOptions(scenario: scenario, output: folder)
                options.pixelScale = 2
                options.canvasWidth = 768
                options.canvasHeight = 1024
                options.formats = [.png]
                options.jobs = config.jobs
                options.fps = config.fps
                if config.video {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    options.video = folder + "/bench.mp4"
                }
                let s = try Exporter.run(options)
                var row = best[config] ?? Row(config: config, summary: s, all: [], steppedDuplicates: stepped[config.fps] ?? 0)
                row.all.append(s.fps)
                if s.fps >= row.summary.fps { row.summary = s }
                best[config] = row
                if !json { printError("round \(round + 1), \(config.label): " + String(format: "%.1f fps", s.fps)) }
            }
        }
        let rows = configs.map { best[$0]! }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var load = [0.0, 0.0, 0.0]
        _ = getloadavg(&load, 3)
        func ms(_ seconds: Double, _ n: Int) -> Double { n > 0 ? seconds * 1000 / Double(n) : 0 }
        func fps(_ c: Config) -> Double { best[c]?.summary.fps ?? 0 }
        func speedup(_ f: Double) -> Double {
            let one = fps(Config(fps: f, jobs: 1, video: false))
            return one > 0 ? fps(Config(fps: f, jobs: 2, video: false)) / one : 0
        }
        /// Extra milliseconds per frame that the video costs, against the same run without it.
        func videoCost(_ f: Double) -> Double {
            let with = best[Config(fps: f, jobs: 2, video: true)]!.summary, without = best[Config(fps: f, jobs: 2, video: false)]!.summary
            return (with.seconds - without.seconds) * 1000 / Double(max(1, with.frames))
        }
        if json {
            let items = rows.map { r -> String in
                let s = r.summary
                return "  {\"fps_setting\": \(r.config.fps), \"jobs\": \(r.config.jobs), \"video\": \(r.config.video), "
                    + "\"frames\": \(s.frames), \"rendered\": \(s.rendered), \"duplicates\": \(s.duplicates), "
                    + "\"duplicates_if_stepped\": \(r.steppedDuplicates), "
                    + "\"seconds\": \(s.seconds), \"fps\": \(s.fps), \"fps_runs\": [\(r.all.map { "\($0)" }.joined(separator: ", "))], "
                    + "\"simulate_ms_per_frame\": \(ms(s.simulateSeconds, s.frames)), "
                    + "\"draw_ms_per_rendered_frame\": \(ms(s.drawSeconds, s.rendered)), "
                    + "\"encode_ms_per_rendered_frame\": \(ms(s.encodeSeconds, s.rendered)), "
                    + "\"write_ms_per_frame\": \(ms(s.writeSeconds, s.rendered + s.linked)), "
                    + "\"video_copy_ms_per_rendered_frame\": \(ms(s.videoCopySeconds, s.rendered)), "
                    + "\"video_pipe_ms_per_frame\": \(ms(s.videoPipeSeconds, s.frames))}"
            }
            let quoted = scenario.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            print("{\"scenario\": \"\(quoted)\", \"width\": 1536, \"height\": 2048, \"cores\": \(cores), "
                + "\"load_average\": \(load[0]), \"speedup_1_to_2_at_60\": \(speedup(60)), \"speedup_1_to_2_at_120\": \(speedup(120)), "
                + "\"video_ms_per_frame_at_60\": \(videoCost(60)), \"video_ms_per_frame_at_120\": \(videoCost(120)), \"runs\": [\n"
                + items.joined(separator: ",\n") + "]}")
            return
        }
        print("export of \(scenario) at 1536×2048 px (PNG), \(cores) cores, load average \(String(format: "%.2f", load[0])) at the end:")
        for r in rows {
            let s = r.summary
            print(String(format: "  %@: %5.1f fps (%d frames in %.2f s; runs %@); %d drawn, %d duplicates (%.0f %%; %d if frames showed the step at or after their time)",
                         r.config.label, s.fps, s.frames, s.seconds, r.all.map { String(format: "%.1f", $0) }.joined(separator: ", "),
                         s.rendered, s.duplicates, 100 * Double(s.duplicates) / Double(max(1, s.frames)), r.steppedDuplicates))
            var stages = String(format: "          per frame: simulate %.2f ms (every frame); per drawn frame: draw %.2f ms, encode %.2f ms; write %.2f ms per file",
                                ms(s.simulateSeconds, s.frames), ms(s.drawSeconds, s.rendered), ms(s.encodeSeconds, s.rendered),
                                ms(s.writeSeconds, s.rendered + s.linked))
            if r.config.video {
                stages += String(format: "; video: copy %.2f ms per drawn frame, pipe to ffmpeg %.2f ms per frame (its thread)",
                                 ms(s.videoCopySeconds, s.rendered), ms(s.videoPipeSeconds, s.frames))
            }
            print(stages)
        }
        print(String(format: "  speed-up 1 → 2 jobs: %.2f× at 60 fps, %.2f× at 120 fps", speedup(60), speedup(120)))
        print(String(format: "  --video (MP4) costs %.2f ms per frame at 60 fps, %.2f ms at 120 fps (2 jobs, against the same run without)",
                     videoCost(60), videoCost(120)))
    }
}

/// `bubbles bench export`.
struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Benchmark the frame export of a scenario (60 and 120 fps, 1 and 2 jobs, and with --video).",
        discussion: """
            Frames per second of the whole export at 1536x2048 at 60 and 120 fps with 1 and 2 \
            render jobs, the speed-up from 1 to 2 jobs, the time per frame in each stage (simulate, \
            draw, encode), the duplicate frames, and then what an MP4 video costs per frame. Every \
            configuration runs twice, interleaved; the faster run counts.
            """)

    @Option(help: "The scenario.")
    var input: String = "Data/scenarios/tour.json"

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Bench.running(global) { try ExportBench.run(scenario: input, json: json) }
    }
}
