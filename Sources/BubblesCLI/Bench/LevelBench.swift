import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import BubbleSupport

/// `bubbles bench levels`: what a tap on a category of 10 … 100 000 reports costs. Each count
/// runs in a child process of its own (`bench levels --child`), so that its peak memory is its own:
///
/// - `tap_ms_median`: from the tap to the first frame of the new level (the event, the grouping
///   and the layout, one step, the scene), on a fresh dashboard each time, with a fresh Pango
///   measurer whose fonts are loaded but that has measured none of the titles;
/// - `layout_ms_median`: the grouping and layout part of it;
/// - `visible_bubbles`, `groups`: what the level shows once settled;
/// - `peak_memory_bytes`: the child's peak resident memory, and `load_peak_memory_bytes` its peak
///   after loading the datasource (the file of `children` invoices is written before the child
///   starts);
/// - `load_ms`: loading the datasource into a `DashboardTree` (parsing the file, and reading the
///   titles' fields for grouping), once.
enum LevelBench {
    static let defaultCounts = [10, 30, 100, 1_000, 10_000, 100_000]

    /// The title shapes a run can use.
    enum Titles: String, CaseIterable {
        /// "Invoice INV-2016-000017 — Globex": grouped by number.
        case invoices
        /// Two to six words from a fixed list in several scripts ("Payroll Zürich risk hedging"),
        /// from a seeded generator: no shared structure, grouped alphabetically.
        case unstructured
    }

    /// The datasource: one category of `count` reports titled as `titles` says.
    static func document(count: Int, titles: Titles = .invoices) -> String {
        let customers = ["Acme Logistics", "Bergmann AG", "Café Lumière", "Delta Foods", "Globex", "Hanse Textil", "Orion Retail"]
        let words = [
            "customs", "pricing", "payroll", "risk", "retention", "logistics", "flow", "hedging", "budget", "audit", "forecast",
            "supplier", "quality", "treasury", "compliance", "inventory", "freight", "warranty", "tax", "capital", "lease",
            "energy", "vendor", "revenue", "margin", "cash", "pension", "Zürich", "Ölpreis", "Émission", "Бюджет", "Отчёт", "Δέλτα",
        ]
        // SplitMix64 from a fixed seed: the same titles on every run.
        var state: UInt64 = 0x5EED_B0BB_1E5
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var out = "{\"id\": \"root\", \"title\": \"All Reports\", \"children\": [\n"
        out += " {\"id\": \"invoices\", \"title\": \"Invoices\", \"colour\": \"#7A4FD1\", \"children\": [\n"
        for i in 1...max(1, count) {
            let n = String(i)
            let number = String(repeating: "0", count: max(0, 6 - n.count)) + n
            var title = "Invoice INV-2016-\(number) — \(customers[i % customers.count])"
            if titles == .unstructured {
                let length = 2 + Int(next() % 5)
                title = (0..<length).map { _ in words[Int(next() % UInt64(words.count))] }.joined(separator: " ")
                title = title.prefix(1).uppercased() + title.dropFirst()
            }
            out += "  {\"id\": \"inv-\(number)\", \"title\": \"\(title)\", \"file\": \"x.pdf\"}"
            out += i == count ? "\n" : ",\n"
        }
        out += " ]}\n]}\n"
        return out
    }

    static func run(counts: [Int], rounds: Int, json: Bool, titles: Titles = .invoices) throws {
        let folder = NSTemporaryDirectory() + "bubbles-levels-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }  // scratch folder
        var rows: [[String: Any]] = []
        for count in counts {
            let path = folder + "/levels-\(count).json"
            try document(count: count, titles: titles).write(toFile: path, atomically: true, encoding: .utf8)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: ownExecutablePath())
            child.arguments = ["bench", "levels", "--child", path, "--rounds", String(rounds)]
            let pipe = Pipe()
            child.standardOutput = pipe
            try child.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            child.waitUntilExit()
            guard child.terminationStatus == 0,
                  let row = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw CLIError("bench levels: the run for \(count) children failed (status \(child.terminationStatus))")
            }
            rows.append(row)
            if !json { printError(String(format: "  %7d children: tap %8.2f ms", count, row["tap_ms_median"] as? Double ?? 0)) }
        }
        if json {
            let fields = ["children", "tap_ms_median", "layout_ms_median", "visible_bubbles", "groups", "peak_memory_bytes",
                          "load_peak_memory_bytes", "load_ms"]
            let objects = rows.map { row in
                "{" + fields.map { "\"\($0)\": \(row[$0].map { "\($0)" } ?? "null")" }.joined(separator: ", ") + "}"
            }
            print("[\n  " + objects.joined(separator: ",\n  ") + "\n]")
            return
        }
        print("level taps: one category of N \(titles == .invoices ? "invoices" : "unstructured titles"), median of \(rounds) taps (fresh dashboard and measurer each)")
        print("  children     tap ms  layout ms  visible  groups   peak MB  load MB  load ms")
        for row in rows {
            func d(_ k: String) -> Double { row[k] as? Double ?? Double(row[k] as? Int ?? 0) }
            print(String(format: "  %8d %10.2f %10.2f %8d %7d %9.1f %8.1f %8.1f", Int(d("children")), d("tap_ms_median"),
                         d("layout_ms_median"), Int(d("visible_bubbles")), Int(d("groups")), d("peak_memory_bytes") / 1_048_576,
                         d("load_peak_memory_bytes") / 1_048_576, d("load_ms")))
        }
    }

    static func peakResident() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    /// The child: loads `path`, then taps its one category `rounds` times on fresh dashboards.
    static func child(path: String, rounds: Int) throws {
        let loadStart = MonotonicClock.seconds()
        let library = try LibraryLoader.load(path, options: LibraryLoadOptions(checkFiles: false))
        let tree = try LibraryBridge.dashboardTree(library)
        let loadMS = (MonotonicClock.seconds() - loadStart) * 1000
        let loadPeak = peakResident()
        let category = tree.nodes[0].children[0]
        var taps: [Double] = [], layouts: [Double] = []
        var visible = 0, groups = 0
        for _ in 0..<max(1, rounds) {
            // A measurer whose fonts are loaded (as an app's is) but that has measured no title.
            let measurer = PangoTextMeasurer()
            _ = measurer.measure("Warm-up 0123", role: .cardTitle, width: 100)
            _ = measurer.measure("Warm-up 0123", role: .categoryTitle, width: 100)
            let dashboard = try Dashboard(tree: tree, measurer: measurer)
            try dashboard.send(.tapBubble("root"))
            dashboard.settle(limit: 3000)
            let t0 = MonotonicClock.seconds()
            try dashboard.send(.tapBubble(tree.nodes[category].id))
            dashboard.step()
            let scene = dashboard.scene()
            let t1 = MonotonicClock.seconds()
            taps.append((t1 - t0) * 1000)
            _ = scene
            // The grouping and layout alone, on another fresh dashboard at the same moment.
            let fresh = PangoTextMeasurer()
            _ = fresh.measure("Warm-up 0123", role: .cardTitle, width: 100)
            _ = fresh.measure("Warm-up 0123", role: .categoryTitle, width: 100)
            let again = try Dashboard(tree: tree, measurer: fresh)
            let l0 = MonotonicClock.seconds()
            _ = try again.layout(of: category)
            layouts.append((MonotonicClock.seconds() - l0) * 1000)
            dashboard.settle(limit: 3000)
            let settled = dashboard.scene()
            visible = settled.bubbles.count
            groups = settled.bubbles.filter { $0.kind == .group }.count
        }
        print("{\"children\": \(tree.nodes[category].children.count), \"tap_ms_median\": \(BenchStatistics.median(taps)), "
              + "\"layout_ms_median\": \(BenchStatistics.median(layouts)), \"visible_bubbles\": \(visible), \"groups\": \(groups), "
              + "\"peak_memory_bytes\": \(peakResident()), \"load_peak_memory_bytes\": \(loadPeak), \"load_ms\": \(loadMS)}")
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

extension LevelBench.Titles: ExpressibleByArgument {}
