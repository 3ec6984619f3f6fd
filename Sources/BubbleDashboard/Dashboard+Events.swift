import BubblePhysics

/// A user action. Every event is accepted at any moment, also in the middle of a transition.
///
/// Input comes in one of two forms, named alike: by canvas point, as a finger gives it (`tap(at:)`,
/// `press(at:)`, then `move(to:)` and `release`), or by bubble id, as a script or an accessibility
/// action names it (`tapBubble(_:)`, `pressBubble(_:at:)`). Toolbar buttons and gestures without
/// a place have their own cases.
public enum DashboardEvent: Sendable, Hashable {
    /// Tap at a canvas point (pt), as a finger does: whatever is there takes it (a bubble as
    /// `tapBubble(_:)`, a toolbar button, a row of the reports table, the dimmed backdrop of an
    /// overlay).
    case tap(at: ScenePoint)
    /// Tap the bubble with this id: the centre circle on the start screen, a category (drill in) or
    /// a report (open its preview).
    case tapBubble(String)
    /// Put a finger down at a canvas point (pt): on the reports table's rows it scrolls them; on a
    /// bubble it drags that bubble (as `pressBubble(_:at:)`). Then `move(to:)` and `release`.
    case press(at: ScenePoint)
    /// Put a finger down on the bubble with this id, at a canvas point (pt), and drag it.
    case pressBubble(String, at: ScenePoint)
    /// Move the finger that is down to a canvas point (pt).
    case move(to: ScenePoint)
    /// Lift the finger that is down.
    case release
    /// Toolbar button 2: every bubble back to its home position.
    case recenter
    /// Pinch: back one level; while the search or the filter sheet is open, closes it instead.
    case pinch
    /// Toolbar button 1: straight to the top level.
    case top
    /// Toolbar button 3: the table of the current level's reports.
    case showReports
    /// Close whichever overlay is open.
    case closeOverlay
    /// Scroll the open overlay (the reports table, the search results or the preview's pages) by this many points (negative: up), with momentum: a fling
    /// that comes to rest this far on, bouncing at an end.
    case scroll(Double)
    /// Zoom the open preview's pages by this factor around a canvas point on them (pt), as a
    /// pinch there does: within fit width to `PreviewViewerSettings.maxZoom`, animated.
    case zoom(scale: Double, at: ScenePoint)
    /// New live settings (motion, drag coupling, table scrolling) from now on; the other fields
    /// are ignored (see `Dashboard.updateFeel(_:)`).
    case settings(DashboardSettings)
    /// The canvas changes size (pt): a rotation, Split View (see `Dashboard.resize(to:)`).
    case resize(SceneSize)
    /// The magnifier: opens the search field (closing any other overlay). Without a
    /// `ReportFinder` it shows "Search needs an index" instead.
    case openSearch
    /// Sets the search field's text (opening the search if needed); the results follow at once.
    case search(String)
    /// Takes the search result at this row (0-based): the search closes, the report's level comes
    /// in as the focus, its card is marked and its preview opens.
    case searchPick(Int)
    /// The Filter button: opens the sheet of keyword chips for the reports under the focus.
    case openFilter
    /// Sets the text of the filter sheet's field, which narrows the chips.
    case filterQuery(String)
    /// Sets the selected keywords: only reports that carry all of them are shown (`[]` clears
    /// the filter). Each keyword must be one that some report carries.
    case filter([String])
    /// Selects the keyword if it is not selected, else deselects it (a tap on its chip).
    case toggleKeyword(String)
}

// Events: dispatch by kind, and hit testing.
extension Dashboard {
    /// Applies an event. An invalid event (unknown id, a bubble not on screen, a NaN point, a drag
    /// move without a drag) throws and changes nothing.
    public func send(_ event: DashboardEvent) throws(DashboardError) {
        switch event {
        case .tapBubble(let id):
            try tap(try nodeIndex(id))
        case .pressBubble(let id, let point):
            let node = try nodeIndex(id)
            try beginDrag(node, at: levelPoint(try validated(point, "drag point")))
        case .move(let point):
            let p = try validated(point, "drag point")
            if movePreviewFinger(to: point) { break }
            if moveTableFinger(to: p.y) { break }
            if movePanFinger(to: p) { break }
            guard drag != nil else { throw .noDragInProgress }
            drag!.finger = levelPoint(p)
        case .release:
            if releasePreview() { break }
            if releaseTable() { break }
            if releasePan() { break }
            guard drag != nil else { throw .noDragInProgress }
            endDrag()
        case .recenter:
            recenter()
        case .pinch:
            // A pinch while searching (or choosing keywords) closes that and stays on the level.
            if isSearching || isFilterSheetOpen { closeOverlay() } else { try back() }
        case .top:
            try goTop()
        case .showReports:
            openOverlay(.reports(focus))
        case .closeOverlay:
            closeOverlay()
        case .tap(let point):
            try tap(at: point)
        case .press(at: let point):
            try press(at: point)
        case .scroll(let distance):
            if openViewer != nil { try scrollPreview(by: distance) } else { try scrollTable(by: distance) }
        case .zoom(let scale, let point):
            try zoomPreview(scale: scale, at: point)
        case .settings(let new):
            try updateFeel(new)
        case .resize(let size):
            try resize(to: size)
        case .openSearch:
            openSearch()
        case .search(let text):
            try setSearchText(text)
        case .searchPick(let row):
            try pickSearchResult(row)
        case .openFilter:
            openFilterSheet()
        case .filterQuery(let text):
            try setFilterQuery(text)
        case .filter(let keywords):
            try setFilter(keywords)
        case .toggleKeyword(let keyword):
            try toggleKeyword(keyword)
        }
        needsSnap = true
    }

    /// The id of the topmost bubble at a canvas point (children before the focus), if any. On a
    /// level that pans, the point is where the bubble is drawn now.
    public func hitTest(_ point: ScenePoint) -> String? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        let hits = world.bodies(at: levelPoint(Vector2(point.x, point.y)))
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
