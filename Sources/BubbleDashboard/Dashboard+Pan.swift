import BubblePhysics
import BubbleSupport

/// The pan of a level larger than the bubble area (see `LevelGrouping.Policy.panMaxArea`): two
/// scrolls, one per axis, with the reports table's physics (`TableScroll`): a finger moves the
/// level with it, rubber-banded past an edge, and a fling decelerates and bounces at an edge.
///
/// Offsets run from 0 (the level's left or top edge at the bubble area's) to `range`; `home` is the
/// offset at which the level sits where it was laid out, its focus in the middle of the bubble
/// area. The shift drawn is `home − offset` plus `carry`: what is left of the previous level's
/// shift, eased to 0 while the levels change, so the view never jumps.
struct CanvasPan: Sendable, Hashable {
    var x = TableScroll()
    var y = TableScroll()
    /// How far each axis pans (pt): 0 where the level fits the bubble area.
    var range = Vector2.zero
    /// The offsets of the level's laid-out position (pt).
    var home = Vector2.zero
    /// The level panned (nil: none).
    var level: Int?
    /// The previous level's shift, easing out (pt).
    var carryX = Tween.constant(0)
    var carryY = Tween.constant(0)
    /// The scroll indicators' opacity.
    var indicator = Tween.constant(0)

    /// Whether the level pans on either axis.
    var pans: Bool { range.x > 0 || range.y > 0 }

    var isTracking: Bool { x.isTracking || y.isTracking }

    /// The shift from the level's own coordinates to the canvas (pt), from the scroll alone.
    var scrollShift: Vector2 { Vector2(home.x - x.offset, home.y - y.offset) }

    /// Whether the pan is in play at all (a hash of a dashboard that never pans leaves it out).
    func isActive(at time: Double) -> Bool {
        pans || !carryX.isFinished(at: time) || !carryY.isFinished(at: time) || x != TableScroll() || y != TableScroll()
    }

    func isAtRest(at time: Double) -> Bool {
        x.phase == .idle && y.phase == .idle && x.offset >= 0 && x.offset <= range.x && y.offset >= 0 && y.offset <= range.y
            && carryX.isFinished(at: time) && carryY.isFinished(at: time) && indicator.isFinished(at: time)
    }

    func combine(into h: inout FNV1a64, at time: Double) {
        h.combine(range.x)
        h.combine(range.y)
        h.combine(home.x)
        h.combine(home.y)
        x.combine(into: &h, at: time)
        y.combine(into: &h, at: time)
        h.combine(carryX.value(at: time))
        h.combine(carryY.value(at: time))
        h.combine(indicator.value(at: time))
    }
}

/// How the pan's scroll indicators show: at full strength while the level moves, then fading to
/// `restOpacity`, which stays as a hint that there is more of the level.
enum PanIndicator {
    /// The indicators' opacity while a panning level rests.
    static let restOpacity = 0.45
}

extension Dashboard {
    /// The shift from level coordinates (where the physics keeps the bubbles) to canvas points at
    /// `now`, between the last two steps by `alpha` (see `scene(at:)`).
    func panShift(at now: Double, _ alpha: Double = 1) -> Vector2 {
        var s = pan.scrollShift
        if alpha < 1 {
            let q = previousPanShift
            s = alpha <= 0 ? q : Vector2(q.x + (s.x - q.x) * alpha, q.y + (s.y - q.y) * alpha)
        }
        return Vector2(s.x + pan.carryX.value(at: now), s.y + pan.carryY.value(at: now))
    }

    /// A canvas point in level coordinates, now.
    func levelPoint(_ p: Vector2) -> Vector2 { p - panShift(at: time) }

    /// Makes `level`'s layout the one panned: its extent, the offset it was left at (or its
    /// home), and the previous shift carried over and eased out. The live world's bounds become
    /// the level's area.
    func panLevel(_ level: Int, layout lay: LevelLayout) {
        let now = time
        let shown = panShift(at: now)
        if let l = pan.level, pan.pans { savedPans[l] = SavedPan(range: pan.range, offset: clampedPanOffset) }
        let content = settings.contentRect
        // The level's extent: the bubble area and every child at home, with half a gap round it.
        var minX = content.x, minY = content.y, maxX = content.x + content.width, maxY = content.y + content.height
        if lay.spread > 1 {
            let pad = settings.sizes.gap / 2
            for (shape, p) in zip(lay.shapes, lay.home) {
                let (hw, hh, _) = shape.halfExtents
                minX = min(minX, p.x - hw - pad)
                maxX = max(maxX, p.x + hw + pad)
                minY = min(minY, p.y - hh - pad)
                maxY = max(maxY, p.y + hh + pad)
            }
        }
        var range = Vector2(maxX - minX - content.width, maxY - minY - content.height)
        // Less than a point is not worth a pan.
        if range.x < 1 { range.x = 0 }
        if range.y < 1 { range.y = 0 }
        let home = Vector2(range.x > 0 ? content.x - minX : 0, range.y > 0 ? content.y - minY : 0)
        var offset = home
        if let saved = savedPans[level], saved.range == range { offset = saved.offset }
        pan.x = TableScroll()
        pan.y = TableScroll()
        pan.x.offset = offset.x
        pan.y.offset = offset.y
        pan.range = range
        pan.home = home
        pan.level = level
        carryShift(from: shown, at: now)
        let d = settings.motion.focusDuration
        if pan.pans {
            // Flashed once the level has come in, then a faint hint that there is more.
            let s = settings.tableScroll
            pan.indicator = Tween(from: 1, to: PanIndicator.restOpacity, start: now + d + s.indicatorFadeDelay, duration: s.indicatorFadeDuration, curve: .out)
        } else {
            pan.indicator = pan.indicator.retarget(0, at: now, duration: settings.tableScroll.indicatorFadeDuration, curve: .out)
        }
        setWorldArea(lay.area)
    }

    /// The live world's bounds: `area` from now on (the world is left alone when they are already).
    func setWorldArea(_ area: Rect) {
        guard world.settings.bounds != area else { return }
        var w = world.settings
        w.bounds = area
        try? world.updateSettings(w)  // the area is the layout's, already checked
    }

    /// The pan offsets, held to the pan's range.
    var clampedPanOffset: Vector2 {
        Vector2(min(max(pan.x.offset, 0), pan.range.x), min(max(pan.y.offset, 0), pan.range.y))
    }

    /// A finger down on empty space of a level that pans: it holds the level.
    func beginPan(at p: Vector2) {
        endDrag()
        holdCarry()
        let ext = panExtent
        let ux = tablePhysics.unbanded(pan.x.offset, max: pan.range.x, extent: ext.x)
        let uy = tablePhysics.unbanded(pan.y.offset, max: pan.range.y, extent: ext.y)
        pan.x.phase = .tracking(anchorFinger: p.x, anchorOffset: ux, finger: p.x)
        pan.y.phase = .tracking(anchorFinger: p.y, anchorOffset: uy, finger: p.y)
        pan.x.velocity = 0
        pan.y.velocity = 0
        pan.indicator = .constant(1)
    }

    /// Moves the finger that holds the level; false when none does.
    func movePanFinger(to p: Vector2) -> Bool {
        guard case .tracking(let ax, let ox, _) = pan.x.phase, case .tracking(let ay, let oy, _) = pan.y.phase else { return false }
        pan.x.phase = .tracking(anchorFinger: ax, anchorOffset: ox, finger: p.x)
        pan.y.phase = .tracking(anchorFinger: ay, anchorOffset: oy, finger: p.y)
        return true
    }

    /// Lets go of the level: it glides on and bounces back at an edge; false when no finger holds it.
    func releasePan() -> Bool {
        guard pan.isTracking else { return false }
        let ext = panExtent
        tablePhysics.release(&pan.x, maxScroll: pan.range.x, extent: ext.x)
        tablePhysics.release(&pan.y, maxScroll: pan.range.y, extent: ext.y)
        fadePanIndicatorIfIdle(at: time)
        return true
    }

    /// Stops a gliding pan where it is (past an edge it still goes back): a finger touched a bubble.
    func stopPan() {
        func stop(_ s: inout TableScroll, range: Double) {
            guard case .fling = s.phase else { return }
            s.velocity = 0
            s.phase = s.offset < 0 || s.offset > range ? .bounce : .idle
        }
        stop(&pan.x, range: pan.range.x)
        stop(&pan.y, range: pan.range.y)
    }

    /// Re-centre: the level glides back to its home offset, as the bubbles glide home.
    func recentrePan() {
        guard pan.pans, !pan.isTracking else { return }
        glidePan(to: pan.home)
    }

    /// Moves the level to the pan offsets `target` on a glide of `focusDuration` (eased in and out,
    /// ending exactly there), from wherever it is drawn now.
    func glidePan(to target: Vector2) {
        let now = time
        let shown = panShift(at: now)
        pan.x.phase = .idle
        pan.y.phase = .idle
        pan.x.velocity = 0
        pan.y.velocity = 0
        pan.x.offset = target.x
        pan.y.offset = target.y
        carryShift(from: shown, at: now)
        if shown != pan.scrollShift {
            let d = settings.motion.focusDuration
            pan.indicator = .constant(1)
            let s = settings.tableScroll
            pan.indicator = pan.indicator.retarget(PanIndicator.restOpacity, at: now, delay: d + s.indicatorFadeDelay, duration: s.indicatorFadeDuration, curve: .out)
        }
    }

    /// Eases the drawn shift from `shown` to the scroll's own over `focusDuration` (the `carry`), so
    /// a change of offsets or of level never makes the view jump.
    func carryShift(from shown: Vector2, at now: Double) {
        let base = pan.scrollShift
        let d = settings.motion.focusDuration
        pan.carryX = shown.x == base.x ? .constant(0) : Tween(from: shown.x - base.x, to: 0, start: now, duration: d, curve: .inOut)
        pan.carryY = shown.y == base.y ? .constant(0) : Tween(from: shown.y - base.y, to: 0, start: now, duration: d, curve: .inOut)
        previousPanShift = base
    }

    /// Stops an eased change of pan where it is drawn now (a finger took the level): what is left
    /// of it goes into the offsets.
    func holdCarry() {
        let now = time
        let cx = pan.carryX.value(at: now), cy = pan.carryY.value(at: now)
        guard cx != 0 || cy != 0 else { return }
        pan.x.offset -= cx
        pan.y.offset -= cy
        pan.carryX = .constant(0)
        pan.carryY = .constant(0)
        previousPanShift = pan.scrollShift
    }

    /// The rubber band's extent per axis: the bubble area's size.
    var panExtent: Vector2 { Vector2(settings.contentRect.width, settings.contentRect.height) }

    /// One fixed step of the pan.
    func advancePan(at now: Double) {
        previousPanShift = pan.scrollShift
        guard pan.pans || pan.x != TableScroll() || pan.y != TableScroll() else { return }
        let moving = pan.x.phase != .idle || pan.y.phase != .idle
        let ext = panExtent
        tablePhysics.advance(&pan.x, maxScroll: pan.range.x, extent: ext.x)
        tablePhysics.advance(&pan.y, maxScroll: pan.range.y, extent: ext.y)
        if moving && !pan.isTracking { fadePanIndicatorIfIdle(at: now) }
    }

    func fadePanIndicatorIfIdle(at now: Double) {
        guard pan.pans, pan.x.phase == .idle, pan.y.phase == .idle else { return }
        let s = settings.tableScroll
        pan.indicator = pan.indicator.retarget(PanIndicator.restOpacity, at: now, delay: s.indicatorFadeDelay, duration: s.indicatorFadeDuration, curve: .out)
    }

    /// The pan as the scene shows it: the level's extent where it is drawn now, and the
    /// indicators' opacity. Nil when the level does not pan.
    func scenePan(shift: Vector2, at now: Double) -> ScenePan? {
        guard pan.pans else { return nil }
        let c = settings.contentRect
        let origin = Vector2(c.x - pan.home.x, c.y - pan.home.y) + shift
        return ScenePan(
            extent: SceneRect(x: origin.x, y: origin.y, width: c.width + pan.range.x, height: c.height + pan.range.y),
            viewport: SceneRect(x: c.x, y: c.y, width: c.width, height: c.height),
            indicatorOpacity: clamp01(pan.indicator.value(at: now)))
    }
}

/// Where a level that pans was left: restored when the user comes back to it.
struct SavedPan: Sendable, Hashable {
    var range: Vector2
    var offset: Vector2
}

extension Dashboard {
    /// On a level that pans, glides the level just far enough that the child `node`
    /// lies wholly in the bubble area, `margin` pt in from its edges: a search pick's card is
    /// never left off screen.
    func panToShow(_ node: Int, margin: Double = 12) {
        guard pan.pans, let lay = layouts[focus], let k = lay.children.firstIndex(of: node) else { return }
        let place = (places[focus] ?? lay.home)[k]
        let e = lay.shapes[k].halfExtents
        let hw = e.hw + margin, hh = e.hh + margin
        let c = settings.contentRect
        // The offsets at which the child's near and far edges meet the bubble area's.
        func target(_ o: Double, place p: Double, home: Double, half: Double, lo: Double, hi: Double, range: Double) -> Double {
            let least = p + home + half - hi, most = p + home - half - lo
            let t = least > most ? (least + most) / 2 : min(max(o, least), most)
            return min(max(t, 0), range)
        }
        let tx = target(clampedPanOffset.x, place: place.x, home: pan.home.x, half: hw, lo: c.minX, hi: c.maxX, range: pan.range.x)
        let ty = target(clampedPanOffset.y, place: place.y, home: pan.home.y, half: hh, lo: c.minY, hi: c.maxY, range: pan.range.y)
        if tx != pan.x.offset || ty != pan.y.offset { glidePan(to: Vector2(tx, ty)) }
    }
}
