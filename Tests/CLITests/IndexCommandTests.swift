import Foundation
import TestSupport
import Testing

@testable import ReportIndex

/// `bubbles index` and `bubbles search` as a user runs them, and the index under the commands
/// that read PDF metadata.
@Suite("bubbles index and search")
struct IndexCommandTests {
    func scratch(_ name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "bubbles-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// A datasource in `folder` with `copies` distinct copies of each sample PDF (a comment line
    /// appended after %%EOF makes each copy's bytes its own).
    func distinctLibrary(in folder: String, copies: Int) throws -> String {
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder + "/pdf", withIntermediateDirectories: true)
        let sample = packageRoot + "/Data/reports"
        let names = try fm.contentsOfDirectory(atPath: sample).filter { $0.hasSuffix(".pdf") }.sorted()
        var reports: [String] = []
        for copy in 0..<copies {
            for (i, name) in names.enumerated() {
                var bytes = try Data(contentsOf: URL(fileURLWithPath: sample + "/" + name))
                bytes.append(Data("%copy \(copy)\n".utf8))
                try bytes.write(to: URL(fileURLWithPath: folder + "/pdf/\(copy)-\(name)"))
                reports.append("{\"id\": \"r\(copy)-\(i)\", \"title\": \"Report \(copy) \(i)\", \"file\": \"pdf/\(copy)-\(name)\"}")
            }
        }
        let data = folder + "/library.json"
        try Data(("{\"id\": \"root\", \"title\": \"All\", \"children\": [" + reports.joined(separator: ",\n") + "]}\n").utf8)
            .write(to: URL(fileURLWithPath: data))
        return data
    }

    @Test func indexReportsWhatItDid() throws {
        let folder = try scratch("index-cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = folder + "/sample.index.sqlite"
        let first = try CLIRunner.run(["index", "--index", index, "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let a = json(first.stdout)
        #expect(Set(a.keys) == ["reports", "read", "unchanged", "removed", "warnings", "thumbnails", "thumbnail_warnings", "thumbnails_pruned", "seconds", "index"])
        #expect(a["thumbnails"] as? Int == 140 && a["thumbnail_warnings"] as? Int == 0)
        #expect(a["reports"] as? Int == 140 && a["read"] as? Int == 140 && a["unchanged"] as? Int == 0)
        #expect(a["index"] as? String == index)
        let second = json(try CLIRunner.run(["index", "--index", index, "--json"]).stdout)
        #expect(second["read"] as? Int == 0 && second["unchanged"] as? Int == 140 && second["reports"] as? Int == 140)
        #expect(second["thumbnails"] as? Int == 0)
        let line = try CLIRunner.run(["index", "--index", index])
        #expect(line.stdout.hasPrefix("\(index): 140 reports; PDFs 0 read, 140 unchanged; 0 reports removed; "), "\(line.stdout)")
    }

    @Test func noThumbnailsSkipsThePassAndAWidthAddsItsOwn() throws {
        let folder = try scratch("index-thumbs")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = try distinctLibrary(in: folder, copies: 0)
        let one = folder + "/pdf/q1.pdf"
        try FileManager.default.copyItem(atPath: packageRoot + "/Data/reports/q1-2016.pdf", toPath: one)
        try Data("{\"id\": \"root\", \"title\": \"All\", \"children\": [{\"id\": \"q1\", \"title\": \"Q1\", \"file\": \"pdf/q1.pdf\"}]}\n".utf8)
            .write(to: URL(fileURLWithPath: data))
        let index = folder + "/library.index.sqlite"
        let skipped = try CLIRunner.run(["index", data, "--no-thumbnails", "--json"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(json(skipped.stdout)["thumbnails"] == nil)
        #expect(try ReportIndex.open(at: index, mode: .readOnly).thumbnailCounts(width: 128) == (0, 0))
        let built = json(try CLIRunner.run(["index", data, "--json"]).stdout)
        #expect(built["thumbnails"] as? Int == 1 && built["read"] as? Int == 0)
        let wide = json(try CLIRunner.run(["index", data, "--thumbnail-width", "256", "--json"]).stdout)
        #expect(wide["thumbnails"] as? Int == 1)
        let opened = try ReportIndex.open(at: index, mode: .readOnly)
        #expect(try opened.thumbnail(forReport: "q1", width: 256)?.pixelWidth == 256)
        #expect(try opened.thumbnail(forReport: "q1", width: 128)?.pixelWidth == 128)
        let refused = try CLIRunner.run(["index", data, "--thumbnail-width", "0"])
        #expect(refused.status != 0 && refused.stderr.contains("--thumbnail-width"), "\(refused.stderr)")
    }

    @Test func searchAnswersInJSON() throws {
        let folder = try scratch("search-cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = folder + "/sample.index.sqlite"
        let result = try CLIRunner.run(["search", "zurich", "--index", index, "--json", "--facets", "--limit", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let found = json(result.stdout)
        #expect(found["query"] as? String == "zurich")
        let total = found["total"] as? Int ?? 0
        #expect(total >= 2)
        let results = found["results"] as? [[String: Any]] ?? []
        #expect(results.count == 1)
        let first = try #require(results.first)
        #expect(Set(first.keys).isSuperset(of: ["id", "title", "path", "score", "matches"]))
        #expect((first["path"] as? [String])?.first == "root")
        let match = try #require((first["matches"] as? [[String: Any]])?.first)
        #expect(match["field"] as? String == "title")
        let spans = match["spans"] as? [[Int]] ?? []
        let title = Array((match["text"] as? String ?? "").unicodeScalars)
        #expect(!spans.isEmpty)
        for span in spans { #expect(String(String.UnicodeScalarView(title[span[0]..<span[1]])).lowercased() == "zürich") }
        #expect(!(found["facets"] as? [[String: Any]] ?? []).isEmpty)

        // Keywords AND, a subtree, an empty query that lists by keyword.
        let byKeyword = json(try CLIRunner.run(["search", "", "--index", index, "--keyword", "zurich", "--json"]).stdout)
        #expect((byKeyword["total"] as? Int ?? 0) >= 1)
        let inSales = json(try CLIRunner.run(["search", "review", "--in", "sales", "--index", index, "--json", "--limit", "100"]).stdout)
        for r in inSales["results"] as? [[String: Any]] ?? [] { #expect((r["path"] as? [String] ?? []).contains("sales")) }
        let unknown = try CLIRunner.run(["search", "x", "--in", "nope", "--index", index])
        #expect(unknown.status == 1 && unknown.stderr.contains("no category 'nope'"), "\(unknown.stderr)")
        // Hostile text is text.
        for text in ["\"", "NEAR(a b)", "*", "-", "a OR b", "^x", ":"] {
            #expect(try CLIRunner.run(["search", text, "--index", index, "--json"]).status == 0, "\(text)")
        }
    }

    @Test func theOutputIsTheSameWithAndWithoutTheIndex() throws {
        let folder = try scratch("same-bits")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let common = ["render", "--overlay", "preview:q1-2016", "--scale", "1"]
        let a = try CLIRunner.run(common + ["--index", folder + "/i.sqlite", "--png", folder + "/a.png", "--labels", folder + "/a.json"])
        let b = try CLIRunner.run(common + ["--no-index", "--png", folder + "/b.png", "--labels", folder + "/b.json"])
        // Again, now from a warm index.
        let c = try CLIRunner.run(common + ["--index", folder + "/i.sqlite", "--png", folder + "/c.png", "--labels", folder + "/c.json"])
        #expect(a.status == 0 && b.status == 0 && c.status == 0, "\(a.stderr) \(b.stderr) \(c.stderr)")
        for name in ["a", "c"] {
            #expect(FileChecks.bytes(folder + "/\(name).png") == FileChecks.bytes(folder + "/b.png"))
            #expect(FileChecks.bytes(folder + "/\(name).json") == FileChecks.bytes(folder + "/b.json"))
        }
    }

    @Test func aSecondIndexerWaitsThenSaysWhy() throws {
        let folder = try scratch("locked-cli")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/i.sqlite"
        let holder = try ReportIndex.open(at: path)
        let result = try CLIRunner.run(["index", "--index", path, "--wait", "0.5"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("another process is updating the index"), "\(result.stderr)")
        withExtendedLifetime(holder) {}
    }

    @Test func killedIndexersLeaveASoundIndexThatTheNextRunFinishes() throws {
        let folder = try scratch("killed-index")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = try distinctLibrary(in: folder, copies: 4)
        let index = folder + "/library.index.sqlite"
        let clean = folder + "/clean.index.sqlite"
        let reference = try CLIRunner.run(["index", data, "--index", clean, "--jobs", "1"])
        #expect(reference.status == 0, "\(reference.stderr)")

        var outcomes: [String] = []
        // Kill after these many milliseconds of running (the first as soon as it starts).
        for delay in [0, 15, 40, 80, 150, 300] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.binFolder + "/bubbles")
            process.arguments = ["index", data, "--jobs", "1"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1000))
            let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
            process.waitUntilExit()
            outcomes.append(killed && process.terminationReason == .uncaughtSignal ? "killed after \(delay) ms" : "finished before \(delay) ms")
            if FileManager.default.fileExists(atPath: index) {
                let opened = try ReportIndex.open(at: index, mode: .update(lockWait: 5))
                #expect(try opened.integrityProblems() == [], "\(outcomes)")
            }
            if outcomes.last!.hasPrefix("finished") { break }
            // The next kill starts from what this one left: remove some reading progress too.
        }
        #expect(outcomes.contains { $0.hasPrefix("killed after") && $0 != "killed after 0 ms" }, "\(outcomes)")
        let resumed = try CLIRunner.run(["index", data, "--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try dumpIndex(index) == dumpIndex(clean), "\(outcomes)")
    }

    @Test(.enabled(if: UnwritableOutputTests.canMountTmpfs, "cannot mount a tmpfs here (needs root)"))
    func aReadOnlyFolderNamesThePathAndIndex() throws {
        let folder = try scratch("ro-index")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = try UnwritableOutputTests.SmallDisk(bytes: 4 << 20)
        defer { disk.remove() }
        _ = try distinctLibrary(in: disk.path, copies: 0)
        // One real report in the read-only folder.
        try FileManager.default.copyItem(atPath: packageRoot + "/Data/reports/q1-2016.pdf", toPath: disk.path + "/pdf/q1.pdf")
        try Data("{\"id\": \"root\", \"title\": \"All\", \"children\": [{\"id\": \"q1\", \"title\": \"Q1\", \"file\": \"pdf/q1.pdf\"}]}\n".utf8)
            .write(to: URL(fileURLWithPath: disk.path + "/library.json"))
        #expect(mount("tmpfs", disk.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0)
        let data = disk.path + "/library.json"
        let refused = try CLIRunner.run(["index", data])
        #expect(refused.status == 1)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains(disk.path + "/library.index.sqlite") && refused.stderr.contains("--index"), "\(refused.stderr)")
        let elsewhere = try CLIRunner.run(["index", data, "--index", folder + "/i.sqlite", "--json"])
        #expect(elsewhere.status == 0 && json(elsewhere.stdout)["read"] as? Int == 1, "\(elsewhere.stderr)")
        // The other commands read the PDFs themselves.
        let render = try CLIRunner.run(["render", "--data", data, "--png", folder + "/x.png", "--scale", "0.5"])
        #expect(render.status == 0, "\(render.stderr)")
        let search = try CLIRunner.run(["search", "q1", "--data", data, "--json"])
        #expect(search.status == 0 && json(search.stdout)["total"] as? Int == 1, "\(search.stderr)")
    }
}

/// Every row of an index, as text (what "the same rows" means).
func dumpIndex(_ path: String) throws -> [String] {
    try ReportIndex.open(at: path, mode: .readOnly).tableDump()
}
