import BubbleExport
import Foundation
import TestSupport
import Testing

/// Frames at exact times at any rate, and `--video` through ffmpeg, checked with ffprobe.
@Suite("Video and frame rates")
struct VideoAndFrameRateTests {
    static let hasFFmpeg = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffprobe")

    /// ffprobe's frame count (decoded), width, height, pixel format, codec and duration.
    static func probe(_ path: String) throws -> (frames: Int, width: Int, height: Int, pixelFormat: String, codec: String, duration: Double) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        p.arguments = ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                       "stream=nb_read_frames,width,height,pix_fmt,codec_name:format=duration", "-of", "default=nw=1", path]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        var values: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let kv = line.split(separator: "=", maxSplits: 1)
            if kv.count == 2 { values[String(kv[0])] = String(kv[1]) }
        }
        return (Int(values["nb_read_frames"] ?? "") ?? -1, Int(values["width"] ?? "") ?? -1, Int(values["height"] ?? "") ?? -1,
                values["pix_fmt"] ?? "", values["codec_name"] ?? "", Double(values["duration"] ?? "") ?? -1)
    }

    @Test(.enabled(if: hasFFmpeg, "ffmpeg and ffprobe are not installed (Debian package ffmpeg)"), arguments: [("mp4", "h264"), ("webm", "vp9")])
    func theVideoHasTheExportsFramesAndDuration(ext: String, codec: String) throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        var o = options(scenario, s.path + "/out", formats: [.png])
        // 401 pt at scale 0.25 is 100 px wide, 1024 pt is 256 px; 50 fps.
        o.canvasWidth = 402
        o.fps = 50
        o.video = s.path + "/out/short." + ext
        let summary = try Exporter.run(o)
        #expect(summary.frames == 76 && summary.videoFrames == 76)
        let v = try Self.probe(o.video!)
        #expect(v.frames == 76 && v.codec == codec && v.pixelFormat == "yuv420p")
        #expect(v.width % 2 == 0 && v.height % 2 == 0 && v.width >= 100 && v.width <= 102 && v.height == 256, "\(v)")
        #expect(abs(v.duration - 76.0 / 50) < 1.0 / 50, "\(v.duration) s")
        // The review page links it; no temporary file is left.
        let page = String(decoding: s.bytes(s.path + "/out/index.html"), as: UTF8.self)
        #expect(page.contains(#"<a id="video" href="short.\#(ext)">"#))
        #expect(!(try s.files(s.path + "/out")).contains { $0.hasPrefix(".") })
    }

    @Test(.enabled(if: hasFFmpeg, "ffmpeg and ffprobe are not installed (Debian package ffmpeg)"))
    func aVideoOfFramesUpToDateIsStillWhole() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        _ = try Exporter.run(options(scenario, s.path + "/out"))
        var o = options(scenario, s.path + "/out")
        o.video = s.path + "/short.mp4"
        let again = try Exporter.run(o)
        #expect(again.rendered == 0 && again.skipped == 46, "\(again.line)")
        #expect(try Self.probe(o.video!).frames == 46)
        // Beside the page it is not: the link is a file URL.
        let page = String(decoding: s.bytes(s.path + "/out/index.html"), as: UTF8.self)
        #expect(page.contains(#"href="file://"#) && page.contains("short.mp4"))
    }

    @Test func missingFFmpegIsOneClearLineAndWritesNothing() throws {
        let s = try Scratch()
        defer { s.remove() }
        var o = options(try s.shortScenario(), s.path + "/out")
        o.video = s.path + "/out/short.mp4"
        o.ffmpegSearchPath = s.path + "/no-such-folder"
        #expect {
            try Exporter.run(o)
        } throws: { error in
            "\(error)".contains("ffmpeg") && "\(error)".contains("Debian package ffmpeg") && !"\(error)".contains("\n")
        }
        #expect(!FileManager.default.fileExists(atPath: s.path + "/out"))
        o.video = s.path + "/out/short.gif"
        #expect { try Exporter.run(o) } throws: { "\($0)".contains(".mp4 or .webm") }
    }

    /// At 120 fps no frame repeats the one before while anything moves; at rest frames are still
    /// hard links. (Before interpolation every second frame was a copy.)
    @Test func at120FpsOnlyFramesAtRestAreDuplicates() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.scenario(#"{"at": 0.2, "tap": "root"}"#, duration: 2.5, fps: 120)
        let out = s.path + "/out"
        let summary = try Exporter.run(options(scenario, out, formats: [.png, .json]))
        let list = frames(try manifest(out))
        #expect(list.count == 301)
        // The start screen rests until 0.2 s (frame 24 shows the tap); the first level comes in and
        // comes to rest, and from then on every frame is a duplicate.
        let duplicates = list.filter { $0["duplicate_of"] is Int }.compactMap { $0["index"] as? Int }
        #expect(Array(duplicates.prefix(23)) == Array(1...23))
        let rest = try #require(duplicates.first { $0 > 24 })
        #expect(rest > 24 + 60, "at rest from frame \(rest)")
        #expect(Array(duplicates.drop { $0 < rest }) == Array(rest...300), "a frame repeats the one before while the level comes in")
        #expect(summary.duplicates == duplicates.count)
        // Each duplicate is a hard link, and its scene is the one before it (frame and time aside).
        func scene(_ i: Int) -> String {
            let text = String(decoding: s.bytes(out + String(format: "/frame-%05d.json", i)), as: UTF8.self)
            return text.replacingOccurrences(of: #""frame": \d+, "time": [0-9.e-]+"#, with: "", options: .regularExpression)
        }
        for i in duplicates {
            var a = stat(), b = stat()
            let original = list[i]["duplicate_of"] as! Int
            #expect(stat(out + String(format: "/frame-%05d.png", i), &a) == 0 && stat(out + String(format: "/frame-%05d.png", original), &b) == 0)
            #expect(a.st_ino == b.st_ino, "frame \(i)")
            #expect(scene(i) == scene(i - 1), "frame \(i)")
        }
        for i in 25..<rest { #expect(scene(i) != scene(i - 1), "frame \(i)") }
    }
}
