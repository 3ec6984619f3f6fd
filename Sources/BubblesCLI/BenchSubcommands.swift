import ArgumentParser
import Foundation

// The benchmarks other than the physics step's, one subcommand each (`bubbles bench render`, …).
// Each reads its own options, prints a table by default and one JSON document with --json; the
// measuring lives in the matching *Bench enum.

/// `bubbles bench render`.
struct BenchRender: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Benchmark frame rendering at 1536x2048: drawing, blur, our PNG encoder, Cairo's PNG writer, SVG.",
        discussion: """
            Real dashboard levels of the datasource and a representative frame (40 circles, 20 \
            cards, blurred centre), each stage timed over --repeats frames (at least 3); Cairo's \
            own cairo_surface_write_to_png is timed beside our encoder in the same run.
            """)

    @Option(help: "The datasource.")
    var input: String = "Data/reports.json"

    @Option(help: "Frames per stage (at least 3 are drawn).")
    var repeats: Int = 5

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
    }

    func run() throws {
        try Bench.running(global) { try RenderBench.run(data: input, runs: max(3, repeats), json: json) }
    }
}

/// `bubbles bench export`.
struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Benchmark the frame export of a scenario (60 and 120 fps, 1 and 2 jobs, and with --video).",
        discussion: """
            Frames per second of the whole export at 1536x2048 at 60 and 120 fps with 1 and 2 \
            render jobs, the speed-up from 1 to 2 jobs, the time per frame in each stage (simulate, \
            draw, encode), the duplicate frames, and then what an MP4 video costs per frame. Every \
            configuration runs twice, interleaved; the faster run counts.
            """)

    @Option(help: "The scenario.")
    var input: String = "Data/scenarios/tour.json"

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Bench.running(global) { try ExportBench.run(scenario: input, json: json) }
    }
}

/// `bubbles bench levels`.
struct BenchLevels: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "levels",
        abstract: "Benchmark a tap on a category of 10 to 100 000 reports.",
        discussion: """
            Each count runs in a child process of its own, so that its peak memory is its own. \
            Per count: tap_ms_median (the tap to the first frame of the new level, on a fresh \
            dashboard and text measurer each time), layout_ms_median (the grouping and layout \
            part of it), visible_bubbles and groups once settled, peak_memory_bytes and \
            load_peak_memory_bytes (after loading the datasource), and load_ms (loading it, with \
            the titles' fields and collation keys read once). --titles unstructured uses titles \
            with no shared structure instead of invoices. With --find instead: search \
            and the keyword filter to the first frame drawn at scale 1 (a keystroke with results \
            on the 100 000-report library, a filter set and cleared on a level of 10 000 reports, \
            a result picked to its level), median and p99 in ms.
            """)

    @Option(help: "Comma-separated category sizes (default 10,30,100,1000,10000,100000).")
    var children: String?

    @Option(help: "Taps per count; the figures are their medians.")
    var rounds: Int = 5

    @Option(help: "The titles of the category: invoices (grouped by number) or unstructured (words in several scripts, grouped alphabetically).")
    var titles: LevelBench.Titles = .invoices

    @Flag(help: "Print one JSON array.")
    var json = false

    /// The child process's datasource (internal: the parent runs one child per count).
    @Option(help: .hidden)
    var child: String?

    @Flag(help: "Search and the keyword filter instead: a keystroke, a filter set and cleared, a result picked, each to its frame (median and p99 ms).")
    var find = false

    @Option(help: "With --find: the folder of the generated 100 000-report library and its index (bench search's; the PDFs are written once).")
    var work = "out/bench-search"

    /// With --find: the size of the generated library (internal: a quick run of the code).
    @Option(help: .hidden)
    var findReports = 100_000

    @OptionGroup var global: GlobalOptions

    func counts() throws -> [Int] {
        guard let children else { return LevelBench.defaultCounts }
        let c = children.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !c.isEmpty, c.allSatisfy({ ($0 ?? 0) > 0 && ($0 ?? 0) <= 1_000_000 }) else {
            throw ValidationError("--children must be whole numbers within 1...1000000 separated by commas")
        }
        return c.map { $0! }
    }

    func validate() throws {
        if rounds < 1 || rounds > 1000 { throw ValidationError("--rounds must be in 1...1000") }
        _ = try counts()
    }

    func run() throws {
        try Bench.running(global) {
            if let child { return try LevelBench.child(path: child, rounds: rounds) }
            if find { return try FindBench.run(work: work, reports: max(100, findReports), rounds: rounds, json: json) }
            try LevelBench.run(counts: try counts(), rounds: rounds, json: json, titles: titles)
        }
    }
}

/// `bubbles bench play`.
struct BenchPlay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Benchmark the play server: input message to frame, frames/s while moving at scale 1 and 2, rest.",
        discussion: """
            In process, with the real message parser, session, renderer and encoder; a page is \
            simulated on a virtual 60 Hz clock. Latency: a message arriving between two frames, to \
            the next frame ready to leave (median and 90th percentile, nearest rank). Frames per \
            second the server sustains while bubbles move at scale 1 and 2 (with changed tiles and, \
            for the ratio, with whole pictures); frames and CPU at rest.
            """)

    @Option(help: "The datasource.")
    var input: String = "Data/reports.json"

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func run() throws {
        try Bench.running(global) { try PlayBench.run(data: input, json: json) }
    }
}

/// `bubbles bench pdf`.
struct BenchPDF: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf",
        abstract: "Benchmark the PDF metadata reader on the *.pdf files under the given folders.",
        discussion: """
            Files per second, median and worst ms per file, bytes read against file size, and by \
            size class (under 16 KB, 16-64 KB, 64 KB-1 MB, over 1 MB) the median CPU and wall µs \
            per file, and the CPU µs of the system calls alone (open, fstat, the read, close: \
            the floor under any reader). With --pikepdf (a Python that has pikepdf) pikepdf reads \
            the same files in the same run and each class shows both ratios.
            """)

    @Argument(help: "Folders (or PDF files) to read.")
    var directories: [String]

    @Option(help: "Reads of each file (its time is their median).")
    var repeats: Int = 5

    @Option(help: "A Python that has pikepdf; it reads the same files in the same run, compared per size class.")
    var pikepdf: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
    }

    func run() throws {
        try Bench.running(global) {
            try PDFBench.run(directories: directories, json: json, repeats: repeats, pikepdfPython: pikepdf)
        }
    }
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

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if reports < 100 || reports > 10_000_000 { throw ValidationError("--reports must be within 100...10000000") }
    }

    func run() throws {
        try Bench.running(global) {
            try SearchBench.run(work: work, reports: reports, json: json, typingOnly: typingOnly)
        }
    }
}

extension LevelBench.Titles: ExpressibleByArgument {}
