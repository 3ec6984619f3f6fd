import BubbleDashboard
import BubblePlay
import BubbleRender
import BubbleSupport
import CCairo
import DashboardLibrary
import Foundation
import ReportLibrary

/// `bubbles bench play`'s viewer figures, in process on a real clock (pages are drawn on a
/// background queue while frames are drawn, as in `bubbles play`):
/// - tapping a report card: the server's time to the sheet's first frame, and the time until a
///   frame shows the sharp first page, each with a new page cache (cold documents);
/// - scrolling a long report: the server's time per frame at 60 Hz while `scroll` events keep the
///   pages moving and new pages are drawn off the frame path.
enum ViewerBench {
    struct Figures {
        var firstFrameMs: [Double] = []
        /// Of each first frame: handling the tap (the sheet opens, the document is read), drawing
        /// the picture and encoding it (ms).
        var firstFrameParts: [(tap: Double, draw: Double, encode: Double)] = []
        var sharpMs: [Double] = []
        var reports = 0
        var scroll: [(scale: Double, frameMs: [Double], drawMs: [Double], encodeMs: [Double], pagesDrawn: UInt64, pages: Int, partialFrames: Int)] = []
    }

    static func now() -> Double { MonotonicClock.seconds() }

    /// Waits until the next tick of a 60 Hz display after `clock` (real time), and returns it.
    static func tick(_ clock: inout Double) -> Double {
        clock += 1 / PlayBench.displayHz
        let wait = clock - now()
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        return clock
    }

    /// Taps the bubbles `ids` in turn through the session, each once the one before has come to
    /// rest, stepping the session's clock by display frames (no waiting); false when one of them
    /// is not on screen.
    @discardableResult
    static func tapThrough(_ session: PlaySession, _ ids: [String], clock: inout Double) -> Bool {
        let d = session.dashboard
        for id in ids {
            guard let b = d.scene().bubbles.first(where: { $0.id == id }) else { return false }
            _ = session.handle(.tap(b.centre), now: clock)
            var k = 0
            repeat {
                clock += 1 / PlayBench.displayHz
                session.advanceClock(clock)
                k += 1
            } while !d.isAtRest && k < 3600
        }
        return true
    }

    /// The sheet's first frame and the sharp page, for up to `limit` reports of `data`.
    static func opening(data: String, scale: Double, limit: Int, into f: inout Figures) throws {
        let library = try LibraryLoader.load(data)
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let base = try PlaySource.load(dataPath: data, settings: settings, pdfMetadata: .readEveryPDF)
        let reports = library.nodes.indices.filter { library.nodes[$0].kind == .report && library.nodes[$0].resolvedFile != nil }
        for r in reports.prefix(limit) {
            var source = base
            let pages = ReportPageSource(tree: library)
            source.pages = pages
            var chain: [Int] = []
            var p = library.nodes[r].parent
            while let q = p {
                chain.insert(q, at: 0)
                p = library.nodes[q].parent
            }
            // Down to the report's level by taps through the session, on a virtual clock (the
            // dashboard steps only by the session's clock), then on the real one.
            var virtual = 0.0
            let session = try PlaySession(source: source, scale: scale, now: virtual)
            let d = session.dashboard
            tapThrough(session, chain.map { library.nodes[$0].id }, clock: &virtual)
            let id = library.nodes[r].id
            guard let card = d.scene().bubbles.first(where: { $0.id == id }) else { continue }
            // From here the session's clock runs with the real one. The page has shown the level
            // before the tap (its frame drawn, as a page that watched the transition would have).
            var clock = now()
            let offset = virtual - clock
            _ = session.handle(.ready, now: clock + offset)
            _ = try session.frame(now: clock + offset)
            _ = session.handle(.ready, now: clock + offset)
            let t0 = now()
            _ = session.handle(.tap(card.centre), now: t0 + offset)
            let tapped = now()
            guard let first = try session.frame(now: tick(&clock) + offset) else { continue }
            f.firstFrameMs.append((now() - t0) * 1000)
            f.firstFrameParts.append((tap: (tapped - t0) * 1000, draw: first.drawSeconds * 1000, encode: first.encodeSeconds * 1000))
            // Frames at the display's rate until one shows the sharp first page (at most 5 s).
            var sharp: Double? = nil
            while sharp == nil && now() - t0 < 5 {
                let t = tick(&clock) + offset
                _ = session.handle(.ready, now: t)
                let ready = d.scene().preview?.pages.first.map {
                    pages.hasPicture(report: id, page: $0.page, width: Int(($0.frame.width * scale).rounded()),
                                     height: Int(($0.frame.height * scale).rounded()))
                } ?? false
                if try session.frame(now: t) != nil, ready { sharp = now() - t0 }
            }
            if let sharp { f.sharpMs.append(sharp * 1000) }
            f.reports += 1
        }
    }

    /// A report of `pageCount` Letter pages of text and a bar chart, drawn with Cairo into `path`.
    static func writeLongReport(to path: String, pageCount: Int) throws {
        guard let surface = cairo_pdf_surface_create(path, 612, 792) else { throw BenchError("cannot create \(path)") }
        let cr = cairo_create(surface)!
        let words = ["revenue", "margin", "variance", "quarter", "forecast", "region", "budget", "cost", "growth", "outlook"]
        for page in 1...pageCount {
            cairo_set_source_rgb(cr, 0.12, 0.43, 0.85)
            cairo_rectangle(cr, 0, 0, 612, 70)
            cairo_fill(cr)
            cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
            cairo_set_font_size(cr, 22)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_move_to(cr, 48, 45)
            cairo_show_text(cr, "Operations review, section \(page)")
            cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, 10)
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
            for line in 0..<34 {
                let text = (0..<11).map { words[(page * 7 + line * 3 + $0) % words.count] }.joined(separator: " ")
                cairo_move_to(cr, 48, 110 + Double(line) * 14)
                cairo_show_text(cr, text)
            }
            for bar in 0..<12 {
                let h = 40 + Double((page * 13 + bar * 29) % 120)
                cairo_rectangle(cr, 60 + Double(bar) * 42, 740 - h, 28, h)
            }
            cairo_set_source_rgb(cr, 0.3, 0.55, 0.9)
            cairo_fill(cr)
            cairo_show_page(cr)
        }
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS else { throw BenchError("cannot write \(path)") }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// Frame times while a long report scrolls, at `scale`, for `seconds` of real time.
    static func scrolling(pdf: String?, scale: Double, seconds: Double, into f: inout Figures) throws {
        let dir = NSTemporaryDirectory() + "bubbles-viewer-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir + "/reports", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }  // a temporary folder of the bench's own
        let file = dir + "/reports/long.pdf"
        if let pdf {
            try FileManager.default.copyItem(atPath: pdf, toPath: file)
        } else {
            try writeLongReport(to: file, pageCount: 50)
        }
        let json = #"{"id": "root", "title": "Bench", "children": [{"id": "long", "title": "A long report", "file": "reports/long.pdf"}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/reports.json"))
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let source = try PlaySource.load(dataPath: dir + "/reports.json", settings: settings, pdfMetadata: .readEveryPDF)
        guard let pages = source.pages else { return }
        var virtual = 0.0
        let session = try PlaySession(source: source, scale: scale, now: virtual)
        let d = session.dashboard
        // The root, then the report's card, by taps through the session on a virtual clock.
        guard tapThrough(session, ["root", "long"], clock: &virtual) else { throw BenchError("the long report's card was not on screen") }
        let count = d.scene().preview?.pageCount ?? 0
        let generation = pages.generation, partial = session.partialFrames
        var times: [Double] = [], draws: [Double] = [], encodes: [Double] = []
        let t0 = now()
        var lastScroll = -1.0
        var direction = 1.0
        var clock = now()
        let offset = virtual - clock
        while now() - t0 < seconds {
            let t = tick(&clock) + offset
            if t - lastScroll >= 0.4 {
                lastScroll = t
                // Down the whole report and back: new pages keep coming into view.
                if let p = d.scene().preview, p.page >= p.pageCount - 1 { direction = -1 } else if let p = d.scene().preview, p.page <= 1 { direction = 1 }
                _ = session.handle(.scroll(direction * 2500), now: t)
            }
            _ = session.handle(.ready, now: t)
            let s = now()
            if let frame = try session.frame(now: t) {
                times.append((now() - s) * 1000)
                draws.append(frame.drawSeconds * 1000)
                encodes.append(frame.encodeSeconds * 1000)
            }
        }
        f.scroll.append((scale, times, draws, encodes, pages.generation - generation, count, session.partialFrames - partial))
    }

    static func run(data: String, pdf: String?, reports: Int, into f: inout Figures) throws {
        try opening(data: data, scale: 2, limit: reports, into: &f)
        for scale in [1.0, 2.0] { try scrolling(pdf: pdf, scale: scale, seconds: 6, into: &f) }
    }
}
