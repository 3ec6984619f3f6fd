import BubbleExport
import BubbleRender
import BubbleSupport
import Foundation
import TestSupport
import Testing
import RenderFixtures

/// Writes that fail the way a full disk makes them fail (ENOSPC part-way through a file), through
/// the `FileSystemCalls` seam: every output file (frames in each format, hard-linked duplicates,
/// the manifest, the contact sheet, the review page, `bubbles render`'s PNG and SVG) gives a typed
/// error naming the file, and leaves neither a partial file nor a temporary one.
@Suite("Full disk")
struct FullDiskTests {
    /// The real calls, except that writes of files whose name matches fail with ENOSPC after
    /// `after` bytes of that file (links to such names too).
    static func full(when matches: @escaping @Sendable (String) -> Bool, after: Int = 100) -> FileSystemCalls {
        var calls = FileSystemCalls.system
        let system = FileSystemCalls.system
        calls.write = { fd, bytes, destination in
            guard matches((destination as NSString).lastPathComponent) else { return system.write(fd, bytes, destination) }
            // What is already in the temporary file counts against the limit.
            let offset = Int(lseek(fd, 0, SEEK_CUR))
            let room = max(0, after - offset)
            if room == 0 { return (-1, ENOSPC) }
            return system.write(fd, UnsafeRawBufferPointer(rebasing: bytes[0..<min(room, bytes.count)]), destination)
        }
        calls.link = { existing, new in
            let name = (new as NSString).lastPathComponent
            // The link is made under a temporary name: `.frame-00012.png.tmp-PID-RANDOM`.
            let target = name.hasPrefix(".") ? String(name.dropFirst().prefix { $0 != "." }) + "." + (name.dropFirst().split(separator: ".").dropFirst().first ?? "") : name
            return matches(target) ? ENOSPC : system.link(existing, new)
        }
        return calls
    }

    /// Every file left is whole: PNGs decode, JSON parses, and the manifest's hashes match.
    static func expectOnlyWholeFiles(_ folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!names.contains { $0.hasPrefix(".") }, "temporary files left: \(names.filter { $0.hasPrefix(".") })")
        for name in names where !name.hasPrefix(".") {
            let bytes = FileManager.default.contents(atPath: folder + "/" + name).map { [UInt8]($0) } ?? []
            if name.hasSuffix(".png") {
                #expect(throws: Never.self, "\(name) does not decode") { _ = try RenderedImage.decodePNG(bytes) }
            } else if name.hasSuffix(".json") {
                #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil, "\(name) does not parse")
            } else if name.hasSuffix(".svg") || name.hasSuffix(".html") {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.hasSuffix("</svg>\n") || text.hasSuffix("</html>\n"), "\(name) is cut short")
            }
        }
        if names.contains("manifest.json") {
            for f in frames(try manifest(folder)) {
                for file in f["files"] as? [[String: Any]] ?? [] {
                    let data = FileManager.default.contents(atPath: folder + "/" + (file["name"] as? String ?? "")) ?? Data()
                    #expect(file["hash"] as? String == Hex.hash(FNV1a64.hash([UInt8](data))))
                }
            }
        }
    }

    @Test func anAtomicWriteThatRunsOutOfSpaceLeavesTheOldFile() throws {
        let s = try Scratch("bubbles-full")
        defer { s.remove() }
        let path = s.path + "/frame.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: RenderError.diskFull(path: path)) {
            try AtomicFile.write([UInt8](repeating: 7, count: 10_000), to: path, using: .diskFull(after: 4096))
        }
        #expect(try s.files(s.path) == ["frame.png"])
        #expect(s.bytes(path) == Array("old".utf8))
        // Room for it: written.
        try AtomicFile.write([1, 2, 3], to: path, using: .diskFull(after: 3))
        #expect(s.bytes(path) == [1, 2, 3])
    }

    @Test func renderedPNGAndSVGOnAFullDisk() throws {
        let s = try Scratch("bubbles-full")
        defer { s.remove() }
        let renderer = SceneRenderer(pixelScale: 0.25)
        let scene = SampleScenes.benchmark()
        for (name, write) in [
            ("x.png", { (p: String) throws in try renderer.writePNG(scene, to: p, using: .diskFull(after: 200)) }),
            ("x.svg", { (p: String) throws in try renderer.writeSVG(scene, to: p, using: .diskFull(after: 200)) }),
        ] {
            let path = s.path + "/" + name
            #expect(throws: RenderError.diskFull(path: path)) { try write(path) }
            #expect("\(RenderError.diskFull(path: path))" == "cannot write \(path): the disk is full")
        }
        #expect(try s.files(s.path).isEmpty)
    }

    /// One export per kind of output file, its writes failing part-way: the error is
    /// `ExportError.diskFull` naming that file (and its frame), only whole files are left, and
    /// a run with room again completes to the bytes of an export that never failed.
    @Test(arguments: [
        ("frame-00007.png", 7), ("frame-00020.json", 20), ("frame-00012.svg", 12),
        ("frame-00003.png", 3),  // a duplicate of frame 0: its hard link fails
        ("manifest.json", nil), ("contact-sheet.png", nil), ("index.html", nil),
    ] as [(String, Int?)])
    func exportOnAFullDisk(file: String, frame: Int?) throws {
        let s = try Scratch("bubbles-full")
        defer { s.remove() }
        // 25 frames: the start screen at rest (frames 1-5 repeat frame 0), then the first level.
        let scenario = try s.scenario(#"{"at": 0.2, "tap": "root"}"#, duration: 0.8)
        let formats: [FrameFormat] = file.hasSuffix(".svg") ? [.png, .svg] : [.png, .json]
        let reference = s.path + "/reference"
        _ = try Exporter.run(options(scenario, reference, formats: formats))

        let out = s.path + "/out"
        var o = options(scenario, out, formats: formats)
        // The manifest is written first, so let its first write through: the failure then hits a
        // later one (a progress write or the final one).
        let manifestWrites = ManifestCounter()
        o.fileSystem = Self.full(when: { name in
            name == file && (file != "manifest.json" || manifestWrites.next() > 0)
        })
        #expect {
            try Exporter.run(o)
        } throws: { error in
            guard case ExportError.diskFull(let path, let f) = error else { return false }
            return path == out + "/" + file && f == frame && "\(error)".hasSuffix("cannot write \(out)/\(file): the disk is full")
        }
        try Self.expectOnlyWholeFiles(out)
        #expect(!FileManager.default.fileExists(atPath: out + "/" + file) || file == "manifest.json")

        // Room again: the export completes and equals the reference.
        _ = try Exporter.run(options(scenario, out, formats: formats))
        let names = try s.files(out)
        #expect(names == (try s.files(reference)))
        for name in names { #expect(s.bytes(out + "/" + name) == s.bytes(reference + "/" + name), "\(name)") }
    }

    /// The disk fills up at a byte count instead of a file: wherever that falls, the same rules hold.
    @Test func exportRunsOutOfSpaceAtSeededByteCounts() throws {
        let s = try Scratch("bubbles-full")
        defer { s.remove() }
        let scenario = try s.shortScenario()
        var random = SeededRandom(seed: 0xD15C_F011)
        for round in 0..<4 {
            let draw = random.below(60_000)
            let limit = round == 0 ? 0 : draw
            let out = s.path + "/out-\(round)"
            var o = options(scenario, out, formats: [.png, .json])
            o.fileSystem = .diskFull(after: limit)
            do {
                _ = try Exporter.run(o)
                Issue.record("an export within \(limit) bytes succeeded")
            } catch let ExportError.diskFull(path, frame) {
                #expect(path.hasPrefix(out + "/"), "\(path)")
                if let frame { #expect(path.hasPrefix(out + String(format: "/frame-%05d.", frame))) }
            } catch {
                Issue.record("limit \(limit): \(error)")
            }
            try Self.expectOnlyWholeFiles(out)
        }
    }
}

/// Counts calls, across threads.
final class ManifestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// The number of earlier calls.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }
}
