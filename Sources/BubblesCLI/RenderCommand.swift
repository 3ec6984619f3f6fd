import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import ReportLibrary
import BubbleSupport

/// `bubbles render`: settles one level of the dashboard and writes the frame as PNG and/or SVG.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render one settled dashboard level as PNG and SVG.",
        discussion: """
            With no arguments, renders the shipped sample's first level to Renders/first-level.png \
            and Renders/first-level.svg. Files are written under a temporary name and renamed, so a \
            failure never leaves a half-written file.
            """)

    @Option(help: "The datasource JSON file.")
    var data = "Data/reports.json"

    @Option(help: "The id of the category to focus (default: the root, i.e. the first level).")
    var focus: String?

    @Option(help: "Ids from the root down to the category to focus, separated by '/' (e.g. finance/monthly-close); a large category's groups, as the dashboard shows them, by their ids (e.g. store-pnl/store-pnl~n101-101).")
    var path: String?

    @Option(help: "An overlay: 'preview:REPORT-ID', 'reports' (the level's reports table), 'search:TEXT' (the search with TEXT typed) or 'filter' (the keyword sheet).")
    var overlay: String?

    @Option(help: "Show only reports with this keyword (repeatable: all of them), as the Filter button does.")
    var filter: [String] = []

    @Option(help: "A settings file (JSON, as 'bubbles play' saves it; see docs/play.md).")
    var settings: String?

    @Option(help: "Canvas size in points, WIDTHxHEIGHT.")
    var size = "768x1024"

    @Option(help: "Pixels per point.")
    var scale = 2.0

    @Option(help: "Write the PNG here.")
    var png: String?

    @Option(help: "Write the SVG here.")
    var svg: String?

    @Option(help: "Also write every label drawn in the frame as JSON here (fields: docs/output-formats.md, 'Labels as drawn').")
    var labels: String?

    @Flag(name: .customLong("no-pdf"), help: "Do not read the PDFs (no page counts, authors or PDF keywords).")
    var skipPDFs = false

    @OptionGroup var indexOptions: IndexOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if focus != nil && path != nil { throw ValidationError("give --focus or --path, not both") }
        guard scale > 0, scale <= 8, scale.isFinite else { throw ValidationError("--scale must be within (0, 8], not \(scale)") }
        try checkPixels(try parseSize(size), scale: scale)
    }

    func run() throws {
        let start = MonotonicClock.seconds()
        defer { Diagnostics.timing(since: start, verbose: global.verbose) }
        do {
            try render()
        } catch let error as ValidationError {
            throw error
        } catch {
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
    }

    func render() throws {
        let canvas = try parseSize(size)
        let library = try LibraryLoader.load(data)
        let details = LibraryBridge.details(for: library, source: indexOptions.source(readPDFs: !skipPDFs)) {
            Diagnostics.warn($0, verbose: global.verbose)
        }
        if global.verbose {
            for (index, d) in details.sorted(by: { $0.key < $1.key }) {
                if let problem = d.readError {
                    Diagnostics.warn("\(data): \(library.nodes[index].jsonPath).file: PDF cannot be read: \(problem)", verbose: true)
                }
            }
        }
        let tree = try LibraryBridge.dashboardTree(library, details: details)
        var dashboardSettings = DashboardSettings()
        dashboardSettings.canvasWidth = canvas.width
        dashboardSettings.canvasHeight = canvas.height
        if let settings { dashboardSettings = try SettingsFile.load(settings, base: dashboardSettings) }
        // A damaged index is said, not taken for a search without results.
        let finder = LibraryBridge.finder(for: library, dashboardTree: tree, source: indexOptions.source(readPDFs: !skipPDFs)) {
            printError("warning: " + Diagnostics.oneLine($0))
        }
        let pages = LibraryBridge.pageSource(for: library, source: indexOptions.source(readPDFs: !skipPDFs))
        let dashboard = try Dashboard(tree: tree, settings: dashboardSettings, measurer: PangoTextMeasurer(), finder: finder, documents: pages)

        // Which level, and which overlay.
        var previewID: String? = nil
        var showReports = false
        var searchText: String? = nil
        var showFilterSheet = false
        if let overlay {
            if overlay == "reports" {
                showReports = true
            } else if overlay == "filter" {
                showFilterSheet = true
            } else if overlay.hasPrefix("preview:") {
                previewID = String(overlay.dropFirst("preview:".count))
            } else if overlay.hasPrefix("search:") {
                searchText = String(overlay.dropFirst("search:".count))
            } else {
                throw ValidationError("--overlay must be 'preview:REPORT-ID', 'reports', 'search:TEXT' or 'filter', not '\(overlay)'")
            }
        }
        if (searchText != nil || showFilterSheet || !filter.isEmpty) && finder == nil {
            throw CLIError("search and filters need the library index: drop --no-pdf/--no-index (the index is made beside \(data))")
        }
        var (chain, groups) = try focusChain(tree: tree, library: library)
        if let previewID {
            guard let report = tree.index(of: previewID) else {
                throw CLIError("--overlay preview:\(previewID): unknown report id '\(previewID)' in \(data) (nearest: \(tree.suggestions(for: previewID).joined(separator: ", ")))")
            }
            guard tree.nodes[report].kind == .report else { throw CLIError("--overlay preview:\(previewID): '\(previewID)' is a category, not a report") }
            let parent = tree.parents[report]
            if focus == nil && path == nil {
                chain = Array(tree.path(to: parent).dropFirst())
            } else if chain.last ?? 0 != parent {
                throw CLIError("--overlay preview:\(previewID): report '\(previewID)' is not on the focused level; its category is '\(tree.nodes[parent].id)'")
            }
        }

        try dashboard.send(.tapBubble(tree.nodes[0].id))
        dashboard.settle(limit: 3000)
        if !filter.isEmpty {
            do {
                try dashboard.send(.filter(filter))
            } catch {
                throw CLIError("--filter: \(error)")
            }
            dashboard.settle(limit: 3000)
        }
        for node in chain {
            try dashboard.send(.tapBubble(tree.nodes[node].id))
            dashboard.settle(limit: 3000)
        }
        // Groups exist once the dashboard has laid out the level they divide.
        for id in groups {
            let level = dashboard.levels
            let shown = level.nodes[dashboard.focus].children.filter { level.nodes[$0].kind == .group }
            guard let next = shown.first(where: { level.nodes[$0].id == id }) else {
                let ids = shown.map { level.nodes[$0].id }
                throw CLIError(
                    "--path \(path ?? ""): '\(id)' is not a group of '\(level.nodes[dashboard.focus].id)' in \(data) "
                        + (ids.isEmpty ? "(that level is not grouped)" : "(its groups: \(ids.prefix(5).joined(separator: ", "))\(ids.count > 5 ? ", …" : ""))"))
            }
            try dashboard.send(.tapBubble(level.nodes[next].id))
            dashboard.settle(limit: 3000)
        }
        if let previewID { try dashboard.send(.tapBubble(previewID)) }
        if showReports { try dashboard.send(.showReports) }
        if let searchText { try dashboard.send(.search(searchText)) }
        if showFilterSheet { try dashboard.send(.openFilter) }
        dashboard.settle(limit: 3000)

        var pngPath = png
        var svgPath = svg
        if pngPath == nil && svgPath == nil && labels == nil {
            let name = defaultName(
                id: groups.last ?? tree.nodes[chain.last ?? 0].id, root: chain.isEmpty && groups.isEmpty, preview: previewID,
                reports: showReports, canvas: canvas)
            try FileManager.default.createDirectory(atPath: "Renders", withIntermediateDirectories: true)
            pngPath = "Renders/\(name).png"
            svgPath = "Renders/\(name).svg"
        }
        let renderer = SceneRenderer(pixelScale: scale)
        renderer.pictures = pages
        let scene = dashboard.scene()
        if let pngPath {
            try renderer.writePNG(scene, to: pngPath)
            let (w, h) = renderer.pixelSize(of: scene)
            print("wrote \(pngPath) (\(w)×\(h) px, \(fileSize(pngPath)))")
        }
        if let svgPath {
            try renderer.writeSVG(scene, to: svgPath)
            print("wrote \(svgPath) (\(fileSize(svgPath)))")
        }
        let drawn = renderer.layoutLabels(scene)
        GlyphWarnings.check(drawn, source: data)
        if let labels {
            try AtomicFile.write(LabelsJSON.encode(drawn), to: labels)
            print("wrote \(labels) (\(drawn.count) labels)")
        }
    }

    /// The categories to tap after the root, from `--focus` or `--path`, and the ids of groups to
    /// tap after them (the end of a `--path` that names groups, which the library does not hold).
    func focusChain(tree: DashboardTree, library: ReportTree) throws -> (categories: [Int], groups: [String]) {
        if let focus {
            guard let index = tree.index(of: focus) else {
                throw CLIError("--focus \(focus): unknown id '\(focus)' in \(data) (nearest: \(tree.suggestions(for: focus).joined(separator: ", ")))")
            }
            guard tree.nodes[index].kind == .category else {
                throw CLIError("--focus \(focus): '\(focus)' is a report; use --overlay preview:\(focus) to show it")
            }
            return (Array(tree.path(to: index).dropFirst()), [])
        }
        guard let path else { return ([], []) }
        var chain: [Int] = []
        var current = 0
        let ids = path.split(separator: "/").map(String.init)
        for (k, id) in ids.enumerated() where !(chain.isEmpty && id == tree.nodes[0].id) {
            let children = tree.nodes[current].children
            guard let next = children.first(where: { tree.nodes[$0].id == id }) else {
                // A group's id is its category's id, "~" and a key: the rest of the path is groups.
                if id.hasPrefix(tree.nodes[current].id + "~") { return (chain, Array(ids[k...])) }
                let valid = children.filter { tree.nodes[$0].kind == .category }
                let nearest = tree.suggestions(for: id, among: valid, limit: 5)
                throw CLIError(
                    "--path \(path): '\(id)' is not a category under '\(tree.nodes[current].id)' in \(data) (valid: \(nearest.joined(separator: ", ")))")
            }
            guard tree.nodes[next].kind == .category else {
                throw CLIError("--path \(path): '\(id)' is a report; use --overlay preview:\(id) to show it")
            }
            chain.append(next)
            current = next
        }
        return (chain, [])
    }

    func defaultName(id: String, root: Bool, preview: String?, reports: Bool, canvas: (width: Double, height: Double)) -> String {
        var name = root ? "first-level" : "level-" + id.replacingOccurrences(of: "~", with: "-")
        if let preview { name += "-preview-\(preview)" }
        if reports { name += "-reports" }
        if canvas.width != 768 || canvas.height != 1024 { name += "-\(Int(canvas.width))x\(Int(canvas.height))" }
        return name
    }
}

/// Parses `WIDTHxHEIGHT` in points.
func parseSize(_ text: String) throws -> (width: Double, height: Double) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w >= 160, h >= 160, w <= 8192, h <= 8192 else {
        throw ValidationError("--size must be WIDTHxHEIGHT in points, each within 160...8192 (e.g. 768x1024), not '\(text)'")
    }
    return (w, h)
}

/// The largest raster side written, in pixels (Cairo's image surfaces stop at 32767; a side of
/// 16384 px is already 1 GiB for a square frame).
let maxPixelSide = 16384.0

/// Refuses a canvas whose raster at `scale` would be wider or taller than `maxPixelSide`.
func checkPixels(_ canvas: (width: Double, height: Double), scale: Double) throws {
    let w = (canvas.width * scale).rounded(), h = (canvas.height * scale).rounded()
    guard w <= maxPixelSide, h <= maxPixelSide else {
        throw ValidationError(
            "--size \(Int(canvas.width))x\(Int(canvas.height)) at --scale \(String(format: "%g", scale)) is \(Int(w))×\(Int(h)) px; "
                + "at most \(Int(maxPixelSide)) px a side")
    }
}

/// A human-readable file size.
func fileSize(_ path: String) -> String {
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0  // only for the summary line
    if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
    return "\(max(1, (bytes + 512) / 1024)) KB"
}
