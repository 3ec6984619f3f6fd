@_spi(Testbed) import BubbleDashboard
import TestSupport
import Testing

/// Random fingers: taps and presses at any point (on and off the canvas, NaN), scrolls of any size,
/// finger moves and lifts, mixed with the toolbar's events, at random moments. A refused event
/// changes nothing; nothing becomes NaN; the table's rows never leave their rubber band; and
/// everything comes to rest with the rows inside their range.
@Suite("Pointer properties")
struct PointerPropertyTests {
    static func event(_ code: Int, visible: [String]) -> (DashboardEvent, Int) {
        let wait = (code >> 8) % 20
        let x = Double((code >> 16) % 900) - 60
        let y = Double((code >> 28) % 1150) - 60
        let p: ScenePoint
        switch (code >> 40) % 16 {
        case 0: p = ScenePoint(x: .nan, y: y)
        case 1: p = ScenePoint(x: x, y: 1e300)
        default: p = ScenePoint(x: x, y: y)
        }
        let distance: Double
        switch (code >> 44) % 12 {
        case 0: distance = .nan
        case 1: distance = 5e6
        default: distance = Double((code >> 48) % 4000) - 2000
        }
        let event: DashboardEvent
        switch code % 10 {
        case 0, 1: event = .tap(at: p)
        case 2: event = .press(at: p)
        case 3, 4: event = .move(to: p)
        case 5: event = .release
        case 6: event = .scroll(distance)
        case 7: event = .showReports
        case 8: event = visible.isEmpty ? .pinch : .tapBubble(visible[(code >> 52) % visible.count])
        default: event = (code >> 56) % 2 == 0 ? .closeOverlay : .pinch
        }
        return (event, wait)
    }

    @Test func seededFingersKeepTheDashboardSound() throws {
        var random = SeededRandom(seed: 0x7AB1_E5C0_11ED)
        func next() -> Int { random.nonNegative() }
        var accepted = 0, refused = 0, scrolled = 0
        for _ in 0..<12 {
            let d = try Dashboard(tree: sampleTree)
            for _ in 0..<(20 + next() % 60) {
                let (event, wait) = Self.event(next(), visible: d.visibleIDs)
                let before = d.stateHash
                do {
                    try d.send(event)
                    accepted += 1
                    if case .scroll = event { scrolled += 1 }
                } catch {
                    refused += 1
                    #expect(d.stateHash == before, "a refused event changed the state: \(event) → \(error)")
                }
                for _ in 0...wait {
                    d.step()
                    let scene = d.scene()
                    for b in scene.bubbles {
                        #expect(b.centre.x.isFinite && b.centre.y.isFinite && b.scale.isFinite && b.opacity.isFinite)
                    }
                    if case .reportsTable(_, let reports, let scroll)? = scene.overlay {
                        let g = d.tableGeometry(rows: reports.count)
                        #expect(scroll.offset.isFinite)
                        #expect(scroll.offset >= -g.viewportHeight && scroll.offset <= g.maxScroll + g.viewportHeight,
                                "rows out of their band: \(scroll.offset)")
                    }
                }
            }
            try? d.send(.release)
            d.settle(limit: 3000)
            #expect(d.isAtRest)
            if case .reportsTable(_, let reports, let scroll)? = d.scene().overlay {
                let g = d.tableGeometry(rows: reports.count)
                #expect(scroll.offset >= 0 && scroll.offset <= g.maxScroll, "at rest at \(scroll.offset)")
            }
            #expect(d.maxOverlap() <= 0.5)
        }
        #expect(accepted > 100 && refused > 50 && scrolled > 5, "\(accepted) accepted, \(refused) refused, \(scrolled) scrolls")
    }
}
