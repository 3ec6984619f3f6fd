import BubbleSupport

// The report preview's viewer: pages that scroll and zoom, a swipe that dismisses the sheet.
extension Dashboard {
    /// The sheet's layout on this dashboard's canvas.
    public var previewGeometry: PreviewGeometry {
        PreviewGeometry(canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight)
    }

    /// Takes what the dashboard asked of its host since the last call (the "Open PDF" button), in
    /// the order asked.
    public func takeRequests() -> [DashboardRequest] {
        defer { requests.removeAll() }
        return requests
    }

    /// The open preview (not while it fades out).
    var openViewer: PreviewViewer? {
        guard let o = overlay, !o.closing, case .preview = o.content else { return nil }
        return viewer
    }

    /// Starts the viewer of a preview that opens now.
    func openViewer(for node: Int) {
        let id = levels.nodes[node].id
        if let v = viewer, v.report == id, overlay.map({ $0.content == .preview(node) && !$0.closing }) ?? false { return }
        viewer = PreviewViewer(report: id, document: documents?.document(forReport: id), geometry: previewGeometry)
    }

    // MARK: Taps

    /// A tap on the open sheet: the back arrow hides it, "Open PDF" asks the host to open the file,
    /// a double tap on the pages zooms, a tap on moving pages stops them; off the card it closes.
    func tapPreview(at p: ScenePoint) {
        guard var v = viewer else { return closeOverlay() }
        let g = v.geometry
        guard g.card.contains(p), !v.dismissing else { return closeOverlay() }
        if g.backButton.contains(p) { return closeOverlay() }
        if g.openButton.contains(p) {
            if case .pages = v.document { requests.append(.openDocument(reportID: v.report)) }
            return
        }
        guard g.pages.contains(p), let column = v.column else { return }
        if v.scroll.phase != .idle && v.scroll.phase != .bounce {
            tablePhysics.stop(&v.scroll, maxScroll: column.maxScroll(zoom: v.zoom))
            viewer = v
            return
        }
        let s = PreviewViewerSettings.self
        if let last = v.lastTap, time - last.time <= s.doubleTapInterval,
           (p.x - last.point.x) * (p.x - last.point.x) + (p.y - last.point.y) * (p.y - last.point.y)
            <= s.doubleTapDistance * s.doubleTapDistance {
            v.lastTap = nil
            let target = v.zoom > 1.01 ? 1 : s.doubleTapZoom
            startZoom(&v, to: target, at: p)
        } else {
            v.lastTap = (time, p)
        }
        viewer = v
    }

    // MARK: Zoom

    /// A `zoom` event: multiplies the zoom by `scale` around a point of the pages (the fingers'
    /// middle), within fit width...`PreviewViewerSettings.maxZoom`.
    func zoomPreview(scale: Double, at point: ScenePoint) throws(DashboardError) {
        guard scale.isFinite, scale > 0, scale <= 100 else { throw .invalidNumber(field: "zoom.scale", value: scale) }
        let p = try canvasPoint(point)
        guard var v = openViewer else { throw .noPreviewOpen }
        guard v.geometry.pages.contains(p) else { throw .nothingAt(p, what: "outside the report's pages (a pinch there goes back a level)") }
        guard v.column != nil else { throw .nothingAt(p, what: "no page to zoom: \(v.document.map(Self.unavailableText) ?? "no document")") }
        let from = v.zoomAnimation?.zoom.to ?? v.zoom
        startZoom(&v, to: min(max(from * scale, 1), PreviewViewerSettings.maxZoom), at: p)
        viewer = v
    }

    static func unavailableText(_ d: ReportDocument) -> String {
        if case .unavailable(let why) = d { return why }
        return "pages"
    }

    /// Animates the zoom to `target`, holding the column point under `p` in place.
    func startZoom(_ v: inout PreviewViewer, to target: Double, at p: ScenePoint) {
        let vx = p.x - v.geometry.pages.x, vy = p.y - v.geometry.pages.y
        let z = v.zoom
        v.scroll.phase = .idle
        v.scroll.velocity = 0
        v.zoomAnimation = PreviewViewer.ZoomAnimation(
            zoom: Tween(from: z, to: target, start: time, duration: PreviewViewerSettings.zoomDuration, curve: .out),
            columnX: (vx + v.scrollX) / z, columnY: (vy + v.scroll.offset) / z, viewX: vx, viewY: vy)
        v.indicator = .constant(1)
    }

    // MARK: Scroll

    /// A `scroll` event while the preview is open: a fling of the pages that comes to rest
    /// `distance` pt on, bouncing at an end.
    func scrollPreview(by distance: Double) throws(DashboardError) {
        guard distance.isFinite, abs(distance) <= TableScrollSettings.maxScrollEvent else {
            throw .invalidNumber(field: "scroll", value: distance)
        }
        guard var v = openViewer else { throw .noTableOpen }
        tablePhysics.fling(&v.scroll, by: distance, maxScroll: v.maxScroll, extent: v.geometry.pages.height)
        v.indicator = .constant(1)
        viewer = v
    }

    // MARK: Press, move, release

    /// A finger down on the open sheet: it will swipe the sheet, scroll the pages or do nothing
    /// (on the header or the chips), told apart once it moves. False when no sheet is there.
    func pressPreview(at p: ScenePoint) -> Bool {
        guard var v = openViewer, v.geometry.card.contains(p), !v.dismissing else { return false }
        endDrag()
        v.swipeTween = nil
        v.gesture = .pending(start: p, inPages: v.geometry.pages.contains(p) && v.column != nil)
        if v.geometry.pages.contains(p), v.scroll.phase != .idle {
            // A finger on moving pages catches them.
            v.scroll.velocity = 0
            v.scroll.phase = .idle
        }
        viewer = v
        return true
    }

    /// Moves the finger on the sheet; false when no finger is on it.
    func movePreviewFinger(to p: ScenePoint) -> Bool {
        guard var v = viewer, v.gesture != .none else { return false }
        switch v.gesture {
        case .none, .ignored: break
        case .pending(let start, let inPages):
            let dx = p.x - start.x, dy = p.y - start.y
            let slop = PreviewViewerSettings.touchSlop
            guard dx * dx + dy * dy > slop * slop else { break }
            if dx > 0 && dx >= 1.5 * abs(dy) && v.scrollX <= 0.5 {
                v.gesture = .swiping(anchor: start.x + slop, finger: p.x)
            } else if inPages {
                let u = tablePhysics.unbanded(v.scroll.offset, max: v.maxScroll, extent: v.geometry.pages.height)
                v.scroll.phase = .tracking(anchorFinger: start.y, anchorOffset: u, finger: p.y)
                v.gesture = .panning(anchorX: start.x, anchorScrollX: v.scrollX, fingerX: p.x)
                v.indicator = .constant(1)
            } else {
                v.gesture = .ignored
            }
        case .swiping(let a, _):
            v.gesture = .swiping(anchor: a, finger: p.x)
        case .panning(let a, let o, _):
            v.gesture = .panning(anchorX: a, anchorScrollX: o, fingerX: p.x)
            if case .tracking(let af, let ao, _) = v.scroll.phase { v.scroll.phase = .tracking(anchorFinger: af, anchorOffset: ao, finger: p.y) }
        }
        viewer = v
        return true
    }

    /// Lifts the finger from the sheet: a swipe dismisses past a third of the card's width or
    /// fast enough, else springs back; scrolled pages fling on. False when no finger is on it.
    func releasePreview() -> Bool {
        guard var v = viewer, v.gesture != .none else { return false }
        let s = PreviewViewerSettings.self
        switch v.gesture {
        case .swiping:
            if v.swipe > v.geometry.card.width * s.dismissFraction || v.swipeVelocity > s.dismissVelocity {
                let off = settings.canvasWidth - v.geometry.card.x
                v.swipeTween = Tween(from: v.swipe, to: off, start: time, duration: settings.motion.overlayDuration, curve: .out)
                v.dismissing = true
                viewer = v
                closeOverlay()
                viewer!.gesture = .none
                return true
            }
            v.swipeTween = Tween(from: v.swipe, to: 0, start: time, duration: s.springBackDuration, curve: .out)
        case .panning:
            tablePhysics.release(&v.scroll, maxScroll: v.maxScroll, extent: v.geometry.pages.height)
        case .none, .pending, .ignored:
            break
        }
        v.gesture = .none
        viewer = v
        return true
    }

    // MARK: Per step

    /// Advances the viewer one step; forgets it once no preview is shown.
    func advanceViewer(at now: Double) {
        guard var v = viewer else { return }
        guard let o = overlay, case .preview = o.content else {
            viewer = nil
            return
        }
        let dt = timeStep
        if let z = v.zoomAnimation, let c = v.column {
            let zoom = z.zoom.value(at: now)
            v.zoom = zoom
            v.scrollX = min(max(z.columnX * zoom - z.viewX, 0), c.maxOffsetX(zoom: zoom))
            v.scroll.offset = min(max(z.columnY * zoom - z.viewY, 0), c.maxScroll(zoom: zoom))
            if z.zoom.isFinished(at: now) {
                v.zoomAnimation = nil
                fadeViewerIndicator(&v, at: now)
            }
        } else if v.scroll.phase != .idle || v.scroll.offset < 0 || v.scroll.offset > v.maxScroll {
            tablePhysics.advance(&v.scroll, maxScroll: v.maxScroll, extent: v.geometry.pages.height)
            if v.scroll.phase == .idle { fadeViewerIndicator(&v, at: now) }
        }
        if case .panning(let a, let o, let f) = v.gesture, let c = v.column {
            v.scrollX = min(max(o + a - f, 0), c.maxOffsetX(zoom: v.zoom))
        }
        let before = v.swipe
        if case .swiping(let a, let f) = v.gesture {
            v.swipe = max(0, f - a)
            // The finger's speed, smoothed over a few steps (a move may skip a step).
            v.swipeVelocity = 0.5 * v.swipeVelocity + 0.5 * (v.swipe - before) / dt
        } else if let t = v.swipeTween {
            v.swipe = t.value(at: now)
            v.swipeVelocity = 0
            if t.isFinished(at: now) && !v.dismissing { v.swipeTween = nil }
        }
        if let last = v.lastTap, now - last.time > PreviewViewerSettings.doubleTapInterval { v.lastTap = nil }
        viewer = v
    }

    func fadeViewerIndicator(_ v: inout PreviewViewer, at now: Double) {
        v.indicator = v.indicator.retarget(0, at: now, delay: PreviewViewerSettings.indicatorHold,
                                           duration: settings.tableScroll.indicatorFadeDuration, curve: .out)
    }

    var viewerIsAtRest: Bool {
        guard let v = viewer else { return true }
        return (v.isAtRest || v.dismissing) && v.indicator.isFinished(at: time)
    }

    // MARK: Scene

    /// The viewer as the scene shows it.
    func scenePreview(at now: Double) -> ScenePreview? {
        guard let v = viewer else { return nil }
        let g = v.geometry
        var pages: [ScenePreviewPage] = []
        var current = 0, count = 0
        var label: String? = nil
        var unavailable: String? = nil
        if let c = v.column {
            for i in c.visible(zoom: v.zoom, scrollX: v.scrollX, scrollY: v.scroll.offset) {
                let f = c.frame(of: i, zoom: v.zoom, scrollX: v.scrollX, scrollY: v.scroll.offset)
                pages.append(ScenePreviewPage(page: i + 1, frame: SceneRect(x: g.pages.x + f.x, y: g.pages.y + f.y, width: f.width, height: f.height),
                                              size: SceneSize(width: c.pages[i].width, height: c.pages[i].height)))
            }
            let i = c.current(zoom: v.zoom, scrollY: v.scroll.offset)
            current = i + 1
            count = c.pages.count
            label = c.pages[i].label
        } else if case .unavailable(let why) = v.document {
            unavailable = why
        }
        return ScenePreview(reportID: v.report, geometry: g, pages: pages, page: current, pageCount: count, pageLabel: label,
                            zoom: v.zoom, swipe: v.swipe, indicatorOpacity: min(1, max(0, v.indicator.value(at: now))),
                            unavailable: unavailable, standIn: v.document == nil, scrollY: v.scroll.offset, scrollX: v.scrollX)
    }
}
