import CCairo
import Foundation
import PDFCore
import PDFRender
import ReportIndex

/// What a thumbnail pass did.
public struct ThumbnailUpdate: Sendable, Equatable {
    /// Thumbnails drawn and stored.
    public var drawn = 0
    /// PDFs whose first page could not be drawn (a password, damage): recorded so that they are
    /// not tried again until their content changes, and counted as warnings.
    public var failed = 0
    /// PDFs that changed since the index read them: left for the next `bubbles index`.
    public var skipped = 0
    /// Thumbnail rows deleted because no PDF of the datasource has their content any more.
    public var pruned = 0

    /// An empty summary.
    public init() {}
}

/// Draws the first page of every indexed PDF that has no thumbnail yet and stores it in the
/// index: on `jobs` threads, committed in whole transactions of `batchSize` thumbnails in the
/// PDFs' path order, so a killed pass loses at most the batch it was drawing and the next pass
/// draws only what is still missing. A PDF already drawn at this width (or recorded as failed)
/// is neither read nor drawn again.
public struct ThumbnailBuilder: Sendable {
    /// The default thumbnail width in pixels: 128, sharp in a 64-point column at 2× and a
    /// few kilobytes of PNG.
    public static let defaultWidth = 128
    /// The tallest thumbnail, as a multiple of its width (a long strip of a page is cut to it).
    public static let maxAspect = 4

    /// The thumbnail width in pixels (default ``defaultWidth``).
    public var width: Int
    /// Threads that draw (default: every core).
    public var jobs: Int
    /// Thumbnails per committed transaction (default: 8 per thread, at least 32).
    public var batchSize: Int

    /// A builder of thumbnails `width` pixels wide on `jobs` threads.
    public init(width: Int = ThumbnailBuilder.defaultWidth, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, batchSize: Int? = nil) {
        self.width = max(1, width)
        self.jobs = max(1, jobs)
        self.batchSize = max(1, batchSize ?? max(self.jobs * 8, 32))
    }

    /// Brings the thumbnails of `index` up to date: prunes those of PDFs gone from the index,
    /// then draws the missing ones. Throws only what the index throws (a PDF that cannot be drawn
    /// is a failed record, never an error).
    public func update(_ index: ReportIndex, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> ThumbnailUpdate {
        try update(index, progress: progress) { task in Self.draw(task) }
    }

    /// ``update(_:progress:)`` with the drawing of one task given: `draw` returns nil for a PDF
    /// that changed since the index read it, and what it throws stops the pass (the batch it
    /// belongs to is not committed; the batches before it are).
    public func update(
        _ index: ReportIndex, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        draw: @escaping @Sendable (ThumbnailTask) throws -> ThumbnailRecord?
    ) throws -> ThumbnailUpdate {
        var result = ThumbnailUpdate()
        guard index.isWritable else { return result }
        result.pruned = try index.pruneThumbnails()
        let tasks = try index.thumbnailsToBuild(width: width)
        guard !tasks.isEmpty else { return result }
        let work = Work(count: tasks.count)
        let threads = min(jobs, tasks.count)
        for _ in 0..<threads {
            let thread = Thread { work.run(tasks, draw) }
            thread.stackSize = 8 << 20
            thread.start()
        }
        defer { work.stopAndWait(threads: threads) }
        var committed = 0
        while committed < tasks.count {
            let end = min(committed + batchSize, tasks.count)
            let outcomes = work.wait(for: committed..<end)
            var records: [ThumbnailRecord] = []
            for outcome in outcomes {
                switch outcome {
                case .success(let record?):
                    records.append(record)
                    if record.thumbnail == nil { result.failed += 1 } else { result.drawn += 1 }
                case .success(nil):
                    result.skipped += 1
                case .failure(let error):
                    throw error
                }
            }
            try index.storeThumbnails(records)
            committed = end
            progress?(committed, tasks.count)
        }
        return result
    }

    /// Draws the first page of `task`'s PDF: nil when the file's content is no longer what the
    /// index read (or the file is gone), a record with `error` when the page cannot be drawn.
    public static func draw(_ task: ThumbnailTask) -> ThumbnailRecord? {
        guard let bytes = FileManager.default.contents(atPath: task.path).map({ [UInt8]($0) }), Crypto.sha256(bytes) == task.sha256 else {
            return nil
        }
        do throws(PDFRenderError) {
            return ThumbnailRecord(sha256: task.sha256, width: task.width, thumbnail: try render(bytes, width: task.width))
        } catch {
            return ThumbnailRecord(sha256: task.sha256, width: task.width, thumbnail: nil, error: error.description)
        }
    }

    /// The first page of the PDF `bytes` as a PNG `width` pixels wide on white, its height from
    /// the page's aspect ratio (at most ``maxAspect`` times the width).
    public static func render(_ bytes: [UInt8], width: Int) throws(PDFRenderError) -> IndexThumbnail {
        let document = try PDFPageDocument(data: bytes, options: PDFRenderOptions())
        let (pageWidth, pageHeight) = try document.pageInfo(1).size
        guard pageWidth > 0, pageHeight > 0, pageWidth.isFinite, pageHeight.isFinite else {
            throw PDFRenderError(.badPage, "the first page has no area", page: 1)
        }
        let height = max(1, min(width * maxAspect, Int((Double(width) * pageHeight / pageWidth).rounded())))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw PDFRenderError(.output, "could not make a \(width)×\(height) image", page: 1)
        }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { throw PDFRenderError(.output, "could not draw on a \(width)×\(height) image", page: 1) }
        // A strip cut to `maxAspect` shows the top of the page at the full width.
        let drawHeight = max(height, Int((Double(width) * pageHeight / pageWidth).rounded()))
        do {
            try document.draw(page: 1, into: cr, width: width, height: drawHeight)
        } catch {
            cairo_destroy(cr)
            throw error
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        var png = PNGSink()
        let status = withUnsafeMutablePointer(to: &png) { sink in
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                let sink = closure.assumingMemoryBound(to: PNGSink.self)
                sink.pointee.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, sink)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PDFRenderError(.output, "could not encode the thumbnail as PNG", page: 1)
        }
        return IndexThumbnail(png: png.bytes, pixelWidth: width, pixelHeight: height, pageWidth: pageWidth, pageHeight: pageHeight)
    }
}

/// The bytes Cairo's PNG writer hands over.
private struct PNGSink {
    var bytes: [UInt8] = []
}

/// The drawing threads' shared state: the next task to take, and each task's outcome in its slot.
private final class Work: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var stopped = false
    private var finished = 0
    private var outcomes: [Result<ThumbnailRecord?, any Error>?]

    init(count: Int) { outcomes = Array(repeating: nil, count: count) }

    func run(_ tasks: [ThumbnailTask], _ draw: @Sendable (ThumbnailTask) throws -> ThumbnailRecord?) {
        while true {
            condition.lock()
            guard !stopped, next < tasks.count else {
                finished += 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let i = next
            next += 1
            condition.unlock()
            let outcome = Result { try draw(tasks[i]) }
            condition.lock()
            outcomes[i] = outcome
            if case .failure = outcome { stopped = true }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The outcomes of `range`, waiting until each is in; stops after a thrown error. Tasks are
    /// taken in order, so every slot before a thrown error is filled.
    func wait(for range: Range<Int>) -> [Result<ThumbnailRecord?, any Error>] {
        condition.lock()
        defer { condition.unlock() }
        var taken: [Result<ThumbnailRecord?, any Error>] = []
        for i in range {
            while true {
                if let outcome = outcomes[i] {
                    taken.append(outcome)
                    break
                }
                condition.wait()
            }
            outcomes[i] = nil
            if case .failure = taken.last! { break }
        }
        return taken
    }

    /// Stops handing out tasks and waits until all `threads` have ended.
    func stopAndWait(threads: Int) {
        condition.lock()
        stopped = true
        while finished < threads { condition.wait() }
        condition.unlock()
    }
}
