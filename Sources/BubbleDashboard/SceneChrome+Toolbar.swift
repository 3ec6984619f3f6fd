/// A button of the toolbar, in the order they stand from left to right.
public enum ToolbarButton: Int, Sendable, Hashable, CaseIterable {
    /// Button 1: straight to the top level (`DashboardEvent.top`).
    case top
    /// Button 2: every bubble back home (`DashboardEvent.recenter`).
    case recentre
    /// Button 3: the table of the level's reports (`DashboardEvent.showReports`).
    case reports
    /// The Filter button: the sheet of keyword chips (`DashboardEvent.openFilter`).
    case filter

    /// The caption under the icon.
    public var caption: String {
        switch self {
        case .top: "Top"
        case .recentre: "Re-centre"
        case .reports: "Reports"
        case .filter: "Filter"
        }
    }
}

extension SceneChrome {
    /// The toolbar strip's height: the top of the bottom bar (the rest is the static area).
    public var toolbarHeight: Double { min(56, bottomBarHeight * 0.5) }

    /// The toolbar strip: (y, height) on a canvas of height `canvasHeight`.
    public func toolbarStrip(canvasHeight: Double) -> (y: Double, height: Double) {
        (canvasHeight - bottomBarHeight, toolbarHeight)
    }

    /// The hit area of a toolbar button: the buttons share the strip's width evenly.
    public func toolbarButtonFrame(
        _ button: ToolbarButton, canvasWidth: Double, canvasHeight: Double
    ) -> (x: Double, y: Double, width: Double, height: Double) {
        let strip = toolbarStrip(canvasHeight: canvasHeight)
        let w = canvasWidth / Double(ToolbarButton.allCases.count)
        return (w * Double(button.rawValue), strip.y, w, strip.height)
    }

    /// The toolbar button under a canvas point, if any.
    public func toolbarButton(at p: ScenePoint, canvasWidth: Double, canvasHeight: Double) -> ToolbarButton? {
        let strip = toolbarStrip(canvasHeight: canvasHeight)
        guard strip.height > 0, p.y >= strip.y, p.y <= strip.y + strip.height, p.x >= 0, p.x <= canvasWidth else { return nil }
        let n = ToolbarButton.allCases.count
        let i = min(n - 1, Int((p.x / canvasWidth * Double(n)).rounded(.down)))
        return ToolbarButton(rawValue: max(0, i))
    }
}

extension SceneChrome {
    /// The magnifier in the navigation bar (opens the search): a 44 pt square around the icon.
    public func searchButtonFrame(canvasWidth: Double) -> SceneRect {
        let nav = navigationBarHeight
        let status = nav >= 60 ? 20.0 : 0
        let centre = status + (nav - status) / 2
        let size = min(44.0, nav - status)
        return SceneRect(x: canvasWidth - 62 - size / 2, y: centre - size / 2, width: size, height: size)
    }

    /// The magnifier's centre (where the renderer draws the icon).
    public func searchIconCentre(canvasWidth: Double) -> ScenePoint {
        let f = searchButtonFrame(canvasWidth: canvasWidth)
        return ScenePoint(x: f.x + f.width / 2, y: f.y + f.height / 2)
    }
}
