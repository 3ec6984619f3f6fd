@_spi(Testbed) import BubbleDashboard
import BubbleRender
import BubbleScenario
import BubbleSupport
import Foundation

/// One export under way, after its plan: the resumed frames, the manifest, the render pipeline
/// (the simulation in order on the calling thread, the drawing on the workers), the video, and
/// the review files at the end. Used once, by `Exporter.run`.
final class ExportRun {
    let plan: ExportPlan
    let options: ExportOptions
    let progress: ((ExportProgress) -> Void)?
    /// When the export started (`MonotonicClock` seconds).
    let start: Double
    /// Still-valid frames of earlier exports in the folder, by frame index.
    var carried: [Int: FrameEntry]
    /// Frames finished by this run, by position in the range.
    var finished: [FrameEntry?]
    let videoWriter: VideoWriter?
    /// Drawn frames waiting for those before them to reach the video.
    var pendingVideo: [Int: VideoFrame] = [:]
    var nextVideoFrame: Int
    let pool: RenderWorkers
    var summary: ExportSummary
    var done = 0
    var lastProgress = -1.0
    var lastManifest: Double
    var failure: ExportError? = nil
    /// The run of identical scenes being collected: its first frame, its scene and the others.
    var run: (original: FrameInfo, scene: Scene, duplicates: [FrameInfo])? = nil
    /// Whether this build was checked to draw a carried frame as recorded (see `submit`).
    var rendererChecked: Bool
    /// The frames the contact sheet shows.
    var samples: [(info: FrameInfo, scene: Scene)] = []

    /// Prepares the folder, finds the frames still valid, writes the first manifest, and starts
    /// the video and the workers.
    init(plan: ExportPlan, options: ExportOptions, progress: ((ExportProgress) -> Void)?, start: Double) throws {
        self.plan = plan
        self.options = options
        self.progress = progress
        self.start = start
        let folder = plan.folder
        try ExportFolder.prepareFolder(folder)
        ExportFolder.removeStaleTemporaries(folder)
        carried = Resume.verifiedFrames(folder: folder, header: plan.header, jobs: options.jobs)
        rendererChecked = carried.isEmpty
        finished = [FrameEntry?](repeating: nil, count: plan.count)
        nextVideoFrame = plan.first
        do {
            try Self.writeManifest(plan: plan, options: options, finished: finished, carried: carried, complete: false)
        } catch ExportError.diskFull(let path, let frame) {
            throw ExportError.diskFull(path: path, frame: frame)
        } catch {
            throw ExportError.unwritableFolder(path: folder, reason: "\(error)")
        }
        // Simulate in order; render in parallel.
        if let video = plan.video {
            videoWriter = try VideoWriter(
                path: video.path, format: video.format, ffmpeg: video.ffmpeg, width: plan.header.pixelWidth,
                height: plan.header.pixelHeight, fps: plan.fps)
        } else {
            videoWriter = nil
        }
        pool = RenderWorkers(
            workers: options.jobs,
            context: WorkContext(folder: folder, formats: options.formats, scale: plan.scale, fileSystem: options.fileSystem,
                video: plan.video != nil, videoWidth: plan.header.pixelWidth, videoHeight: plan.header.pixelHeight, pictures: plan.pages))
        summary = ExportSummary(
            output: folder, frames: plan.count, rendered: 0, linked: 0, skipped: 0, duplicates: 0, seconds: 0,
            simulateSeconds: 0, drawSeconds: 0, encodeSeconds: 0, writeSeconds: 0, manifestPath: plan.manifestPath,
            contactSheetPath: nil, reviewPagePath: nil)
        lastManifest = MonotonicClock.seconds()
    }

    /// The manifest so far: frames finished by this run, else still-valid ones from before.
    func writeManifest(complete: Bool) throws {
        try Self.writeManifest(plan: plan, options: options, finished: finished, carried: carried, complete: complete)
    }

    /// The manifest of `plan` with the frames `finished` by this run, else the still-valid
    /// `carried` ones from before.
    static func writeManifest(
        plan: ExportPlan, options: ExportOptions, finished: [FrameEntry?], carried: [Int: FrameEntry], complete: Bool
    ) throws {
        var entries: [FrameEntry] = []
        entries.reserveCapacity(plan.count)
        for k in 0..<plan.count {
            if let e = finished[k] ?? carried[plan.first + k] { entries.append(e) }
        }
        let bytes = ManifestText.encode(
            header: plan.header, complete: complete, review: options.review ? (plan.sheetName, plan.every, plan.pageName) : nil,
            events: plan.markers, frames: entries)
        do {
            try AtomicFile.write(bytes, to: plan.manifestPath, using: options.fileSystem)
        } catch {
            throw ExportError.writing(error, frame: nil)
        }
    }

    /// Writes the manifest so far after a failure. Its own error is dropped on purpose: the
    /// failure being reported is the one that matters, and the manifest on disk stays valid.
    func keepManifestAfterFailure() {
        try? writeManifest(complete: false)
    }

    // MARK: - The render pipeline

    /// Runs the simulation from frame 0 to the range's end, handing each run of identical scenes
    /// to the workers, then waits for them; throws the first failure.
    func simulateAndRender() throws {
        var simulate = 0.0
        for i in 0...plan.last {
            let t0 = MonotonicClock.seconds()
            let time = Double(i) / plan.fps
            let fired = plan.player.advance(to: time)
            if let bad = fired.first(where: { $0.error != nil }) {
                failure = .eventRefused(frame: i, time: time, label: bad.label, reason: "\(bad.error!)")
                break
            }
            guard i >= plan.first else { continue }
            let scene = plan.dashboard.scene(at: time)
            let info = FrameInfo(
                index: i, time: time, step: plan.dashboard.stepCount, stateHash: plan.dashboard.stateHash(at: time),
                events: fired.map(\.label))
            simulate += MonotonicClock.seconds() - t0
            if options.review && (i - plan.first) % plan.every == 0 { samples.append((info, scene)) }
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
            keepManifestAfterFailure()
            throw f
        }
    }

    /// Takes a worker's result: its manifest entries, its counts and times, and its frame for the
    /// video, which takes the frames in order (a drawn frame waits here for those before it).
    func collect(_ r: RunResult) {
        for e in r.entries { finished[e.index - plan.first] = e }
        done += r.entries.count
        summary.rendered += r.rendered
        summary.linked += r.linked
        summary.skipped += r.skipped
        summary.drawSeconds += r.draw
        summary.encodeSeconds += r.encode
        summary.writeSeconds += r.write
        summary.videoCopySeconds += r.videoCopy
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

    /// Collects what the workers finished, reports progress (at most ten times a second) and
    /// rewrites the manifest twice a second.
    func pump(final: Bool = false) {
        for r in pool.takeResults() { collect(r) }
        let now = MonotonicClock.seconds()
        if let progress, final || now - lastProgress >= 0.1 {
            lastProgress = now
            progress(ExportProgress(done: done, total: plan.count, elapsed: now - start, finished: final))
        }
        if !final && now - lastManifest >= 0.5 {
            lastManifest = now
            do {
                try writeManifest(complete: false)
            } catch let e as ExportError {
                failure = failure ?? e
            } catch {
                failure = failure ?? .writing(error, frame: nil)
            }
        }
    }

    /// Renderer check: the state hashes say a carried frame shows the same scene, not that this
    /// build draws it the same way. The first carried frame is therefore drawn again and its
    /// bytes compared with the manifest's; if the renderer changed, nothing is carried.
    func rendererStillMatches(_ info: FrameInfo, _ scene: Scene, _ files: [FileRecord]) -> Bool {
        let renderer = SceneRenderer(pixelScale: plan.scale)
        renderer.pictures = plan.pages
        let encoder = PNGEncoder()
        var image: RenderedImage? = nil
        var ignored = 0.0
        for (k, format) in options.formats.enumerated() where k < files.count {
            // A frame that cannot be drawn again is taken as drawn differently: nothing is carried.
            guard let bytes = try? WorkContext.frameBytes(
                format, scene: scene, frame: info, renderer: renderer, encoder: encoder, image: &image,
                drawSeconds: &ignored),
                FNV1a64.hash(bytes) == files[k].hash, bytes.count == files[k].bytes else { return false }
        }
        return true
    }

    /// Hands a run of identical frames to the workers, or, when every frame of it is up to date
    /// from an earlier export, rebuilds its entries here.
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
        if let originalFiles, duplicateFiles.allSatisfy({ $0 != nil }), videoWriter == nil {
            // Up to date: nothing to render; the entries are rebuilt here.
            var result = RunResult(entries: [], skipped: 1 + r.duplicates.count)
            result.entries.append(FrameEntry(
                index: r.original.index, time: r.original.time, step: r.original.step, stateHash: r.original.stateHash,
                events: r.original.events, duplicateOf: nil, files: originalFiles))
            for (k, d) in r.duplicates.enumerated() {
                result.entries.append(FrameEntry(
                    index: d.index, time: d.time, step: d.step, stateHash: d.stateHash, events: d.events,
                    duplicateOf: r.original.index, files: duplicateFiles[k]!))
            }
            collect(result)
            return
        }
        let job = RunJob(
            original: r.original, scene: r.scene, originalFiles: originalFiles, duplicates: r.duplicates,
            duplicateFiles: duplicateFiles)
        while pool.waiting >= 2 * options.jobs + 2 && pool.failure == nil {
            pool.wait(timeout: 0.05)
            pump()
        }
        pool.submit(job)
    }

    // MARK: - Finishing

    /// Closes the video, if any.
    func finishVideo() throws {
        guard let videoWriter else { return }
        do {
            try videoWriter.finish()
        } catch {
            keepManifestAfterFailure()
            throw error
        }
        summary.videoPath = videoWriter.path
        summary.videoFrames = videoWriter.framesWritten
        summary.videoPipeSeconds = videoWriter.pipeSeconds
    }

    /// The contact sheet and the review page, when asked for.
    func writeReview() throws {
        guard options.review else { return }
        let folder = plan.folder, first = plan.first, last = plan.last, every = plan.every
        let entries = finished.map { $0! }
        let sheetPath = folder + "/" + plan.sheetName
        do {
            let title = ((options.scenario as NSString).lastPathComponent as NSString).deletingPathExtension
            let cells = samples.map { s -> ContactSheet.Cell in
                let end = min(last, s.info.index + every - 1)
                let near = (s.info.index...end).flatMap { entries[$0 - first].events }
                return ContactSheet.Cell(frame: s.info.index, time: s.info.time, events: near, scene: s.scene)
            }
            let bytes = try ContactSheet.render(
                title: "\(title) · frames \(first)–\(last) · every \(every) frame\(every == 1 ? "" : "s") "
                    + "(\(JSONLiteral.number((Double(every) / plan.fps * 1000).rounded() / 1000)) s)",
                cells: cells, canvasWidth: plan.boxWidth, canvasHeight: plan.boxHeight)
            try AtomicFile.write(bytes, to: sheetPath, using: options.fileSystem)
            let page = ReviewPage.html(
                title: title, scenarioPath: options.scenario, fps: plan.fps, pixelWidth: plan.header.pixelWidth,
                pixelHeight: plan.header.pixelHeight, formats: options.formats, frames: entries, events: plan.markers,
                video: summary.videoPath.map { ReviewPage.link(to: $0, from: folder) })
            try AtomicFile.write(Array(page.utf8), to: folder + "/" + plan.pageName, using: options.fileSystem)
        } catch {
            keepManifestAfterFailure()
            throw ExportError.writing(error, frame: nil)
        }
        summary.contactSheetPath = sheetPath
        summary.reviewPagePath = folder + "/" + plan.pageName
    }

    /// The complete manifest, the last progress report and the summary.
    func finish() throws -> ExportSummary {
        try writeManifest(complete: true)
        summary.seconds = MonotonicClock.seconds() - start
        pump(final: true)
        return summary
    }
}
