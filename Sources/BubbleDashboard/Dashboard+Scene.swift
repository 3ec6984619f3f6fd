import BubblePhysics

extension Dashboard {
    /// The current frame as plain values: bubbles back to front (leaving focus, focus, leaving
    /// children, children in data order), breadcrumbs and overlay.
    public func scene() -> Scene {
        let now = time
        var bubbles: [SceneBubble] = []
        bubbles.reserveCapacity(live.count + ghosts.count)
        for g in ghosts where g.role == .focus {
            bubbles.append(sceneBubble(node: g.node, role: .focus, shape: g.shape, centre: g.position(at: now),
                                       scale: g.scale.value(at: now), opacity: g.opacity.value(at: now), blur: g.blur))
        }
        for b in live where b.role == .focus {
            bubbles.append(sceneBubble(node: b.node, role: .focus, shape: b.shape, centre: position(of: b),
                                       scale: b.scale.value(at: now), opacity: b.opacity.value(at: now), blur: b.blur.value(at: now)))
        }
        for g in ghosts where g.role == .child {
            bubbles.append(sceneBubble(node: g.node, role: .child, shape: g.shape, centre: g.position(at: now),
                                       scale: g.scale.value(at: now), opacity: g.opacity.value(at: now), blur: g.blur))
        }
        // Children in data order, whatever order they (re)appeared in.
        let order = tree.nodes[focus].children
        let children = live.filter { $0.role == .child }.sorted {
            (order.firstIndex(of: $0.node) ?? Int.max, $0.node) < (order.firstIndex(of: $1.node) ?? Int.max, $1.node)
        }
        for b in children {
            bubbles.append(sceneBubble(node: b.node, role: .child, shape: b.shape, centre: position(of: b),
                                       scale: b.scale.value(at: now), opacity: b.opacity.value(at: now), blur: b.blur.value(at: now)))
        }
        let breadcrumbs = focusPath.map { tree.nodes[$0].title }
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
                sceneOverlay = .reportsTable(title: tree.nodes[f].title, reports: reports, scroll: scroll)
            }
        }
        return Scene(
            canvasWidth: settings.canvasWidth, canvasHeight: settings.canvasHeight, bubbles: bubbles,
            breadcrumbs: breadcrumbs, overlay: sceneOverlay, overlayOpacity: overlayOpacity, chrome: settings.chrome,
            caption: isStartScreen ? nil : layouts[focus]?.caption)
    }

    /// The ids of the bubbles that can be tapped or dragged now (live, not leaving).
    public var visibleIDs: [String] { live.map { tree.nodes[$0.node].id } }

    func sceneBubble(
        node: Int, role: LiveBubble.Role, shape: Shape, centre: Vector2, scale: Double, opacity: Double, blur: Double
    ) -> SceneBubble {
        let n = tree.nodes[node]
        let kind: SceneBubbleKind
        switch (role, n.kind) {
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
        return SceneBubble(
            id: n.id, kind: kind, shape: sceneShape, centre: ScenePoint(x: centre.x, y: centre.y), scale: max(0, scale),
            opacity: clamp01(opacity), label: role == .focus ? n.title : (labels[node] ?? n.title), colour: n.colour,
            pageCount: n.pageCount, blur: clamp01(blur), count: n.count)
    }

    func sceneReport(_ node: Int) -> SceneReport {
        let n = tree.nodes[node]
        return SceneReport(id: n.id, title: n.title, author: n.author, pageCount: n.pageCount, keywords: n.keywords, colour: n.colour)
    }
}

func clamp01(_ x: Double) -> Double { x < 0 ? 0 : (x > 1 ? 1 : x) }
