import ArgumentParser
import BubbleExport
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import BubbleSupport

/// `bubbles export`: a scenario as a numbered frame sequence, with manifest, contact sheet and review page.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export a scenario as numbered frames, a manifest, a contact sheet and a review page.",
        discussion: """
            Runs the scenario at a fixed frame rate (the simulation steps at 60 Hz; frame i shows time \
            i/fps) and writes into the output folder: frame-00000.png ... (and/or .svg, and .json with \
            the frame's scene), manifest.json (scenario hash, settings, per frame index, time, state \
            hash, events fired and each file's name and hash), contact-sheet.png (every k-th frame with \
            its time and events) and index.html (a review page that works opened from the file system).

            The simulation runs once, in order; frames are drawn and encoded on --jobs workers, and the \
            output is byte-identical for any number of jobs. A frame whose scene equals the frame \
            before (the dashboard at rest) is not drawn again: its files are hard links to the first \
            frame of the run (copies where the file system has no hard links), and the manifest's \
            duplicate_of names that frame.

            Every file is written under a temporary name and renamed, so an interrupted export leaves \
            only whole files; running the same command again skips the frames that the manifest shows \
            are up to date (same scenario content, fps, size, scale and formats, file hashes checked; \
            the first such frame is drawn again, and if this build draws it differently, none is kept).

            --frames A..B writes only frames A to B (both included); the simulation still runs from \
            the start, so parts exported by separate processes, into one folder or several, are the \
            same frames as one full export. A part writes manifest-A-B.json, contact-sheet-A-B.png and \
            index-A-B.html; a full export into the folder afterwards skips every part's frames and \
            writes manifest.json, contact-sheet.png and index.html.

            Frames are taken at their exact times at any --fps from 1 to 240: between two 60 Hz \
            steps, positions are interpolated and animations evaluated at the frame's time, so at \
            120 fps every frame is new while anything moves, and at 24, 25 or 50 fps the motion is \
            even; frames at rest are still hard links.

            --video FILE also writes the frames as FILE (.mp4: H.264, yuv420p; .webm: VP9) through \
            the ffmpeg program (Debian package ffmpeg), piping the drawn frames to it; the video \
            appears only once complete, and the review page links it.
            """)

    @Argument(help: "The scenario file (format: the Scenario format article of the BubbleDashboard documentation).")
    var scenario: String

    @Option(help: "The output folder (default: out/<scenario name>).")
    var out: String?

    @Option(help: "Frame files: png, svg, json (the scene) and/or labels (the labels as drawn, frame-NNNNN.labels.json), separated by commas.")
    var format = "png"

    @Option(help: "Frames per second (default: the scenario's).")
    var fps: Double?

    @Option(help: "A settings file (JSON, as 'bubbles play' saves it; see docs/play.md) that replaces the scenario's settings.")
    var settings: String?

    @Option(help: "Canvas size in points, WIDTHxHEIGHT (default: the scenario's).")
    var size: String?

    @Option(help: "Pixels per point of PNG frames (2: 768x1024 pt becomes 1536x2048 px).")
    var scale = 2.0

    @Option(help: "Only frames A..B (frame indices, both included; A.. and ..B for open ends).")
    var frames: String?

    @Option(help: "Render workers (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Every K-th frame on the contact sheet (default: K for 24-48 cells).")
    var every: Int?

    @Option(help: "Also write the frames as a video: FILE.mp4 (H.264) or FILE.webm (VP9), through ffmpeg.")
    var video: String?

    @Flag(help: "Also print where the time went: simulate per frame, draw and encode per drawn frame, write per file.")
    var timings = false

    @Flag(name: .customLong("no-pdf"), help: "Do not read the PDFs (no page counts, authors or PDF keywords in previews).")
    var skipPDFs = false

    @OptionGroup var indexOptions: IndexOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard scale > 0, scale <= 8, scale.isFinite else { throw ValidationError("--scale must be within (0, 8], not \(scale)") }
        if let fps, !(fps >= 1 && fps <= 240) { throw ValidationError("--fps must be within 1...240, not \(fps)") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be within 1...256, not \(jobs)") }
        if let every, every < 1 { throw ValidationError("--every must be at least 1, not \(every)") }
        if let size { try checkPixels(try parseSize(size), scale: scale) }
        if let video {
            do { _ = try VideoFormat.of(video) } catch { throw ValidationError(error.commandLineDescription) }
        }
    }

    func run() throws {
        let start = MonotonicClock.seconds()
        defer { Diagnostics.timing(since: start, verbose: global.verbose) }
        var lastLength = 0
        do {
            var options = ExportOptions(scenario: scenario, output: out ?? ExportOptions.defaultOutput(for: scenario))
            options.formats = try FrameFormat.parseList(format)
            options.fps = fps
            options.settingsFile = settings
            if let size {
                let s = try parseSize(size)
                options.canvasWidth = s.width
                options.canvasHeight = s.height
            }
            options.pixelScale = scale
            options.frames = try frames.map { try FrameRange.parse($0) }
            if let jobs { options.jobs = jobs }
            options.contactSheetEvery = every
            options.pdfMetadata = indexOptions.source(readPDFs: !skipPDFs)
            if let loaded = try? Scenario.load(scenario) {  // a scenario that does not load is Exporter.run's error to report
                let details = LibraryBridge.details(for: loaded.library, source: options.pdfMetadata) { Diagnostics.warn($0, verbose: global.verbose) }
                GlyphWarnings.check(loaded.library, details: skipPDFs ? [:] : details, source: scenario)
            }
            options.video = video
            let live = isatty(2) != 0
            let summary = try Exporter.run(options, progress: { p in
                guard live else { return }
                let line = p.bar(width: terminalColumns())
                let pad = String(repeating: " ", count: max(0, lastLength - line.count))
                lastLength = line.count
                FileHandle.standardError.write(Data(("\r" + line + pad + (p.finished ? "\n" : "")).utf8))
            }, warning: { printError("warning: " + Diagnostics.oneLine($0)) })
            printError(summary.line)
            if timings || global.verbose { printError(summary.timings) }
        } catch let error as ValidationError {
            throw error
        } catch {
            if lastLength > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
    }

    func terminalColumns() -> Int {
        var w = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0 { return Int(w.ws_col) }
        return 80
    }
}

extension ExportSetting {
    /// The flag of `bubbles export` that sets this.
    var flag: String {
        switch self {
        case .fps: "--fps"
        case .canvas: "--size"
        case .pixelScale: "--scale"
        case .jobs: "--jobs"
        case .formats: "--format"
        case .frames: "--frames"
        case .contactSheetEvery: "--every"
        case .video: "--video"
        }
    }
}

extension ExportError {
    /// The error as `bubbles export` says it: a refused setting is named by its flag.
    var commandLineDescription: String {
        if case .invalidOption(let setting, let message) = self { return setting.flag + " " + message }
        return description
    }
}
