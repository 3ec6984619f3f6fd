// Deterministic helpers for laying out and animating: written with `+ - * /` only, so the same
// inputs give the same bits on every platform and in every build configuration (no libm).

/// Easing curves on t in 0...1 (clamped).
enum Ease {
    static func clamp(_ t: Double) -> Double { t < 0 ? 0 : (t > 1 ? 1 : t) }

    /// Cubic ease-out: fast start, gentle landing.
    static func out(_ t: Double) -> Double {
        let u = 1 - clamp(t)
        return 1 - u * u * u
    }

    /// Smoothstep ease-in-out (3t² − 2t³): its top speed is only 1.5 times the average, so
    /// long journeys stay smooth from frame to frame.
    static func inOut(_ t: Double) -> Double {
        let t = clamp(t)
        return t * t * (3 - 2 * t)
    }

    /// Ease-out with a small overshoot ("back"), peaking about 6% above 1: bubbles pop in.
    static func outBack(_ t: Double) -> Double {
        let t = clamp(t)
        let c1 = 0.8
        let c3 = c1 + 1
        let u = t - 1
        return 1 + c3 * u * u * u + c1 * u * u
    }
}

/// A value animated from one number to another over a time span, starting from wherever it was
/// (so an interrupted animation never jumps).
struct Tween: Sendable, Hashable {
    var from: Double
    var to: Double
    var start: Double
    var duration: Double
    var curve: Curve

    enum Curve: Sendable, Hashable {
        case out, inOut, outBack
        /// From `from` to `to` (smoothstep) while dipping to 0 in between, below 0.3 of the way
        /// for the middle 82 % of the time: a bubble that crosses others on its way.
        case dip
    }

    static func constant(_ value: Double) -> Tween {
        Tween(from: value, to: value, start: 0, duration: 0, curve: .out)
    }

    func value(at time: Double) -> Double {
        if duration <= 0 || time >= start + duration { return to }
        if time <= start { return from }
        let t = (time - start) / duration
        let e: Double
        switch curve {
        case .out: e = Ease.out(t)
        case .inOut: e = Ease.inOut(t)
        case .outBack: e = Ease.outBack(t)
        case .dip:
            let u = 2 * t - 1
            let level = from + (to - from) * Ease.inOut(t)
            let u2 = u * u
            return level * (u2 * u2 * u2)
        }
        return from + (to - from) * e
    }

    func isFinished(at time: Double) -> Bool { duration <= 0 || time >= start + duration }

    /// A tween from the current value (at `time`) to `target`.
    func retarget(_ target: Double, at time: Double, delay: Double = 0, duration: Double, curve: Curve) -> Tween {
        Tween(from: value(at: time), to: target, start: time + delay, duration: duration, curve: curve)
    }
}
