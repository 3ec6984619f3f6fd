import Foundation
import TestSupport
import Testing

@Suite("bubbles export")
struct ExportCommandTests {
    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "bubbles-export-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func scenario(in folder: String, events: String = #"{"at": 0.2, "tap": "root"}"#) throws -> String {
        let path = folder + "/short.json"
        let text = """
            {"data": "\(packageRoot)/Data/reports.json", "fps": 30, "duration": 1, "events": [\(events)]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func exportsIntoOutByDefaultWithOneSummaryLine() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try scenario(in: folder)
        let result = try CLIRunner.run(["export", file, "--scale", "0.25", "--no-pdf", "--jobs", "2"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        // Standard error is a pipe here: no progress bar, one plain summary line.
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("exported 31 frames to out/short: "), "\(result.stderr)")
        #expect(result.stderr.contains(" rendered, ") && result.stderr.contains(" fps"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out/short")
        for name in ["manifest.json", "contact-sheet.png", "index.html", "frame-00000.png", "frame-00030.png"] {
            #expect(names.contains(name), "\(name)")
        }
        #expect(names.count == 31 + 3)

        // The same command again: everything is up to date.
        let again = try CLIRunner.run(["export", file, "--scale", "0.25", "--no-pdf"], in: folder)
        #expect(again.status == 0)
        #expect(again.stderr.contains("0 rendered, 0 duplicates linked, 31 up to date"), "\(again.stderr)")
    }

    @Test func optionsShapeTheOutput() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try scenario(in: folder)
        let result = try CLIRunner.run([
            "export", file, "--out", folder + "/x", "--format", "svg,json", "--fps", "10", "--size", "400x300",
            "--frames", "2..5", "--scale", "0.5", "--every", "2", "--no-pdf",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/x").sorted()
        #expect(names == [
            "contact-sheet-2-5.png", "frame-00002.json", "frame-00002.svg", "frame-00003.json", "frame-00003.svg",
            "frame-00004.json", "frame-00004.svg", "frame-00005.json", "frame-00005.svg", "index-2-5.html", "manifest-2-5.json",
        ])
        let manifest = String(decoding: FileManager.default.contents(atPath: folder + "/x/manifest-2-5.json") ?? Data(), as: UTF8.self)
        #expect(manifest.contains("\"settings\": {\"fps\": 10, \"canvas\": [400, 300], \"scale\": 0.5, \"pixels\": [200, 150], \"formats\": [\"svg\", \"json\"], \"frames\": [2, 5], \"scenario_frames\": 11"))
        #expect(manifest.contains("\"review\": {\"contact_sheet\": \"contact-sheet-2-5.png\", \"every\": 2"))
    }

    @Test(arguments: [
        (["--frames", "5..2"], "--frames must be A..B"),
        (["--frames", "20..40"], "--frames 20..40 is outside the scenario's frames 0..30 (1 s at 30 fps)"),
        (["--format", "png,gif"], "--format takes png, svg, json and/or labels"),
        (["--out", "/proc/no/such/folder"], "cannot write to /proc/no/such/folder: "),
    ])
    func badArgumentsGiveOneClearLine(arguments: [String], expected: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try scenario(in: folder)
        let result = try CLIRunner.run(["export", file, "--no-pdf", "--scale", "0.25"] + arguments, in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(expected), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test func scenarioErrorsNameTheirPlace() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let unknown = try scenario(in: folder, events: #"{"at": 0.2, "tap": "financ"}"#)
        let result = try CLIRunner.run(["export", unknown, "--no-pdf"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: \(unknown):1:"), "\(result.stderr)")
        #expect(result.stderr.contains("events[0].tap: unknown id 'financ' (nearest: finance"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))

        let refused = try scenario(in: folder, events: #"{"at": 0.5, "tap": "q1-2016"}"#)
        let r2 = try CLIRunner.run(["export", refused, "--no-pdf", "--scale", "0.25"], in: folder)
        #expect(r2.status == 1)
        #expect(r2.stderr == "error: frame 15 (0.5 s): the dashboard refused 'tap q1-2016': 'q1-2016' is not on screen at this moment\n")
    }
}
