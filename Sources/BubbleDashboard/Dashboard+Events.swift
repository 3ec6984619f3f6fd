import BubblePhysics

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
        return best.map { tree.nodes[$0.node].id }
    }

    // MARK: - Events

    func tap(_ node: Int) throws(DashboardError) {
        guard let li = liveIndex(of: node) else { throw .notVisible(tree.nodes[node].id) }
        if isStartScreen {
            try enterFirstLevel()
            return
        }
        if live[li].role == .focus { return }
        switch tree.nodes[node].kind {
        case .report: openOverlay(.preview(node))
        case .category, .group: try drillIn(node)
        }
    }

    func enterFirstLevel() throws(DashboardError) {
        let lay = try layout(of: 0)
        isStartScreen = false
        closeOverlay()
        if let li = liveIndex(of: 0) {
            let now = time
            let centre = lay.centre
            live[li].transit = Transit(
                from: position(of: live[li]), to: centre, start: now, duration: travelTime(position(of: live[li]), centre, settings.focusDuration),
                radius: live[li].radiusTween(to: lay.focusRadius, at: now, duration: settings.focusDuration), endsDynamic: false)
            live[li].blur = live[li].blur.retarget(1, at: now, duration: settings.focusDuration, curve: .inOut)
        }
        try showChildren(of: 0, delay: settings.focusDuration * 0.45)
    }

    func drillIn(_ node: Int) throws(DashboardError) {
        endDrag()
        closeOverlay()
        let lay = try layout(of: node)
        let now = time
        let newCentre = lay.centre
        // This node was the focus a moment ago and is still fading out there: bring that focus back
        // and let the small bubble fade where it is, so neither jumps.
        if ghosts.contains(where: { $0.node == node && $0.role == .focus }) {
            for b in live {
                makeGhost(b, into: b.role == .focus || b.node == node ? nil : newCentre, focusRadius: lay.focusRadius)
            }
            live.removeAll()
            focusPath.append(node)
            let travel = try showFocus(node, layout: lay)
            try showChildren(of: node, delay: max(settings.focusDuration * 0.6, travel))
            return
        }
        // Everything else leaves: the old focus fades where it is, the siblings fold into the new focus.
        for b in live where b.node != node {
            makeGhost(b, into: b.role == .focus ? nil : newCentre, focusRadius: lay.focusRadius)
        }
        live.removeAll { $0.node != node }
        guard let li = liveIndex(of: node) else { return }
        _ = try? world.setKinematic(live[li].body, true)
        live[li].role = .focus
        live[li].transit = Transit(
            from: position(of: live[li]), to: newCentre, start: now, duration: travelTime(position(of: live[li]), newCentre, settings.focusDuration),
            radius: live[li].radiusTween(to: lay.focusRadius, at: now, duration: settings.focusDuration), endsDynamic: false)
        live[li].blur = live[li].blur.retarget(1, at: now, duration: settings.focusDuration, curve: .inOut)
        live[li].scale = live[li].scale.retarget(1, at: now, duration: settings.appearDuration, curve: .out)
        live[li].opacity = live[li].opacity.retarget(1, at: now, duration: settings.appearDuration, curve: .out)
        focusPath.append(node)
        try showChildren(of: node, delay: settings.focusDuration * 0.6)
    }

    func back() throws(DashboardError) {
        guard !isStartScreen, focusPath.count > 1 else { return }
        endDrag()
        closeOverlay()
        let leaving = focus
        let parent = focusPath[focusPath.count - 2]
        let lay = try layout(of: parent)
        let now = time
        let centre = lay.centre
        for b in live where b.node != leaving {
            makeGhost(b, into: centre, focusRadius: layouts[leaving]?.focusRadius ?? lay.focusRadius)
        }
        live.removeAll { $0.node != leaving }
        focusPath.removeLast()

        // The focus goes back to being a child, to the exact place it had.
        let parentPlaces = places[parent] ?? lay.home
        if let li = liveIndex(of: leaving), let k = lay.children.firstIndex(of: leaving) {
            ghosts.removeAll { $0.node == leaving && $0.role == .child }
            live[li].role = .child
            live[li].transit = Transit(
                from: position(of: live[li]), to: parentPlaces[k], start: now, duration: travelTime(position(of: live[li]), parentPlaces[k], settings.focusDuration),
                radius: live[li].radiusTween(to: lay.shapes[k].radius ?? lay.focusRadius, at: now, duration: settings.focusDuration),
                endsDynamic: true)
            live[li].blur = live[li].blur.retarget(0, at: now, duration: settings.focusDuration, curve: .inOut)
        }
        let travel = try showFocus(parent, layout: lay)
        try showChildren(of: parent, delay: max(settings.focusDuration * 0.2, travel))
    }

    func goTop() throws(DashboardError) {
        if isStartScreen { return }
        if focusPath == [0] {
            recenter()
            return
        }
        endDrag()
        closeOverlay()
        let lay = try layout(of: 0)
        for b in live {
            makeGhost(b, into: b.role == .focus ? nil : lay.centre, focusRadius: lay.focusRadius)
        }
        live.removeAll()
        focusPath = [0]
        let travel = try showFocus(0, layout: lay)
        try showChildren(of: 0, delay: max(settings.collapseDuration * 0.5, travel))
    }

    func recenter() {
        if isStartScreen { return }
        endDrag()
        guard let lay = try? layout(of: focus) else { return }
        places[focus] = lay.home
        placesPending = false
        let now = time
        for i in live.indices {
            switch live[i].role {
            case .child:
                guard let k = lay.children.firstIndex(of: live[i].node) else { continue }
                if live[i].transit != nil {
                    retargetTransit(&live[i], to: lay.home[k], at: now)
                } else {
                    glide(&live[i], to: lay.home[k])
                }
            case .focus:
                let p = position(of: live[i])
                if p != lay.centre && live[i].transit == nil {
                    live[i].transit = Transit(
                        from: p, to: lay.centre, start: now, duration: travelTime(p, lay.centre, settings.focusDuration),
                        radius: live[i].radiusTween(to: lay.focusRadius, at: now, duration: 0), endsDynamic: false)
                } else if live[i].transit != nil {
                    retargetTransit(&live[i], to: lay.centre, at: now)
                }
            }
        }
        world.wake()
    }

    func beginDrag(_ node: Int, at point: Vector2) throws(DashboardError) {
        guard let li = liveIndex(of: node) else { throw .notVisible(tree.nodes[node].id) }
        endDrag()
        closeOverlay()
        let dragged = live[li]
        // A bubble on its way somewhere stops where it is: the finger has it now.
        if dragged.transit != nil {
            if case .circle = dragged.shape, let r = dragged.transit?.radius.to {
                live[li].shape = .circle(radius: r)
                _ = try? world.setShape(of: dragged.body, to: .circle(radius: r + settings.gap / 2))
            }
            live[li].transit = nil
        }
        _ = try? world.setKinematic(dragged.body, true)
        let origin = position(of: dragged)
        var couplings: [(id: CouplingID, body: BodyID, offset: Vector2)] = []
        for other in live where other.node != node && other.role == .child && other.transit == nil {
            let offset = position(of: other) - origin
            let falloff = 1 + offset.length / settings.dragFalloff
            let frequency = max(settings.dragFarFrequency, settings.dragNearFrequency / falloff)
            let spring = Spring(frequency: frequency, dampingRatio: settings.dragDampingRatio)
            if let id = try? world.addCoupling(from: dragged.body, to: other.body, offset: offset, spring: spring) {
                couplings.append((id, other.body, offset))
                _ = try? world.setSpring(of: other.body, to: .none)
            }
        }
        drag = DragState(node: node, body: dragged.body, grab: origin - point, finger: point, couplings: couplings)
    }

    /// Releases the drag: everything stays about where it is (the dragged bubble where it was let
    /// go, the others where they have got to, easing to a stop), nudged apart where they overlap
    /// the focus, an edge or each other; once the world rests, those become the level's places.
    func endDrag() {
        guard let d = drag else { return }
        drag = nil
        for c in d.couplings { _ = try? world.removeCoupling(c.id) }
        placesPending = !isStartScreen
        world.wake()
        guard let focus = live.first(where: { $0.role == .focus }) else {
            for c in d.couplings { holdInPlace(c.body, at: (try? world.position(of: c.body)) ?? .zero) }
            return
        }
        // The dragged bubble, if it is a child (the focus can be dragged too: then it stays where
        // it was let go, and the children make room for it, gliding ones included: landing under
        // it, one would be shoved off it in a single step).
        let di = liveIndex(of: d.node).flatMap { live[$0].role == .child ? $0 : nil }
        // Where everything is now (the dragged bubble where it was let go) may overlap the focus,
        // an edge or each other: relax that into places nothing needs to fight over, so the level
        // comes to rest at once, close to where the finger left it. A child still gliding
        // somewhere (re-centre, back) takes part with the place it is gliding to, and glides to
        // its relaxed place instead: otherwise it would land on the released bubble and be shoved
        // off it in one step when its glide ends.
        let children = live.indices.filter { live[$0].role == .child && (live[$0].transit?.endsDynamic ?? true || $0 == di) }
        let here = children.map { i in i != di ? live[i].transit?.to ?? position(of: live[i]) : position(of: live[i]) }
        let places = (try? LevelLayout.relax(
            shapes: children.map { i in live[i].transit.map { t in live[i].shape.radius == nil ? live[i].shape : .circle(radius: t.radius.to) } ?? live[i].shape },
            positions: here, focusCentre: position(of: focus), focusRadius: focus.shape.radius ?? 0, settings: settings)) ?? here
        for (k, i) in children.enumerated() {
            if i != di, live[i].transit != nil {
                if places[k] != here[k] { retargetTransit(&live[i], to: places[k], at: time) }
            } else if i == di {
                // Let go over the focus circle (kinematic bubbles pass over each other): glide out
                // instead of being shoved out in one step.
                live[i].transit = Transit(
                    from: here[k], to: places[k], start: time, duration: travelTime(here[k], places[k], settings.collapseDuration),
                    radius: .constant(live[i].shape.radius ?? 0), endsDynamic: true)
            } else {
                send(&live[i], to: places[k])
            }
        }
    }

    func holdInPlace(_ body: BodyID, at place: Vector2) {
        _ = try? world.setTarget(of: body, to: place)
        _ = try? world.setSpring(of: body, to: settings.placeSpring)
    }

    /// Sends a child to a place: by its spring when the place is near, and by a glide at a capped
    /// speed when it is far (a spring would fling it across the screen in a few frames).
    func send(_ b: inout LiveBubble, to place: Vector2) {
        let here = position(of: b)
        if (place - here).length > settings.springReach {
            _ = try? world.setKinematic(b.body, true)
            b.transit = Transit(
                from: here, to: place, start: time, duration: travelTime(here, place, settings.focusDuration),
                radius: .constant(b.shape.radius ?? 0), endsDynamic: true)
        } else {
            _ = try? world.setKinematic(b.body, false)
            holdInPlace(b.body, at: place)
        }
    }

    /// Sends a child home by a glide: kinematic, so it passes over the others on its way instead of
    /// pushing through them (after a drag that reordered a level, springs would jam: bubbles
    /// stuck behind each other and crept home for seconds, or came to rest elsewhere), and
    /// dynamic again where it lands, on a place that overlaps nothing. A child already there
    /// stays as it is.
    func glide(_ b: inout LiveBubble, to place: Vector2) {
        let here = position(of: b)
        if here == place {
            holdInPlace(b.body, at: place)
            return
        }
        _ = try? world.setKinematic(b.body, true)
        b.transit = Transit(
            from: here, to: place, start: time, duration: travelTime(here, place, settings.focusDuration),
            radius: .constant(b.shape.radius ?? 0), endsDynamic: true)
    }

    /// Takes the level's places from where its children rest now.
    func commitPlaces() {
        placesPending = false
        guard let lay = layouts[focus] else { return }
        var current = places[focus] ?? lay.home
        for b in live where b.role == .child && b.transit == nil {
            guard let k = lay.children.firstIndex(of: b.node) else { continue }
            let p = position(of: b)
            current[k] = p
            _ = try? world.setTarget(of: b.body, to: p)
        }
        places[focus] = current
    }

    func openOverlay(_ content: OverlayState.Content) {
        // A finger on the table's rows lets go of them when anything else opens.
        if table.isTracking { _ = releaseTable() }
        if case .reports(let level) = content, !(overlay.map { $0.content == content && !$0.closing } ?? false) {
            resetTable(rows: tableRows(of: level).count)
        }
        let now = time
        let from = overlay?.opacity ?? .constant(0)
        overlay = OverlayState(
            content: content, opacity: from.retarget(1, at: now, duration: settings.overlayDuration, curve: .out), closing: false)
    }

    func closeOverlay() {
        guard let o = overlay, !o.closing else { return }
        if table.isTracking { _ = releaseTable() }
        overlay!.closing = true
        overlay!.opacity = o.opacity.retarget(0, at: time, duration: settings.overlayDuration, curve: .out)
    }

    // MARK: - Building blocks

    /// Shows the children of `focus` at their places, growing out of the focus one after another.
    /// A child still fading out is caught where it is and brought back; a child already live
    /// (the focus coming back as a child) is left alone.
    func showChildren(of focus: Int, delay: Double) throws(DashboardError) {
        let lay = try layout(of: focus)
        let targets = places[focus] ?? lay.home
        places[focus] = targets
        let now = time
        let spawnDistance = lay.focusRadius + settings.gap
        for (k, node) in lay.children.enumerated() where liveIndex(of: node) == nil {
            let target = targets[k]
            var start: Vector2
            var scale0 = 0.0
            var opacity0 = 0.0
            var caught = false
            let ghost = ghosts.firstIndex(where: { $0.node == node && $0.role == .child }).map { ghosts.remove(at: $0) }
            // A ghost still visible is caught where it is; one all but gone starts afresh.
            if let g = ghost, g.scale.value(at: now) * g.opacity.value(at: now) > 0.05 {
                caught = true
                start = g.position(at: now)
                scale0 = g.scale.value(at: now)
                opacity0 = g.opacity.value(at: now)
            } else {
                // Start a little closer to the focus than the place, so the bubble grows
                // outwards; never inside the focus' rim.
                var dir = target - lay.centre
                let length = dir.length
                if length > 1e-9 {
                    dir = dir * (1 / length)
                } else {
                    let (s, c) = Trig.sinCos(Double(k) * 2.399963229728653)
                    dir = Vector2(c, s)
                }
                start = lay.centre + dir * max(spawnDistance, length * settings.appearFrom)
            }
            start = clampToContent(start)
            // Every child glides to its place, kinematic (passing over the others and over a focus
            // that is still on its way), and turns dynamic where it lands: it grows in on a curve
            // that ends on time, instead of being pushed about by its growing neighbours and
            // creeping home. A caught ghost may lie over the focus (it was folding into it): it
            // glides back from there at once.
            let body = try createBody(
                BodyDefinition(
                    shape: LevelLayout.padded(lay.shapes[k], settings.gap), position: start, target: target,
                    spring: settings.placeSpring, scale: max(0, min(scale0, 2)), opacity: max(0, min(opacity0, 1)),
                    isKinematic: true))
            let wait = delay + min(Double(k) * settings.appearStagger, settings.appearStaggerTotal)
            let glide = caught
                ? Transit(
                    from: start, to: target, start: now, duration: travelTime(start, target, settings.focusDuration),
                    radius: .constant(lay.shapes[k].radius ?? 0), endsDynamic: true)
                : Transit(
                    from: start, to: target, start: now + wait, duration: settings.appearDuration,
                    radius: .constant(lay.shapes[k].radius ?? 0), endsDynamic: true)
            let bubble = LiveBubble(
                node: node, body: body, role: .child, shape: lay.shapes[k],
                scale: Tween(from: scale0, to: 1, start: now + wait, duration: settings.appearDuration, curve: .out),
                opacity: Tween(from: opacity0, to: 1, start: now + wait, duration: settings.appearDuration * 0.7, curve: .out),
                blur: .constant(0), transit: glide)
            live.append(bubble)
        }
    }

    /// Brings `node` back as the blurred focus in the middle (fading in, or caught from its fade-out).
    /// Returns how long it travels to the middle (0 when it appears there): its children wait that
    /// long before they grow, because a focus sweeping across the level (kinematic) would shove
    /// the ones already there off their places.
    @discardableResult
    func showFocus(_ node: Int, layout lay: LevelLayout) throws(DashboardError) -> Double {
        let now = time
        var scale0 = 0.9
        var opacity0 = 0.0
        var start = lay.centre
        var radius = lay.focusRadius
        if let gi = ghosts.firstIndex(where: { $0.node == node && $0.role == .focus }) {
            let g = ghosts.remove(at: gi)
            scale0 = g.scale.value(at: now)
            opacity0 = g.opacity.value(at: now)
            start = g.position(at: now)
            radius = g.shape.radius ?? radius
        }
        let body = try createBody(
            BodyDefinition(
                shape: .circle(radius: radius + settings.gap / 2), position: start, scale: max(0, min(scale0, 2)),
                opacity: max(0, min(opacity0, 1)), isKinematic: true))
        var bubble = LiveBubble(
            node: node, body: body, role: .focus, shape: .circle(radius: radius),
            scale: Tween(from: scale0, to: 1, start: now, duration: settings.focusDuration, curve: .out),
            opacity: Tween(from: opacity0, to: 1, start: now, duration: settings.focusDuration, curve: .out),
            blur: .constant(1), transit: nil)
        // Caught from a fade-out away from the middle (it had been dragged): travel back.
        var travel = 0.0
        if start != lay.centre || radius != lay.focusRadius {
            bubble.transit = Transit(
                from: start, to: lay.centre, start: now, duration: travelTime(start, lay.centre, settings.focusDuration),
                radius: Tween(from: radius, to: lay.focusRadius, start: now, duration: settings.focusDuration, curve: .inOut),
                endsDynamic: false)
            if start != lay.centre { travel = bubble.transit!.duration }
        }
        live.insert(bubble, at: 0)
        return travel
    }

    /// Turns a live bubble into a ghost that shrinks and fades, gliding towards the rim of the
    /// focus circle at `destination` (the focus fades where it is, swelling slightly), and removes
    /// its body. Ghosts never go inside the focus, so one caught and brought back is not pushed.
    func makeGhost(_ b: LiveBubble, into centre: Vector2?, focusRadius: Double = 0) {
        let now = time
        let p = position(of: b)
        let s = b.displayScale(at: now)
        let targetScale = centre == nil ? s * 1.08 : 0
        var destination = p
        if let centre {
            let d = p - centre
            let length = d.length
            // Towards the rim, but no further than `collapseGlide`: a far bubble shrinks on its way.
            let rim = max(focusRadius + settings.gap, length - settings.collapseGlide)
            if length > rim { destination = centre + d * (rim / length) }
        }
        ghosts.removeAll { $0.node == b.node && $0.role == b.role }
        ghosts.append(
            Ghost(
                node: b.node, role: b.role, shape: b.shape, from: p, to: destination, start: now,
                duration: settings.collapseDuration,
                scale: Tween(from: s, to: targetScale, start: now, duration: settings.collapseDuration, curve: .inOut),
                opacity: Tween(from: b.opacity.value(at: now), to: 0, start: now, duration: settings.collapseDuration, curve: .out),
                blur: b.blur.value(at: now)))
        _ = try? world.removeBody(b.body)
    }

    /// Sends a travelling bubble somewhere else, from where it is now (no jump).
    func retargetTransit(_ b: inout LiveBubble, to destination: Vector2, at now: Double) {
        guard let t = b.transit else { return }
        let here = t.position(at: now)
        b.transit = Transit(
            from: here, to: destination, start: now, duration: travelTime(here, destination, settings.focusDuration),
            radius: t.radius.retarget(t.radius.to, at: now, duration: settings.focusDuration, curve: .inOut),
            endsDynamic: t.endsDynamic)
    }

    func validated(_ p: ScenePoint, _ field: String) throws(DashboardError) -> Vector2 {
        guard p.x.isFinite else { throw .invalidNumber(field: field + ".x", value: p.x) }
        guard p.y.isFinite else { throw .invalidNumber(field: field + ".y", value: p.y) }
        // A finger far off the canvas is held at one canvas' distance, so no body is flung away.
        let w = settings.canvasWidth, h = settings.canvasHeight
        return Vector2(min(max(p.x, -w), 2 * w), min(max(p.y, -h), 2 * h))
    }

    /// How long a journey takes: `base`, or longer for a far one, so nothing moves faster than
    /// `maxTravelSpeed` on average (a smoothstep peaks at 1.5 times that).
    func travelTime(_ from: Vector2, _ to: Vector2, _ base: Double) -> Double {
        max(base, (to - from).length / settings.maxTravelSpeed)
    }

    func clampToContent(_ p: Vector2) -> Vector2 {
        let r = settings.contentRect
        return Vector2(min(max(p.x, r.minX), r.maxX), min(max(p.y, r.minY), r.maxY))
    }
}

extension LiveBubble {
    /// A radius animation from the bubble's current circle radius (cards keep their size).
    func radiusTween(to radius: Double, at time: Double, duration: Double) -> Tween {
        let current = shape.radius ?? radius
        return Tween(from: current, to: radius, start: time, duration: duration, curve: .inOut)
    }
}

extension Shape {
    /// The radius of a circle; nil for a rounded rectangle.
    var radius: Double? {
        if case .circle(let r) = self { return r }
        return nil
    }
}
