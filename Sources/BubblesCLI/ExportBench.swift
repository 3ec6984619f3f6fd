import BubbleExport
import Foundation

/// `bubbles bench --export`: the export pipeline on a scenario (the tour) at 1536×2048 (768×1024 pt
/// at scale 2, PNG), with 1 and 2 render jobs: frames per second of the whole command (loading, PDF
/// metadata, simulation, drawing, encoding, writing, manifest, contact sheet, review page), the
/// speed-up from 1 to 2 jobs, the time per frame in each stage, and how many frames were duplicates
/// (written as hard links, not drawn). Each job count runs twice, interleaved; the faster run counts.
enum ExportBench {
    struct Row {
        var jobs: Int
        var summary: ExportSummary
        var all: [Double]
    }

    static func run(scenario: String, json: Bool) throws {
        var best: [Int: Row] = [:]
        for round in 0..<2 {
            for jobs in [1, 2] {
                let folder = NSTemporaryDirectory() + "bubbles-export-bench-\(UUID().uuidString)"
                defer { try? FileManager.default.removeItem(atPath: folder) }
                var options = ExportOptions(scenario: scenario, output: folder)
                options.pixelScale = 2
                options.canvasWidth = 768
                options.canvasHeight = 1024
                options.formats = [.png]
                options.jobs = jobs
                let s = try Exporter.run(options)
                var row = best[jobs] ?? Row(jobs: jobs, summary: s, all: [])
                row.all.append(s.fps)
                if s.fps >= row.summary.fps { row.summary = s }
                best[jobs] = row
                if !json { printError("round \(round + 1), \(jobs) job\(jobs == 1 ? "" : "s"): " + String(format: "%.1f fps", s.fps)) }
            }
        }
        let rows = [best[1]!, best[2]!]
        let speedup = rows[0].summary.fps > 0 ? rows[1].summary.fps / rows[0].summary.fps : 0
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var load = [0.0, 0.0, 0.0]
        _ = getloadavg(&load, 3)
        func ms(_ seconds: Double, _ n: Int) -> Double { n > 0 ? seconds * 1000 / Double(n) : 0 }
        if json {
            let items = rows.map { r -> String in
                let s = r.summary
                return "  {\"jobs\": \(r.jobs), \"frames\": \(s.frames), \"rendered\": \(s.rendered), \"duplicates\": \(s.duplicates), "
                    + "\"seconds\": \(s.seconds), \"fps\": \(s.fps), \"fps_runs\": [\(r.all.map { "\($0)" }.joined(separator: ", "))], "
                    + "\"simulate_ms_per_frame\": \(ms(s.simulateSeconds, s.frames)), "
                    + "\"draw_ms_per_rendered_frame\": \(ms(s.drawSeconds, s.rendered)), "
                    + "\"encode_ms_per_rendered_frame\": \(ms(s.encodeSeconds, s.rendered)), "
                    + "\"write_ms_per_frame\": \(ms(s.writeSeconds, s.rendered + s.linked))}"
            }
            let quoted = scenario.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            print("{\"scenario\": \"\(quoted)\", \"width\": 1536, \"height\": 2048, \"cores\": \(cores), "
                + "\"load_average\": \(load[0]), \"speedup_1_to_2\": \(speedup), \"runs\": [\n" + items.joined(separator: ",\n") + "]}")
            return
        }
        print("export of \(scenario) at 1536×2048 px (PNG), \(cores) cores, load average \(String(format: "%.2f", load[0])) at the end:")
        for r in rows {
            let s = r.summary
            print(String(format: "  %d job%@: %5.1f fps (%d frames in %.2f s; runs %@); %d drawn, %d duplicates (%.0f %%)",
                         r.jobs, r.jobs == 1 ? " " : "s", s.fps, s.frames, s.seconds,
                         r.all.map { String(format: "%.1f", $0) }.joined(separator: ", "), s.rendered, s.duplicates,
                         100 * Double(s.duplicates) / Double(max(1, s.frames))))
            print(String(format: "          per frame: simulate %.2f ms (every frame); per drawn frame: draw %.2f ms, encode %.2f ms; write %.2f ms per file",
                         ms(s.simulateSeconds, s.frames), ms(s.drawSeconds, s.rendered), ms(s.encodeSeconds, s.rendered),
                         ms(s.writeSeconds, s.rendered + s.linked)))
        }
        print(String(format: "  speed-up 1 → 2 jobs: %.2f×", speedup))
    }
}
