import ArgumentParser
import BubbleExport
import Foundation
import ReportIndex
import ReportLibrary
import SampleLibrary
import BubbleSupport

/// `bubbles bench search`: the library index and search on a generated library of 100 000
/// reports (titles, keywords and authors in thirteen languages) over 1 000 distinct PDFs.
///
/// - As you type: every prefix of 20 queries (English, German, French, Spanish, Chinese and
///   Japanese of 1–3 characters, Korean, Arabic, Hebrew, Thai, Russian, Greek, Vietnamese, typed
///   without accents where a user would), top 50 ranked with spans and the total: `p50_ms`,
///   `p99_ms`, `max_ms` over `keystrokes`; facet counts for the same keystrokes: `facets_p50_ms`.
/// - `bubbles index` as whole processes: cold (`cold_index_s`) and with nothing changed
///   (`warm_index_s`, the median of 5); `index_bytes_per_report`.
/// - Cold reading of at least 1 000 distinct real PDFs (the generated ones, the PDF reader's
///   fixtures and the sample's): files per second with one job and with every core, against
///   `pdfinfo` run once per file over the same files (`pdf_files_per_s`, `pdfinfo_files_per_s`,
///   `pdf_ratio_vs_pdfinfo`, one core each).
/// - `bubbles render --data` of the 100 000-report library with a fresh index against
///   `--no-pdf` (`render_index_s`, `render_no_pdf_s`, medians of 3, `render_ratio`).
enum SearchBench {
    /// The queries typed, a keystroke at a time.
    static let queries = [
        "revenue forecast", "board minutes 2019", "customer churn", "supply chain risk", "inventory q3",
        "umsatze prognose", "strasse", "previsions tresorerie", "informe ventas",
        "报", "报告", "財務報告", "売上", "報告書",
        "매출 보고서", "التقرير المالي", "דוח רבעוני", "รายงาน", "отчет", "εκθεση",
    ]

    static func run(work: String, reports: Int, json: Bool, typingOnly: Bool = false, postgres: String? = nil) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        let progress: (String) -> Void = { if !json { printError($0) } }
        progress("writing the library (\(reports) reports, 1000 PDFs) into \(work)")
        let library = try SampleLibrary.writeSearchLibrary(into: work, reports: reports, pdfs: 1_000)
        let index = work + "/library.index.sqlite"
        var row: [(String, String)] = [("reports", String(reports))]

        // bubbles index, cold then warm, as whole processes.
        if !typingOnly || !FileManager.default.fileExists(atPath: index) { removeIndex(index) }
        let cold = try timeProcess(["index", library.datasource, "--no-thumbnails", "--json"] + nodeLimit(reports))
        row.append(("cold_index_s", fmt(cold)))
        var warm: [Double] = []
        for _ in 0..<5 { warm.append(try timeProcess(["index", library.datasource, "--no-thumbnails", "--json"] + nodeLimit(reports))) }
        row.append(("warm_index_s", fmt(BenchStatistics.median(warm))))
        let size = ["", "-wal"].reduce(0) { $0 + ((try? fm.attributesOfItem(atPath: index + $1)[.size] as? Int) ?? 0) }  // no journal: 0 bytes
        row.append(("index_bytes_per_report", fmt(Double(size) / Double(reports))))
        progress("  index: cold \(fmt(cold)) s, warm \(fmt(BenchStatistics.median(warm))) s, \(size / reports) bytes per report")

        // As you type.
        let opened = try ReportIndex.open(at: index, mode: .readOnly)
        var times: [Double] = []
        var facetTimes: [Double] = []
        var slowest: [(Double, String, Int)] = []
        for query in queries {
            var typed = ""
            for character in query {
                typed.append(character)
                let q = SearchQuery(typed)
                let t0 = MonotonicClock.seconds()
                let found = try opened.search(q, options: SearchOptions(limit: 50))
                times.append((MonotonicClock.seconds() - t0) * 1000)
                slowest.append((times.last!, typed, found.total))
                let t1 = MonotonicClock.seconds()
                _ = try opened.facets(q, options: SearchOptions(facetLimit: 50))
                facetTimes.append((MonotonicClock.seconds() - t1) * 1000)
            }
        }
        times.sort()
        slowest.sort { $0.0 > $1.0 }
        progress("  slowest keystrokes: " + slowest.prefix(8).map { "'\($0.1)' \(fmt($0.0)) ms (\($0.2) matches)" }.joined(separator: ", "))
        row += [
            ("keystrokes", String(times.count)), ("p50_ms", fmt(BenchStatistics.median(times))), ("p99_ms", fmt(BenchStatistics.percentile(times, 0.99))),
            ("max_ms", fmt(times.last ?? 0)), ("facets_p50_ms", fmt(BenchStatistics.median(facetTimes))),
        ]
        progress("  as you type: \(times.count) keystrokes, median \(fmt(BenchStatistics.median(times))) ms, p99 \(fmt(BenchStatistics.percentile(times, 0.99))) ms, max \(fmt(times.last ?? 0)) ms; facets median \(fmt(BenchStatistics.median(facetTimes))) ms")

        if let postgres {
            try compareStores(postgres: postgres, library: library.datasource, sqlite: index, reports: reports, work: work, row: &row, quick: typingOnly, progress: progress)
        }

        if typingOnly || postgres != nil {
            if json {
                print("{" + row.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
            } else {
                for (k, v) in row { print(k.padding(toLength: 28, withPad: " ", startingAt: 0) + v) }
            }
            return
        }

        // Cold reading of distinct real PDFs, ours against pdfinfo.
        let pdfs = distinctPDFs(work: work)
        let folder = work + "/pdfs"
        let data = folder + "/pdfs.json"
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try pdfDatasource(pdfs, in: folder).write(toFile: data, atomically: true, encoding: .utf8)
        removeIndex(folder + "/pdfs.index.sqlite")
        let oursOne = try timeProcess(["index", data, "--jobs", "1", "--no-thumbnails", "--json"])
        removeIndex(folder + "/pdfs.index.sqlite")
        let oursAll = try timeProcess(["index", data, "--no-thumbnails", "--json"])
        row += [("pdf_files", String(pdfs.count)), ("pdf_files_per_s", fmt(Double(pdfs.count) / oursOne)),
                ("pdf_files_per_s_all_cores", fmt(Double(pdfs.count) / oursAll))]
        if let pdfinfo = findProgram("pdfinfo") {
            let t0 = MonotonicClock.seconds()
            for path in pdfs { _ = try? runQuiet(pdfinfo, [path]) }  // timed, not checked
            let seconds = MonotonicClock.seconds() - t0
            row += [("pdfinfo_files_per_s", fmt(Double(pdfs.count) / seconds)), ("pdf_ratio_vs_pdfinfo", fmt(seconds / oursOne))]
            progress("  cold, \(pdfs.count) PDFs: \(fmt(Double(pdfs.count) / oursOne)) files/s on one core (\(fmt(Double(pdfs.count) / oursAll)) on all), pdfinfo \(fmt(Double(pdfs.count) / seconds)) files/s: \(fmt(seconds / oursOne))×")
        }

        // Render with a fresh index against --no-pdf.
        var withIndex: [Double] = []
        var noPDF: [Double] = []
        let png = work + "/render.png"
        for _ in 0..<3 {
            withIndex.append(try timeProcess(["render", "--data", library.datasource, "--png", png, "--scale", "1"]))
            noPDF.append(try timeProcess(["render", "--data", library.datasource, "--png", png, "--scale", "1", "--no-pdf"]))
        }
        row += [("render_index_s", fmt(BenchStatistics.median(withIndex))), ("render_no_pdf_s", fmt(BenchStatistics.median(noPDF))),
                ("render_ratio", fmt(BenchStatistics.median(withIndex) / BenchStatistics.median(noPDF)))]
        progress("  render: with the index \(fmt(BenchStatistics.median(withIndex))) s, --no-pdf \(fmt(BenchStatistics.median(noPDF))) s")

        if json {
            print("{" + row.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}")
        } else {
            for (k, v) in row { print(k.padding(toLength: 28, withPad: " ", startingAt: 0) + v) }
        }
    }

    /// `--max-nodes` for a library of more reports than a datasource may hold by default (its
    /// categories are 144 more).
    static func nodeLimit(_ reports: Int) -> [String] {
        reports + 1_000 > LibraryLimits().maxNodes ? ["--max-nodes", String(reports + 1_000)] : []
    }

    static func removeIndex(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }  // absent is fine
    }

    /// The generated PDFs, the PDF reader's fixtures, the sample's and Debian's documentation
    /// PDFs, no two with the same content.
    static func distinctPDFs(work: String) -> [String] {
        let folders = [work + "/reports", "Tests/PDFMetadataTests/Fixtures", "Data/reports", "/usr/share/doc"]
        var seen: Set<Data> = []
        var result: [String] = []
        for folder in folders {
            guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
            var paths: [String] = []
            while let item = walker.nextObject() as? String {
                if item.lowercased().hasSuffix(".pdf") { paths.append(folder + "/" + item) }
            }
            for path in paths.sorted() {
                guard let data = FileManager.default.contents(atPath: path), seen.insert(data).inserted else { continue }
                result.append(path)
            }
        }
        return result
    }

    /// A datasource in `folder` with one report per PDF, each reached through a link in
    /// `folder/files/` (a datasource's paths stay inside its folder).
    static func pdfDatasource(_ pdfs: [String], in folder: String) throws -> String {
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath
        try? fm.removeItem(atPath: folder + "/files")  // absent is fine
        try fm.createDirectory(atPath: folder + "/files", withIntermediateDirectories: true)
        var out = "{\"id\": \"pdfs\", \"title\": \"PDFs\", \"children\": [\n"
        for (i, path) in pdfs.enumerated() {
            let absolute = path.hasPrefix("/") ? path : cwd + "/" + path
            try fm.createSymbolicLink(atPath: folder + "/files/\(i).pdf", withDestinationPath: absolute)
            out += (i > 0 ? ",\n" : "") + "{\"id\": \"p\(i)\", \"title\": \"PDF \(i)\", \"file\": \"files/\(i).pdf\"}"
        }
        return out + "]}\n"
    }

    /// Wall seconds of `bubbles ARGS` as a child process (its output discarded); fails on a failure.
    static func timeProcess(_ arguments: [String]) throws -> Double {
        let t0 = MonotonicClock.seconds()
        let status = try runQuiet(ownExecutablePath(), arguments)
        let seconds = MonotonicClock.seconds() - t0
        guard status == 0 else { throw CLIError("bench search: 'bubbles \(arguments.joined(separator: " "))' failed (status \(status))") }
        return seconds
    }

    static func runQuiet(_ program: String, _ arguments: [String]) throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: program)
        child.arguments = arguments
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()
        return child.terminationStatus
    }

    static func fmt(_ x: Double) -> String { String(format: "%.3f", x) }
}

/// `bubbles bench search`.
struct BenchSearch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Benchmark the library index and search on a generated library.",
        discussion: """
            Every keystroke of 20 queries in thirteen languages (p50_ms, p99_ms by nearest rank, \
            max_ms; facets_p50_ms), `bubbles index` cold and warm as whole processes, index bytes \
            per report, cold reading of every distinct PDF found on one core and on all against \
            pdfinfo once per file, and `render --data` with the index against --no-pdf.
            """)

    @Option(help: "Reports in the generated library.")
    var reports = 100_000

    @Option(help: "The folder for the generated library and its index (kept between runs: the PDFs are written once).")
    var work = "out/bench-search"

    @Flag(help: .hidden)
    var typingOnly = false

    @Option(name: .customLong("index"), help: "A postgres:// URL: compare the PostgreSQL store with the SQLite file on the same library (index, keystrokes, facets, 8 searchers with 2 indexers).")
    var postgres: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if reports < 100 || reports > 10_000_000 { throw ValidationError("--reports must be within 100...10000000") }
    }

    func run() throws {
        try Bench.running(global) {
            try SearchBench.run(work: work, reports: reports, json: json, typingOnly: typingOnly, postgres: postgres)
        }
    }
}
