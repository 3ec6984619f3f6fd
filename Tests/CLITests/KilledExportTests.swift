import Foundation
import TestSupport
import Testing

/// `bubbles export` killed with SIGKILL at seeded moments: what it leaves is only whole files, and
/// running it again ends with exactly the bytes of an export that was never interrupted.
@Suite("bubbles export, killed")
struct KilledExportTests {
    /// The seed of the kill points; `BUBBLES_KILL_SEED=N` tries others.
    static let seed = ProcessInfo.processInfo.environment["BUBBLES_KILL_SEED"].flatMap { UInt64($0) } ?? 0xB0BB_1E5

    static let arguments = ["--scale", "0.5", "--no-pdf", "--jobs", "2", "--format", "png,json"]

    /// (name, inode) of the frame PNGs: a file this run (re)wrote has a new inode, because every
    /// write is a new file renamed over the old name.
    static func frameInodes(_ folder: String) -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        for name in FileChecks.names(folder) where name.hasPrefix("frame-") && name.hasSuffix(".png") {
            var st = stat()
            if lstat(folder + "/" + name, &st) == 0 { result[name] = UInt64(st.st_ino) }
        }
        return result
    }

    /// Checks that `folder` holds only whole files: frames decode, JSON parses, the manifest parses
    /// and each frame it lists has files with the recorded hashes; the only other files allowed
    /// are temporary files of the killed processes (a killed write leaves one). Returns the
    /// frames the manifest lists.
    static func checkWholeFiles(_ folder: String, killed: Set<Int32>) -> Int {
        var listed = 0
        for name in FileChecks.names(folder) {
            let path = folder + "/" + name
            if name.hasPrefix(".") {
                let pid = name.split(separator: "-").dropLast().last.flatMap { Int32($0) }
                #expect(FileChecks.isTemporary(name) && pid.map(killed.contains) == true, "unexpected hidden file \(name)")
                continue
            }
            let bytes = FileChecks.bytes(path)
            if name.hasPrefix("frame-") && name.hasSuffix(".png") {
                let problem = FileChecks.pngProblem(bytes, size: (384, 512))
                #expect(problem == nil, "\(name): \(problem ?? "")")
            } else if name.hasSuffix(".png") {
                #expect(FileChecks.pngProblem(bytes) == nil, "\(name): \(FileChecks.pngProblem(bytes) ?? "")")
            } else if name.hasSuffix(".json") {
                let object = try? JSONSerialization.jsonObject(with: Data(bytes))
                #expect(object != nil, "\(name) does not parse (\(bytes.count) bytes)")
                if name == "manifest.json", let m = object as? [String: Any] {
                    let frames = m["frames"] as? [[String: Any]] ?? []
                    listed = frames.count
                    for f in frames {
                        for file in f["files"] as? [[String: Any]] ?? [] {
                            let fileName = file["name"] as? String ?? "?"
                            let content = FileChecks.bytes(folder + "/" + fileName)
                            #expect(file["hash"] as? String == FileChecks.fnv1a(content) && file["bytes"] as? Int == content.count,
                                    "manifest lists \(fileName) with other bytes than it has")
                        }
                    }
                }
            } else if name.hasSuffix(".html") {
                #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("</html>\n"), "\(name) is cut short")
            } else {
                Issue.record("unexpected file \(name)")
            }
        }
        return listed
    }

    @Test func killedExportsLeaveWholeFilesAndResumeToTheSameBytes() throws {
        let folder = NSTemporaryDirectory() + "bubbles-killed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scenario = try writeWalkScenario(in: folder)

        let reference = try CLIRunner.run(["export", scenario, "--out", folder + "/reference"] + Self.arguments)
        #expect(reference.status == 0, "\(reference.stderr)")

        let out = folder + "/out"
        var random = SeededRandom(seed: Self.seed)
        var kills: [String] = []
        var listed = 0
        var killedPIDs: Set<Int32> = []
        for round in 0..<3 {
            // Kill once this run has written k frame PNGs of its own (k = 0: as soon as it runs).
            let k = random.int(in: 0...60)
            let before = Self.frameInodes(out)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.binFolder + "/bubbles")
            process.arguments = ["export", scenario, "--out", out] + Self.arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            while process.isRunning {
                let written = Self.frameInodes(out).filter { before[$0.key] != $0.value }.count
                if written >= k { break }
                usleep(1000)
            }
            let pid = process.processIdentifier
            let killed = process.isRunning && kill(pid, SIGKILL) == 0
            process.waitUntilExit()
            guard killed, process.terminationReason == .uncaughtSignal else {
                // It finished first: nothing more to interrupt.
                kills.append("round \(round): finished before \(k) frames")
                break
            }
            kills.append("round \(round): killed after \(k) frames")
            killedPIDs.insert(pid)
            listed = Self.checkWholeFiles(out, killed: killedPIDs)
        }
        #expect(kills.contains { $0.contains("killed") }, "no run was killed: \(kills)")

        // Run again: it resumes (skipping what the last manifest shows), cleans up, and ends with
        // the reference's bytes.
        let resumed = try CLIRunner.run(["export", scenario, "--out", out] + Self.arguments)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let upToDate = resumed.stderr.split(separator: " ").firstIndex(of: "up").map { Int(resumed.stderr.split(separator: " ")[$0 - 1]) ?? -1 }
        #expect(upToDate == listed, "resume skipped \(upToDate ?? -1) frames, the manifest listed \(listed): \(resumed.stderr) \(kills)")
        let names = FileChecks.names(out)
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names.filter { $0.hasPrefix(".") })")
        #expect(names == FileChecks.names(folder + "/reference"))
        for name in names {
            #expect(FileChecks.bytes(out + "/" + name) == FileChecks.bytes(folder + "/reference/" + name),
                    "\(name) differs from the uninterrupted export after \(kills)")
        }
    }
}

/// `bubbles export --video` killed while it writes: no video appears (only ffmpeg's temporary
/// file, hidden), and the next export removes that and writes the whole video.
@Suite("bubbles export --video, killed")
struct KilledVideoExportTests {
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "ffmpeg is not installed (Debian package ffmpeg)"))
    func aKilledVideoExportLeavesNoVideo() throws {
        let folder = NSTemporaryDirectory() + "bubbles-killed-video-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let scenario = try writeWalkScenario(in: folder)
        let out = folder + "/out", video = out + "/walk.mp4"
        let arguments = ["export", scenario, "--out", out, "--scale", "0.5", "--no-pdf", "--jobs", "2", "--video", video]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binFolder + "/bubbles")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill once ffmpeg has started writing (its temporary file has bytes).
        var started = false
        while process.isRunning && !started {
            started = FileChecks.names(out).contains { name in
                name.hasPrefix(".walk.mp4.tmp-") && FileChecks.bytes(out + "/" + name).count > 0
            }
            usleep(2000)
        }
        let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
        process.waitUntilExit()
        try #require(killed, "the export finished before it could be killed")
        usleep(300_000)  // ffmpeg sees the end of its input and stops
        #expect(!FileManager.default.fileExists(atPath: video), "a killed export left a video")
        #expect(FileChecks.names(out).contains { $0.hasPrefix(".walk.mp4.tmp-") })

        let again = try CLIRunner.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: video))
        #expect(!FileChecks.names(out).contains { $0.hasPrefix(".walk.mp4.tmp-") }, "\(FileChecks.names(out).filter { $0.hasPrefix(".") })")
    }
}

/// Writes `walk.json` into `folder`: 121 frames at 30 fps (the start screen, the first level coming
/// in, finance, and back) over the sample library; returns its path.
func writeWalkScenario(in folder: String) throws -> String {
    let scenario = folder + "/walk.json"
    let text = """
        {"data": "\(packageRoot)/Data/reports.json", "fps": 30, "duration": 4, "events": [
         {"at": 0.2, "tap": "root"}, {"at": 1.5, "tap": "finance"}, {"at": 2.8, "pinch": true}]}
        """
    try Data(text.utf8).write(to: URL(fileURLWithPath: scenario))
    return scenario
}
