import BubbleExport
import BubbleSupport
import Foundation
import TestSupport
import Testing

@Suite("Export")
struct ExportTests {
    @Test func jobsOneAndTwoWriteTheSameBytes() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let one = try Exporter.run(options(scenario, s.path + "/one", jobs: 1, formats: [.png, .svg, .json]))
        let two = try Exporter.run(options(scenario, s.path + "/two", jobs: 2, formats: [.png, .svg, .json]))
        #expect(one.frames == 46 && two.frames == 46)
        let names = try s.files(s.path + "/one")
        #expect(names == (try s.files(s.path + "/two")))
        #expect(names.contains("manifest.json") && names.contains("contact-sheet.png") && names.contains("index.html"))
        #expect(names.filter { $0.hasPrefix("frame-") }.count == 46 * 3)
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names)")
        for name in names {
            let a = s.bytes(s.path + "/one/" + name), b = s.bytes(s.path + "/two/" + name)
            #expect(!a.isEmpty && a == b, "\(name) differs between --jobs 1 and --jobs 2")
        }
    }

    @Test func manifestListsFramesEventsAndFileHashes() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        _ = try Exporter.run(options(scenario, out, formats: [.png, .json]))
        let m = try manifest(out)
        #expect(m["format"] as? String == "bubbles-export")
        #expect(m["complete"] as? Bool == true)
        let sc = try #require(m["scenario"] as? [String: Any])
        #expect(sc["path"] as? String == scenario)
        #expect(isHex16(sc["content_hash"]))
        let settings = try #require(m["settings"] as? [String: Any])
        #expect(settings["fps"] as? Int == 30)
        #expect(settings["canvas"] as? [Int] == [768, 1024])
        #expect(settings["scale"] as? Double == 0.25)
        #expect(settings["pixels"] as? [Int] == [192, 256])
        #expect(settings["formats"] as? [String] == ["png", "json"])
        #expect(settings["frames"] as? [Int] == [0, 45])
        let list = frames(m)
        #expect(list.count == 46)
        for (i, f) in list.enumerated() {
            #expect(f["index"] as? Int == i)
            #expect(abs(((f["time"] as? NSNumber)?.doubleValue ?? -1) - Double(i) / 30) < 1e-12)
            #expect(f["step"] as? Int == 2 * i)
            #expect(isHex16(f["state_hash"]))
            #expect(f["events"] is [String])
            let files = try #require(f["files"] as? [[String: Any]])
            #expect(files.map { $0["name"] as? String } == [String(format: "frame-%05d.png", i), String(format: "frame-%05d.json", i)])
            for file in files {
                let bytes = s.bytes(out + "/" + (file["name"] as? String ?? ""))
                #expect(file["hash"] as? String == Hex.hash(FNV1a64.hash(bytes)))
                #expect(file["bytes"] as? Int == bytes.count)
            }
        }
        // 0.2 s is step 12, frame 6 at 30 fps; 1.0 s is frame 30.
        #expect(list[6]["events"] as? [String] == ["tap root"])
        #expect(list[30]["events"] as? [String] == ["tap finance"])
        #expect(list.filter { !($0["events"] as? [String] ?? []).isEmpty }.count == 2)
        let events = try #require(m["events"] as? [[String: Any]])
        #expect(events.map { $0["frame"] as? Int } == [6, 30])
        #expect(events.map { $0["label"] as? String } == ["tap root", "tap finance"])
        // State hashes are the simulation's: every frame's differs (the step is part of it).
        #expect(Set(list.compactMap { $0["state_hash"] as? String }).count == 46)
    }

    @Test func aRangeIsTheSameFramesAsAFullRun() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        _ = try Exporter.run(options(scenario, s.path + "/full", formats: [.png, .json]))
        var o = options(scenario, s.path + "/part", formats: [.png, .json])
        o.frames = try FrameRange.parse("20..33")
        let part = try Exporter.run(o)
        #expect(part.frames == 14)
        let names = try s.files(s.path + "/part")
        let frameNames = names.filter { $0.hasPrefix("frame-") }
        #expect(frameNames.count == 28)
        for name in frameNames {
            #expect(s.bytes(s.path + "/part/" + name) == s.bytes(s.path + "/full/" + name), "\(name)")
        }
        #expect(frameNames.first == "frame-00020.json" && frameNames.last == "frame-00033.png")
        // A part has its own manifest and review files, so parts never overwrite each other's.
        #expect(names.contains("manifest-20-33.json") && names.contains("index-20-33.html") && names.contains("contact-sheet-20-33.png"))
        #expect(!names.contains("manifest.json"))
        let m = try manifest(s.path + "/part", name: "manifest-20-33.json")
        #expect(frames(m).map { $0["index"] as? Int } == Array(20...33))
        // The full manifest's entries for those frames carry the same state hashes.
        let full = frames(try manifest(s.path + "/full"))
        #expect(frames(m).map { $0["state_hash"] as? String } == full[20...33].map { $0["state_hash"] as? String })
        // Out of range is refused before anything is written.
        o.frames = try FrameRange.parse("40..99")
        o.output = s.path + "/bad"
        #expect(throws: ExportError.self) { try Exporter.run(o) }
        #expect(!FileManager.default.fileExists(atPath: s.path + "/bad"))
    }

    @Test func partsAssembleIntoAFullExport() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        for range in ["0..19", "20..45"] {
            var o = options(scenario, out)
            o.frames = try FrameRange.parse(range)
            _ = try Exporter.run(o)
        }
        let full = try Exporter.run(options(scenario, out))
        #expect(full.rendered == 0 && full.linked == 0 && full.skipped == 46, "\(full.line)")
        _ = try Exporter.run(options(scenario, s.path + "/direct"))
        #expect(s.bytes(out + "/manifest.json") == s.bytes(s.path + "/direct/manifest.json"))
    }

    @Test func rerunSkipsUpToDateFramesAndRedoesBrokenOnes() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        let first = try Exporter.run(options(scenario, out))
        #expect(first.rendered + first.linked == 46 && first.skipped == 0)
        let manifestBytes = s.bytes(out + "/manifest.json")
        let again = try Exporter.run(options(scenario, out, jobs: 1))
        #expect(again.skipped == 46 && again.rendered == 0 && again.linked == 0, "\(again.line)")
        #expect(s.bytes(out + "/manifest.json") == manifestBytes)

        // Two rendered (not duplicate) frames: delete one, corrupt the other in place (same size).
        let list = frames(try manifest(out))
        let originals = list.filter { $0["duplicate_of"] is NSNull }.compactMap { $0["index"] as? Int }.filter { $0 > 10 }
        let (deleted, corrupted) = (originals[0], originals[3])
        let deletedPath = out + String(format: "/frame-%05d.png", deleted)
        let corruptedPath = out + String(format: "/frame-%05d.png", corrupted)
        let saved = (s.bytes(deletedPath), s.bytes(corruptedPath))
        try FileManager.default.removeItem(atPath: deletedPath)
        var broken = saved.1
        broken[broken.count / 2] ^= 0xFF
        let handle = try #require(FileHandle(forWritingAtPath: corruptedPath))
        try handle.write(contentsOf: Data(broken))
        try handle.close()
        let repair = try Exporter.run(options(scenario, out))
        #expect(repair.rendered == 2 && repair.skipped == 44, "\(repair.line)")
        #expect(s.bytes(deletedPath) == saved.0)
        #expect(s.bytes(corruptedPath) == saved.1)
        #expect(s.bytes(out + "/manifest.json") == manifestBytes)

        // Other settings, or other PDF metadata (page counts, keywords): nothing is up to date.
        var withPDFs = options(scenario, out)
        withPDFs.readPDFs = true
        let reread = try Exporter.run(withPDFs)
        #expect(reread.skipped == 0 && reread.rendered > 0)
        let rescaled = try Exporter.run(options(scenario, out, scale: 0.3))
        #expect(rescaled.skipped == 0 && rescaled.rendered > 0)
    }

    /// Frames of an earlier run whose scenes match but which this build draws differently (the
    /// renderer changed) are not kept: the first carried frame is drawn again and compared.
    @Test func aChangedRendererKeepsNoEarlierFrame() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        _ = try Exporter.run(options(scenario, out))
        let fresh = try s.files(out).filter { $0.hasPrefix("frame-") }.map { ($0, s.bytes(out + "/" + $0)) }
        // Pretend an older renderer wrote frame 0: other (valid) bytes, recorded consistently in
        // the manifest, so the file check alone cannot tell.
        let list = frames(try manifest(out))
        let last = try #require(list.last { $0["duplicate_of"] is NSNull }?["index"] as? Int)
        let older = s.bytes(out + String(format: "/frame-%05d.png", last))
        let frame0 = out + "/frame-00000.png"
        let current = s.bytes(frame0)
        #expect(older != current)
        try FileManager.default.removeItem(atPath: frame0)
        try Data(older).write(to: URL(fileURLWithPath: frame0))
        func record(_ b: [UInt8]) -> String {
            let h = b.withUnsafeBytes { FNV1a64.hash($0) }
            return "\"name\": \"frame-00000.png\", \"hash\": \"\(Hex.hash(h))\", \"bytes\": \(b.count)"
        }
        let text = String(decoding: s.bytes(out + "/manifest.json"), as: UTF8.self)
        #expect(text.contains(record(current)))
        try Data(text.replacingOccurrences(of: record(current), with: record(older)).utf8)
            .write(to: URL(fileURLWithPath: out + "/manifest.json"))

        let rerun = try Exporter.run(options(scenario, out))
        #expect(rerun.rendererChanged && rerun.skipped == 0, "\(rerun.line)")
        #expect(rerun.line.contains("renderer draws differently"))
        for (name, bytes) in fresh { #expect(s.bytes(out + "/" + name) == bytes, "\(name)") }
        // And an unchanged renderer keeps everything.
        let again = try Exporter.run(options(scenario, out))
        #expect(!again.rendererChanged && again.skipped == 46, "\(again.line)")
    }

    @Test func temporariesOfAKilledExportAreRemoved() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        // A process that no longer exists (pids are below 2^22 on Linux) left a half-written frame.
        let stale = out + "/.frame-00003.png.tmp-4194305-12345"
        try Data([0x89, 0x50]).write(to: URL(fileURLWithPath: stale))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out + "/.notes"))
        _ = try Exporter.run(options(scenario, out))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(try s.files(out).filter { $0.hasPrefix(".") } == [".notes"])
    }

    @Test func identicalFramesAreLinkedNotRendered() throws {
        let s = try Scratch()
        defer { s.remove() }
        // The start screen rests until 0.5 s; after the first level comes in it rests again.
        let scenario = try s.scenario(#"{"at": 0.5, "tap": "root"}"#, duration: 4)
        let out = s.path + "/out"
        let summary = try Exporter.run(options(scenario, out, formats: [.png, .json]))
        let list = frames(try manifest(out))
        // Frames 1...15 repeat frame 0 (the tap fires on frame 15 and shows from the next step).
        for i in 1..<15 { #expect(list[i]["duplicate_of"] as? Int == 0, "frame \(i)") }
        #expect(list[0]["duplicate_of"] is NSNull)
        #expect(summary.duplicates >= 14 && summary.rendered + summary.linked == 121)
        #expect(summary.duplicates == list.filter { $0["duplicate_of"] is Int }.count)
        // The tail at rest: some late frame repeats an earlier one.
        #expect(list[120]["duplicate_of"] is Int)
        // Every duplicate's PNG is a hard link to its original's; its JSON is its own (frame and time).
        for f in list {
            guard let index = f["index"] as? Int, let original = f["duplicate_of"] as? Int else { continue }
            let a = try FileManager.default.attributesOfItem(atPath: out + String(format: "/frame-%05d.png", index))
            let b = try FileManager.default.attributesOfItem(atPath: out + String(format: "/frame-%05d.png", original))
            #expect(a[.systemFileNumber] as? Int == b[.systemFileNumber] as? Int)
            let json = String(decoding: s.bytes(out + String(format: "/frame-%05d.json", index)), as: UTF8.self)
            #expect(json.hasPrefix("{\"frame\": \(index), "))
        }
    }

    @Test func unwritableFolderIsReportedAndNothingIsWritten() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let file = s.path + "/a-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for out in [file, file + "/frames", "/proc/no/such/folder"] {
            #expect {
                try Exporter.run(options(scenario, out))
            } throws: { error in
                guard case ExportError.unwritableFolder(let path, _) = error else { return false }
                return path == out && "\(error)".hasPrefix("cannot write to \(out): ")
            }
        }
        #expect(try s.files(s.path) == ["a-file", "short.json"])
    }

    @Test func aRefusedEventStopsAtItsFrameLeavingWholeFiles() throws {
        let s = try Scratch()
        defer { s.remove() }
        // The report 'q1-2016' is not on screen on the first level.
        let scenario = try s.scenario(#"{"at": 0.1, "tap": "root"}, {"at": 0.5, "tap": "q1-2016"}"#)
        let out = s.path + "/out"
        #expect {
            try Exporter.run(options(scenario, out))
        } throws: { error in
            "\(error)" == "frame 15 (0.5 s): the dashboard refused 'tap q1-2016': 'q1-2016' is not on screen at this moment"
        }
        let names = try s.files(out)
        #expect(!names.contains { $0.hasPrefix(".") })
        #expect(names.contains("frame-00014.png") && !names.contains("frame-00015.png"))
        let m = try manifest(out)
        #expect(m["complete"] as? Bool == false)
        #expect(frames(m).count == 15)
        for f in frames(m) {
            let file = try #require((f["files"] as? [[String: Any]])?.first)
            #expect(file["hash"] as? String == Hex.hash(FNV1a64.hash(s.bytes(out + "/" + (file["name"] as! String)))))
        }
    }

    @Test func unknownIDsAreRefusedBeforeAnythingIsWritten() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.scenario(#"{"at": 0.1, "tap": "financ"}"#)
        #expect {
            try Exporter.run(options(scenario, s.path + "/out"))
        } throws: { error in
            "\(error)".contains("events[0].tap: unknown id 'financ' (nearest: finance")
        }
        #expect(!FileManager.default.fileExists(atPath: s.path + "/out"))
    }

    @Test func sceneJSONHasEveryBubble() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        _ = try Exporter.run(options(scenario, out, formats: [.json]))
        var sawReportOrCategory = false
        for i in [0, 20, 45] {
            let data = try Data(contentsOf: URL(fileURLWithPath: out + String(format: "/frame-%05d.json", i)))
            let o = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(o["frame"] as? Int == i)
            let canvas = try #require(o["canvas"] as? [String: Any])
            #expect(canvas["width"] as? Int == 768 && canvas["height"] as? Int == 1024)
            #expect(o["breadcrumbs"] as? [String] != nil)
            #expect(o.keys.contains("overlay"))
            let bubbles = try #require(o["bubbles"] as? [[String: Any]])
            #expect(!bubbles.isEmpty)
            for b in bubbles {
                #expect(b["id"] is String)
                #expect(["focus", "category", "report"].contains(b["kind"] as? String ?? ""))
                let x = try #require((b["x"] as? NSNumber)?.doubleValue), y = try #require((b["y"] as? NSNumber)?.doubleValue)
                #expect(x > -200 && x < 968 && y > -200 && y < 1224)
                if b["shape"] as? String == "circle" {
                    #expect(((b["r"] as? NSNumber)?.doubleValue ?? 0) > 0)
                } else {
                    #expect(b["shape"] as? String == "rounded_rect")
                    #expect(((b["w"] as? NSNumber)?.doubleValue ?? 0) > 0 && ((b["h"] as? NSNumber)?.doubleValue ?? 0) > 0)
                }
                #expect((b["scale"] as? NSNumber) != nil && (b["opacity"] as? NSNumber) != nil)
                if b["kind"] as? String != "focus" { sawReportOrCategory = true }
            }
            if i == 0 { #expect(bubbles.map { $0["id"] as? String } == ["root"]) }
        }
        #expect(sawReportOrCategory)
        // Only JSON was asked for: no images, and the review page says so.
        #expect(try s.files(out).filter { $0.hasSuffix(".png") } == ["contact-sheet.png"])
    }

    @Test func contactSheetHasTheExpectedSize() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.scenario(#"{"at": 0.2, "tap": "root"}"#, duration: 3, fps: 60)
        #expect(ContactSheet.every(frames: 181) == 4)
        #expect(ContactSheet.every(frames: 901) == 20)
        #expect(ContactSheet.every(frames: 20) == 1)
        for (every, cells) in [(nil, 46), (30, 7)] as [(Int?, Int)] {
            var o = options(scenario, s.path + "/out-\(every ?? 0)")
            o.contactSheetEvery = every
            _ = try Exporter.run(o)
            let sheet = s.bytes(o.output + "/contact-sheet.png")
            let size = try #require(pngSize(sheet))
            let expected = ContactSheet.size(cells: cells, canvasWidth: 768, canvasHeight: 1024)
            #expect(size.width == expected.width && size.height == expected.height)
            // Thumbnails are 180×240 px; the sheet is wider than tall when there are many.
            #expect(size.width >= 180 && size.height >= 240)
            if cells > 24 { #expect(size.width > size.height) }
        }
    }

    @Test func reviewPageEmbedsFramesAndEvents() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        _ = try Exporter.run(options(scenario, out))
        let html = String(decoding: s.bytes(out + "/index.html"), as: UTF8.self)
        #expect(html.hasPrefix("<!doctype html>"))
        // Every frame is listed (duplicates point at their original's file), with its events.
        let list = frames(try manifest(out))
        for f in list {
            let index = f["index"] as! Int
            let file = String(format: "frame-%05d.png", (f["duplicate_of"] as? Int) ?? index)
            #expect(html.contains("[\(index),\"\(file)\","), "frame \(index)")
        }
        #expect(html.contains("[6,\"frame-00006.png\",[\"tap root\"]]"))
        // Event markers on the timeline: frame, label, time.
        #expect(html.contains("\"events\":[[6,\"tap root\",0.2],[30,\"tap finance\",1]]"))
        // Self-contained: no fetches, no external scripts or styles.
        #expect(!html.contains("fetch(") && !html.contains("<script src") && !html.contains("<link"))
        for control in ["id=\"play\"", "id=\"back\"", "id=\"fwd\"", "id=\"scrub\"", "id=\"speed\"", "value=\"0.25\"", "value=\"2\"", "id=\"frameno\"", "id=\"markers\""] {
            #expect(html.contains(control), "\(control)")
        }
    }
}
