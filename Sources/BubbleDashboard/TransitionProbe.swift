/// How long a transition takes to look settled and to come to rest, in simulated seconds.
public struct TransitionTiming: Sendable, Hashable {
    /// The event, as a short label.
    public var label: String
    /// The number of bubbles on screen when it settled.
    public var bubbles: Int
    /// Seconds until every bubble stays within 1 pt of where it comes to rest (and within 1% of its
    /// final scale and opacity); bubbles leaving count until they have faded out.
    public var settledAfter: Double
    /// Seconds until the dashboard reports rest.
    public var restAfter: Double
}

/// Measures transitions by simulation: deterministic, independent of the machine's speed.
public enum TransitionProbe {
    /// Sends `event` and steps until the dashboard rests (at most `limit` steps).
    public static func measure(
        _ dashboard: Dashboard, _ event: DashboardEvent, label: String, limit: Int = 900
    ) throws(DashboardError) -> TransitionTiming {
        try dashboard.send(event)
        var frames: [Scene] = []
        while frames.count < limit {
            dashboard.step()
            frames.append(dashboard.scene())
            if dashboard.isAtRest { break }
        }
        let final = frames.last ?? dashboard.scene()
        var settledFrame = 0
        for (i, frame) in frames.enumerated().reversed() where !matches(frame, final) {
            settledFrame = i + 1
            break
        }
        let dt = dashboard.timeStep
        return TransitionTiming(
            label: label, bubbles: final.bubbles.count, settledAfter: Double(settledFrame) * dt, restAfter: Double(frames.count) * dt)
    }

    /// Whether every visible bubble of `frame` is where, and as big and opaque as, it ends up.
    static func matches(_ frame: Scene, _ final: Scene) -> Bool {
        for b in frame.bubbles {
            guard let f = final.bubbles.first(where: { $0.id == b.id && $0.kind == b.kind }) else {
                if b.opacity > 0.01 && b.scale > 0.01 { return false }
                continue
            }
            let dx = b.centre.x - f.centre.x, dy = b.centre.y - f.centre.y
            if dx * dx + dy * dy > 1 { return false }
            if abs(b.scale - f.scale) > 0.01 || abs(b.opacity - f.opacity) > 0.01 { return false }
            if b.shape != f.shape {
                if case .circle(let r1) = b.shape, case .circle(let r2) = f.shape, abs(r1 - r2) <= 1 { continue }
                return false
            }
        }
        return true
    }
}
