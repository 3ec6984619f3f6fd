import ArgumentParser
import Foundation
import PDFRender

/// `bubbles bench page`: the page renderer's benchmark, with PDFium and pdftoppm in the same run.
struct BenchPage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "page",
        abstract: "Benchmark PDF page rendering in-process, against PDFium (pypdfium2) and pdftoppm in the same run.",
        discussion: """
            Files and folders (searched recursively for *.pdf, sorted; default Data/reports). Each \
            document is opened once; each page is drawn --repeats times at --dpi and its time is the \
            median (drawing into a new image, no PNG encoded), as Benchmarks/pages/pdfium_time.py \
            times PDFium with --pdfium PYTHON (a Python with pypdfium2). Also timed per file: a \
            200 px-wide thumbnail of the first page with the file's opening included \
            (thumbnail_ms_median), the first page as a whole `bubbles page` process \
            (process_ms_median) and, with --pdftoppm, as a whole `pdftoppm -png` process \
            (pdftoppm_ms_median). JSON: pages, ours_ms_median, ours_ms_p90, pdfium_ms_median, \
            pdfium_ms_p90, pdftoppm_ms_median, thumbnail_ms_median, process_ms_median, failures, \
            and classes (by file size: under 64 KiB, 64 KiB–1 MiB, over 1 MiB) with the same fields.
            """)

    @Argument(help: "PDF files or folders.")
    var paths: [String] = []

    @Option(help: "Resolution in dots per inch.")
    var dpi: Double = 96

    @Option(help: "Times each page is drawn (the median counts).")
    var repeats: Int = 3

    @Flag(help: "Every page instead of the first.")
    var allPages = false

    @Option(help: "A Python with pypdfium2: PDFium is timed on the same files.")
    var pdfium: String?

    @Flag(help: "Also time pdftoppm processes on the first pages.")
    var pdftoppm = false

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
        if !(dpi > 0 && dpi <= 1200) { throw ValidationError("--dpi must be between 0 and 1200") }
    }

    func run() throws {
        try Bench.running(global) {
            try PageBench(paths: paths.isEmpty ? ["Data/reports"] : paths, dpi: dpi, repeats: repeats, allPages: allPages,
                          pdfium: pdfium, pdftoppm: pdftoppm).run(json: json)
        }
    }
}

/// The measuring code of `bubbles bench page`.
struct PageBench {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let paths: [String]
    let dpi: Double
    let repeats: Int
    let allPages: Bool
    let pdfium: String?
    let pdftoppm: Bool

    struct FileResult {
        var path: String
        var size: Int
        var pageMs: [Double] = []
        var pdfiumMs: [Double] = []
        var thumbnailMs: Double?
        var processMs: Double?
        var pdftoppmMs: Double?
        var error: String?
    }

    struct Summary: Encodable {
        var name: String
        var files: Int
        var pages: Int
        var ours_ms_median: Double
        var ours_ms_p90: Double
        var pdfium_ms_median: Double?
        var pdfium_ms_p90: Double?
        var ratio_to_pdfium: Double?
        var pdftoppm_ms_median: Double?
        var thumbnail_ms_median: Double
        var process_ms_median: Double
        var failures: Int
    }

    /// The JSON document: the overall summary's fields at the top level, then the run's settings
    /// and the size classes.
    struct Report: Encodable {
        var all: Summary
        var dpi: Double
        var repeats: Int
        var classes: [Summary]
        var pdfium_tool: String?

        enum CodingKeys: String, CodingKey { case dpi, repeats, classes, pdfium_tool }

        func encode(to encoder: any Encoder) throws {
            try all.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(dpi, forKey: .dpi)
            try c.encode(repeats, forKey: .repeats)
            try c.encode(classes, forKey: .classes)
            try c.encodeIfPresent(pdfium_tool, forKey: .pdfium_tool)
        }
    }

    static func ms(since start: ContinuousClock.Instant) -> Double {
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) * 1e-15
    }

    func run(json: Bool) throws {
        let files = Keywords.collect(paths) { path, message in printError("error: \(path): \(message)") }
        guard !files.isEmpty else { throw Failure(description: "no PDF found in \(paths.joined(separator: " "))") }
        var results: [FileResult] = []
        let me = CommandLine.arguments[0]
        for f in files {
            let size = (try? FileManager.default.attributesOfItem(atPath: f)[.size] as? Int) ?? 0
            var r = FileResult(path: f, size: size)
            do {
                let doc = try PDFPageDocument(path: f)
                let count = allPages ? doc.pageCount : 1
                for p in 1 ... count {
                    let (w, h) = try doc.pixelSize(page: p, dpi: dpi)
                    var times: [Double] = []
                    for _ in 0 ..< repeats {
                        let t = ContinuousClock.now
                        _ = try doc.render(page: p, width: w, height: h)
                        times.append(Self.ms(since: t))
                    }
                    r.pageMs.append(BenchStatistics.median(times))
                }
                var thumbs: [Double] = []
                for _ in 0 ..< repeats {
                    let t = ContinuousClock.now
                    let d = try PDFPageDocument(path: f)
                    let (pw, ph) = try d.pageInfo(1).size
                    _ = try d.render(page: 1, width: 200, height: max(1, min(4000, Int((200 * ph / pw).rounded()))))
                    thumbs.append(Self.ms(since: t))
                }
                r.thumbnailMs = BenchStatistics.median(thumbs)
                let out = NSTemporaryDirectory() + "bench-page-\(getpid()).png"
                r.processMs = Self.timeProcess(me, ["page", f, "--dpi", String(dpi), "--output", out], repeats: repeats)
                if pdftoppm {
                    r.pdftoppmMs = Self.timeProcess("/usr/bin/pdftoppm", ["-r", String(dpi), "-f", "1", "-l", "1", "-png", "-singlefile", f,
                                                                          NSTemporaryDirectory() + "bench-pdftoppm-\(getpid())"], repeats: repeats)
                }
                try? FileManager.default.removeItem(atPath: out)
            } catch {
                r.error = "\(error)"
            }
            results.append(r)
        }
        var tool: String?
        if let pdfium {
            let (perFile, t) = try runPDFium(pdfium, files: files)
            tool = t
            for i in results.indices { results[i].pdfiumMs = perFile[results[i].path] ?? [] }
        }
        let classes: [(String, (Int) -> Bool)] = [
            ("under 64 KiB", { $0 < 64 << 10 }), ("64 KiB–1 MiB", { $0 >= 64 << 10 && $0 < 1 << 20 }), ("over 1 MiB", { $0 >= 1 << 20 }),
        ]
        let all = summary("all", results)
        let report = Report(all: all, dpi: dpi, repeats: repeats,
                            classes: classes.map { c in summary(c.0, results.filter { c.1($0.size) }) }, pdfium_tool: tool)
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
            return
        }
        print("pages at \(Int(dpi)) dpi, ms per page (median of \(repeats)); thumbnail: 200 px wide, opening included; process: a whole command")
        func f(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
        print("class            files pages  ours med  ours p90  PDFium med  ours÷PDFium  thumbnail  bubbles page  pdftoppm")
        for s in report.classes + [all] where s.files > 0 {
            let name = s.name.padding(toLength: 16, withPad: " ", startingAt: 0)
            print("\(name) \(String(format: "%5d %5d", s.files, s.pages))  \(f(s.ours_ms_median).leftPad(8))  \(f(s.ours_ms_p90).leftPad(8))  "
                  + "\(f(s.pdfium_ms_median).leftPad(10))  \(f(s.ratio_to_pdfium).leftPad(11))  \(f(s.thumbnail_ms_median).leftPad(9))  "
                  + "\(f(s.process_ms_median).leftPad(12))  \(f(s.pdftoppm_ms_median).leftPad(8))")
        }
        if all.failures > 0 { print("failures: \(all.failures)") }
        for r in results where r.error != nil { printError("  \(r.path): \(r.error!)") }
    }

    func summary(_ name: String, _ rs: [FileResult]) -> Summary {
        let ours = rs.flatMap(\.pageMs)
        let pdf = rs.flatMap(\.pdfiumMs)
        let ppm = rs.compactMap(\.pdftoppmMs)
        // The ratio compares the pages both drew.
        var paired: [(Double, Double)] = []
        for r in rs where r.pdfiumMs.count == r.pageMs.count { paired += zip(r.pageMs, r.pdfiumMs).map { ($0, $1) } }
        let ratio = paired.isEmpty ? nil : BenchStatistics.median(paired.map(\.0)) / max(1e-9, BenchStatistics.median(paired.map(\.1)))
        return Summary(name: name, files: rs.count, pages: ours.count, ours_ms_median: BenchStatistics.median(ours),
                       ours_ms_p90: BenchStatistics.percentile(ours, 0.9),
                       pdfium_ms_median: pdf.isEmpty ? nil : BenchStatistics.median(pdf), pdfium_ms_p90: pdf.isEmpty ? nil : BenchStatistics.percentile(pdf, 0.9),
                       ratio_to_pdfium: ratio, pdftoppm_ms_median: ppm.isEmpty ? nil : BenchStatistics.median(ppm),
                       thumbnail_ms_median: BenchStatistics.median(rs.compactMap(\.thumbnailMs)),
                       process_ms_median: BenchStatistics.median(rs.compactMap(\.processMs)), failures: rs.filter { $0.error != nil }.count)
    }

    /// The median wall time of running a program `repeats` times, in ms.
    static func timeProcess(_ exe: String, _ args: [String], repeats: Int) -> Double? {
        var times: [Double] = []
        for _ in 0 ..< repeats {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: exe)
            p.arguments = args
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            let t = ContinuousClock.now
            guard (try? p.run()) != nil else { return nil }
            p.waitUntilExit()
            times.append(ms(since: t))
        }
        return BenchStatistics.median(times)
    }

    /// Runs Benchmarks/pages/pdfium_time.py on the files; per-file page medians and the tool's name.
    func runPDFium(_ python: String, files: [String]) throws -> ([String: [Double]], String?) {
        let script = "Benchmarks/pages/pdfium_time.py"
        guard FileManager.default.fileExists(atPath: script) else { throw Failure(description: "\(script) not found (run from the package root)") }
        let p = Process()
        // A bare name (python3) is looked up on PATH, like a shell does.
        p.executableURL = URL(fileURLWithPath: python.contains("/") ? python : "/usr/bin/env")
        p.arguments = (python.contains("/") ? [] : [python]) + [script, "--dpi", String(dpi), "--repeats", String(repeats), "--pages", allPages ? "all" : "first", "--json"] + files
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0, let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let perFile = obj["per_file"] as? [[String: Any]] else {
            throw Failure(description: "\(python) \(script) failed (exit status \(p.terminationStatus)); is pypdfium2 installed?")
        }
        var out: [String: [Double]] = [:]
        for f in perFile {
            if let path = f["file"] as? String, let ms = f["ms"] as? [Double] { out[path] = ms }
        }
        return (out, obj["tool"] as? String)
    }
}

extension String {
    fileprivate func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
