// Deterministic helpers for laying out and animating: written with `+ - * /` only, so the same
// inputs give the same bits on every platform and in every build configuration (no libm).

/// Sine and cosine by range reduction to [-π/4, π/4] and Taylor polynomials (error below 1e-15
/// there), used where bubbles are placed on rings.
enum Trig {
    static let pi = 3.141592653589793
    static let halfPi = 1.5707963267948966
    static let twoPi = 6.283185307179586

    /// (sin x, cos x).
    static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        // Reduce to r in [-π/4, π/4] with x = r + k·π/2.
        let k = (x / halfPi).rounded()
        let r = x - k * halfPi
        let r2 = r * r
        let s = r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362_880 + r2 * (-1.0 / 39_916_800 + r2 / 6_227_020_800))))))
        let c = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40_320 + r2 * (-1.0 / 3_628_800 + r2 / 479_001_600)))))
        var quadrant = Int(k) % 4
        if quadrant < 0 { quadrant += 4 }
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }
}

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
        }
        return from + (to - from) * e
    }

    func isFinished(at time: Double) -> Bool { duration <= 0 || time >= start + duration }

    /// A tween from the current value (at `time`) to `target`.
    func retarget(_ target: Double, at time: Double, delay: Double = 0, duration: Double, curve: Curve) -> Tween {
        Tween(from: value(at: time), to: target, start: time + delay, duration: duration, curve: curve)
    }
}
