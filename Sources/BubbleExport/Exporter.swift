@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import DashboardLibrary
import Foundation

/// Exports a scenario as a numbered frame sequence with a manifest, a contact sheet and a review page.
///
/// - **Pipeline:** the simulation runs once, in order, on the calling thread; each frame's scene is
///   compared with the previous frame's, and every run of identical scenes (the dashboard at rest,
///   or an overlay standing still) becomes one job. `jobs` worker threads, each with its own
///   `SceneRenderer`, draw and encode the first frame of a job and make the others hard links to
///   its files (a copy where the file system has no hard links). Frame files do not depend on
///   which worker drew them and the manifest is written in frame order with a fixed layout, so the
///   output is byte-identical for any number of jobs.
/// - **Atomicity:** every file is written under a hidden temporary name in the output folder and
///   renamed (links too), so an interrupted export leaves only whole files.
/// - **Resume:** `manifest.json` is written at the start (the frames still valid from an earlier
///   run), twice a second while frames complete (a killed export loses about half a second of
///   work), and at the end with `"complete": true`. A frame is skipped when a manifest in the
///   folder with the same scenario content hash, fps, canvas, scale and formats lists it with the
///   same state hash, and each of its files exists with the recorded FNV-1a hash (every file is
///   re-read and hashed, so a corrupted frame is re-rendered). The first such frame is drawn again
///   and compared byte for byte: if this build draws it differently, no frame is carried over.
/// - **Ranges:** `frames` limits what is written; the simulation still runs from frame 0. A range
///   that is not the whole scenario writes `manifest-A-B.json`, `contact-sheet-A-B.png` and
///   `index-A-B.html`, so parts exported into one folder by separate processes never overwrite
///   each other's manifest; a later full export in that folder finds every part's frames up to date
///   and assembles `manifest.json`, `contact-sheet.png` and `index.html`.
public enum Exporter {
    public static func run(_ options: ExportOptions, progress: ((ExportProgress) -> Void)? = nil) throws -> ExportSummary {
        let start = MonotonicClock.seconds()

        // Scenario and settings: everything that can be refused is refused before a file is written.
        let scenario: Scenario
        do { scenario = try Scenario.load(options.scenario) } catch { throw ExportError.scenario("\(error)") }
        let fps = options.fps ?? scenario.fps
        guard fps >= 1, fps <= 240, fps.isFinite else { throw ExportError.invalidOption("--fps must be within 1...240") }
        let width = options.canvasWidth ?? scenario.canvasWidth
        let height = options.canvasHeight ?? scenario.canvasHeight
        guard width >= 160, height >= 160, width <= Scenario.maxCanvasSide, height <= Scenario.maxCanvasSide else {
            throw ExportError.invalidOption("--size sides must be within 160...\(Int(Scenario.maxCanvasSide)) pt")
        }
        // A scenario that resizes the canvas (a rotation) is exported in a box that holds its
        // largest canvas: the video's frames and the contact sheet's cells are that size, each
        // frame drawn at its own canvas size in the box's top-left corner.
        var boxWidth = width, boxHeight = height
        for action in scenario.script {
            if case .event(.resize(let size)) = action.action {
                boxWidth = max(boxWidth, size.width)
                boxHeight = max(boxHeight, size.height)
            }
        }
        let scale = options.pixelScale
        guard scale > 0, scale <= 8, scale.isFinite else { throw ExportError.invalidOption("--scale must be within (0, 8]") }
        guard options.jobs >= 1, options.jobs <= 256 else { throw ExportError.invalidOption("--jobs must be within 1...256") }
        guard !options.formats.isEmpty else { throw ExportError.invalidOption("--format needs at least one of png, svg, json, labels") }
        let scenarioFrames = Int((scenario.duration * fps).rounded()) + 1
        let first = options.frames?.first ?? 0
        let last = options.frames?.last ?? scenarioFrames - 1
        guard first <= last, last < scenarioFrames else {
            throw ExportError.invalidOption(
                "--frames \(options.frames.map { "\($0)" } ?? "") is outside the scenario's frames 0..\(scenarioFrames - 1) "
                    + "(\(JSONLiteral.number(scenario.duration)) s at \(JSONLiteral.number(fps)) fps)")
        }
        let count = last - first + 1
        var video: (path: String, format: VideoFormat, ffmpeg: String)? = nil
        if let path = options.video {
            let format = try VideoFormat.of(path)
            guard let ffmpeg = VideoWriter.findFFmpeg(searchPath: options.ffmpegSearchPath) else {
                throw ExportError.invalidOption(VideoWriter.missingMessage)
            }
            video = (path, format, ffmpeg)
        }
        if let k = options.contactSheetEvery, k < 1 { throw ExportError.invalidOption("--every must be at least 1") }
        let every = options.contactSheetEvery ?? ContactSheet.every(frames: count)

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
        let dashboard: Dashboard
        var metadataHasher = FNV1a64()
        do {
            let details = LibraryBridge.details(for: scenario.library, source: options.pdfMetadata)
            for key in details.keys.sorted() {
                let d = details[key]!
                let line = "\(key)\t\(d.author ?? "-")\t\(d.pageCount.map(String.init) ?? "-")\t\(d.keywords.joined(separator: "\u{1F}"))\n"
                metadataHasher.combine(bytes: line.utf8)
            }
            let tree = try LibraryBridge.dashboardTree(scenario.library, details: details)
            dashboard = try Dashboard(
                tree: tree, settings: settings, measurer: PangoTextMeasurer(),
                finder: LibraryBridge.finder(for: scenario.library, dashboardTree: tree, source: options.pdfMetadata))
        } catch {
            throw ExportError.dashboard("\(error)")
        }
        let player = ScenarioPlayer(dashboard: dashboard, script: scenario.script)
        let markers = scenario.script.map { action -> EventMarker in
            let step = player.step(atTime: action.time)
            var frame = max(0, Int((action.time * fps).rounded(.down)) - 2)
            while !player.fires(step: step, byTime: Double(frame) / fps) { frame += 1 }
            return EventMarker(label: action.label, time: action.time, frame: frame)
        }

        let folder = options.output
        let partial = first != 0 || last != scenarioFrames - 1
        let suffix = partial ? "-\(first)-\(last)" : ""
        let manifestPath = folder + "/manifest\(suffix).json"
        let sheetName = "contact-sheet\(suffix).png", pageName = "index\(suffix).html"
        let header = ManifestHeader(
            scenarioPath: options.scenario, contentHash: contentHash, metadataHash: metadataHasher.value, fps: fps, canvasWidth: width,
            canvasHeight: height, scale: scale, pixelWidth: max(1, Int((boxWidth * scale).rounded())),
            pixelHeight: max(1, Int((boxHeight * scale).rounded())), formats: options.formats, first: first, last: last,
            scenarioFrames: scenarioFrames)

        try FileOps.prepareFolder(folder)
        FileOps.removeStaleTemporaries(folder)
        var carried = Resume.verifiedFrames(folder: folder, header: header, jobs: options.jobs)

        // The manifest so far: frames finished by this run, else still-valid ones from before.
        var finished = [FrameEntry?](repeating: nil, count: count)
        func writeManifest(complete: Bool) throws {
            var entries: [FrameEntry] = []
            entries.reserveCapacity(count)
            for k in 0..<count {
                if let e = finished[k] ?? carried[first + k] { entries.append(e) }
            }
            let bytes = ManifestText.encode(
                header: header, complete: complete, review: options.review ? (sheetName, every, pageName) : nil,
                events: markers, frames: entries)
            do {
                try AtomicFile.write(bytes, to: manifestPath, using: options.fileSystem)
            } catch {
                throw ExportError.writing(error, frame: nil)
            }
        }
        do {
            try writeManifest(complete: false)
        } catch ExportError.diskFull(let path, let frame) {
            throw ExportError.diskFull(path: path, frame: frame)
        } catch {
            throw ExportError.unwritableFolder(path: folder, reason: "\(error)")
        }

        // Simulate in order; render in parallel.
        let videoWriter: VideoWriter?
        if let video {
            videoWriter = try VideoWriter(
                path: video.path, format: video.format, ffmpeg: video.ffmpeg, width: header.pixelWidth, height: header.pixelHeight, fps: fps)
        } else {
            videoWriter = nil
        }
        var pendingVideo: [Int: VideoFrame] = [:]
        var nextVideoFrame = first
        let pool = RenderWorkers(
            workers: options.jobs,
            context: WorkContext(folder: folder, formats: options.formats, scale: scale, fileSystem: options.fileSystem, video: video != nil,
                videoWidth: header.pixelWidth, videoHeight: header.pixelHeight))
        var summary = ExportSummary(
            output: folder, frames: count, rendered: 0, linked: 0, skipped: 0, duplicates: 0, seconds: 0,
            simulateSeconds: 0, drawSeconds: 0, encodeSeconds: 0, writeSeconds: 0, manifestPath: manifestPath,
            contactSheetPath: nil, reviewPagePath: nil)
        var done = 0
        var lastProgress = -1.0, lastManifest = MonotonicClock.seconds()
        var failure: ExportError? = nil
        func collect(_ r: RunResult) {
            for e in r.entries { finished[e.index - first] = e }
            done += r.entries.count
            summary.rendered += r.rendered
            summary.linked += r.linked
            summary.skipped += r.skipped
            summary.drawSeconds += r.draw
            summary.encodeSeconds += r.encode
            summary.writeSeconds += r.write
            summary.videoCopySeconds += r.videoCopy
            // The video takes the frames in order: a drawn frame waits here for those before it.
            if let videoWriter, let v = r.video {
                pendingVideo[v.index] = v
                while let next = pendingVideo.removeValue(forKey: nextVideoFrame) {
                    if next.pixels.count != videoWriter.width * videoWriter.height * 4 {
                        failure = failure ?? .frameFailed(frame: next.index, reason: "the drawn frame's size does not match the video's")
                    }
                    videoWriter.append(next.pixels, count: next.count)
                    nextVideoFrame += next.count
                }
            }
        }
        func pump(final: Bool = false) {
            for r in pool.takeResults() { collect(r) }
            let now = MonotonicClock.seconds()
            if let progress, final || now - lastProgress >= 0.1 {
                lastProgress = now
                progress(ExportProgress(done: done, total: count, elapsed: now - start, finished: final))
            }
            if !final && now - lastManifest >= 0.5 {
                lastManifest = now
                do { try writeManifest(complete: false) } catch let e as ExportError { failure = failure ?? e } catch {}
            }
        }
        var run: (original: FrameInfo, scene: Scene, duplicates: [FrameInfo])? = nil
        // Renderer check: the state hashes say a carried frame shows the same scene, not that this
        // build draws it the same way. The first carried frame is therefore drawn again and its
        // bytes compared with the manifest's; if the renderer changed, nothing is carried.
        var rendererChecked = carried.isEmpty
        func rendererStillMatches(_ info: FrameInfo, _ scene: Scene, _ files: [FileRecord]) -> Bool {
            let renderer = SceneRenderer(pixelScale: scale)
            let encoder = PNGEncoder()
            var image: RenderedImage? = nil
            var ignored = 0.0
            for (k, format) in options.formats.enumerated() where k < files.count {
                guard let bytes = try? WorkContext.frameBytes(
                    format, scene: scene, frame: info, renderer: renderer, encoder: encoder, image: &image,
                    drawSeconds: &ignored),
                    ContentHash.fnv1a(bytes) == files[k].hash, bytes.count == files[k].bytes else { return false }
            }
            return true
        }
        func submit(_ r: (original: FrameInfo, scene: Scene, duplicates: [FrameInfo])) {
            summary.duplicates += r.duplicates.count
            if !rendererChecked, let c = carried[r.original.index], c.stateHash == r.original.stateHash {
                rendererChecked = true
                if !rendererStillMatches(r.original, r.scene, c.files) {
                    carried = [:]
                    summary.rendererChanged = true
                }
            }
            // A frame from an earlier manifest is up to date when its state hash is this run's and its
            // files were verified; whether it was a duplicate then does not matter (the bytes do).
            var originalFiles: [FileRecord]? = nil
            if let c = carried[r.original.index], c.stateHash == r.original.stateHash { originalFiles = c.files }
            let duplicateFiles = r.duplicates.map { d -> [FileRecord]? in
                guard let c = carried[d.index], c.stateHash == d.stateHash else { return nil }
                return c.files
            }
            let job = RunJob(
                original: r.original, scene: r.scene, originalFiles: originalFiles, duplicates: r.duplicates,
                duplicateFiles: duplicateFiles)
            if originalFiles != nil && duplicateFiles.allSatisfy({ $0 != nil }) && videoWriter == nil {
                // Up to date: nothing to render; the entries are rebuilt here.
                var result = RunResult(entries: [], skipped: 1 + r.duplicates.count)
                result.entries.append(FrameEntry(
                    index: r.original.index, time: r.original.time, step: r.original.step, stateHash: r.original.stateHash,
                    events: r.original.events, duplicateOf: nil, files: originalFiles!))
                for (k, d) in r.duplicates.enumerated() {
                    result.entries.append(FrameEntry(
                        index: d.index, time: d.time, step: d.step, stateHash: d.stateHash, events: d.events,
                        duplicateOf: r.original.index, files: duplicateFiles[k]!))
                }
                collect(result)
            } else {
                while pool.waiting >= 2 * options.jobs + 2 && pool.failure == nil {
                    pool.wait(timeout: 0.05)
                    pump()
                }
                pool.submit(job)
            }
        }
        var samples: [(info: FrameInfo, scene: Scene)] = []
        var simulate = 0.0
        for i in 0...last {
            let t0 = MonotonicClock.seconds()
            let time = Double(i) / fps
            let fired = player.advance(to: time)
            if let bad = fired.first(where: { $0.error != nil }) {
                failure = .eventRefused(frame: i, time: time, label: bad.label, reason: "\(bad.error!)")
                break
            }
            guard i >= first else { continue }
            let scene = dashboard.scene(at: time)
            let info = FrameInfo(index: i, time: time, step: dashboard.stepCount, stateHash: dashboard.stateHash(at: time),
                                 events: fired.map(\.label))
            simulate += MonotonicClock.seconds() - t0
            if options.review && (i - first) % every == 0 { samples.append((info, scene)) }
            if run != nil && run!.scene == scene {
                run!.duplicates.append(info)
            } else {
                if let r = run { submit(r) }
                run = (info, scene, [])
            }
            pump()
            if pool.failure != nil || failure != nil { break }
        }
        summary.simulateSeconds = simulate
        if let r = run, pool.failure == nil { submit(r) }
        if pool.failure != nil { pool.cancel() } else { pool.close() }
        while pool.busy {
            pool.wait(timeout: 0.05)
            if pool.failure != nil { pool.cancel() }
            pump()
        }
        pump()
        if let f = pool.failure ?? failure {
            videoWriter?.cancel()
            try? writeManifest(complete: false)
            throw f
        }
        if let videoWriter {
            do {
                try videoWriter.finish()
            } catch {
                try? writeManifest(complete: false)
                throw error
            }
            summary.videoPath = videoWriter.path
            summary.videoFrames = videoWriter.framesWritten
            summary.videoPipeSeconds = videoWriter.pipeSeconds
        }

        // Review: contact sheet and page, then the complete manifest.
        let entries = finished.map { $0! }
        if options.review {
            let sheetPath = folder + "/" + sheetName
            do {
                let title = ((options.scenario as NSString).lastPathComponent as NSString).deletingPathExtension
                let cells = samples.map { s -> ContactSheet.Cell in
                    let end = min(last, s.info.index + every - 1)
                    let near = (s.info.index...end).flatMap { entries[$0 - first].events }
                    return ContactSheet.Cell(frame: s.info.index, time: s.info.time, events: near, scene: s.scene)
                }
                let bytes = try ContactSheet.render(
                    title: "\(title) · frames \(first)–\(last) · every \(every) frame\(every == 1 ? "" : "s") "
                        + "(\(JSONLiteral.number((Double(every) / fps * 1000).rounded() / 1000)) s)",
                    cells: cells, canvasWidth: boxWidth, canvasHeight: boxHeight)
                try AtomicFile.write(bytes, to: sheetPath, using: options.fileSystem)
                let page = ReviewPage.html(
                    title: title, scenarioPath: options.scenario, fps: fps, pixelWidth: header.pixelWidth,
                    pixelHeight: header.pixelHeight, formats: options.formats, frames: entries, events: markers,
                    video: summary.videoPath.map { ReviewPage.link(to: $0, from: folder) })
                try AtomicFile.write(Array(page.utf8), to: folder + "/" + pageName, using: options.fileSystem)
            } catch {
                try? writeManifest(complete: false)
                throw ExportError.writing(error, frame: nil)
            }
            summary.contactSheetPath = sheetPath
            summary.reviewPagePath = folder + "/" + pageName
        }
        try writeManifest(complete: true)
        summary.seconds = MonotonicClock.seconds() - start
        pump(final: true)
        return summary
    }
}

/// Finds frames of earlier exports in the folder that are still valid.
enum Resume {
    static func verifiedFrames(folder: String, header: ManifestHeader, jobs: Int) -> [Int: FrameEntry] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0 == "manifest.json" || ($0.hasPrefix("manifest-") && $0.hasSuffix(".json")) }
            .sorted()
        var candidates: [Int: FrameEntry] = [:]
        for name in names {
            guard let m = ManifestText.decode(path: folder + "/" + name), m.header.framesCompatible(with: header) else { continue }
            for e in m.frames where e.index >= header.first && e.index <= header.last && candidates[e.index] == nil {
                let expected = header.formats.map { WorkContext.fileName(e.index, $0) }
                guard e.files.map(\.name) == expected else { continue }
                candidates[e.index] = e
            }
        }
        let list = candidates.values.sorted { $0.index < $1.index }
        let box = VerifiedBox(count: list.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, list.count))) { worker in
            var k = worker
            while k < list.count {
                let e = list[k]
                let ok = e.files.allSatisfy { f in
                    guard let actual = ContentHash.ofFile(folder + "/" + f.name) else { return false }
                    return actual.hash == f.hash && actual.bytes == f.bytes
                }
                box.set(k, ok)
                k += max(1, min(jobs, list.count))
            }
        }
        var result: [Int: FrameEntry] = [:]
        for (k, e) in list.enumerated() where box.get(k) { result[e.index] = e }
        return result
    }
}

final class VerifiedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool]
    init(count: Int) { values = [Bool](repeating: false, count: count) }
    func set(_ k: Int, _ v: Bool) { lock.lock(); values[k] = v; lock.unlock() }
    func get(_ k: Int) -> Bool { lock.lock(); defer { lock.unlock() }; return values[k] }
}
