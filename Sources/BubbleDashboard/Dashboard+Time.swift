import BubblePhysics

/// Time: the host loop.
///
/// The dashboard steps at a fixed 60 Hz; a display, an export or a server asks for pictures at its
/// own times. `advance(to:)` takes the steps up to a time and `scene(at:)` gives the picture at
/// that time, between the last two steps: positions and circle sizes of bubbles the physics moves
/// are interpolated linearly between the two step states (only `+ - * /`, so the same `t` gives
/// the same bits), and what is animated by a curve (scale, opacity, blur, glides, bubbles leaving,
/// the overlay's fade) is evaluated at `t` itself.
///
/// ```swift
/// // On every display refresh (60, 120 Hz or anything else), with t in seconds since the start:
/// dashboard.advance(to: t)
/// draw(dashboard.scene(at: t))
/// // On a touch: it takes effect at the next step at or after now.
/// try dashboard.send(.tap(id))
/// ```
///
/// An event takes effect on the state the dashboard holds when it is sent: after `advance(to: t)`
/// that is the first step at or after `t`, so events fire at the first step at or after their time.
extension Dashboard {
    /// The first step at or after `time`: `⌈time / timeStep⌉`, where a time within a millionth of
    /// a step of a step's time is that step's (so decimal times such as 0.5 s land on their step).
    public func stepIndex(atTime time: Double) -> Int {
        Self.stepIndex(time, timeStep)
    }

    static func stepIndex(_ time: Double, _ dt: Double) -> Int {
        guard time.isFinite else { return time > 0 ? Int.max : 0 }
        let exact = time / dt
        if exact <= 0 { return 0 }
        if exact >= 9e15 { return Int.max }
        let rounded = exact.rounded()
        if abs(exact - rounded) < 1e-6 { return Int(rounded) }
        return Int(exact.rounded(.up))
    }

    /// Whether `time` is a step's time (within a millionth of a step).
    static func isStepTime(_ time: Double, _ dt: Double) -> Bool {
        let exact = time / dt
        return abs(exact - exact.rounded()) < 1e-6
    }

    /// Steps until the state at `time` is available (`stepCount` is then `stepIndex(atTime: time)`,
    /// or more if the dashboard was already further). Returns the steps taken. A time in the past,
    /// or not finite, takes none; one call takes at most `maxSteps` (default: ten minutes' worth),
    /// so a clock that jumps far ahead never hangs the caller (the next calls catch up).
    @discardableResult
    public func advance(to time: Double, maxSteps: Int = 36_000) -> Int {
        guard time.isFinite else { return 0 }
        let target = stepIndex(atTime: time)
        var n = 0
        while stepCount < target && n < maxSteps {
            step()
            n += 1
        }
        return n
    }
}

extension Dashboard {
    /// The state hash behind `scene(at: t)`: `stateHash` at a step's own time; between two steps it
    /// also covers where between them `t` lies and the positions interpolated from.
    public func stateHash(at t: Double) -> UInt64 {
        let (now, alpha) = sampleTime(t)
        if alpha == 1 { return stateHash }
        var h = FNV1a64()
        h.combine(stateHash)
        h.combine(now)
        h.combine(alpha)
        for b in live {
            guard let q = b.previous else { continue }
            h.combine(q.x)
            h.combine(q.y)
        }
        return h.value
    }
}
