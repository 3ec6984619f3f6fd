import BubblePhysics
import BubbleSupport

// Bubbles appearing (growing out of the focus, or caught from their fade-out) and leaving
// (shrinking and fading as ghosts).
extension Dashboard {
    /// Shows the children of `focus` at their places, growing out of the focus one after another.
    /// A child still fading out is caught where it is and brought back; a child already live
    /// (the focus coming back as a child) is left alone. A child whose place lies on the way of
    /// `passing` (a bubble on its glide, its radius going from `radii.from` to `radii.to` pt as it
    /// travels) waits until that bubble has passed, so that it never grows in under it.
    func showChildren(
        of focus: Int, delay: Double, passing: (transit: Transit, radii: (from: Double, to: Double))? = nil
    ) throws(DashboardError) {
        let lay = try layout(of: focus)
        let targets = places[focus] ?? lay.home
        places[focus] = targets
        panLevel(focus, layout: lay)
        let now = time
        let spawnDistance = lay.focusRadius + settings.sizes.gap
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
                    let (s, c) = DeterministicMath.sinCos(Double(k) * 2.399963229728653)
                    dir = Vector2(c, s)
                }
                start = lay.centre + dir * max(spawnDistance, length * settings.motion.appearFrom)
            }
            start = clamp(start, to: lay.area)
            // Every child glides to its place, kinematic (passing over the others and over a focus
            // that is still on its way), and turns dynamic where it lands: it grows in on a curve
            // that ends on time, instead of being pushed about by its growing neighbours and
            // creeping home. A caught ghost may lie over the focus (it was folding into it): it
            // glides back from there at once.
            let body = try createBody(
                BodyDefinition(
                    shape: LevelLayout.padded(lay.shapes[k], settings.sizes.gap), position: start, target: target,
                    spring: settings.motion.placeSpring, scale: max(0, min(scale0, 2)), opacity: max(0, min(opacity0, 1)),
                    isKinematic: true))
            var wait = delay + min(Double(k) * settings.motion.appearStagger, settings.motion.appearStaggerTotal)
            if let p = passing, let passed = Self.passed(p.transit, radii: p.radii, clearOf: target, reach: LevelLayout.reach(lay.shapes[k])) {
                wait = max(wait, passed - now)
            }
            let glide = caught
                ? glide(from: start, to: target, radius: .constant(lay.shapes[k].radius ?? 0), endsDynamic: true)
                : Transit(
                    from: start, to: target, start: now + wait, duration: settings.motion.appearDuration,
                    radius: .constant(lay.shapes[k].radius ?? 0), endsDynamic: true)
            let bubble = LiveBubble(
                node: node, body: body, role: .child, shape: lay.shapes[k],
                scale: Tween(from: scale0, to: 1, start: now + wait, duration: settings.motion.appearDuration, curve: .out),
                opacity: Tween(from: opacity0, to: 1, start: now + wait, duration: settings.motion.appearDuration * 0.7, curve: .out),
                blur: .constant(0), transit: glide)
            live.append(bubble)
        }
    }

    /// The time (s) after which a bubble on `transit`, its radius going from `radii.from` to
    /// `radii.to` as it travels, no longer covers any of a bubble of `reach` pt at `place`; nil when
    /// it never does. The way is checked at 64 points.
    static func passed(_ transit: Transit, radii: (from: Double, to: Double), clearOf place: Vector2, reach: Double) -> Double? {
        let samples = 64
        var last: Double? = nil
        for i in stride(from: samples, through: 0, by: -1) {
            let f = Double(i) / Double(samples)
            let at = transit.from + (transit.to - transit.from) * f
            let radius = radii.from + (radii.to - radii.from) * f
            if (at - place).length < radius + reach {
                last = f
                break
            }
        }
        guard let f = last else { return nil }
        // The moment the glide (a smoothstep) is that far along: bisection.
        var lo = 0.0, hi = 1.0
        for _ in 0..<30 {
            let mid = (lo + hi) / 2
            if Ease.inOut(mid) < f { lo = mid } else { hi = mid }
        }
        return transit.start + transit.duration * hi
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
                shape: .circle(radius: radius + settings.sizes.gap / 2), position: start, scale: max(0, min(scale0, 2)),
                opacity: max(0, min(opacity0, 1)), isKinematic: true))
        // A focus coming in where another is fading waits until that one is mostly gone, so the
        // two titles are never both drawn over each other.
        let replacing = opacity0 == 0 && ghosts.contains { $0.role == .focus && $0.node != node }
        let fadeIn = replacing ? settings.motion.collapseDuration * 0.5 : 0
        var bubble = LiveBubble(
            node: node, body: body, role: .focus, shape: .circle(radius: radius),
            scale: Tween(from: scale0, to: 1, start: now, duration: settings.motion.focusDuration, curve: .out),
            opacity: Tween(from: opacity0, to: 1, start: now + fadeIn, duration: settings.motion.focusDuration, curve: .out),
            blur: .constant(1), transit: nil)
        // Caught from a fade-out away from the middle (it had been dragged): travel back.
        var travel = 0.0
        if start != lay.centre || radius != lay.focusRadius {
            bubble.transit = glide(from: start, to: lay.centre, radius: Tween(from: radius, to: lay.focusRadius, start: now, duration: settings.motion.focusDuration, curve: .inOut), endsDynamic: false)
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
            let rim = max(focusRadius + settings.sizes.gap, length - settings.motion.collapseGlide)
            if length > rim { destination = centre + d * (rim / length) }
        }
        ghosts.removeAll { $0.node == b.node && $0.role == b.role }
        ghosts.append(
            Ghost(
                node: b.node, role: b.role, shape: b.shape, from: p, to: destination, start: now,
                duration: settings.motion.collapseDuration,
                scale: Tween(from: s, to: targetScale, start: now, duration: settings.motion.collapseDuration, curve: .inOut),
                opacity: Tween(from: b.opacity.value(at: now), to: 0, start: now, duration: settings.motion.collapseDuration, curve: .out),
                blur: b.blur.value(at: now)))
        world.removeBody(held: b.body)
    }
}
