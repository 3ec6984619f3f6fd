import BubblePhysics

/// A user action. Every event is accepted at any moment, also in the middle of a transition.
public enum DashboardEvent: Sendable, Hashable {
    /// Tap a bubble: the centre circle on the start screen, a category (drill in) or a report
    /// (open its preview).
    case tap(String)
    /// Press on a bubble at a canvas point.
    case dragBegin(String, at: ScenePoint)
    /// Move the finger of the current drag.
    case dragMove(to: ScenePoint)
    /// Lift the finger of the current drag.
    case dragEnd
    /// Toolbar button 2: every bubble back to its home position.
    case recenter
    /// Pinch: back one level.
    case pinch
    /// Toolbar button 1: straight to the top level.
    case top
    /// Toolbar button 3: the table of the current level's reports.
    case showReports
    /// Close whichever overlay is open.
    case closeOverlay
    /// Tap at a canvas point, as a finger does: whatever is there takes it (a bubble as `tap` by
    /// its id, a toolbar button, a row of the reports table, the dimmed backdrop of an overlay).
    case tapAt(ScenePoint)
    /// Press at a canvas point: on the reports table's rows the finger scrolls them; on a bubble
    /// it drags that bubble (as `dragBegin`). Then `dragMove` and `dragEnd` as for any drag.
    case dragBeginAt(ScenePoint)
    /// Scroll the open reports table by this many points (negative: up), with momentum: a fling
    /// that comes to rest this far on, bouncing at an end.
    case scroll(Double)
    /// New motion settings (springs, durations, drag coupling, table scrolling) from now on; the
    /// sizes and the canvas must stay as they are (see `Dashboard.updateFeel(_:)`).
    case settings(DashboardSettings)
}

// Events: dispatch by kind, and hit testing.
extension Dashboard {
    /// Applies an event. An invalid event (unknown id, a bubble not on screen, a NaN point, a drag
    /// move without a drag) throws and changes nothing.
    public func send(_ event: DashboardEvent) throws(DashboardError) {
        switch event {
        case .tap(let id):
            try tap(try nodeIndex(id))
        case .dragBegin(let id, let point):
            let node = try nodeIndex(id)
            try beginDrag(node, at: try validated(point, "drag point"))
        case .dragMove(let point):
            let p = try validated(point, "drag point")
            if moveTableFinger(to: p.y) { break }
            guard drag != nil else { throw .noDragInProgress }
            drag!.finger = p
        case .dragEnd:
            if releaseTable() { break }
            guard drag != nil else { throw .noDragInProgress }
            endDrag()
        case .recenter:
            recenter()
        case .pinch:
            try back()
        case .top:
            try goTop()
        case .showReports:
            openOverlay(.reports(focus))
        case .closeOverlay:
            closeOverlay()
        case .tapAt(let point):
            try tap(at: point)
        case .dragBeginAt(let point):
            try press(at: point)
        case .scroll(let distance):
            try scrollTable(by: distance)
        case .settings(let new):
            try updateFeel(new)
        }
        needsSnap = true
    }

    /// The id of the topmost bubble at a canvas point (children before the focus), if any.
    public func hitTest(_ point: ScenePoint) -> String? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let hits = world.bodies(at: Vector2(point.x, point.y))
        let nodes = hits.compactMap { id in live.first { $0.body == id } }
        let best = nodes.first { $0.role == .child } ?? nodes.first
        return best.map { levels.nodes[$0.node].id }
    }

    func validated(_ p: ScenePoint, _ field: String) throws(DashboardError) -> Vector2 {
        guard p.x.isFinite else { throw .invalidNumber(field: field + ".x", value: p.x) }
        guard p.y.isFinite else { throw .invalidNumber(field: field + ".y", value: p.y) }
        // A finger far off the canvas is held at one canvas' distance, so no body is flung away.
        let w = settings.canvasWidth, h = settings.canvasHeight
        return Vector2(min(max(p.x, -w), 2 * w), min(max(p.y, -h), 2 * h))
    }
}
