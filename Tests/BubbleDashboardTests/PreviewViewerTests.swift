@_spi(Testbed) import BubbleDashboard
import Testing

/// Documents of fixed page sizes, or refusals, for the preview's viewer.
final class FixedDocuments: ReportDocuments, @unchecked Sendable {
    let answer: (String) -> ReportDocument
    init(_ answer: @escaping (String) -> ReportDocument) { self.answer = answer }
    func document(forReport id: String) -> ReportDocument { answer(id) }
}

/// The report preview as a viewer: scroll, zoom, swipe, and what it shows when a report cannot be drawn.
@Suite("Preview viewer")
struct PreviewViewerTests {
    static let letter = ReportPage(width: 612, height: 792)

    /// A dashboard on the sample tree with the first report's preview open and settled.
    static func open(pages: Int = 12, document: ReportDocument? = nil) throws -> (Dashboard, String) {
        let docs = FixedDocuments { _ in document ?? .pages((0..<pages).map { ReportPage(width: 612, height: 792, label: $0 == 0 ? "i" : nil) }) }
        let d = try Dashboard(tree: sampleTree, documents: docs)
        try Self.openQ1(d)
        return (d, "q1-2016")
    }

    /// Drills to Quarterly Results and opens the Q1 2016 report's preview, settled.
    static func openQ1(_ d: Dashboard) throws {
        for id in ["root", "finance", "financial-statements", "quarterly-results", "q1-2016"] {
            try d.send(.tapBubble(id))
            d.settle()
        }
    }

    static func centre(_ r: SceneRect) -> ScenePoint { ScenePoint(x: r.x + r.width / 2, y: r.y + r.height / 2) }

    @Test func pagesFillTheViewportWidthOneUnderAnother() throws {
        let (d, id) = try Self.open()
        let p = try #require(d.scene().preview)
        #expect(p.reportID == id)
        #expect(p.pageCount == 12 && p.page == 1 && p.zoom == 1 && p.swipe == 0)
        #expect(p.pageLabel == "i")
        let g = d.previewGeometry
        let first = try #require(p.pages.first)
        #expect(first.page == 1)
        #expect(abs(first.frame.width - (g.pages.width - 2 * PreviewGeometry.pageGap)) < 1e-9)
        #expect(abs(first.frame.height / first.frame.width - 792.0 / 612.0) < 1e-9)
        // The second page starts a gap below the first, and only pages in view are listed.
        if p.pages.count > 1 {
            #expect(abs(p.pages[1].frame.y - (first.frame.y + first.frame.height + PreviewGeometry.pageGap)) < 1e-9)
        }
        #expect(p.pages.allSatisfy { $0.frame.y < g.pages.y + g.pages.height && $0.frame.y + $0.frame.height > g.pages.y })
    }

    @Test func aScrollEventFlingsThePagesAndStopsAtTheEnd() throws {
        let (d, _) = try Self.open()
        try d.send(.scroll(900))
        d.step(count: 3)
        #expect((d.scene().preview?.indicatorOpacity ?? 0) == 1)
        d.settle()
        let p = try #require(d.scene().preview)
        #expect(p.page == 2, "900 pt on, page 2 is under the viewport's middle")
        #expect(p.pages.first?.page == 2 || p.pages.first?.page == 1)
        #expect(p.indicatorOpacity == 0, "the indicator fades once the pages rest")
        // Far past the end: the last page ends at the viewport's bottom, after a bounce.
        try d.send(.scroll(1_000_000))
        d.settle()
        let end = try #require(d.scene().preview)
        let g = d.previewGeometry
        let last = try #require(end.pages.last)
        #expect(last.page == 12)
        #expect(abs(last.frame.y + last.frame.height + PreviewGeometry.pageGap - (g.pages.y + g.pages.height)) < 0.5)
    }

    @Test func zoomHoldsThePointUnderTheFingersAndStaysWithinRange() throws {
        let (d, _) = try Self.open()
        let g = d.previewGeometry
        let at = ScenePoint(x: g.pages.x + g.pages.width * 0.7, y: g.pages.y + 200)
        let before = try #require(d.scene().preview?.pages.first?.frame)
        // The column point under the fingers, as a share of the first page.
        let u = (at.x - before.x) / before.width, v = (at.y - before.y) / before.height
        try d.send(.zoom(scale: 2, at: at))
        d.settle()
        let p = try #require(d.scene().preview)
        #expect(p.zoom == 2)
        let f = try #require(p.pages.first { $0.page == 1 }?.frame)
        #expect(abs(f.x + u * f.width - at.x) < 0.5 && abs(f.y + v * f.height - at.y) < 0.5)
        try d.send(.zoom(scale: 10, at: at))
        d.settle()
        #expect(d.scene().preview?.zoom == PreviewViewerSettings.maxZoom)
        try d.send(.zoom(scale: 0.01, at: at))
        d.settle()
        #expect(d.scene().preview?.zoom == 1)
        // Off the pages a zoom is refused and changes nothing.
        let hash = d.stateHash
        let header = Self.centre(g.titleArea)
        #expect(throws: DashboardError.self) { try d.send(.zoom(scale: 2, at: header)) }
        #expect(throws: DashboardError.invalidNumber(field: "zoom.scale", value: 0)) { try d.send(.zoom(scale: 0, at: at)) }
        #expect(d.stateHash == hash)
    }

    @Test func aDoubleTapTogglesBetweenFitWidthAndTwiceThat() throws {
        let (d, _) = try Self.open()
        let at = Self.centre(d.previewGeometry.pages)
        try d.send(.tap(at: at))
        d.step(count: 6)
        try d.send(.tap(at: at))
        d.settle()
        #expect(d.scene().preview?.zoom == PreviewViewerSettings.doubleTapZoom)
        try d.send(.tap(at: at))
        d.step(count: 6)
        try d.send(.tap(at: at))
        d.settle()
        #expect(d.scene().preview?.zoom == 1)
        // Two taps too far apart in time are two single taps.
        try d.send(.tap(at: at))
        d.step(count: 40)
        try d.send(.tap(at: at))
        d.settle()
        #expect(d.scene().preview?.zoom == 1)
    }

    /// Presses at `from`, moves right by `dx` over `steps` steps, and releases.
    static func swipe(_ d: Dashboard, from: ScenePoint, dx: Double, steps: Int) throws {
        try d.send(.press(at: from))
        for k in 1...steps {
            d.step()
            try d.send(.move(to: ScenePoint(x: from.x + dx * Double(k) / Double(steps), y: from.y)))
        }
        d.step()
        try d.send(.release)
    }

    @Test func aSlowShortSwipeSpringsBackAndALongOneDismisses() throws {
        let (d, _) = try Self.open()
        let g = d.previewGeometry
        let start = ScenePoint(x: g.pages.x + 40, y: g.pages.y + 300)
        // A quarter of the width, slowly: back to its place.
        try Self.swipe(d, from: start, dx: g.card.width * 0.25, steps: 60)
        #expect((d.scene().preview?.swipe ?? 0) > 0)
        d.settle()
        #expect(d.scene().preview?.swipe == 0)
        guard case .reportPreview? = d.scene().overlay else { Issue.record("the preview closed"); return }
        // Past a third of the width: dismissed, sliding right, not down.
        try Self.swipe(d, from: start, dx: g.card.width * 0.4, steps: 60)
        d.step(count: 3)
        let leaving = try #require(d.scene().preview)
        #expect(leaving.swipe > g.card.width * 0.4)
        d.settle()
        #expect(d.scene().overlay == nil)
    }

    @Test func aQuickFlickDismissesEvenWhenShort() throws {
        let (d, _) = try Self.open()
        let g = d.previewGeometry
        // 120 pt in 5 steps: 1 440 pt/s, over the 700 pt/s threshold.
        try Self.swipe(d, from: ScenePoint(x: g.pages.x + 40, y: g.pages.y + 300), dx: 120, steps: 5)
        d.settle()
        #expect(d.scene().overlay == nil)
    }

    @Test func aVerticalDragScrollsThePagesInsteadOfSwiping() throws {
        let (d, _) = try Self.open()
        let g = d.previewGeometry
        let start = ScenePoint(x: g.pages.x + 200, y: g.pages.y + 500)
        try d.send(.press(at: start))
        for k in 1...20 {
            d.step()
            try d.send(.move(to: ScenePoint(x: start.x + 3, y: start.y - 20 * Double(k))))
        }
        d.step()
        #expect(d.scene().preview?.swipe == 0)
        let y = try #require(d.scene().preview?.pages.first?.frame.y)
        #expect(y < g.pages.y - 300, "the pages followed the finger up")
        try d.send(.release)
        d.settle()
        guard case .reportPreview? = d.scene().overlay else { Issue.record("the preview closed"); return }
    }

    @Test func aReportThatCannotBeDrawnSaysWhyAndKeepsItsDetails() throws {
        let (d, id) = try Self.open(document: .unavailable("The PDF needs a password."))
        let scene = d.scene()
        let p = try #require(scene.preview)
        #expect(p.unavailable == "The PDF needs a password.")
        #expect(p.pages.isEmpty && p.pageCount == 0)
        guard case .reportPreview(let r)? = scene.overlay else { Issue.record("no preview"); return }
        #expect(r.id == id)
        // Zoom has no page to act on; scroll and the Open PDF button do nothing; nothing throws but the zoom.
        #expect(throws: DashboardError.self) { try d.send(.zoom(scale: 2, at: Self.centre(d.previewGeometry.pages))) }
        try d.send(.scroll(300))
        try d.send(.tap(at: Self.centre(d.previewGeometry.openButton)))
        #expect(d.takeRequests().isEmpty)
        d.settle()
    }

    @Test func openPDFAsksTheHostOnceAndTheBackArrowCloses() throws {
        let (d, id) = try Self.open()
        let g = d.previewGeometry
        try d.send(.tap(at: Self.centre(g.openButton)))
        #expect(d.takeRequests() == [.openDocument(reportID: id)])
        #expect(d.takeRequests().isEmpty)
        try d.send(.tap(at: Self.centre(g.backButton)))
        d.settle()
        #expect(d.scene().overlay == nil)
    }

    @Test func withoutDocumentsThePreviewIsAStandIn() throws {
        let d = try Dashboard(tree: sampleTree)
        try Self.openQ1(d)
        let p = try #require(d.scene().preview)
        #expect(p.standIn && p.unavailable == nil && p.pages.isEmpty)
    }

    @Test func theSameGesturesGiveTheSameStates() throws {
        func run() throws -> [UInt64] {
            let (d, _) = try Self.open()
            let g = d.previewGeometry
            var hashes: [UInt64] = []
            try d.send(.scroll(1200))
            d.step(count: 20)
            hashes.append(d.stateHash)
            try d.send(.zoom(scale: 1.7, at: Self.centre(g.pages)))
            d.step(count: 30)
            hashes.append(d.stateHash)
            try Self.swipe(d, from: ScenePoint(x: g.pages.x + 30, y: g.pages.y + 200), dx: 90, steps: 30)
            d.settle()
            hashes.append(d.stateHash)
            return hashes
        }
        #expect(try run() == run())
    }

    @Test func aResizeKeepsTheReadersPlace() throws {
        let (d, _) = try Self.open()
        try d.send(.scroll(2600))
        d.settle()
        let page = try #require(d.scene().preview?.page)
        try d.send(.resize(SceneSize(width: 1024, height: 768)))
        d.settle()
        let after = try #require(d.scene().preview)
        #expect(abs(after.page - page) <= 1)
        #expect(after.geometry == d.previewGeometry)
    }

    @Test func theColumnFindsVisibleAndCurrentPagesByBinarySearch() {
        let pages = (0..<500).map { ReportPage(width: 612, height: $0 % 2 == 0 ? 792 : 396) }
        let c = PreviewPageColumn(pages: pages, viewportWidth: 600, viewportHeight: 800)
        for scroll in stride(from: 0.0, through: c.maxScroll(zoom: 1.5), by: 3_517) {
            let visible = c.visible(zoom: 1.5, scrollX: 0, scrollY: scroll)
            let brute = (0..<pages.count).filter {
                let f = c.frame(of: $0, zoom: 1.5, scrollX: 0, scrollY: scroll)
                return f.y < 800 && f.y + f.height > 0
            }
            #expect(visible == brute)
        }
    }
}
