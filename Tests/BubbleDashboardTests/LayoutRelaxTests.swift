@testable import BubbleDashboard
import BubblePhysics
import Testing

/// The relax phase of a level layout: overlaps open up, and once nothing acts on any bubble the
/// phase ends, rather than letting a bubble coast along an edge.
@Suite("Layout relax phase")
struct LayoutRelaxTests {
    /// A circle pressed into the left edge by a neighbour is squeezed out upwards, and nothing
    /// brakes it once it touches nothing. It used to coast up the edge to the top of the area
    /// (358 pt); now the phase ends once its speed stops changing (about 170 pt).
    @Test func aSqueezedOutBubbleDoesNotCoastToTheEdge() throws {
        let settings = DashboardSettings()
        let content = settings.contentRect
        let r = 40.0
        let starts = [Vector2(content.minX + r - 12, content.center.y), Vector2(content.minX + 3 * r - 32, content.center.y + 25)]
        let places = try LevelLayout.relax(
            shapes: [.circle(radius: r), .circle(radius: r)], positions: starts, focusCentre: content.center,
            focusRadius: 60, settings: settings)
        let apart = (places[1] - places[0]).length
        #expect(apart >= 2 * r + settings.sizes.gap - 0.5, "still overlapping: centres \(apart) pt apart")
        for p in places {
            #expect(p.x - r >= content.minX - 0.5 && p.y + r <= content.maxY + 0.5)
        }
        #expect(places[0].y - r >= content.minY + 100, "coasted to the top edge: \(places[0])")
    }
}
