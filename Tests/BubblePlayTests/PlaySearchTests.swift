@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubblePlay
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import TestSupport
import Testing

/// Search and the keyword filter from the page: the field's text as messages, taps by point on
/// the magnifier, chips, Clear and Done, and the frame header's `overlay`.
@Suite("Play search and filter")
struct PlaySearchTests {
    /// The sample with a library index built in `folder` (PDFs not read).
    static func indexedSource(in folder: String) throws -> (PlaySource, PDFMetadataSource) {
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let metadata = PDFMetadataSource.index(path: folder + "/reports.index.sqlite")
        let source = try PlaySource.load(dataPath: packageRoot + "/Data/reports.json", settings: settings, pdfMetadata: metadata)
        return (source, metadata)
    }

    /// The last frame header each page was sent.
    final class Headers: @unchecked Sendable {
        var last: [ObjectIdentifier: [String: Any]] = [:]
    }
    let headers = Headers()

    /// Frames for `seconds` at 60 Hz, as `FakePage.run`; returns the last frame header so far.
    @discardableResult
    func run(_ page: FakePage, _ seconds: Double) throws -> [String: Any]? {
        var last = headers.last[ObjectIdentifier(page)]
        let end = page.now + seconds
        while page.now < end {
            page.now += 1.0 / 60
            _ = page.session.handle(.ready, now: page.now)
            if let f = try page.session.frame(now: page.now) {
                page.frames += 1
                last = object(f.header)
            }
        }
        headers.last[ObjectIdentifier(page)] = last
        return last
    }

    func centre(_ r: SceneRect) -> ScenePoint { ScenePoint(x: r.x + r.width / 2, y: r.y + r.height / 2) }

    /// Opens the search with the magnifier, types a query a character at a time, takes the first
    /// result (Enter), filters by a chip, clears the filter and closes the sheet with Done.
    func searchAndFilter(_ session: PlaySession) throws -> FakePage {
        let page = FakePage(session)
        let chrome = session.dashboard.settings.chrome
        try run(page, 0.3)
        page.send(.tap(centre(chrome.searchButtonFrame(canvasWidth: 768))))
        var header = try run(page, 0.3)
        #expect(header?["overlay"] as? String == "search")
        #expect(header?["text"] as? String == "")
        var typed = ""
        for c in "income" {
            typed.append(c)
            page.send(.search(typed))
            header = try run(page, 1.0 / 30)
        }
        header = try run(page, 0.2)
        #expect(header?["text"] as? String == "income")
        #expect(!session.dashboard.searchResults.isEmpty)
        #expect(header?["results"] as? Int == session.dashboard.searchResults.count)
        page.send(.searchPick(0))
        header = try run(page, 2.5)
        #expect(header?["overlay"] is NSNull)
        page.send(.close)
        try run(page, 0.5)
        let f = chrome.toolbarButtonFrame(.filter, canvasWidth: 768, canvasHeight: 1024)
        page.send(.tap(ScenePoint(x: f.x + f.width / 2, y: f.y + f.height / 2)))
        header = try run(page, 0.5)
        #expect(header?["overlay"] as? String == "filter")
        page.send(.filterQuery("q"))
        header = try run(page, 0.3)
        #expect(header?["text"] as? String == "q")
        guard case .filterSheet(let sheet) = session.dashboard.scene().overlay, let chip = sheet.chips.first else {
            Issue.record("no filter sheet with chips")
            return page
        }
        page.send(.tap(centre(chip.frame)))
        try run(page, 1.2)
        #expect(session.dashboard.filterKeywords == [chip.keyword])
        page.send(.tap(centre(sheet.geometry.done)))
        header = try run(page, 1.2)
        #expect(header?["overlay"] is NSNull)
        #expect(session.dashboard.filterKeywords == [chip.keyword])
        // The Filter button again, then Clear: the filter goes and the sheet closes.
        page.send(.tap(ScenePoint(x: f.x + f.width / 2, y: f.y + f.height / 2)))
        header = try run(page, 0.5)
        #expect(header?["overlay"] as? String == "filter")
        #expect(header?["text"] as? String == "")
        guard case .filterSheet(let again) = session.dashboard.scene().overlay else {
            Issue.record("the filter sheet did not open again")
            return page
        }
        page.send(.tap(centre(again.geometry.clear)))
        header = try run(page, 1.5)
        #expect(session.dashboard.filterKeywords.isEmpty)
        #expect(header?["overlay"] is NSNull)
        return page
    }

    @Test func typedSearchesAndFiltersExportToTheSameHash() throws {
        let s = try Scratch()
        defer { s.remove() }
        let (source, metadata) = try Self.indexedSource(in: s.path)
        #expect(source.finder != nil)
        let session = try PlaySession(source: source, scale: 1, now: 0)
        let page = try searchAndFilter(session)
        #expect(page.errors.isEmpty, "\(page.errors)")
        let text = session.recordingText()
        #expect(text.contains("\"search\": \"incom\""))
        #expect(text.contains("\"search_pick\": 0"))
        #expect(text.contains("\"filter_query\": \"q\""))
        let file = s.path + "/recording.json"
        try session.recorder.write(to: file, endStep: session.dashboard.stepCount)
        let last = try #require(try lastExportedFrame(of: file, into: s.path + "/out", pdfMetadata: metadata))
        #expect(last["step"] as? Int == session.dashboard.stepCount)
        #expect(last["state_hash"] as? String == String(format: "%016llx", session.dashboard.stateHash))
    }

    /// Without an index the magnifier shows a notice, and a typed text is refused.
    @Test func withoutAnIndexTextIsRefused() throws {
        let session = try PlaySession(source: sampleSource, scale: 1, now: 0)
        let page = FakePage(session)
        try page.run(0.3)
        page.send(.search("abc"))
        page.send(.searchPick(0))
        page.send(.filterQuery("q"))
        #expect(page.errors == [
            "search needs an index: this dashboard has no ReportFinder",
            "no search is open (the magnifier, or a 'search' event, opens one)",
            "the filter sheet is not open (the Filter button, or an 'open_filter' event, opens it)",
        ])
        let header = try run(page, 0.2)
        #expect(header?["overlay"] is NSNull)
    }
}
