@_spi(Testbed) import BubbleDashboard
import BubblePlay
import DashboardLibrary
import Foundation
import ReportLibrary
import TestSupport
import Testing

/// The preview's pages in a live session: a frame never waits for a page, and the sharp page
/// follows once it is drawn off the frame path.
@Suite("Play viewer")
struct PlayViewerTests {
    @Test func theSharpPageReplacesTheStandInWithoutTheFrameWaiting() throws {
        let source = try viewerSource()
        let pages = try #require(source.pages)
        var clock = 0.0
        let session = try PlaySession(source: source, scale: 1, now: clock)
        let d = session.dashboard
        // Down to the report's level by taps through the session, on its clock.
        try session.tapDown(through: ["root", "finance", "financial-statements", "quarterly-results"], now: &clock)
        let card = try #require(d.scene().bubbles.first { $0.id == "q1-2016" })
        _ = session.handle(.ready, now: clock)
        _ = session.handle(.tap(card.centre), now: clock)
        clock += 1.0 / 60
        #expect(try session.frame(now: clock) != nil)
        let first = try #require(d.scene().preview?.pages.first)
        // At fit width the page is drawn at exactly the pixels it covers (scale 1 here).
        let width = Int(first.frame.width.rounded()), height = Int(first.frame.height.rounded())
        // Frames keep coming while the sheet opens; the page is drawn on the source's queue.
        let start = Date()
        var sharpFrame = false
        while !sharpFrame && Date().timeIntervalSince(start) < 20 {
            clock += 1.0 / 60
            _ = session.handle(.ready, now: clock)
            let ready = pages.hasPicture(report: "q1-2016", page: first.page, width: width, height: height)
            if try session.frame(now: clock) != nil, ready { sharpFrame = true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(sharpFrame, "no frame showed the sharp page")
        #expect(pages.cachedBytes > 0 && pages.cachedBytes <= pages.budgetBytes)
    }

    /// A zoom from fit width asks for a size step not drawn yet: the page's picture at the pixels
    /// it was shown at stands in meanwhile (never the thumbnail or blank lines).
    @Test func aZoomStartsFromThePictureDrawnAtFitWidth() throws {
        let pages = try #require(try viewerSource().pages)
        let shown = try #require(pages.page(report: "q1-2016", page: 1, width: 700, height: 906, wait: true))
        let meanwhile = pages.page(report: "q1-2016", page: 1, pixelWidth: 1_800, wait: false)
        #expect(meanwhile?.width == shown.width && meanwhile?.height == shown.height)
    }
}
