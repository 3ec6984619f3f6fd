import BubblePhysics
import BubbleSupport

/// How the reports table scrolls, in UIScrollView's terms.
public struct TableScrollSettings: Sendable, Hashable {
    /// The share of a fling's velocity kept per millisecond (UIScrollView's `decelerationRate`:
    /// `normal` 0.998, `fast` 0.99); within `0.9..<1`.
    public var decelerationRate: Double = 0.998
    /// The rubber-band constant c of UIScrollView's `(1 − 1 / (x·c / d + 1))·d`: a finger pulling the
    /// rows x pt past an end moves them that many points, with d the viewport's height; within `0...1`.
    public var rubberBandConstant: Double = 0.55
    /// The critically damped spring (Hz) that brings rows pulled or flung past an end back to it.
    public var bounceFrequency: Double = 2.5
    /// Rows flung at an end overshoot it by at most about this much (pt).
    public var maxOvershoot: Double = 80
    /// The fastest fling (pt/s).
    public var maxVelocity: Double = 8000
    /// A fling ends (exactly where it was heading) once less than this is left to go (pt).
    public var restDistance: Double = 0.25
    /// The scroll indicator shows while the rows move and fades out over `indicatorFadeDuration`,
    /// `indicatorFadeDelay` after they stop (and flashes so when a scrollable table opens) (s).
    public var indicatorFadeDelay: Double = 0.5
    /// See `indicatorFadeDelay` (s; default 0.25).
    public var indicatorFadeDuration: Double = 0.25

    /// The largest `scroll` event accepted, either way (pt).
    public static let maxScrollEvent = 1_000_000.0

    /// The default scrolling (UIScrollView's).
    public init() {}

    /// The share of a fling's remaining distance kept per step of `timeStep` seconds:
    /// `decelerationRate^(1000·timeStep)`, by explicit series (the same bits everywhere).
    public func decayPerStep(timeStep: Double) -> Double {
        DeterministicMath.power(decelerationRate, 1000 * timeStep)
    }
}

/// The reports table's scroll: an offset, a velocity and what moves it, advanced by the dashboard's
/// fixed step with `+ - * /` only (the per-step decay is computed once, by explicit series).
///
/// - A fling (a `scroll` event, or a finger let go while moving) heads for the offset it will
///   come to rest at and closes a fixed share of the distance left every step: the same motion as
///   UIScrollView's velocity decaying by `decelerationRate` per millisecond, but ending exactly on
///   its target. A fling headed past an end is held to one viewport beyond it; at the end it
///   bounces.
/// - Past an end (a bounce, or a finger let go there) a critically damped spring, stepped by
///   implicit Euler, brings the rows back to the end.
/// - A finger on the rows moves them with it, rubber-banded past the ends.
struct TableScroll: Sendable, Hashable {
    enum Phase: Sendable, Hashable {
        case idle
        /// Decelerating towards the rest offset `target`.
        case fling(target: Double)
        /// Springing back to the nearest end.
        case bounce
        /// A finger is on the rows: `anchorFinger` (canvas y) was where the unbanded offset was
        /// `anchorOffset`; `finger` is where it is now.
        case tracking(anchorFinger: Double, anchorOffset: Double, finger: Double)
    }

    var offset = 0.0
    /// pt/s, positive when the rows move up (the offset grows).
    var velocity = 0.0
    var phase = Phase.idle
    var indicator = Tween.constant(0)
    /// The layout of the table scrolled (nil when none is shown).
    var geometry: ScrollingRows?

    var isTracking: Bool {
        if case .tracking = phase { return true }
        return false
    }

    var code: UInt64 {
        switch phase {
        case .idle: 0
        case .fling: 1
        case .bounce: 2
        case .tracking: 3
        }
    }

    /// Folds the scroll into a state hash.
    func combine(into h: inout FNV1a64, at time: Double) {
        h.combine(code)
        h.combine(offset)
        h.combine(velocity)
        switch phase {
        case .idle, .bounce: break
        case .fling(let target): h.combine(target)
        case .tracking(let a, let o, let f):
            h.combine(a)
            h.combine(o)
            h.combine(f)
        }
        h.combine(indicator.value(at: time))
    }
}

/// The per-step numbers of a scroll, computed once per dashboard from its settings and step.
struct TableScrollPhysics: Sendable {
    let settings: TableScrollSettings
    let dt: Double
    /// The share of the distance left that a fling keeps per step: decelerationRate^(1000·dt).
    let keep: Double
    /// Bounce spring: ω (rad/s).
    let omega: Double

    init(settings: TableScrollSettings, timeStep: Double) {
        self.settings = settings
        dt = timeStep
        keep = settings.decayPerStep(timeStep: timeStep)
        omega = DeterministicMath.twoPi * settings.bounceFrequency
    }

    /// UIScrollView's rubber band: how far rows pulled `x` pt past an end are drawn past it.
    func band(_ x: Double, _ extent: Double) -> Double {
        let c = settings.rubberBandConstant
        guard x > 0, extent > 0, c > 0 else { return 0 }
        return (1 - 1 / (x * c / extent + 1)) * extent
    }

    /// The pull that `band` turns into `y` (its inverse; y < extent).
    func unband(_ y: Double, _ extent: Double) -> Double {
        let c = settings.rubberBandConstant
        guard y > 0, extent > 0, c > 0 else { return 0 }
        let r = min(y / extent, 0.999_999)
        return r / (1 - r) * extent / c
    }

    /// The offset shown for an unbanded offset `u` (rubber-banded past the ends).
    func banded(_ u: Double, max maxScroll: Double, extent: Double) -> Double {
        if u < 0 { return -band(-u, extent) }
        if u > maxScroll { return maxScroll + band(u - maxScroll, extent) }
        return u
    }

    /// The unbanded offset for a shown one.
    func unbanded(_ x: Double, max maxScroll: Double, extent: Double) -> Double {
        if x < 0 { return -unband(-x, extent) }
        if x > maxScroll { return maxScroll + unband(x - maxScroll, extent) }
        return x
    }

    /// Where a fling at `velocity` from `offset` comes to rest: the sum of the steps it takes.
    func restOffset(from offset: Double, velocity: Double) -> Double {
        offset + velocity * dt * keep / (1 - keep)
    }

    /// The target of a fling, held to one viewport past either end.
    func clampTarget(_ t: Double, max maxScroll: Double, extent: Double) -> Double {
        min(max(t, -extent), maxScroll + extent)
    }

    /// The fastest the rows may pass an end (pt/s): a critically damped spring overshoots by
    /// v / (ω·e), so this holds the overshoot to `maxOvershoot`.
    var maxEdgeSpeed: Double { settings.maxOvershoot * omega * 2.718281828459045 }

    /// One fixed step of the scroll.
    func advance(_ s: inout TableScroll, maxScroll: Double, extent: Double) {
        let before = s.offset
        switch s.phase {
        case .idle:
            s.velocity = 0
            // Rows left past an end (the table shrank) go back.
            if before < 0 || before > maxScroll { s.phase = .bounce }
            return
        case .tracking(let anchorFinger, let anchorOffset, let finger):
            s.offset = banded(anchorOffset + anchorFinger - finger, max: maxScroll, extent: extent)
            s.velocity = (s.offset - before) / dt
        case .fling(let target):
            if abs(target - before) <= settings.restDistance {
                s.offset = target
                s.velocity = 0
                s.phase = .idle
                if target < 0 || target > maxScroll { s.phase = .bounce }
                return
            }
            let next = target - (target - before) * keep
            let v = (next - before) / dt
            // Crossing an end on the way out: bounce from the end.
            if v < 0 && next < 0 && before >= 0 {
                s.offset = 0
                s.velocity = max(v, -maxEdgeSpeed)
                s.phase = .bounce
            } else if v > 0 && next > maxScroll && before <= maxScroll {
                s.offset = maxScroll
                s.velocity = min(v, maxEdgeSpeed)
                s.phase = .bounce
            } else {
                s.offset = next
                s.velocity = v
            }
        case .bounce:
            let end = before < 0 ? 0 : (before > maxScroll ? maxScroll : before)
            // Implicit Euler on x'' = −ω²(x − end) − 2ω·x': stable at any step, never oscillates.
            let w = omega, h = dt
            let d = 1 + h * w
            let v = (s.velocity - h * w * w * (before - end)) / (d * d)
            var next = before + h * v
            // Crossed the end, or all but there: rest on it.
            let crossed = (before - end) * (next - end) < 0 || (before == end && next >= 0 && next <= maxScroll)
            if crossed || (abs(next - end) < settings.restDistance && abs(v) < 4 * settings.restDistance / h) {
                next = end
                s.offset = end
                s.velocity = 0
                s.phase = .idle
                return
            }
            s.offset = next
            s.velocity = v
        }
    }

    /// Stops moving rows where they are (rows past an end still go back to it).
    func stop(_ s: inout TableScroll, maxScroll: Double) {
        s.velocity = 0
        s.phase = s.offset < 0 || s.offset > maxScroll ? .bounce : .idle
    }

    /// A `scroll` event: a fling that comes to rest `distance` pt on from where the rows are
    /// headed (so two quick scrolls add up), held to one viewport past either end.
    func fling(_ s: inout TableScroll, by distance: Double, maxScroll: Double, extent: Double) {
        let base: Double
        if case .fling(let target) = s.phase { base = target } else { base = min(max(s.offset, 0), maxScroll) }
        s.phase = .fling(target: clampTarget(base + distance, max: maxScroll, extent: extent))
    }

    /// Lets the finger go: a fling from the rows' velocity, or a bounce when they are past an end.
    func release(_ s: inout TableScroll, maxScroll: Double, extent: Double) {
        let v = min(max(s.velocity, -settings.maxVelocity), settings.maxVelocity)
        if s.offset < 0 || s.offset > maxScroll {
            s.velocity = v
            s.phase = .bounce
        } else if v == 0 {
            s.phase = .idle
        } else {
            s.velocity = v
            s.phase = .fling(target: clampTarget(restOffset(from: s.offset, velocity: v), max: maxScroll, extent: extent))
        }
    }
}
