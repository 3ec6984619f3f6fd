import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("play and --settings on the command line")
struct PlayCommandTests {
    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "bubbles-play-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func badSettingsFilesAreOneLineErrorsNamingFileAndPath() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(String, String)] = [
            (#"{"placeSpring": {"frequency": 99}}"#, "placeSpring.frequency: 'placeSpring.frequency' must be within 0.1...30, got 99"),
            (#"{"gravity": 1}"#, "gravity: unknown setting 'gravity'"),
            (#"{"dragFalloff": "far"}"#, "dragFalloff: 'dragFalloff' must be a number, found a string"),
            (#"{"dragFalloff": 3,}"#, "malformed JSON"),
        ]
        for (i, (text, expected)) in cases.enumerated() {
            let file = dir + "/settings\(i).json"
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            for command in [["render", "--png", dir + "/x.png"], ["play", "--port", "0"]] {
                let r = try CLIRunner.run(command + ["--settings", file])
                #expect(r.status == 1, "\(command[0]) \(text): \(r.stderr)")
                let lines = r.stderr.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("error: \(file):1:"), "\(r.stderr)")
                #expect(r.stderr.contains(expected), "\(r.stderr)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
        // A good one renders.
        let good = dir + "/good.json"
        try Data(#"{"placeSpring": {"frequency": 5, "dampingRatio": 0.9}, "focusDuration": 0.4}"#.utf8).write(to: URL(fileURLWithPath: good))
        let r = try CLIRunner.run(["render", "--no-pdf", "--scale", "0.5", "--png", dir + "/ok.png", "--settings", good])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func playPrintsItsURLWarnsWhenExposedAndStopsOnCtrlC() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binFolder + "/bubbles")
        process.arguments = ["play", "--no-pdf", "--host", "0.0.0.0", "--port", "0", "--record", dir + "/rec.json"]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // The first line of output is the URL.
        var line = ""
        let handle = out.fileHandleForReading
        while !line.hasSuffix("\n") {
            let d = handle.readData(ofLength: 1)
            if d.isEmpty { break }
            line += String(decoding: d, as: UTF8.self)
        }
        #expect(line.hasPrefix("bubbles play: http://127.0.0.1:"), "\(line)")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("warning: listening on 0.0.0.0"))
        #expect(stderr.contains("stopped after 0 session(s)"))
    }
}
