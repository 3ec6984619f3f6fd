import BubblePhysics

// Glides: kinematic journeys from one place to another (`Transit`), their durations and
// retargeting.
extension Dashboard {
    /// A glide from `from` to `to`, beginning at `start` (default: now) and taking `base` seconds
    /// (default: `focusDuration`), or longer for a far journey (`travelTime`). With `endsDynamic`
    /// the body turns dynamic where it lands and springs to `to`.
    func glide(
        from: Vector2, to: Vector2, base: Double? = nil, start: Double? = nil, radius: Tween, endsDynamic: Bool
    ) -> Transit {
        Transit(
            from: from, to: to, start: start ?? time, duration: travelTime(from, to, base ?? settings.motion.focusDuration),
            radius: radius, endsDynamic: endsDynamic)
    }

    /// Sends a travelling bubble somewhere else, from where it is now (no jump).
    func retargetTransit(_ b: inout LiveBubble, to destination: Vector2, at now: Double) {
        guard let t = b.transit else { return }
        let here = t.position(at: now)
        b.transit = glide(
            from: here, to: destination, start: now,
            radius: t.radius.retarget(t.radius.to, at: now, duration: settings.motion.focusDuration, curve: .inOut),
            endsDynamic: t.endsDynamic)
    }

    /// How long a journey takes: `base`, or longer for a far one, so nothing moves faster than
    /// `maxTravelSpeed` on average (a smoothstep peaks at 1.5 times that).
    func travelTime(_ from: Vector2, _ to: Vector2, _ base: Double) -> Double {
        max(base, (to - from).length / settings.motion.maxTravelSpeed)
    }

    func clamp(_ p: Vector2, to r: Rect) -> Vector2 {
        Vector2(min(max(p.x, r.minX), r.maxX), min(max(p.y, r.minY), r.maxY))
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
