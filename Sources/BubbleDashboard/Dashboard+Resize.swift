import BubblePhysics

/// A canvas size in points.
public struct SceneSize: Sendable, Hashable {
    /// Width (pt).
    public var width: Double
    /// Height (pt).
    public var height: Double

    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

// A canvas that changes size: rotation, Split View, Stage Manager.
extension Dashboard {
    /// The canvas size (`settings.canvasWidth` × `settings.canvasHeight`).
    public var canvasSize: SceneSize { SceneSize(width: settings.canvasWidth, height: settings.canvasHeight) }

    /// Changes the canvas size (the `resize` event). The level is laid out again for the new
    /// bubble area around the same focus, and every bubble glides and resizes to its new place
    /// with the usual transition (`motion.focusDuration`, or longer for a far journey). The
    /// focus path, the open overlay and the reports table's scroll stay as they are; a drag in
    /// progress ends. A level keeps the groups it was shown with, so every node index the user has
    /// seen keeps its meaning. Throws, changing nothing, when the size is outside the canvas range
    /// (`DashboardSettings.fields`) or leaves no room between the bars.
    public func resize(to size: SceneSize) throws(DashboardError) {
        var new = settings
        new.canvasWidth = size.width
        new.canvasHeight = size.height
        try new.validate()
        if new == settings { return }
        do {
            try world.updateSettings(LevelLayout.liveWorldSettings(new))
        } catch {
            throw .physics(error.description)
        }
        if table.isTracking { _ = releaseTable() }
        endDrag()
        placesPending = false
        settings = new
        // Layouts and places are for the old area; a level's grouping stays (see `layout(of:)`).
        layouts = [:]
        places = [:]
        if viewer != nil {
            if viewer!.gesture != .none { _ = releasePreview() }
            viewer?.zoomAnimation = nil
            viewer?.relayout(previewGeometry)
        }
        if let g = table.geometry {
            let resized = overlay?.content == .search ? searchGeometry(rows: g.rows).rowsArea : tableGeometry(rows: g.rows).rowsArea
            table.geometry = resized
            table.offset = min(max(table.offset, 0), resized.maxScroll)
            table.velocity = 0
            table.phase = .idle
        }
        let now = time
        let duration = settings.motion.focusDuration
        if isStartScreen {
            if let li = liveIndex(of: 0) {
                let centre = settings.contentRect.center
                live[li].transit = glide(
                    from: position(of: live[li]), to: centre,
                    radius: live[li].radiusTween(to: startRadius, at: now, duration: duration), endsDynamic: false)
            }
            world.wake()
            return
        }
        let lay = try layout(of: focus)
        places[focus] = lay.home
        savedPans = [:]
        panLevel(focus, layout: lay)
        let reflows = LevelLayout.mayUseRows(levels, focus)
        for i in live.indices {
            switch live[i].role {
            case .focus:
                live[i].transit = glide(
                    from: position(of: live[i]), to: lay.centre,
                    radius: live[i].radiusTween(to: lay.focusRadius, at: now, duration: duration), endsDynamic: false)
            case .child:
                guard let k = lay.children.firstIndex(of: live[i].node) else { continue }
                moveChild(i, to: lay.home[k], shape: lay.shapes[k], duration: duration, rescaleEqual: true)
                if reflows {
                    // Rows reflow (into rows, out of them, or to other rows): cards cross each
                    // other's way, so each fades out while it travels and comes back where it
                    // lands (text is never drawn over text).
                    let o = live[i].opacity
                    // A little longer than the glide (a far one takes longer than `duration`), so
                    // it is back only once the card has landed.
                    let glideEnd = live[i].transit.map { $0.start + $0.duration } ?? now + duration
                    live[i].opacity = Tween(from: o.value(at: now), to: o.to, start: now, duration: (glideEnd - now) * 1.2, curve: .dip)
                }
            }
        }
        world.wake()
    }
}
