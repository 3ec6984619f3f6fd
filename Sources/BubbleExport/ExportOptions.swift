import BubbleRender
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import DashboardLibrary
import Foundation

/// What a frame is written as.
public enum FrameFormat: String, Sendable, Hashable, CaseIterable {
    /// `frame-NNNNN.png`, the raster frame at the pixel scale (this package's fast PNG encoder).
    case png
    /// `frame-NNNNN.svg`, the frame as vectors (Cairo's SVG surface).
    case svg
    /// `frame-NNNNN.json`, the frame's scene as plain values (see `SceneJSON`).
    case json
    /// `frame-NNNNN.labels.json`, every label drawn in the frame (see `LabelsJSON`).
    case labels

    /// The file name's ending after the frame number.
    public var fileExtension: String { self == .labels ? "labels.json" : rawValue }

    /// Parses `png,svg,json,labels` (any order, no repeats) into the canonical order png, svg, json,
    /// labels.
    public static func parseList(_ text: String) throws(ExportError) -> [FrameFormat] {
        var set: Set<FrameFormat> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let f = FrameFormat(rawValue: name) else {
                throw ExportError.invalidOption(.formats, "takes png, svg, json and/or labels separated by commas, not '\(text)'")
            }
            set.insert(f)
        }
        return allCases.filter { set.contains($0) }
    }
}

/// A range of frame indices, both ends included (`--frames 120..239`).
public struct FrameRange: Sendable, Hashable, CustomStringConvertible {
    /// The first frame.
    public var first: Int
    /// The last frame; nil means the scenario's last frame.
    public var last: Int?

    /// The frames `first` through `last` (nil: to the scenario's end).
    public init(first: Int, last: Int?) {
        self.first = first
        self.last = last
    }

    /// Parses `A..B` (both included; `A...B` too), `A..` (to the end), `..B` (from 0) or `N` (one frame).
    public static func parse(_ text: String) throws(ExportError) -> FrameRange {
        let t = text.trimmingCharacters(in: .whitespaces)
        let bad = ExportError.invalidOption(.frames, "must be A..B (frame indices, both included; A.. or ..B for open ends), not '\(text)'")
        let sep = t.range(of: "...") ?? t.range(of: "..")
        guard let sep else {
            guard let n = Int(t), n >= 0 else { throw bad }
            return FrameRange(first: n, last: n)
        }
        let a = String(t[..<sep.lowerBound]), b = String(t[sep.upperBound...])
        let first: Int
        if a.isEmpty { first = 0 } else { guard let v = Int(a), v >= 0 else { throw bad }; first = v }
        var last: Int? = nil
        if !b.isEmpty {
            guard let v = Int(b), v >= first else { throw bad }
            last = v
        }
        return FrameRange(first: first, last: last)
    }

    /// `A..B`, or `A..` for an open end, as `--frames` takes it.
    public var description: String { "\(first)..\(last.map(String.init) ?? "")" }
}

/// Everything `bubbles export` can be told.
public struct ExportOptions: Sendable {
    /// The scenario file.
    public var scenario: String
    /// The output folder (created if missing).
    public var output: String
    /// The files written per frame, in this order (default: PNG only).
    public var formats: [FrameFormat] = [.png]
    /// Frames per second; nil takes the scenario's.
    public var fps: Double?
    /// A settings file (`SettingsFile`) whose values replace the scenario's `settings`.
    public var settingsFile: String?
    /// Canvas size in points; nil takes the scenario's.
    public var canvasWidth: Double?
    /// See `canvasWidth`.
    public var canvasHeight: Double?
    /// Device pixels per canvas point of raster frames (2 → 1536×2048 for the iPad canvas).
    public var pixelScale: Double = 2
    /// Frames to write; nil for every frame of the scenario.
    public var frames: FrameRange?
    /// Render workers (the simulation runs on the calling thread beside them).
    public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Every k-th frame on the contact sheet; nil picks k for 24–48 cells.
    public var contactSheetEvery: Int?
    /// Write `contact-sheet.png` and `index.html` (the benchmark turns this off).
    public var review: Bool = true
    /// Where the reports' page counts, authors and keywords (shown in previews) come from
    /// (default: every PDF read; `bubbles export` takes them from the library index).
    public var pdfMetadata: PDFMetadataSource = .readEveryPDF
    /// Whether PDF metadata is read at all: false is `pdfMetadata = .none`, true keeps the
    /// source (or reads every PDF).
    public var readPDFs: Bool {
        get { pdfMetadata != .none }
        set { pdfMetadata = newValue ? (pdfMetadata == .none ? .readEveryPDF : pdfMetadata) : .none }
    }
    /// Also write the frames as a video to this file (`.mp4` or `.webm`) through ffmpeg.
    public var video: String?
    /// Where to look for the `ffmpeg` program (a `PATH`-style list); nil for the `PATH`.
    public var ffmpegSearchPath: String?
    /// The system calls every file is written through (tests simulate a full disk with it).
    public var fileSystem: FileSystemCalls = .system

    /// Options to export `scenario` into the folder `output`, with every other option at its default.
    public init(scenario: String, output: String) {
        self.scenario = scenario
        self.output = output
    }

    /// The default output folder for a scenario: `out/<scenario file name without extension>`.
    public static func defaultOutput(for scenario: String) -> String {
        let name = ((scenario as NSString).lastPathComponent as NSString).deletingPathExtension
        return "out/" + (name.isEmpty ? "export" : name)
    }
}

/// An `ExportOptions` setting that a value can be refused for, named as the property is.
public enum ExportSetting: String, Sendable, CaseIterable {
    /// `fps`.
    case fps
    /// `canvasWidth` and `canvasHeight`.
    case canvas
    /// `pixelScale`.
    case pixelScale
    /// `jobs`.
    case jobs
    /// `formats`.
    case formats
    /// `frames`.
    case frames
    /// `contactSheetEvery`.
    case contactSheetEvery
    /// `video`.
    case video
}

/// Why an export stopped. One line; names the frame and the file where there is one.
public enum ExportError: Error, Sendable, CustomStringConvertible {
    /// A setting's value out of range or malformed: the setting, and what is wrong with the value
    /// (a phrase that follows the setting's name: "must be within 1...240"). A command line names
    /// its own flag instead of the setting.
    case invalidOption(ExportSetting, String)
    /// The scenario file was refused (`ScenarioError`'s one line).
    case scenario(String)
    /// The dashboard could not be built from the datasource.
    case dashboard(String)
    /// The dashboard refused a scenario event at its moment.
    case eventRefused(frame: Int, time: Double, label: String, reason: String)
    /// The output folder cannot be created or written to.
    case unwritableFolder(path: String, reason: String)
    /// Rendering or writing one frame failed (disk full, I/O error, Cairo error).
    case frameFailed(frame: Int, reason: String)
    /// Writing the manifest, contact sheet or review page failed.
    case writeFailed(String)
    /// The disk (or quota) filled up while writing `path` (for frame `frame`, if it was a frame's
    /// file). The file is not there, nor any temporary file of it.
    case diskFull(path: String, frame: Int?)

    /// One line; names the frame and the file where there is one.
    public var description: String {
        switch self {
        case .invalidOption(let setting, let m): return setting.rawValue + " " + m
        case .scenario(let m): return m
        case .dashboard(let m): return "cannot build the dashboard: \(m)"
        case .eventRefused(let frame, let time, let label, let reason):
            return "frame \(frame) (\(JSONLiteral.number(time)) s): the dashboard refused '\(label)': \(reason)"
        case .unwritableFolder(let path, let reason): return "cannot write to \(path): \(reason)"
        case .frameFailed(let frame, let reason): return "frame \(frame): \(reason)"
        case .writeFailed(let m): return m
        case .diskFull(let path, let frame):
            return (frame.map { "frame \($0): " } ?? "") + "cannot write \(path): the disk is full"
        }
    }

    /// `error` from writing a file as an export error: a full disk stays a full disk, anything else
    /// becomes `frameFailed` (for a frame's file) or `writeFailed`.
    static func writing(_ error: any Error, frame: Int?) -> ExportError {
        if let e = error as? ExportError { return e }
        if case RenderError.diskFull(let path) = error { return .diskFull(path: path, frame: frame) }
        if let frame { return .frameFailed(frame: frame, reason: "\(error)") }
        return .writeFailed("\(error)")
    }
}

/// Live progress, reported on the calling thread about ten times a second and once at the end.
public struct ExportProgress: Sendable {
    /// Frames finished (written, linked as duplicates or skipped as up to date) out of `total`.
    public var done: Int
    /// Frames in the range.
    public var total: Int
    /// Seconds since the export started.
    public var elapsed: Double
    /// True in the last report, when the export is done.
    public var finished: Bool

    /// Frames per second so far.
    public var fps: Double { elapsed > 0 ? Double(done) / elapsed : 0 }
    /// Estimated seconds left, when known.
    public var secondsLeft: Double? { fps > 0 ? Double(total - done) / fps : nil }

    /// `[#########.........]  412/901 frames  31.4 fps  0:15 left` for a terminal of `width` columns.
    public func bar(width: Int = 80) -> String {
        let counts = " \(done)/\(total) frames  " + String(format: "%.1f fps", fps) + "  "
            + (finished ? "done" : secondsLeft.map { Self.clock($0) + " left" } ?? "--:-- left")
        let barWidth = max(10, min(40, width - counts.count - 3))
        let filled = total > 0 ? min(barWidth, done * barWidth / total) : barWidth
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]" + counts
    }

    static func clock(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.up)))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

/// What an export did, and where its time went.
public struct ExportSummary: Sendable {
    /// The output folder.
    public var output: String
    /// Frames in the range.
    public var frames: Int
    /// Frames rendered and written by this run.
    public var rendered: Int
    /// Duplicate frames (same scene as the frame before) written by this run as hard links or copies.
    public var linked: Int
    /// Frames found up to date in an earlier manifest (not touched).
    public var skipped: Int
    /// Frames of the range that repeat the frame before them (linked now or earlier).
    public var duplicates: Int
    /// Seconds the whole export took.
    public var seconds: Double
    /// Seconds summed over all frames of the range (simulate) or over the rendered frames (the rest;
    /// summed over workers, so they can add up to more than `seconds`).
    public var simulateSeconds: Double
    /// Seconds spent drawing frames (summed over workers).
    public var drawSeconds: Double
    /// Seconds spent encoding PNG, SVG and JSON (summed over workers).
    public var encodeSeconds: Double
    /// Seconds spent writing and linking files (summed over workers).
    public var writeSeconds: Double
    /// The manifest written (`manifest.json`, or `manifest-A-B.json` for a range).
    public var manifestPath: String
    /// True when frames of an earlier run matched this run's scenes but the first of them drew
    /// differently with this build (the renderer changed), so none was kept.
    public var rendererChanged = false
    /// The contact sheet written, if `review` was on.
    public var contactSheetPath: String?
    /// The review page written, if `review` was on.
    public var reviewPagePath: String?
    /// The video written, if any, with its frame count.
    public var videoPath: String?
    /// Frames written to the video.
    public var videoFrames = 0
    /// Seconds the export spent copying frames for the video (on the workers, summed) and
    /// handing them to ffmpeg (its pipe, on a thread of its own: ffmpeg's encoding shows here).
    public var videoCopySeconds = 0.0
    /// Seconds spent handing frames to ffmpeg (see `videoCopySeconds`).
    public var videoPipeSeconds = 0.0

    /// Frames of the range per second of the whole export.
    public var fps: Double { seconds > 0 ? Double(frames) / seconds : 0 }

    /// `simulate 0.41 ms/frame; per drawn frame: draw 14.2 ms, encode 9.8 ms; write 0.9 ms/file (summed over workers)`
    public var timings: String {
        func ms(_ seconds: Double, _ n: Int) -> String { String(format: "%.2f ms", n > 0 ? seconds * 1000 / Double(n) : 0) }
        return "simulate \(ms(simulateSeconds, frames))/frame; per drawn frame: draw \(ms(drawSeconds, rendered)), "
            + "encode \(ms(encodeSeconds, rendered)); write \(ms(writeSeconds, rendered + linked))/frame (summed over workers)"
    }

    /// `exported 901 frames to out/tour: 310 rendered, 591 duplicates linked, 0 up to date; 12.3 s, 73.2 fps`
    public var line: String {
        "exported \(frames) frames to \(output): \(rendered) rendered, \(linked) duplicates linked, \(skipped) up to date "
            + "(\(duplicates) duplicates in all); " + String(format: "%.1f s, %.1f fps", seconds, fps)
            + (rendererChanged ? "; the renderer draws differently now, so no earlier frame was kept" : "")
            + (videoPath.map { "; video \($0) (\(videoFrames) frames)" } ?? "")
    }
}
