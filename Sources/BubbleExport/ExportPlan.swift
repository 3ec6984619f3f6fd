@_spi(Testbed) import BubbleDashboard
import BubbleRender
import BubbleScenario
import BubbleSupport
import DashboardLibrary
import Foundation

/// Everything an export decides before it writes a file: the scenario and its settings, the
/// frames, the sizes, the video, the dashboard and its player, the output names and the
/// manifest's header. Every refusal (a bad option, a scenario or datasource that does not load)
/// happens here.
struct ExportPlan {
    let scenario: Scenario
    /// Frames per second (the option's, else the scenario's).
    let fps: Double
    /// The canvas the export starts with, pt.
    let width: Double, height: Double
    /// The box that holds the scenario's largest canvas (a `resize` may grow it), pt: the video's
    /// frames and the contact sheet's cells are this size.
    let boxWidth: Double, boxHeight: Double
    /// Pixels per point.
    let scale: Double
    /// The scenario's frames, and the range written (both ends included).
    let scenarioFrames: Int, first: Int, last: Int
    /// The video to write, if any, with ffmpeg's path.
    let video: (path: String, format: VideoFormat, ffmpeg: String)?
    /// A contact sheet cell every this many frames.
    let every: Int
    let dashboard: Dashboard
    /// The reports' pages for the preview (nil with `--no-pdf`).
    let pages: ReportPageSource?
    let player: ScenarioPlayer
    /// The scenario's events with the frame each first shows in.
    let markers: [EventMarker]
    let folder: String
    let manifestPath: String, sheetName: String, pageName: String
    let header: ManifestHeader

    /// Frames written.
    var count: Int { last - first + 1 }

    init(_ options: ExportOptions) throws {
        // Scenario and settings: everything that can be refused is refused before a file is written.
        do { scenario = try Scenario.load(options.scenario) } catch { throw ExportError.scenario("\(error)") }
        fps = options.fps ?? scenario.fps
        guard fps >= 1, fps <= 240, fps.isFinite else { throw ExportError.invalidOption(.fps, "must be within 1...240") }
        width = options.canvasWidth ?? scenario.canvasWidth
        height = options.canvasHeight ?? scenario.canvasHeight
        guard width >= 160, height >= 160, width <= Scenario.maxCanvasSide, height <= Scenario.maxCanvasSide else {
            throw ExportError.invalidOption(.canvas, "sides must be within 160...\(Int(Scenario.maxCanvasSide)) pt")
        }
        (boxWidth, boxHeight) = Self.box(scenario, width: width, height: height)
        scale = options.pixelScale
        guard scale > 0, scale <= 8, scale.isFinite else { throw ExportError.invalidOption(.pixelScale, "must be within (0, 8]") }
        guard options.jobs >= 1, options.jobs <= 256 else { throw ExportError.invalidOption(.jobs, "must be within 1...256") }
        guard !options.formats.isEmpty else { throw ExportError.invalidOption(.formats, "needs at least one of png, svg, json, labels") }
        scenarioFrames = Int((scenario.duration * fps).rounded()) + 1
        first = options.frames?.first ?? 0
        last = options.frames?.last ?? scenarioFrames - 1
        guard first <= last, last < scenarioFrames else {
            throw ExportError.invalidOption(
                .frames,
                "\(options.frames.map { "\($0)" } ?? "") is outside the scenario's frames 0..\(scenarioFrames - 1) "
                    + "(\(JSONLiteral.number(scenario.duration)) s at \(JSONLiteral.number(fps)) fps)")
        }
        if let path = options.video {
            let format = try VideoFormat.of(path)
            guard let ffmpeg = VideoWriter.findFFmpeg(searchPath: options.ffmpegSearchPath) else {
                throw ExportError.invalidOption(.video, VideoWriter.missingMessage)
            }
            video = (path, format, ffmpeg)
        } else {
            video = nil
        }
        if let k = options.contactSheetEvery, k < 1 { throw ExportError.invalidOption(.contactSheetEvery, "must be at least 1") }
        every = options.contactSheetEvery ?? ContactSheet.every(frames: last - first + 1)

        let (settings, contentHash) = try Self.settings(scenario, options: options, width: width, height: height)
        let metadataHash: UInt64
        (dashboard, pages, metadataHash) = try Self.dashboard(scenario, settings: settings, options: options)
        player = ScenarioPlayer(dashboard: dashboard, script: scenario.script)
        markers = Self.markers(scenario, player: player, fps: fps)

        folder = options.output
        let partial = first != 0 || last != scenarioFrames - 1
        let suffix = partial ? "-\(first)-\(last)" : ""
        manifestPath = folder + "/manifest\(suffix).json"
        sheetName = "contact-sheet\(suffix).png"
        pageName = "index\(suffix).html"
        header = ManifestHeader(
            scenarioPath: options.scenario, contentHash: contentHash, metadataHash: metadataHash, fps: fps, canvasWidth: width,
            canvasHeight: height, scale: scale, pixelWidth: max(1, Int((boxWidth * scale).rounded())),
            pixelHeight: max(1, Int((boxHeight * scale).rounded())), formats: options.formats, first: first, last: last,
            scenarioFrames: scenarioFrames)
    }

    /// A scenario that resizes the canvas (a rotation) is exported in a box that holds its
    /// largest canvas: each frame is drawn at its own canvas size in the box's top-left corner.
    static func box(_ scenario: Scenario, width: Double, height: Double) -> (Double, Double) {
        var boxWidth = width, boxHeight = height
        for action in scenario.script {
            if case .event(.resize(let size)) = action.action {
                boxWidth = max(boxWidth, size.width)
                boxHeight = max(boxHeight, size.height)
            }
        }
        return (boxWidth, boxHeight)
    }

    /// The dashboard settings (the scenario's, then the settings file's) and the content hash
    /// that decides what a resumed export carries over.
    static func settings(_ scenario: Scenario, options: ExportOptions, width: Double, height: Double) throws -> (DashboardSettings, UInt64) {
        var settings = scenario.dashboardSettings(width: width, height: height)
        var contentHash = scenario.contentHash
        if let file = options.settingsFile {
            do { settings = try SettingsFile.load(file, base: settings) } catch { throw ExportError.scenario("\(error)") }
            // Frames drawn with other settings are not carried over by a resumed export.
            var h = FNV1a64()
            h.combine(contentHash)
            h.combine(bytes: Array(SettingsFile.encode(settings).utf8))
            contentHash = h.value
        }
        return (settings, contentHash)
    }

    /// The dashboard of the scenario's datasource with the PDFs' metadata, and the hash of what
    /// that metadata added (authors, page counts, keywords per report).
    static func dashboard(_ scenario: Scenario, settings: DashboardSettings, options: ExportOptions) throws -> (Dashboard, ReportPageSource?, UInt64) {
        var metadataHasher = FNV1a64()
        do {
            let details = LibraryBridge.details(for: scenario.library, source: options.pdfMetadata)
            for key in details.keys.sorted() {
                let d = details[key]!
                let line = "\(key)\t\(d.author ?? "-")\t\(d.pageCount.map(String.init) ?? "-")\t\(d.keywords.joined(separator: "\u{1F}"))\n"
                metadataHasher.combine(bytes: line.utf8)
            }
            let tree = try LibraryBridge.dashboardTree(scenario.library, details: details)
            let pages = LibraryBridge.pageSource(for: scenario.library, source: options.pdfMetadata)
            let dashboard = try Dashboard(
                tree: tree, settings: settings, measurer: PangoTextMeasurer(),
                finder: LibraryBridge.finder(for: scenario.library, dashboardTree: tree, source: options.pdfMetadata), documents: pages)
            return (dashboard, pages, metadataHasher.value)
        } catch {
            throw ExportError.dashboard("\(error)")
        }
    }

    /// Each event with the first frame that shows it.
    static func markers(_ scenario: Scenario, player: ScenarioPlayer, fps: Double) -> [EventMarker] {
        scenario.script.map { action -> EventMarker in
            let step = player.step(atTime: action.time)
            var frame = max(0, Int((action.time * fps).rounded(.down)) - 2)
            while !player.fires(step: step, byTime: Double(frame) / fps) { frame += 1 }
            return EventMarker(label: action.label, time: action.time, frame: frame)
        }
    }
}
