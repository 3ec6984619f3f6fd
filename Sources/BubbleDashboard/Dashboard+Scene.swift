import BubblePhysics

extension Dashboard {
    /// The current frame as plain values: bubbles back to front (leaving focus, focus, leaving
    /// children, children in data order), breadcrumbs and overlay. The same as `scene(at: time)`.
    public func scene() -> Scene { scene(at: time) }

    /// The frame at `t` seconds, between the last two steps (`time - timeStep ... time`; a `t`
    /// outside is clamped to that interval, so call `advance(to: t)` first). Positions and circle
    /// sizes that the physics moves are interpolated linearly between the two step states;
    /// scale, opacity, blur, glides, leaving bubbles and the overlay's fade are evaluated at `t`
    /// itself. Only `+ - * /`: the same state and `t` give the same bits. At a step's own time
    /// (within a millionth of a step) it is exactly that step's scene.
    public func scene(at t: Double) -> Scene {
        let (now, alpha) = sampleTime(t)
        // Between two steps, what finished fading on the current step is still (all but) there.
        let ghosts = alpha < 1 ? previousGhosts.filter { $0.isFinished(at: time) } + self.ghosts : self.ghosts
        let overlay = alpha < 1 ? self.overlay ?? previousOverlay : self.overlay
        var bubbles: [SceneBubble] = []
        bubbles.reserveCapacity(live.count + ghosts.count)
        // A level that pans is drawn shifted by its pan (level coordinates to canvas points).
        let shift = panShift(at: now, alpha)
        let shifted = shift != .zero
        func drawn(_ p: Vector2) -> Vector2 { shifted ? p + shift : p }
        for g in ghosts where g.role == .focus {
            bubbles.append(sceneBubble(node: g.node, role: .focus, shape: g.shape, centre: drawn(g.position(at: now)),
                                       scale: g.scale.value(at: now), opacity: g.opacity.value(at: now), blur: g.blur, now: now))
        }
        for b in live where b.role == .focus {
            var bubble = sceneBubble(node: b.node, role: .focus, shape: shape(of: b, at: now), centre: drawn(centre(of: b, at: now, alpha)),
                                     scale: b.scale.value(at: now), opacity: b.opacity.value(at: now), blur: b.blur.value(at: now), now: now)
            bubble.labelRadius = landingRadius(of: b, shape: bubble.shape)
            bubbles.append(bubble)
        }
        for g in ghosts where g.role == .child {
            bubbles.append(sceneBubble(node: g.node, role: .child, shape: g.shape, centre: drawn(g.position(at: now)),
                                       scale: g.scale.value(at: now), opacity: g.opacity.value(at: now), blur: g.blur, now: now))
        }
        // Children in data order, whatever order they (re)appeared in.
        let order = levels.nodes[focus].children
        let children = live.filter { $0.role == .child }.sorted {
            (order.firstIndex(of: $0.node) ?? Int.max, $0.node) < (order.firstIndex(of: $1.node) ?? Int.max, $1.node)
        }
        for b in children {
            var bubble = sceneBubble(node: b.node, role: .child, shape: shape(of: b, at: now), centre: drawn(centre(of: b, at: now, alpha)),
                                     scale: b.scale.value(at: now), opacity: b.opacity.value(at: now), blur: b.blur.value(at: now), now: now)
            bubble.labelRadius = landingRadius(of: b, shape: bubble.shape)
            bubbles.append(bubble)
        }
        let breadcrumbs = focusPath.map { levels.nodes[$0].title }
        var sceneOverlay: SceneOverlay? = nil
        var overlayOpacity = 0.0
        if let o = overlay {
            overlayOpacity = clamp01(o.opacity.value(at: now))
            switch o.content {
            case .preview(let n):
                sceneOverlay = .reportPreview(sceneReport(n))
            case .reports(let f):
                let reports = tableRows(of: f).map(sceneReport)
                let scroll = SceneTableScroll(offset: table.offset, indicatorOpacity: clamp01(table.indicator.value(at: now)))
                sceneOverlay = .reportsTable(title: levels.nodes[f].title, reports: reports, scroll: scroll)
            case .search:
                sceneOverlay = .search(sceneSearch(at: now))
            case .filterSheet:
                sceneOverlay = filterSheetScene().map { .filterSheet($0) }
            }
        }
        var scene = Scene(
            canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight, bubbles: bubbles,
            breadcrumbs: breadcrumbs, overlay: sceneOverlay, overlayOpacity: overlayOpacity, chrome: settings.chrome,
            caption: isStartScreen ? nil : layouts[focus]?.caption)
        scene.filter = sceneFilter()
        scene.pan = scenePan(shift: shift, at: now)
        if case .reportPreview? = sceneOverlay { scene.preview = scenePreview(at: now) }
        if let n = notice { scene.notice = SceneNotice(text: n.text, opacity: noticeOpacity(at: now)) }
        return scene
    }

    /// The search overlay's rows, total, scroll and message.
    func sceneSearch(at now: Double) -> SceneSearch {
        guard let s = searchSession else { return SceneSearch(text: "", total: 0, results: []) }
        let results = s.rows
        let trimmed = s.text.trimmingSpaces
        let message: String? = results.isEmpty && !trimmed.isEmpty ? "No reports match ‘\(trimmed)’" : nil
        let scroll = SceneTableScroll(offset: table.offset, indicatorOpacity: clamp01(table.indicator.value(at: now)))
        return SceneSearch(text: s.text, total: s.total, results: results, scroll: scroll, message: message)
    }

    /// The time at which a scene at `t` evaluates its curves, and how far it is from the step before
    /// the current one (0) to the current one (1).
    func sampleTime(_ t: Double) -> (time: Double, alpha: Double) {
        let now = time
        guard stepCount > 0, t.isFinite, t < now else { return (now, 1) }
        let dt = timeStep
        let k = Self.stepIndex(t, dt)
        if k >= stepCount && Self.isStepTime(t, dt) { return (now, 1) }
        let before = Double(stepCount - 1) * dt
        if k < stepCount || t <= before { return (before, 0) }
        return (t, (t - before) / dt)
    }

    /// A live bubble's centre at `now`: on its glide once that has begun, else between where the
    /// physics had it at the last two steps.
    func centre(of b: LiveBubble, at now: Double, _ alpha: Double) -> Vector2 {
        if alpha < 1, b.glides(at: now), let t = b.transit { return t.position(at: now) }
        let p = position(of: b)
        guard alpha < 1, let q = b.previous else { return p }
        if alpha <= 0 { return q }
        return Vector2(q.x + (p.x - q.x) * alpha, q.y + (p.y - q.y) * alpha)
    }

    /// The radius a circle changing size lands at (nil when it keeps its size or is a card).
    func landingRadius(of b: LiveBubble, shape: SceneShape) -> Double? {
        guard case .circle(let r) = shape, let t = b.transit else { return nil }
        let target = t.radius.to
        return target > 0 && target != r ? target : nil
    }

    /// A live bubble's outline at `now`: a circle on a glide has the glide's radius.
    func shape(of b: LiveBubble, at now: Double) -> Shape {
        if case .circle = b.shape, b.glides(at: now), let t = b.transit, now < time { return .circle(radius: t.radius.value(at: now)) }
        return b.shape
    }

    /// The ids of the bubbles that can be tapped or dragged now (live, not leaving).
    public var visibleIDs: [String] { live.map { levels.nodes[$0.node].id } }

    func sceneBubble(
        node: Int, role: LiveBubble.Role, shape: Shape, centre: Vector2, scale: Double, opacity: Double, blur: Double, now: Double
    ) -> SceneBubble {
        // The node's fields are read in place (a copy of the whole node retains every field).
        let nodeKind = levels.nodes[node].kind
        let kind: SceneBubbleKind
        switch (role, nodeKind) {
        case (.focus, _): kind = .focus
        case (_, .report): kind = .report
        case (_, .group): kind = .group
        case (_, .category): kind = .category
        }
        let sceneShape: SceneShape
        switch shape {
        case .circle(let r): sceneShape = .circle(radius: r)
        case .roundedRect(let w, let h, let c): sceneShape = .roundedRect(width: w, height: h, cornerRadius: c)
        }
        var bubble = SceneBubble(
            id: levels.nodes[node].id, kind: kind, shape: sceneShape, centre: ScenePoint(x: centre.x, y: centre.y), scale: max(0, scale),
            opacity: clamp01(opacity), label: role == .focus ? levels.nodes[node].title : (labels[node] ?? levels.nodes[node].title),
            colour: levels.nodes[node].colour, pageCount: levels.nodes[node].pageCount, blur: clamp01(blur), count: levels.nodes[node].count)
        if role == .child, nodeKind != .report, let counts = levels.matchCounts, node < counts.count { bubble.matchCount = counts[node] }
        if nodeKind == .report {
            bubble.marked = marked(node, at: now)
            if role == .child, let lay = layouts[levels.parents[node]] { bubble.titleScale = settings.canvasScale * lay.shrink }
        }
        return bubble
    }

    func sceneReport(_ node: Int) -> SceneReport {
        let n = levels.nodes[node]
        return SceneReport(id: n.id, title: n.title, author: n.author, pageCount: n.pageCount, keywords: n.keywords, colour: n.colour)
    }
}

func clamp01(_ x: Double) -> Double { x < 0 ? 0 : (x > 1 ? 1 : x) }
