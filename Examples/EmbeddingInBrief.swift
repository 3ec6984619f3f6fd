import BubbleDashboard

/// An app's view of the dashboard: touches in, one scene per display refresh out.
final class DashboardHost {
    let dashboard: Dashboard
    var draw: (Scene) -> Void = { _ in }

    init(nodes: [DashboardNode]) throws {
        dashboard = try Dashboard(tree: DashboardTree(nodes: nodes))
    }

    /// Every display refresh (60 or 120 Hz, whatever the link gives); t in seconds since the start.
    func frame(at t: Double) {
        dashboard.advance(to: t)  // the fixed 60 Hz steps up to t
        draw(dashboard.scene(at: t))  // interpolated between the two steps around t
    }

    /// A finger lifted where it went down: whatever is under it takes the tap.
    func tapped(x: Double, y: Double) {
        try? dashboard.send(.tap(at: ScenePoint(x: x, y: y)))
    }
}
