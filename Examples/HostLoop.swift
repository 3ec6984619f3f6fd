import BubbleDashboard

/// The app's side of the dashboard: a display link asks for pictures, touches become events.
final class DashboardView {
    let dashboard: Dashboard
    /// Draws one scene: Core Graphics or Metal in an app, `SceneRenderer` on Linux.
    var draw: (Scene) -> Void = { _ in }
    /// Told about events the dashboard refused (a tap on empty space, say); nothing changed.
    var refused: (DashboardError) -> Void = { _ in }

    /// The display link's timestamp of the first frame: the dashboard's time 0.
    private var origin: Double?

    init(tree: DashboardTree, measurer: (any TextMeasurer)? = nil) throws {
        dashboard = try Dashboard(tree: tree, measurer: measurer)
    }

    /// The display link's callback, at any rate (60 Hz, 120 Hz, or one that varies), with the
    /// time in seconds at which the frame will be shown.
    func displayLinkFired(targetTimestamp: Double) {
        let start = origin ?? targetTimestamp
        origin = start
        let t = targetTimestamp - start
        dashboard.advance(to: t)
        draw(dashboard.scene(at: t))
    }

    /// With nothing moving, the picture stays the same: the app may pause its display link
    /// until the next touch.
    var canPauseDisplayLink: Bool { dashboard.isAtRest }

    /// How far (points) a finger moves before a touch is a drag instead of a tap.
    let touchSlop = 8.0
    private var touchStart: ScenePoint?
    private var dragging = false

    func touchBegan(at point: ScenePoint) {
        touchStart = point
        dragging = false
    }

    func touchMoved(to point: ScenePoint) {
        guard let start = touchStart else { return }
        if !dragging {
            let dx = point.x - start.x, dy = point.y - start.y
            guard dx * dx + dy * dy > touchSlop * touchSlop else { return }
            // Press where the finger went down: the reports table's rows or a bubble take it.
            dragging = send(.press(at: start))
            if !dragging {
                touchStart = nil
                return
            }
        }
        _ = send(.move(to: point))
    }

    func touchEnded(at point: ScenePoint) {
        if dragging {
            _ = send(.release)
        } else if touchStart != nil {
            // A toolbar button, a row of the reports table, a bubble, or an overlay's backdrop.
            _ = send(.tap(at: point))
        }
        touchStart = nil
        dragging = false
    }

    func pinched() { _ = send(.pinch) }

    @discardableResult
    private func send(_ event: DashboardEvent) -> Bool {
        do {
            try dashboard.send(event)
            return true
        } catch {
            refused(error)
            return false
        }
    }
}
