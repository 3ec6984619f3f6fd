import BubbleSupport
@_spi(Testbed) import BubbleDashboard
import BubbleRender
import DashboardLibrary
import Foundation

/// A frame as the simulation produced it.
struct FrameInfo: Sendable {
    var index: Int
    var time: Double
    var step: Int
    var stateHash: UInt64
    var events: [String]
}

/// A run of identical consecutive frames: the first is rendered (unless up to date), the rest are
/// hard links to its images.
struct RunJob: Sendable {
    var original: FrameInfo
    var scene: Scene
    /// The original's files from an earlier manifest, verified; nil when it must be rendered.
    var originalFiles: [FileRecord]?
    var duplicates: [FrameInfo]
    /// Per duplicate: its verified files from an earlier manifest, or nil to write them.
    var duplicateFiles: [[FileRecord]?]
}

/// A drawn frame for the video: its pixels (BGRA, rows packed) and how many frames show it.
struct VideoFrame: Sendable {
    var index: Int
    var pixels: [UInt8]
    var count: Int
}

struct RunResult: Sendable {
    var entries: [FrameEntry]
    var video: VideoFrame? = nil
    var videoCopy = 0.0
    var rendered = 0
    var linked = 0
    var skipped = 0
    var draw = 0.0
    var encode = 0.0
    var write = 0.0
}

/// What every worker needs to know.
struct WorkContext: Sendable {
    var folder: String
    var formats: [FrameFormat]
    var scale: Double
    var fileSystem: FileSystemCalls = .system
    /// Every job also returns its frame's pixels, for the video (drawn again if its files are up to date).
    var video = false
    /// The video's frame size in pixels: a frame drawn smaller (before or after a `resize`) sits in
    /// its top-left corner on the contact sheet's dark background.
    var videoWidth = 0
    var videoHeight = 0
    /// The reports' pages (the preview's viewer, the rows' thumbnails), shared by the workers.
    var pictures: ReportPageSource? = nil

    /// The bytes of one frame file: what a worker writes, and what the exporter's renderer check
    /// on resume compares with a carried frame. `drawSeconds` receives the drawing part.
    static func frameBytes(
        _ format: FrameFormat, scene: Scene, frame o: FrameInfo, renderer: SceneRenderer, encoder: PNGEncoder,
        image: inout RenderedImage?, drawSeconds: inout Double
    ) throws -> [UInt8] {
        let t0 = MonotonicClock.seconds()
        switch format {
        case .png:
            let drawn = try renderer.render(scene, reusing: image)
            image = drawn
            drawSeconds = MonotonicClock.seconds() - t0
            return try encoder.encode(drawn)
        case .svg:
            let bytes = SVGText.normalizeIDs(try renderer.svg(scene))
            drawSeconds = MonotonicClock.seconds() - t0
            return bytes
        case .json:
            return SceneJSON.encode(scene, frame: o.index, time: o.time)
        case .labels:
            let bytes = LabelsJSON.encode(renderer.layoutLabels(scene))
            drawSeconds = MonotonicClock.seconds() - t0
            return bytes
        }
    }

    static func fileName(_ index: Int, _ format: FrameFormat) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + "." + format.fileExtension
    }
}

/// The export's N render workers, each with its own `SceneRenderer`, fed `RunJob`s in order from
/// one queue. Results come back in completion order; the caller puts them in frame order. (Not
/// `BubbleThreads.WorkerPool`, which runs the physics step's parallel phases.)
final class RenderWorkers: @unchecked Sendable {
    private let cond = NSCondition()
    private var queue: [RunJob] = []
    private var head = 0
    private var closed = false
    private var cancelled = false
    private var results: [RunResult] = []
    private var outstanding = 0
    private var running = 0
    private var failureValue: ExportError?
    let context: WorkContext

    init(workers: Int, context: WorkContext) {
        self.context = context
        running = workers
        for _ in 0..<workers {
            let thread = Thread { [self] in self.workerLoop() }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    var failure: ExportError? { cond.lock(); defer { cond.unlock() }; return failureValue }

    /// Jobs queued but not yet started.
    var waiting: Int { cond.lock(); defer { cond.unlock() }; return queue.count - head }

    /// Submitted jobs not finished (or, once cancelled, workers still running).
    var busy: Bool { cond.lock(); defer { cond.unlock() }; return cancelled ? running > 0 : outstanding > 0 || running > 0 && closed }

    func submit(_ job: RunJob) {
        cond.lock()
        queue.append(job)
        outstanding += 1
        cond.broadcast()
        cond.unlock()
    }

    /// No more jobs: workers finish the queue and exit.
    func close() {
        cond.lock()
        closed = true
        cond.broadcast()
        cond.unlock()
    }

    /// Drops queued jobs; workers finish the frame in hand and exit.
    func cancel() {
        cond.lock()
        cancelled = true
        cond.broadcast()
        cond.unlock()
    }

    /// Waits until something happens (a result, a failure, a worker exits) or `timeout` passes.
    func wait(timeout: Double) {
        cond.lock()
        _ = cond.wait(until: Date(timeIntervalSinceNow: timeout))
        cond.unlock()
    }

    func takeResults() -> [RunResult] {
        cond.lock()
        defer { cond.unlock() }
        let r = results
        results.removeAll(keepingCapacity: true)
        return r
    }

    private func workerLoop() {
        let renderer = SceneRenderer(pixelScale: context.scale)
        renderer.pictures = context.pictures
        let encoder = PNGEncoder()
        var image: RenderedImage? = nil
        while true {
            cond.lock()
            while head == queue.count && !closed && !cancelled { cond.wait() }
            if cancelled || head == queue.count {
                running -= 1
                cond.broadcast()
                cond.unlock()
                return
            }
            let job = queue[head]
            head += 1
            if head >= 64 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            cond.unlock()
            var failed: ExportError? = nil
            var result: RunResult? = nil
            do {
                result = try process(job, renderer: renderer, encoder: encoder, image: &image)
            } catch let e as ExportError {
                failed = e
            } catch {
                failed = .frameFailed(frame: job.original.index, reason: "\(error)")
            }
            cond.lock()
            outstanding -= 1
            if let result { results.append(result) }
            if let failed {
                if failureValue == nil { failureValue = failed }
                cancelled = true
            }
            cond.broadcast()
            cond.unlock()
        }
    }

    private func process(_ job: RunJob, renderer: SceneRenderer, encoder: PNGEncoder, image: inout RenderedImage?) throws -> RunResult {
        var result = RunResult(entries: [])
        let o = job.original
        let folder = context.folder
        func write(_ bytes: [UInt8], _ name: String, frame: Int) throws -> FileRecord {
            let t = MonotonicClock.seconds()
            let hash = FNV1a64.hash(bytes)
            do {
                try AtomicFile.write(bytes, to: folder + "/" + name, using: context.fileSystem)
            } catch {
                throw ExportError.writing(error, frame: frame)
            }
            result.write += MonotonicClock.seconds() - t
            return FileRecord(name: name, hash: hash, bytes: bytes.count)
        }
        let originalFiles: [FileRecord]
        if let carried = job.originalFiles {
            originalFiles = carried
            result.skipped += 1
        } else {
            var files: [FileRecord] = []
            for format in context.formats {
                let name = WorkContext.fileName(o.index, format)
                let t0 = MonotonicClock.seconds()
                let bytes: [UInt8]
                do {
                    var drawSeconds = 0.0
                    bytes = try WorkContext.frameBytes(
                        format, scene: job.scene, frame: o, renderer: renderer, encoder: encoder, image: &image,
                        drawSeconds: &drawSeconds)
                    result.draw += drawSeconds
                    result.encode += MonotonicClock.seconds() - t0 - drawSeconds
                } catch {
                    throw ExportError.frameFailed(frame: o.index, reason: "cannot render \(folder)/\(name): \(error)")
                }
                files.append(try write(bytes, name, frame: o.index))
            }
            originalFiles = files
            result.rendered += 1
        }
        if context.video {
            let t0 = MonotonicClock.seconds()
            do {
                // The image drawn for the PNG is still in `image`; otherwise draw it now.
                if job.originalFiles != nil || !context.formats.contains(.png) {
                    image = try renderer.render(job.scene, reusing: image)
                }
            } catch {
                throw ExportError.frameFailed(frame: o.index, reason: "cannot draw the frame for the video: \(error)")
            }
            let drawn = image!
            let width = max(context.videoWidth, drawn.width), height = max(context.videoHeight, drawn.height)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            if drawn.width < width || drawn.height < height {
                // BGRA of the contact sheet's background (0.125, 0.141, 0.172).
                for i in stride(from: 0, to: pixels.count, by: 4) {
                    pixels[i] = 44
                    pixels[i + 1] = 36
                    pixels[i + 2] = 32
                    pixels[i + 3] = 255
                }
            }
            drawn.withPixels { p, stride in
                pixels.withUnsafeMutableBytes { out in
                    let row = drawn.width * 4
                    for y in 0..<drawn.height {
                        (out.baseAddress! + y * width * 4).copyMemory(from: p + y * stride, byteCount: row)
                    }
                }
            }
            result.video = VideoFrame(index: o.index, pixels: pixels, count: 1 + job.duplicates.count)
            result.videoCopy = MonotonicClock.seconds() - t0
        }
        result.entries.append(FrameEntry(
            index: o.index, time: o.time, step: o.step, stateHash: o.stateHash, events: o.events, duplicateOf: nil,
            files: originalFiles))
        for (k, d) in job.duplicates.enumerated() {
            var files: [FileRecord]
            if let carried = job.duplicateFiles[k] {
                files = carried
                result.skipped += 1
            } else {
                files = []
                for (f, format) in context.formats.enumerated() {
                    let name = WorkContext.fileName(d.index, format)
                    if format == .json {
                        files.append(try write(SceneJSON.encode(job.scene, frame: d.index, time: d.time), name, frame: d.index))
                        continue
                    }
                    let source = originalFiles[f]
                    let t = MonotonicClock.seconds()
                    do {
                        try FrameLinks.linkOrCopy(from: folder + "/" + source.name, to: folder + "/" + name, using: context.fileSystem)
                    } catch {
                        throw ExportError.writing(error, frame: d.index)
                    }
                    result.write += MonotonicClock.seconds() - t
                    files.append(FileRecord(name: name, hash: source.hash, bytes: source.bytes))
                }
                result.linked += 1
            }
            result.entries.append(FrameEntry(
                index: d.index, time: d.time, step: d.step, stateHash: d.stateHash, events: d.events, duplicateOf: o.index,
                files: files))
        }
        return result
    }
}
