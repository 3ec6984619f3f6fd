import ArgumentParser
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import IndexThumbnails
import ReportIndex
import ReportLibrary
import BubbleSupport

/// The index flags of the commands that read PDF metadata (`validate`, `render`, `export`,
/// `play`, `search`).
struct IndexOptions: ParsableArguments {
    @Option(name: .customLong("index"), help: "The library index file, or a postgres:// URL (default: BUBBLES_INDEX_URL, else beside the datasource, NAME.index.sqlite).")
    var indexPath: String?

    @Flag(name: .customLong("no-index"), help: "Read every PDF instead of taking their metadata from the index (the output is the same).")
    var noIndex = false

    /// Where the metadata comes from, given the command's `--no-pdf`.
    func source(readPDFs: Bool = true) -> PDFMetadataSource {
        if !readPDFs { return .none }
        return noIndex ? .readEveryPDF : .index(path: indexPath)
    }
}

/// `--max-nodes`, for the commands that load a whole datasource however large (`index`,
/// `validate`).
struct NodeLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-nodes"), help: "The most categories and reports the datasource may hold (default 200 000); its file may then be up to 336 bytes a node (default 64 MB).")
    var maxNodes: Int = LibraryLimits().maxNodes

    /// The datasource's limits: the documented ones, with `--max-nodes` and a file size to match.
    var limits: LibraryLimits {
        var limits = LibraryLimits()
        limits.maxNodes = maxNodes
        limits.maxFileBytes = max(limits.maxFileBytes, maxNodes * 336)
        return limits
    }

    func validate() throws {
        guard (1...20_000_000).contains(maxNodes) else { throw ValidationError("--max-nodes must be within 1...20000000, not \(maxNodes)") }
    }
}

/// `bubbles index`: builds or updates a datasource's library index.
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build or update the library index of a datasource (PDF metadata and full-text search).",
        discussion: """
            The index is an SQLite file beside the datasource (Data/reports.json → \
            Data/reports.index.sqlite) or at --index, or a PostgreSQL database named by --index \
            postgres://USER@HOST:PORT/DB?sslmode=… (or BUBBLES_INDEX_URL), shared by several \
            machines and datasources. Only PDFs that are new or whose size, \
            modification time and content changed are read, on --jobs threads; reports no longer \
            in the datasource are dropped. Every batch is committed whole, so an interrupted run \
            keeps its work and the next run goes on from there. An index that is damaged or was \
            written by another schema version is rebuilt, with a warning. Prints one summary line \
            (or one JSON object with --json: reports, read, unchanged, removed, warnings, seconds, \
            index, thumbnails); a progress bar on a terminal. Then the first page of every PDF \
            without a thumbnail of --thumbnail-width pixels (default 128) is drawn on --jobs \
            threads and stored in the index, in committed batches; a PDF whose page cannot be \
            drawn is recorded (and counted in thumbnail_warnings) and not tried again until it \
            changes. --no-thumbnails skips this pass.
            """)

    @Argument(help: "The datasource JSON file.")
    var data: String = "Data/reports.json"

    @Option(name: .customLong("index"), help: "The index file, or a postgres:// URL (default: BUBBLES_INDEX_URL, else beside the datasource, NAME.index.sqlite).")
    var indexPath: String?

    @Option(help: "Threads that read PDFs (default: every core).")
    var jobs: Int?

    @Option(help: "Seconds to wait for another process's update of the same index to end.")
    var wait: Double = 10

    @Flag(help: "Print one JSON object instead of the summary line.")
    var json = false

    @Flag(name: .customLong("no-thumbnails"), help: "Do not draw the first-page thumbnails of PDFs that have none.")
    var noThumbnails = false

    @Option(name: .customLong("thumbnail-width"), help: "The thumbnails' width in pixels (default 128).")
    var thumbnailWidth: Int = ThumbnailBuilder.defaultWidth

    @OptionGroup var nodeLimit: NodeLimitOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be within 1...256, not \(jobs)") }
        guard wait >= 0, wait <= 3600, wait.isFinite else { throw ValidationError("--wait must be within 0...3600 seconds, not \(wait)") }
        guard (16...2048).contains(thumbnailWidth) else { throw ValidationError("--thumbnail-width must be within 16...2048 pixels, not \(thumbnailWidth)") }
    }

    func run() throws {
        let start = MonotonicClock.seconds()
        let path = ReportIndex.location(indexPath, forDatasource: data)
        var bar = ProgressBar(enabled: isatty(2) != 0 && !json)
        do {
            let shown = ReportIndex.shownLocation(path)
            let threads = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            let (index, update) = try Self.update(data: data, index: path, wait: wait, jobs: threads, limits: nodeLimit.limits) { p in
                bar.show(done: p.done, total: p.total, unit: "PDFs")
            } warn: { printError("warning: \($0)") }
            bar.finish()
            var thumbnails: ThumbnailUpdate?
            if !noThumbnails {
                var thumbBar = ProgressBar(enabled: isatty(2) != 0 && !json)
                thumbnails = try ThumbnailBuilder(width: thumbnailWidth, jobs: threads).update(index) { done, total in
                    thumbBar.show(done: done, total: total, unit: "thumbnails")
                }
                thumbBar.finish()
            }
            let seconds = MonotonicClock.seconds() - start
            if json {
                let t = thumbnails.map {
                    ", \"thumbnails\": \($0.drawn), \"thumbnail_warnings\": \($0.failed), \"thumbnails_pruned\": \($0.pruned)"
                } ?? ""
                print(
                    "{\"reports\": \(update.reports), \"read\": \(update.read), \"unchanged\": \(update.unchanged), "
                        + "\"removed\": \(update.removed), \"warnings\": \(update.warnings)\(t), "
                        + "\"seconds\": \(String(format: "%.3f", seconds)), \"index\": \(JSONLiteral.string(shown))}")
            } else {
                let t = thumbnails.map { "thumbnails \($0.drawn) drawn, \($0.failed) warnings; " } ?? ""
                print(
                    "\(shown): \(update.reports) reports; PDFs \(update.read) read, \(update.unchanged) unchanged; "
                        + "\(update.removed) reports removed; \(update.warnings) warnings; \(t)\(String(format: "%.2f", seconds)) s")
            }
        } catch {
            bar.finish()
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
    }
}

extension Index {
    /// Brings the index at `index` up to date with the datasource `data`. When the index was last
    /// updated from this datasource as it is now and no PDF changed, the datasource is not even
    /// loaded. `wait` nil: update when the index is free, read it otherwise.
    static func update(
        data: String, index path: String, wait: Double?, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        limits: LibraryLimits = LibraryLimits(), progress: ((IndexProgress) -> Void)? = nil, warn: (String) -> Void
    ) throws -> (ReportIndex, IndexUpdate) {
        let stamp = FileStamp.of(data)
        let mode: ReportIndex.Mode = wait.map { .update(lockWait: $0) } ?? .updateIfPossible
        if let stamp, ReportIndex.isPostgresURL(path) || FileManager.default.fileExists(atPath: path) {
            if let index = try? ReportIndex.open(at: path, mode: mode, warn: warn),  // the fast path only: any error
               let current = try? index.isCurrent(datasource: data, stamp: stamp, jobs: jobs)  // takes the full update, which reports it
            {
                return (index, current)
            }
        }
        let tree = try LibraryLoader.load(data, options: LibraryLoadOptions(checkFiles: false, limits: limits))
        return try ReportIndex.openAndUpdate(at: path, mode: mode, tree: tree, jobs: jobs, progress: progress, warn: warn)
    }
}

/// A one-line progress bar on standard error with rate and time left, redrawn in place.
struct ProgressBar {
    var enabled: Bool
    private var started = MonotonicClock.seconds()
    private var lastLength = 0

    init(enabled: Bool) { self.enabled = enabled }

    mutating func show(done: Int, total: Int, unit: String) {
        guard enabled, total > 0 else { return }
        let elapsed = max(MonotonicClock.seconds() - started, 1e-6)
        let rate = Double(done) / elapsed
        let left = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = min(width, done * width / total)
        let line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] "
            + "\(done)/\(total) \(unit)  \(Int(rate.rounded()))/s  ETA \(Int(left.rounded())) s"
        let pad = String(repeating: " ", count: max(0, lastLength - line.count))
        lastLength = line.count
        FileHandle.standardError.write(Data(("\r" + line + pad).utf8))
    }

    mutating func finish() {
        guard enabled, lastLength > 0 else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        lastLength = 0
    }
}

extension IndexError {
    /// The error as the commands that take `--index` say it: where another path would do, the
    /// option that gives one.
    var commandLineDescription: String {
        elsewhereHelps ? description + "; give --index FILE to keep it elsewhere" : description
    }
}
