import BubblePhysics

// Navigation: the first level, drilling in, back (pinch), straight to the top, re-centre.
extension Dashboard {
    func tap(_ node: Int) throws(DashboardError) {
        guard let li = liveIndex(of: node) else { throw .notVisible(levels.nodes[node].id) }
        if isStartScreen {
            try enterFirstLevel()
            return
        }
        if live[li].role == .focus { return }
        switch levels.nodes[node].kind {
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
            live[li].transit = glide(from: position(of: live[li]), to: centre, radius: live[li].radiusTween(to: lay.focusRadius, at: now, duration: settings.motion.focusDuration), endsDynamic: false)
            live[li].blur = live[li].blur.retarget(1, at: now, duration: settings.motion.focusDuration, curve: .inOut)
        }
        try showChildren(of: 0, delay: settings.motion.focusDuration * 0.45)
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
            try showChildren(of: node, delay: max(settings.motion.focusDuration * 0.6, travel))
            return
        }
        // Everything else leaves: the old focus fades where it is, the siblings fold into the new focus.
        for b in live where b.node != node {
            makeGhost(b, into: b.role == .focus ? nil : newCentre, focusRadius: lay.focusRadius)
        }
        live.removeAll { $0.node != node }
        guard let li = liveIndex(of: node) else { return }
        world.setKinematic(held: live[li].body, true)
        live[li].role = .focus
        live[li].transit = glide(from: position(of: live[li]), to: newCentre, radius: live[li].radiusTween(to: lay.focusRadius, at: now, duration: settings.motion.focusDuration), endsDynamic: false)
        live[li].blur = live[li].blur.retarget(1, at: now, duration: settings.motion.focusDuration, curve: .inOut)
        live[li].scale = live[li].scale.retarget(1, at: now, duration: settings.motion.appearDuration, curve: .out)
        live[li].opacity = live[li].opacity.retarget(1, at: now, duration: settings.motion.appearDuration, curve: .out)
        focusPath.append(node)
        try showChildren(of: node, delay: settings.motion.focusDuration * 0.45)
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
        var passing: (transit: Transit, radii: (from: Double, to: Double))? = nil
        if let li = liveIndex(of: leaving), let k = lay.children.firstIndex(of: leaving) {
            ghosts.removeAll { $0.node == leaving && $0.role == .child }
            live[li].role = .child
            let radius = live[li].radiusTween(to: lay.shapes[k].radius ?? lay.focusRadius, at: now, duration: settings.motion.focusDuration)
            let transit = glide(from: position(of: live[li]), to: parentPlaces[k], radius: radius, endsDynamic: true)
            live[li].transit = transit
            // Siblings whose places it crosses on its way grow in once it has passed.
            passing = (transit, (radius.from, LevelLayout.reach(lay.shapes[k])))
            live[li].blur = live[li].blur.retarget(0, at: now, duration: settings.motion.focusDuration, curve: .inOut)
        } else if let li = liveIndex(of: leaving) {
            // Not a child of the parent in this view (a filter hides it): it fades where it is.
            makeGhost(live[li], into: nil)
            live.remove(at: li)
        }
        let travel = try showFocus(parent, layout: lay)
        try showChildren(of: parent, delay: max(settings.motion.focusDuration * 0.2, travel), passing: passing)
    }

    func goTop() throws(DashboardError) {
        if isStartScreen { return }
        if focusPath == [0] {
            recenter()
            return
        }
        closeOverlay()
        try jump(to: [0])
    }

    /// A new focus path in one transition (Top, a search pick, a filter that regroups the level
    /// a group was in): everything on screen leaves, the path's last level comes in. Returns how
    /// long its children wait before they grow (s).
    @discardableResult
    func jump(to path: [Int]) throws(DashboardError) -> Double {
        endDrag()
        guard let target = path.last else { return 0 }
        let lay = try layout(of: target)
        for b in live {
            makeGhost(b, into: b.role == .focus ? nil : lay.centre, focusRadius: lay.focusRadius)
        }
        live.removeAll()
        focusPath = path
        let travel = try showFocus(target, layout: lay)
        let delay = max(settings.motion.collapseDuration * 0.5, travel)
        try showChildren(of: target, delay: delay)
        return delay
    }

    func recenter() {
        if isStartScreen { return }
        endDrag()
        guard let lay = layouts[focus] else { return }
        places[focus] = lay.home
        placesPending = false
        recentrePan()
        let now = time
        for i in live.indices {
            switch live[i].role {
            case .child:
                guard let k = lay.children.firstIndex(of: live[i].node) else { continue }
                if live[i].transit != nil {
                    retargetTransit(&live[i], to: lay.home[k], at: now)
                } else {
                    glideToPlace(&live[i], lay.home[k])
                }
            case .focus:
                let p = position(of: live[i])
                if p != lay.centre && live[i].transit == nil {
                    live[i].transit = glide(from: p, to: lay.centre, radius: live[i].radiusTween(to: lay.focusRadius, at: now, duration: 0), endsDynamic: false)
                } else if live[i].transit != nil {
                    retargetTransit(&live[i], to: lay.centre, at: now)
                }
            }
        }
        world.wake()
    }
}
