import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import IndexThumbnails
import ReportIndex
import ReportLibrary
import SampleLibrary
import BubbleSupport

/// `bubbles bench find` (also `bubbles bench levels --find`): search and the keyword filter to
/// their frames, each
/// timed from the event to the first frame drawn at scale 1 with the `SceneRenderer`, as the play
/// server draws it. Medians and 99th percentiles (nearest rank), in ms:
///
/// - `keystroke`: on the generated library of 100 000 reports (`bench search`'s, with its library
///   index), every prefix of `queries` typed into the open search: `send(.search(text))`, the
///   scene, the render (the results drawn, each row with its first-page thumbnail from the index,
///   as `bubbles play` draws them). Target ≤ 16 ms.
/// - `filter_apply`, `filter_clear`: on a level of 10 000 reports (one category, keywords from
///   the generated library's, its own index), a keyword filter set and cleared: the event, one
///   step, the scene, the render. Target ≤ 8 ms.
/// Each row also gives the event part alone (`event_median_ms`, `event_p99_ms`: the event and
/// the step, without the scene and the render).
///
/// - `pick`: a search result taken (rows 0–2 of each query's results) to the first frame of its
///   level, anywhere in the 100 000-report library: the event, one step, the scene, the render
///   (the report's preview opening, its first page's thumbnail standing in for the page, which is
///   drawn off the frame path).
///   With the default 5 rounds each row is taken once, so most picks land on a level not laid out
///   before; more rounds take rows 0–2 again, onto levels already laid out. As in a session on
///   the play server, which draws every frame, the results and the level the preview closed onto
///   are drawn before the next pick. Target ≤ 8 ms.
enum FindBench {
    /// The queries typed a character at a time: English, accented words typed without accents
    /// (German, French, Spanish), Chinese and Japanese, Korean, Russian, Greek.
    static let queries = [
        "revenue forecast", "board minutes 2019", "inventory q3", "umsatze prognose", "previsions tresorerie",
        "informe ventas", "evaluation", "財務報告", "売上", "報告書", "매출 보고서", "отчет", "εκθεση",
    ]

    /// The keywords of the 10 000-report level (a subset of the generated library's).
    static let levelKeywords = ["revenue", "forecast", "budget", "audit", "Q1", "Q2", "Q3", "Q4", "Umsatz", "Prévision", "売上", "risk"]

    struct Samples {
        var name: String
        var ms: [Double] = []
        /// The event (and step) alone, without the scene and the render.
        var eventMs: [Double] = []
        var target: Double
    }

    static func run(work: String, reports: Int, rounds: Int, json: Bool) throws {
        let fm = FileManager.default
        try fm.createDirectory(atPath: work, withIntermediateDirectories: true)
        let progress: (String) -> Void = { if !json { printError($0) } }
        progress("writing the library (\(reports) reports, 1000 PDFs) into \(work)")
        let summary = try SampleLibrary.writeSearchLibrary(into: work, reports: reports, pdfs: 1_000)
        progress("loading it with its index (built or brought up to date beside it)")
        let (tree, finder) = try load(summary.datasource)
        // The rows' thumbnails and the preview's pages as in `bubbles play`: the index's
        // thumbnails (drawn now where missing), pages drawn off the frame path.
        let library = try LibraryLoader.load(summary.datasource)
        let indexPath = ReportIndex.defaultPath(forDatasource: library.sourceFile)
        let drawn = try ThumbnailBuilder().update(try ReportIndex.open(at: indexPath)).drawn
        if drawn > 0 { progress("drew \(drawn) thumbnails into the index") }
        var samples = [Samples(name: "keystroke", target: 16), Samples(name: "filter_apply", target: 8),
                       Samples(name: "filter_clear", target: 8), Samples(name: "pick", target: 8)]
        let renderer = SceneRenderer(pixelScale: 1)
        renderer.pictures = LibraryBridge.pageSource(for: library, source: .index(path: indexPath))
        renderer.waitsForPages = false
        var image: RenderedImage? = nil
        func frame(_ d: Dashboard) throws {
            image = try renderer.render(d.scene(), reusing: image)
        }

        // (a) Keystrokes, on the root level of the large library.
        let dashboard = try Dashboard(tree: tree, measurer: measurer(), finder: finder)
        try dashboard.send(.tapBubble(tree.nodes[0].id))
        dashboard.settle(limit: 3000)
        try frame(dashboard)
        var slowest: [(Double, String)] = []
        for _ in 0..<max(2, rounds / 2) {
            for query in queries {
                try dashboard.send(.openSearch)
                var typed = ""
                for c in query {
                    typed.append(c)
                    let t0 = MonotonicClock.seconds()
                    try dashboard.send(.search(typed))
                    samples[0].eventMs.append((MonotonicClock.seconds() - t0) * 1000)
                    try frame(dashboard)
                    let ms = (MonotonicClock.seconds() - t0) * 1000
                    samples[0].ms.append(ms)
                    slowest.append((ms, typed))
                    dashboard.step()
                }
                try dashboard.send(.closeOverlay)
                dashboard.settle(limit: 600)
            }
        }
        slowest.sort { $0.0 > $1.0 }
        progress("  slowest keystrokes: " + slowest.prefix(5).map { "'\($0.1)' \(fmt($0.0)) ms" }.joined(separator: ", "))

        // (c) Picks, anywhere in the library.
        for round in 0..<max(3, rounds / 2) {
            for query in queries {
                try dashboard.send(.search(query))
                dashboard.settle(limit: 60)
                // The results are on screen before a finger picks one (the play server draws every
                // frame): the timed frame is the first of the pick's transition, not of the results.
                try frame(dashboard)
                let count = dashboard.searchResults.count
                guard count > 0 else { continue }
                let t0 = MonotonicClock.seconds()
                try dashboard.send(.searchPick(round % min(3, count)))
                dashboard.step()
                samples[3].eventMs.append((MonotonicClock.seconds() - t0) * 1000)
                try frame(dashboard)
                samples[3].ms.append((MonotonicClock.seconds() - t0) * 1000)
                dashboard.settle(limit: 3000)
                try dashboard.send(.closeOverlay)
                dashboard.settle(limit: 600)
                // The user looks at the level the preview closed onto before searching again (the
                // play server draws every frame), so its bubbles are drawn before the next pick.
                try frame(dashboard)
            }
        }

        // (b) A filter set and cleared on a level of 10 000 reports.
        let level = try openLevelOf10000(work: work)
        try frame(level)
        var first: Double? = nil
        for round in 0..<max(20, rounds * 4) {
            let keyword = levelKeywords[round % 4 + 4]  // Q1…Q4: about a quarter of the reports each
            var t0 = MonotonicClock.seconds()
            try level.send(.filter([keyword]))
            level.step()
            samples[1].eventMs.append((MonotonicClock.seconds() - t0) * 1000)
            try frame(level)
            let apply = (MonotonicClock.seconds() - t0) * 1000
            samples[1].ms.append(apply)
            if first == nil { first = apply }
            level.settle(limit: 3000)
            t0 = MonotonicClock.seconds()
            try level.send(.filter([]))
            level.step()
            samples[2].eventMs.append((MonotonicClock.seconds() - t0) * 1000)
            try frame(level)
            samples[2].ms.append((MonotonicClock.seconds() - t0) * 1000)
            level.settle(limit: 3000)
        }
        progress("  first filter on the level (nothing laid out for it yet): \(fmt(first ?? 0)) ms")
        printReport(samples, reports: reports, firstFilterMs: first ?? 0, json: json)
    }

    /// A dashboard on a level of 10 000 reports (written into `work` with its index), settled.
    static func openLevelOf10000(work: String) throws -> Dashboard {
        let levelPath = work + "/level-10000.json"
        try Data(levelDocument(count: 10_000, pdfs: 1_000).utf8).write(to: URL(fileURLWithPath: levelPath), options: .atomic)
        let (levelTree, levelFinder) = try load(levelPath)
        let level = try Dashboard(tree: levelTree, measurer: measurer(), finder: levelFinder)
        try level.send(.tapBubble(levelTree.nodes[0].id))
        level.settle(limit: 3000)
        try level.send(.tapBubble(levelTree.nodes[levelTree.nodes[0].children[0]].id))
        level.settle(limit: 3000)
        return level
    }

    /// The benchmark's result: one JSON object, or a table.
    static func printReport(_ samples: [Samples], reports: Int, firstFilterMs first: Double, json: Bool) {
        if json {
            let fields = samples.map { s in
                "\"\(s.name)\": {\"count\": \(s.ms.count), \"median_ms\": \(fmt(BenchStatistics.median(s.ms))), "
                    + "\"p99_ms\": \(fmt(BenchStatistics.percentile(s.ms, 0.99))), \"event_median_ms\": \(fmt(BenchStatistics.median(s.eventMs))), "
                    + "\"event_p99_ms\": \(fmt(BenchStatistics.percentile(s.eventMs, 0.99))), \"target_ms\": \(fmt(s.target))}"
            }
            print("{\"reports\": \(reports), \"first_filter_ms\": \(fmt(first)), " + fields.joined(separator: ", ") + "}")
            return
        }
        print("search and filter to the frame (768x1024 at scale 1, SceneRenderer): ms")
        print("  what            count   median      p99   target   event median   event p99")
        for s in samples {
            print("  " + s.name.padding(toLength: 14, withPad: " ", startingAt: 0)
                + String(format: "%6d %8.2f %8.2f %8.0f %14.2f %11.2f", s.ms.count, BenchStatistics.median(s.ms), BenchStatistics.percentile(s.ms, 0.99), s.target,
                                 BenchStatistics.median(s.eventMs), BenchStatistics.percentile(s.eventMs, 0.99)))
        }
    }

    /// A measurer with its fonts loaded, as an app's is.
    static func measurer() -> PangoTextMeasurer {
        let m = PangoTextMeasurer()
        _ = m.measure("Warm-up 0123", role: .cardTitle, width: 100)
        _ = m.measure("Warm-up 0123", role: .categoryTitle, width: 100)
        return m
    }

    /// The dashboard tree and the finder of a datasource, with its index beside it.
    static func load(_ path: String) throws -> (DashboardTree, IndexReportFinder) {
        let library = try LibraryLoader.load(path)
        let source = PDFMetadataSource.index(path: nil)
        let tree = try LibraryBridge.dashboardTree(library, details: LibraryBridge.details(for: library, source: source))
        guard let finder = LibraryBridge.finder(for: library, dashboardTree: tree, source: source) else {
            throw CLIError("bench levels --find: no library index for \(path)")
        }
        return (tree, finder)
    }

    /// One category of `count` reports with 1–3 of `levelKeywords` each, on the generated PDFs.
    static func levelDocument(count: Int, pdfs: Int) -> String {
        var out = "{\"id\": \"root\", \"title\": \"All Reports\", \"children\": [\n"
        out += " {\"id\": \"reviews\", \"title\": \"Quarterly Reviews\", \"colour\": \"#2F7DD1\", \"children\": [\n"
        for i in 0..<count {
            // A fixed scramble (splitmix64 of the index): 1–3 keywords.
            var x = UInt64(i) &+ 0x9E37_79B9_7F4A_7C15
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            x ^= x >> 31
            let n = Int(x % 3) + 1
            let chosen = (0..<n).map { k in levelKeywords[Int((x >> (8 + 8 * UInt64(k))) % UInt64(levelKeywords.count))] }
            let unique = chosen.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let pdf = String(i % pdfs)
            let name = "s-" + String(repeating: "0", count: max(0, 5 - pdf.count)) + pdf + ".pdf"
            out += "  {\"id\": \"q\(i)\", \"title\": \"Review \(i) — \(unique.joined(separator: ", "))\", \"file\": \"reports/\(name)\", \"keywords\": ["
                + unique.map { "\"\($0)\"" }.joined(separator: ", ") + "]}" + (i == count - 1 ? "\n" : ",\n")
        }
        return out + " ]}\n]}\n"
    }

    static func fmt(_ x: Double) -> String { String(format: "%.3f", x) }
}

/// `bubbles bench find` (the same run as `bubbles bench levels --find`).
struct BenchFind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Benchmark search and the keyword filter: a keystroke, a filter set and cleared, a result picked, each to its frame (median and p99 ms).",
        discussion: """
            The same run as `bubbles bench levels --find`: a keystroke with results on the \
            100 000-report library, a filter set and cleared on a level of 10 000 reports, a \
            result picked to its level, each to the first frame drawn at scale 1.
            """)

    @Option(help: "The folder of the generated 100 000-report library and its index (bench search's; the PDFs are written once).")
    var work = "out/bench-search"

    @Option(help: "Rounds of each measurement; the figures are their medians and p99.")
    var rounds: Int = 5

    /// The size of the generated library (internal: a quick run of the code).
    @Option(help: .hidden)
    var findReports = 100_000

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if rounds < 1 || rounds > 1000 { throw ValidationError("--rounds must be in 1...1000") }
    }

    func run() throws {
        try Bench.running(global) {
            try FindBench.run(work: work, reports: max(100, findReports), rounds: rounds, json: json)
        }
    }
}
