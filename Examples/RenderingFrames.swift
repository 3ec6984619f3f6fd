import BubbleDashboard
import BubbleRender

/// A dashboard whose bubbles are sized by the same text engine that draws their labels.
func makeDashboard(tree: DashboardTree) throws -> Dashboard {
    try Dashboard(tree: tree, measurer: PangoTextMeasurer())
}

/// The picture at time `t` (seconds), as a PNG at twice the canvas' size in points.
func writeFrame(of dashboard: Dashboard, at t: Double, to path: String) throws {
    let renderer = SceneRenderer(pixelScale: 2)
    dashboard.advance(to: t)
    try renderer.writePNG(dashboard.scene(at: t), to: path)
}
