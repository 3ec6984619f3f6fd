import BubblePhysics
import BubbleSupport

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
/// try dashboard.send(.tapBubble(id))
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

    package static func stepIndex(_ time: Double, _ dt: Double) -> Int {
        guard time.isFinite else { return time > 0 ? Int.max : 0 }
        let exact = time / dt
        if exact <= 0 { return 0 }
        if exact >= 9e15 { return Int.max }
        let rounded = exact.rounded()
        if abs(exact - rounded) < 1e-6 { return Int(rounded) }
        return Int(exact.rounded(.up))
    }

    /// Whether `time` is a step's time (within a millionth of a step).
    package static func isStepTime(_ time: Double, _ dt: Double) -> Bool {
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

// Stepping: the per-step animation of the live bubbles, then the physics step.
extension Dashboard {
    /// Advances one fixed step (1/60 s).
    public func step() {
        for i in live.indices { live[i].previous = position(of: live[i]) }
        previousGhosts = ghosts
        previousOverlay = overlay
        stepCount += 1
        let now = time
        for i in live.indices {
            let lands = live[i].transit.map { $0.endsDynamic && $0.isFinished(at: now) } ?? false
            applyAnimation(&live[i], at: now, hold: lands && landsUnderTraveller(i, at: now))
        }
        if let drag {
            world.moveKinematic(held: drag.body, to: drag.finger + drag.grab)
        }
        world.step()
        ghosts.removeAll { $0.isFinished(at: now) }
        if let o = overlay, o.closing, o.opacity.isFinished(at: now) { overlay = nil }
        advanceTable(at: now)
        advanceViewer(at: now)
        advancePan(at: now)
        advanceFinding(at: now)
        if drag == nil && world.isAtRest && live.allSatisfy({ $0.transit == nil }) {
            if placesPending {
                commitPlaces()
            } else if needsSnap {
                needsSnap = false
                snapToPlaces()
            }
        }
    }

    /// Once the world rests, a child within a point of its place is put exactly on it, so a level
    /// comes back to the very same positions every time (the last hundredth of a point a spring
    /// would take seconds to close).
    func snapToPlaces() {
        for b in live where b.role == .child {
            guard let state = world.state(ofHeld: b.body), state.position != state.target else { continue }
            let d = state.position - state.target
            if d.lengthSquared < 1 {
                world.setPosition(ofHeld: b.body, to: state.target)
                world.setVelocity(ofHeld: b.body, to: .zero)
            }
        }
    }

    /// Steps `count` times.
    public func step(count: Int) {
        for _ in 0..<max(0, count) { step() }
    }

    /// Steps until the dashboard is at rest, at most `limit` steps; returns the steps taken.
    @discardableResult
    public func settle(limit: Int = 1200) -> Int {
        var n = 0
        while n < limit && !isAtRest {
            step()
            n += 1
        }
        return n
    }

    // MARK: - Per-step animation

    /// True when live bubble `i`, ending its glide, would land under a bubble that is still
    /// travelling (a kinematic glide, or the dragged bubble): as a dynamic body it would be shoved
    /// off that one in a single step, so it stays kinematic at its place until the other has
    /// passed. (Bounding circles: a card may wait a frame or two longer than it needs to.)
    func landsUnderTraveller(_ i: Int, at now: Double) -> Bool {
        guard let t = live[i].transit else { return false }
        let r = boundingRadius(live[i].shape) * live[i].displayScale(at: now)
        for (j, other) in live.enumerated() where j != i {
            let p: Vector2
            if let o = other.transit, !o.isFinished(at: now) {
                p = o.position(at: now)
            } else if let drag, drag.body == other.body {
                p = drag.finger + drag.grab
            } else {
                continue
            }
            let reach = r + boundingRadius(other.shape) * other.displayScale(at: now) + settings.sizes.gap
            if (p - t.to).lengthSquared < reach * reach { return true }
        }
        return false
    }

    func boundingRadius(_ shape: Shape) -> Double {
        switch shape {
        case .circle(let r): r
        case .roundedRect(let w, let h, _): 0.5 * (w * w + h * h).squareRoot()
        }
    }

    /// Pushes a bubble's animated values (scale, size, travel) into the world. With `hold`, a
    /// glide that has ended keeps the bubble kinematic at its place for this step.
    func applyAnimation(_ b: inout LiveBubble, at now: Double, hold: Bool = false) {
        let scale = max(0, min(b.displayScale(at: now), 4))
        if let current = world.scale(ofHeld: b.body), current != scale {
            world.setScale(ofHeld: b.body, to: scale)
        }
        if var transit = b.transit {
            let p = transit.position(at: now)
            let r = transit.radius.value(at: now)
            world.moveKinematic(held: b.body, to: p)
            if case .circle = b.shape {
                b.shape = .circle(radius: r)
                world.setShape(ofHeld: b.body, to: .circle(radius: r + settings.sizes.gap / 2))
            }
            if transit.isFinished(at: now) && !hold {
                if transit.endsDynamic {
                    world.setKinematic(held: b.body, false)
                    world.setTarget(ofHeld: b.body, to: transit.to)
                    world.setSpring(ofHeld: b.body, to: settings.motion.placeSpring)
                    b.transit = nil
                } else {
                    transit.from = transit.to
                    b.transit = nil
                }
            }
        }
    }
}
