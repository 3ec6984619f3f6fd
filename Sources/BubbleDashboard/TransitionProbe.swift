/// How long a transition takes to look settled and to come to rest, in simulated seconds.
@_spi(Testbed) public struct TransitionTiming: Sendable, Hashable {
    /// The event, as a short label.
    public var label: String
    /// The number of bubbles on screen when it settled.
    public var bubbles: Int
    /// Seconds until every bubble has covered 95% of its way to where it comes to rest (it stays
    /// within 5% of the distance it started at, or within half a point), counted from the event for
    /// a bubble on screen then, and from the first frame that shows it for one that appears later
    /// (children grow in one after another, after the focus has moved: that wait is by design).
    public var coveredAfter: Double
    /// The longest way any bubble had to its resting place, in points (from where it was first seen).
    public var longestWay: Double
    /// Seconds until every bubble stays within 1 pt of where it comes to rest (and within 1% of its
    /// final scale and opacity); bubbles leaving count until they have faded out.
    public var settledAfter: Double
    /// Seconds until the dashboard reports rest.
    public var restAfter: Double
    /// The bubble that came within 1 pt last, and how far from its resting place it was then
    /// (the step before), for reports: "" when nothing moved.
    public var straggler: String
}

/// Measures transitions by simulation: deterministic, independent of the machine's speed.
@_spi(Testbed) public enum TransitionProbe {
    /// Sends `event` and steps until the dashboard rests (at most `limit` steps).
    public static func measure(
        _ dashboard: Dashboard, _ event: DashboardEvent, label: String, limit: Int = 900
    ) throws(DashboardError) -> TransitionTiming {
        let before = dashboard.scene()
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
        // Per bubble that stays: where it was seen first (before the event, or the first frame that
        // shows it), and how long from then until it stays within 5% of that distance.
        var coveredFrame = 0
        var longestWay = 0.0
        var worst: (id: String, distance: Double, start: Double)? = nil
        for f in final.bubbles {
            func visible(_ b: SceneBubble) -> Bool { b.scale * b.opacity > 0.05 }
            var startFrame = 0
            var start = before.bubbles.first { $0.id == f.id && $0.kind == f.kind && visible($0) }
            if start == nil {
                for (i, frame) in frames.enumerated() {
                    if let b = frame.bubbles.first(where: { $0.id == f.id && $0.kind == f.kind && visible($0) }) {
                        start = b
                        startFrame = i + 1
                        break
                    }
                }
            }
            guard let start else { continue }
            let d0 = distance(start.centre, f.centre)
            longestWay = max(longestWay, d0)
            let tolerance = max(0.05 * d0, 0.5)
            for (i, frame) in frames.enumerated().reversed() where i + 1 > startFrame {
                guard let b = frame.bubbles.first(where: { $0.id == f.id && $0.kind == f.kind }) else { continue }
                if distance(b.centre, f.centre) > tolerance {
                    coveredFrame = max(coveredFrame, i + 1 - startFrame)
                    break
                }
            }
            if settledFrame > 0, let b = frames[settledFrame - 1].bubbles.first(where: { $0.id == f.id && $0.kind == f.kind }) {
                let d = distance(b.centre, f.centre)
                if d > 1 && d > (worst?.distance ?? 0) { worst = (f.id, d, d0) }
            }
        }
        let straggler = worst.map { "\($0.id) \(rounded($0.distance)) pt from rest (\(rounded($0.start)) pt at the start)" } ?? ""
        let dt = dashboard.timeStep
        return TransitionTiming(
            label: label, bubbles: final.bubbles.count, coveredAfter: Double(coveredFrame) * dt, longestWay: longestWay,
            settledAfter: Double(settledFrame) * dt, restAfter: Double(frames.count) * dt, straggler: straggler)
    }

    static func distance(_ a: ScenePoint, _ b: ScenePoint) -> Double {
        let dx = a.x - b.x, dy = a.y - b.y
        return (dx * dx + dy * dy).squareRoot()
    }

    static func rounded(_ x: Double) -> Double { (x * 100).rounded() / 100 }

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
