import BubblePhysics

// Input by canvas point (a finger), and the reports table's scroll.
extension Dashboard {
    /// The reports of a level's table: its report children and those inside its groups, in data order.
    func tableRows(of focus: Int) -> [Int] { levels.reports(of: focus) }

    /// The reports table's layout on this dashboard's canvas.
    public func tableGeometry(rows: Int) -> ReportsTableGeometry {
        ReportsTableGeometry(canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight, chrome: settings.chrome, rows: rows)
    }

    /// The level of the reports table shown (also while it fades out).
    var tableLevel: Int? {
        if let o = overlay, case .reports(let f) = o.content { return f }
        return nil
    }

    /// The level of the open reports table (not while it fades out).
    var openTableLevel: Int? {
        guard let o = overlay, !o.closing else { return nil }
        return tableLevel
    }

    /// The reports table's scroll offset (pt; outside `0...maxScroll` while rubber-banding).
    public var tableScrollOffset: Double { table.offset }

    var tableIsAtRest: Bool { table.phase == .idle && table.indicator.isFinished(at: time) }

    /// Checks a point a finger gives: finite and on the canvas.
    func canvasPoint(_ p: ScenePoint) throws(DashboardError) -> ScenePoint {
        guard p.x.isFinite else { throw .invalidNumber(field: "point.x", value: p.x) }
        guard p.y.isFinite else { throw .invalidNumber(field: "point.y", value: p.y) }
        guard p.x >= 0, p.y >= 0, p.x <= settings.canvasWidth, p.y <= settings.canvasHeight else {
            throw .pointOutsideCanvas(p, width: settings.canvasWidth, height: settings.canvasHeight)
        }
        return p
    }

    /// What covers a point outside the bubble area, if anything.
    func chromeAt(_ p: ScenePoint) -> String? {
        let chrome = settings.chrome
        if p.y < chrome.navigationBarHeight { return "the navigation bar" }
        if p.y < chrome.navigationBarHeight + chrome.breadcrumbHeight { return "the breadcrumb trail" }
        if p.y > settings.canvasHeight - chrome.bottomBarHeight + chrome.toolbarHeight { return "the static area under the toolbar" }
        return nil
    }

    // MARK: - Tap

    /// A tap at a canvas point: the toolbar button, the magnifier, the open overlay (a table row
    /// or search result, the moving rows, a chip, the dimmed backdrop), a filter token's ×, or the
    /// bubble there, in that order.
    func tap(at point: ScenePoint) throws(DashboardError) {
        let p = try canvasPoint(point)
        let chrome = settings.chrome
        if let button = chrome.toolbarButton(at: p, canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight) {
            switch button {
            case .top: try goTop()
            case .recentre: recenter()
            case .reports: openOverlay(.reports(focus))
            case .filter: openFilterSheet()
            }
            return
        }
        if chrome.searchButtonFrame(canvasWidth: settings.canvasWidth).contains(p) {
            openSearch()
            return
        }
        if let o = overlay, !o.closing {
            switch o.content {
            case .reports(let level):
                let card = tableGeometry(rows: tableRows(of: level).count)
                guard let g = table.geometry, card.cardContains(p) else {
                    closeOverlay()
                    return
                }
                guard g.viewportContains(p) else { throw .nothingAt(p, what: "the reports table's header") }
                // A tap on moving rows stops them, as on iOS, rather than choosing a row.
                if table.phase != .idle {
                    stopTable()
                    return
                }
                guard let r = g.row(at: p, scroll: table.offset) else { throw .nothingAt(p, what: "below the reports table's last row") }
                openOverlay(.preview(tableRows(of: level)[r]))
                return
            case .search:
                try tapSearch(at: p)
                return
            case .filterSheet:
                try tapFilterSheet(at: p)
                return
            case .preview:
                tapPreview(at: p)
                return
            }
        }
        if try tapFilterControls(at: p) { return }
        if let what = chromeAt(p) { throw .nothingAt(p, what: what) }
        guard let id = hitTest(p), let node = levels.index(of: id) else { throw .nothingAt(p, what: "no bubble there") }
        try tap(node)
    }

    // MARK: - Press (a drag by point)

    /// A finger down at a canvas point: on the open table's rows it takes the rows; on a bubble it
    /// drags the bubble.
    func press(at point: ScenePoint) throws(DashboardError) {
        let p = try canvasPoint(point)
        if chrome(hasToolbarAt: p) { throw .nothingAt(p, what: "a toolbar button (it takes taps, not drags)") }
        if pressPreview(at: p) { return }
        if let (g, card) = openList(), card.contains(p) {
            guard g.viewportContains(p) else { throw .nothingAt(p, what: "the list's header (the rows below it scroll)") }
            endDrag()
            let u = tablePhysics.unbanded(table.offset, max: g.maxScroll, extent: g.viewportHeight)
            table.phase = .tracking(anchorFinger: p.y, anchorOffset: u, finger: p.y)
            table.velocity = 0
            table.indicator = .constant(1)
            return
        }
        if let what = chromeAt(p) { throw .nothingAt(p, what: what) }
        guard let id = hitTest(p), let node = levels.index(of: id) else {
            // Empty space of a level that pans: the finger holds the level.
            guard pan.pans, !isStartScreen, overlay == nil || overlay!.closing else { throw .nothingAt(p, what: "no bubble there") }
            beginPan(at: Vector2(p.x, p.y))
            return
        }
        try beginDrag(node, at: levelPoint(Vector2(p.x, p.y)))
    }

    func chrome(hasToolbarAt p: ScenePoint) -> Bool {
        settings.chrome.toolbarButton(at: p, canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight) != nil
    }

    /// Moves a finger that holds the table's rows; false when none does.
    func moveTableFinger(to y: Double) -> Bool {
        guard case .tracking(let a, let o, _) = table.phase else { return false }
        table.phase = .tracking(anchorFinger: a, anchorOffset: o, finger: y)
        return true
    }

    /// Lets go of the table's rows; false when no finger holds them.
    func releaseTable() -> Bool {
        guard table.isTracking else { return false }
        guard let g = table.geometry else {
            table.phase = .idle
            return true
        }
        tablePhysics.release(&table, maxScroll: g.maxScroll, extent: g.viewportHeight)
        fadeIndicatorIfIdle(at: time)
        return true
    }

    /// Stops moving rows where they are (rows past an end still go back to it).
    func stopTable() {
        guard let g = table.geometry else { return }
        tablePhysics.stop(&table, maxScroll: g.maxScroll)
        fadeIndicatorIfIdle(at: time)
    }

    // MARK: - Scroll

    /// A `scroll` event: a fling that comes to rest `distance` pt on from where the rows are
    /// headed (so two quick scrolls add up), bouncing at an end.
    func scrollTable(by distance: Double) throws(DashboardError) {
        guard distance.isFinite, abs(distance) <= TableScrollSettings.maxScrollEvent else {
            throw .invalidNumber(field: "scroll", value: distance)
        }
        guard let (g, _) = openList() else { throw .noTableOpen }
        tablePhysics.fling(&table, by: distance, maxScroll: g.maxScroll, extent: g.viewportHeight)
        table.indicator = .constant(1)
    }

    // MARK: - Per step

    /// The scrolling list that is open (the reports table or the search results) and its card.
    func openList() -> (ScrollingRows, SceneRect)? {
        guard let o = overlay, !o.closing, let g = table.geometry else { return nil }
        switch o.content {
        case .reports(let level):
            let t = tableGeometry(rows: tableRows(of: level).count)
            return (g, SceneRect(x: t.x, y: t.y, width: t.width, height: t.height))
        case .search:
            return (g, searchGeometry(rows: searchSession?.hits.count ?? 0).card)
        case .preview, .filterSheet:
            return nil
        }
    }

    /// Resets the scroll for a list that opens now; the indicator flashes when it scrolls.
    func resetTable(_ g: ScrollingRows, flashIndicator: Bool = true) {
        table = TableScroll()
        table.geometry = g
        if g.isScrollable && flashIndicator {
            let s = settings.tableScroll
            table.indicator = Tween(from: 1, to: 0, start: time + settings.motion.overlayDuration + s.indicatorFadeDelay,
                                    duration: s.indicatorFadeDuration, curve: .out)
        }
    }

    func fadeIndicatorIfIdle(at now: Double) {
        guard table.phase == .idle else { return }
        let s = settings.tableScroll
        table.indicator = table.indicator.retarget(0, at: now, delay: s.indicatorFadeDelay, duration: s.indicatorFadeDuration, curve: .out)
    }

    /// Advances the table's scroll one step; forgets it once no table is shown.
    func advanceTable(at now: Double) {
        guard tableLevel != nil || overlay?.content == .search, let g = table.geometry else {
            if table != TableScroll() { table = TableScroll() }
            return
        }
        if table.phase == .idle && table.offset >= 0 && table.offset <= g.maxScroll { return }
        let wasTracking = table.isTracking
        tablePhysics.advance(&table, maxScroll: g.maxScroll, extent: g.viewportHeight)
        if !wasTracking { fadeIndicatorIfIdle(at: now) }
    }
}
