import BubblePhysics

// Press-and-drag: one bubble follows the finger, the others follow it on springs; the
// places the level keeps afterwards.
extension Dashboard {
    func beginDrag(_ node: Int, at point: Vector2) throws(DashboardError) {
        guard let li = liveIndex(of: node) else { throw .notVisible(levels.nodes[node].id) }
        endDrag()
        closeOverlay()
        // A finger on a bubble stops a gliding level (and lets go of one held).
        _ = releasePan()
        stopPan()
        let dragged = live[li]
        // A bubble on its way somewhere stops where it is: the finger has it now.
        if dragged.transit != nil {
            if case .circle = dragged.shape, let r = dragged.transit?.radius.to {
                live[li].shape = .circle(radius: r)
                world.setShape(ofHeld: dragged.body, to: .circle(radius: r + settings.sizes.gap / 2))
            }
            live[li].transit = nil
        }
        world.setKinematic(held: dragged.body, true)
        let origin = position(of: dragged)
        var couplings: [(id: CouplingID, body: BodyID, offset: Vector2)] = []
        for other in live where other.node != node && other.role == .child && other.transit == nil {
            let offset = position(of: other) - origin
            let falloff = 1 + offset.length / settings.drag.falloff
            let frequency = max(settings.drag.farFrequency, settings.drag.nearFrequency / falloff)
            let spring = Spring(frequency: frequency, dampingRatio: settings.drag.dampingRatio)
            if let id = world.addCoupling(held: dragged.body, to: other.body, offset: offset, spring: spring) {
                couplings.append((id, other.body, offset))
                world.setSpring(ofHeld: other.body, to: .none)
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
        for c in d.couplings { world.removeCoupling(held: c.id) }
        placesPending = !isStartScreen
        world.wake()
        guard let focus = live.first(where: { $0.role == .focus }) else {
            for c in d.couplings { holdInPlace(c.body, at: world.position(ofHeld: c.body, orElse: .zero)) }
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
        let places = (try? LevelLayout.relax(  // a layout world that refuses keeps the bubbles where they are
            shapes: children.map { i in live[i].transit.map { t in live[i].shape.radius == nil ? live[i].shape : .circle(radius: t.radius.to) } ?? live[i].shape },
            positions: here, focusCentre: position(of: focus), focusRadius: focus.shape.radius ?? 0, settings: settings,
            area: layouts[self.focus]?.area)) ?? here
        for (k, i) in children.enumerated() {
            if i != di, live[i].transit != nil {
                if places[k] != here[k] { retargetTransit(&live[i], to: places[k], at: time) }
            } else if i == di {
                // Let go over the focus circle (kinematic bubbles pass over each other): glide out
                // instead of being shoved out in one step.
                live[i].transit = glide(from: here[k], to: places[k], base: settings.motion.collapseDuration, radius: .constant(live[i].shape.radius ?? 0), endsDynamic: true)
            } else {
                bringToPlace(&live[i], places[k])
            }
        }
    }

    func holdInPlace(_ body: BodyID, at place: Vector2) {
        world.setTarget(ofHeld: body, to: place)
        world.setSpring(ofHeld: body, to: settings.motion.placeSpring)
    }

    /// Sends a child to a place: by its spring when the place is near, and by a glide at a capped
    /// speed when it is far (a spring would fling it across the screen in a few frames).
    func bringToPlace(_ b: inout LiveBubble, _ place: Vector2) {
        let here = position(of: b)
        if (place - here).length > settings.motion.springReach {
            world.setKinematic(held: b.body, true)
            b.transit = glide(from: here, to: place, radius: .constant(b.shape.radius ?? 0), endsDynamic: true)
        } else {
            world.setKinematic(held: b.body, false)
            holdInPlace(b.body, at: place)
        }
    }

    /// Sends a child home by a glide: kinematic, so it passes over the others on its way instead of
    /// pushing through them (after a drag that reordered a level, springs would jam: bubbles
    /// stuck behind each other and crept home for seconds, or came to rest elsewhere), and
    /// dynamic again where it lands, on a place that overlaps nothing. A child already there
    /// stays as it is.
    func glideToPlace(_ b: inout LiveBubble, _ place: Vector2) {
        let here = position(of: b)
        if here == place {
            holdInPlace(b.body, at: place)
            return
        }
        world.setKinematic(held: b.body, true)
        b.transit = glide(from: here, to: place, radius: .constant(b.shape.radius ?? 0), endsDynamic: true)
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
            world.setTarget(ofHeld: b.body, to: p)
        }
        places[focus] = current
    }
}
