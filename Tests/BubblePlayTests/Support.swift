@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubblePlay
import BubbleScenario
import DashboardLibrary
import Foundation
import TestSupport
import Testing

/// The shipped sample (PDFs not read, as the export tests do), loaded once.
let sampleSource: PlaySource = {
    var settings = DashboardSettings()
    settings.canvasWidth = 768
    settings.canvasHeight = 1024
    return try! PlaySource.load(dataPath: packageRoot + "/Data/reports.json", settings: settings, readPDFs: false)
}()

/// The JSON object of a server message.
func object(_ text: String) -> [String: Any] { jsonObject(text) }

/// The shipped sample with its PDFs read (the preview's pages drawn), on a 768 × 1024 canvas.
func viewerSource() throws -> PlaySource {
    var settings = DashboardSettings()
    settings.canvasWidth = 768
    settings.canvasHeight = 1024
    return try PlaySource.load(dataPath: packageRoot + "/Data/reports.json", settings: settings, pdfMetadata: .readEveryPDF)
}

extension PlaySession {
    /// Draws frames as a page at 60 Hz would for `seconds` from `now`, which it advances: every
    /// 1/60 s a `ready`, then a frame; `body` sees each frame drawn.
    func showFrames(for seconds: Double, now: inout Double, _ body: (PlayFrame) throws -> Void = { _ in }) throws {
        let end = now + seconds
        while now < end {
            now += 1.0 / 60
            _ = handle(.ready, now: now)
            if let frame = try frame(now: now) { try body(frame) }
        }
    }

    /// Steps the session's clock as a page at 60 Hz would for `seconds` from `now`, which it
    /// advances (`advanceClock`, what each frame request does first), without drawing frames.
    func advanceClock(for seconds: Double, now: inout Double) {
        let end = now + seconds
        while now < end {
            now += 1.0 / 60
            advanceClock(now)
        }
    }

    /// Taps the bubbles `ids` in turn, each once the one before has come to rest, stepping the
    /// session's clock (`now`) by display frames without drawing any (at most a minute each).
    func tapDown(through ids: [String], now: inout Double) throws {
        for id in ids {
            let b = try #require(dashboard.scene().bubbles.first { $0.id == id })
            _ = handle(.tap(b.centre), now: now)
            var n = 0
            repeat {
                now += 1.0 / 60
                advanceClock(now)
                n += 1
            } while !dashboard.isAtRest && n < 3600
        }
    }

    /// The centre of the first child bubble (a category or report) of the focused level.
    func firstChildCentre() -> ScenePoint? {
        let v = dashboard.debugView()
        return v.bodies.first { !$0.isKinematic }?.position
    }
}

/// Exports a recorded scenario (scene JSON only, one job, no PDFs) into `folder` and returns the
/// last frame of its manifest (`step`, `state_hash`, …), nil if the manifest has none. With
/// `pdfMetadata` `.index(path:)` the export searches and filters with that library index.
func lastExportedFrame(of recording: String, into folder: String, pdfMetadata: PDFMetadataSource = .none) throws -> [String: Any]? {
    var options = ExportOptions(scenario: recording, output: folder)
    options.formats = [.json]
    options.pdfMetadata = pdfMetadata
    options.review = false
    options.jobs = 1
    _ = try Exporter.run(options)
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json"))
    let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return (manifest?["frames"] as? [[String: Any]])?.last
}
