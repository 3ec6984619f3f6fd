import BubbleSupport
import Foundation

/// One page of the soak while it plays: what it has received, and the gesture it is making. It
/// reads until the next display refresh; at each refresh it sends the credit for the frame it
/// showed, then moves the finger.
///
/// The gesture: find a bubble (one frame with the debug view), drag it round for two seconds,
/// release; every third time tap it and pinch back after a second.
struct PagePlayer {
    enum Phase {
        case findBubble(asked: Double), drag(centre: (Double, Double), until: Double, ticks: Int), pause(until: Double, pinch: Bool)
        /// Reading an open preview (viewer mode): scrolls and a zoom until `until`, then back.
        case reading(until: Double, ticks: Int)
    }

    let ws: LoopbackWebSocket
    let options: PlaySoak.Options
    var random: SplitMix64
    var page = PlaySoak.Page()
    let began: Double
    // The page's state: a frame shown since its last `ready` (the first credit is implicit),
    // a header whose PNG is still to come, when it last got a frame, whether that was moving.
    var shownSinceReady = false
    var awaitingPNG = false
    var lastFrameAt: Double, dragBegan: Double, stallCounted = false
    var openStall: Double?
    // Input to frame: from an input to the first frame drawn for a credit sent after it (so
    // a frame that shows the input: conservative, it includes the wait for the page's next
    // display refresh, as a browser's would).
    var pendingInputAt: Double?
    var creditSentAt: Double
    // While the finger drags, every move makes the next frame due (the session draws one for
    // any input, even when the picture stays the same): a wait over `maxGap` is a stall.
    var phase = Phase.findBubble(asked: 0)
    var cycle = 0
    var bodies: [(Double, Double)] = [], fixed: [(Double, Double)] = []
    /// The report cards among `bodies` (rounded rectangles in the debug view).
    var reports: [(Double, Double)] = []
    var canvas = (768.0, 1024.0)
    /// The last frame's `preview` (the sheet's pages rectangle), nil when no preview is open.
    var previewPages: [Double]?
    /// Taps down since the page was last at the top (viewer mode).
    var descents = 0

    init(ws: LoopbackWebSocket, options: PlaySoak.Options, random: SplitMix64, began: Double) {
        self.ws = ws
        self.options = options
        self.random = random
        self.began = began
        lastFrameAt = began
        dragBegan = began
        creditSentAt = began
    }

    /// Plays until `end` (monotonic seconds) or until the connection ends.
    mutating func play(until end: Double) -> PlaySoak.Page {
        let tick = 1 / options.displayHz
        var nextTick = began + tick
        while true {
            let t = MonotonicClock.seconds()
            if t >= end { break }
            // Read until the next refresh.
            let event = ws.read(timeout: max(0, nextTick - t))
            let now = MonotonicClock.seconds()
            guard receive(event, now: now) else { break }
            guard MonotonicClock.seconds() >= nextTick else { continue }
            nextTick += tick
            if nextTick < now { nextTick = now + tick }
            // A display refresh: the credit for the frame just shown, then the finger.
            if shownSinceReady {
                shownSinceReady = false
                guard send(#"{"type": "ready"}"#) else { page.endedEarly = 0; break }
                creditSentAt = MonotonicClock.seconds()
            }
            guard moveFinger(now: now) else { page.endedEarly = 0; break }
        }
        if let start = openStall { page.stalls.append((start, MonotonicClock.seconds())) }
        page.seconds = MonotonicClock.seconds() - began
        page.latencies.sort()
        return page
    }

    func send(_ text: String) -> Bool {
        do { try ws.send(text); return true } catch { return false }
    }

    /// Takes one event from the server; false when the connection ended.
    mutating func receive(_ event: LoopbackWebSocket.Event, now: Double) -> Bool {
        switch event {
        case .text(let s):
            let m = PlaySoak.object(s)
            switch m["type"] as? String {
            case "frame":
                receiveFrame(m, now: now)
            case "welcome":
                if let c = m["canvas"] as? [Any], c.count == 2, let w = PlaySoak.number(c[0]), let h = PlaySoak.number(c[1]) {
                    canvas = (w, h)
                }
            case "error":
                page.errors += 1
                if page.firstErrors.count < 3, let text = m["message"] as? String { page.firstErrors.append(text) }
            default:
                break
            }
        case .binary:
            if awaitingPNG {
                awaitingPNG = false
                shownSinceReady = true
            }
        case .close(let code):
            page.endedEarly = code
            return false
        case .ended:
            page.endedEarly = 0
            return false
        case .timeout:
            break
        }
        return true
    }

    /// A frame header: its time, the stall or input it ends, the bubbles of the debug view, and
    /// whether a picture follows.
    mutating func receiveFrame(_ m: [String: Any], now: Double) {
        page.frames += 1
        if case .drag = phase { page.longestGap = max(page.longestGap, now - max(lastFrameAt, dragBegan)) }
        lastFrameAt = now
        stallCounted = false
        page.frameTimes.append(now)
        if let start = openStall {
            page.stalls.append((start, now))
            openStall = nil
        }
        if let p = pendingInputAt, creditSentAt > p {
            page.latencies.append((now - p) * 1000)
            pendingInputAt = nil
        }
        if let d = m["debug"] as? [String: Any], let list = d["bodies"] as? [[String: Any]] {
            fixed = list.compactMap { b in
                guard b["kinematic"] as? Bool == true, let x = PlaySoak.number(b["x"]), let y = PlaySoak.number(b["y"]) else { return nil }
                return (x, y)
            }
            let canvas = canvas
            let free = list.filter { b in
                guard b["kinematic"] as? Bool == false, let x = PlaySoak.number(b["x"]), let y = PlaySoak.number(b["y"]) else { return false }
                return x > 20 && y > 90 && x < canvas.0 - 20 && y < canvas.1 - 90
            }
            bodies = free.compactMap { b in PlaySoak.number(b["x"]).flatMap { x in PlaySoak.number(b["y"]).map { (x, $0) } } }
            reports = free.compactMap { b in
                guard b["w"] != nil, let x = PlaySoak.number(b["x"]), let y = PlaySoak.number(b["y"]) else { return nil }
                return (x, y)
            }
        }
        if let p = m["preview"] as? [String: Any], let r = p["pages"] as? [Any], r.count == 4 {
            previewPages = r.compactMap { PlaySoak.number($0) }
        } else {
            previewPages = nil
        }
        if let tiles = m["tiles"] as? [Any], tiles.isEmpty {
            shownSinceReady = true
        } else {
            awaitingPNG = true
            page.pictures += 1
        }
    }

    /// The gesture's step at a display refresh; false when a message the page must send could
    /// not be sent.
    mutating func moveFinger(now: Double) -> Bool {
        switch phase {
        case .findBubble(let asked):
            if asked == 0 {
                bodies = []
                fixed = []
                guard send(#"{"type": "debug", "on": true}"#) else { return false }
                phase = .findBubble(asked: now)
            } else if bodies.isEmpty, let f = fixed.first {
                // The start screen (one fixed bubble): open it, then look again.
                _ = send(#"{"type": "debug", "on": false}"#)
                _ = send(#"{"type": "tap", "x": \#(f.0), "y": \#(f.1)}"#)
                pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
                phase = .pause(until: now + 1.2, pinch: false)
            } else if options.viewer, !bodies.isEmpty {
                // Straight to a report where the level has one, else a level down: a tap where
                // the debug view has just put the bubble.
                _ = send(#"{"type": "debug", "on": false}"#)
                let b = reports.isEmpty ? bodies[random.below(bodies.count)] : reports[random.below(reports.count)]
                _ = send(#"{"type": "tap", "x": \#(b.0), "y": \#(b.1)}"#)
                pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
                phase = .pause(until: now + 1.2, pinch: false)
            } else if !bodies.isEmpty || now - asked > 2 {
                _ = send(#"{"type": "debug", "on": false}"#)
                let b = bodies.isEmpty ? (canvas.0 / 2, canvas.1 / 2) : bodies[random.below(bodies.count)]
                _ = send(#"{"type": "press", "x": \#(b.0), "y": \#(b.1)}"#)
                pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
                phase = .drag(centre: b, until: now + 2, ticks: 0)
                dragBegan = now
            }
        case .drag(let c, let until, let ticks):
            return drag(centre: c, until: until, ticks: ticks, now: now)
        case .pause(let until, let pinch):
            if now >= until {
                if options.viewer {
                    if previewPages != nil {
                        phase = .reading(until: now + 4, ticks: 0)
                        return true
                    }
                    // Down until a report opens; back to the top after five levels without one.
                    descents += 1
                    if descents >= 5 {
                        for _ in 0..<descents { _ = send(#"{"type": "pinch"}"#) }
                        descents = 0
                    }
                } else if pinch {
                    _ = send(#"{"type": "pinch"}"#)
                    pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
                }
                phase = .findBubble(asked: 0)
            }
        case .reading(let until, let ticks):
            return read(until: until, ticks: ticks, now: now)
        }
        return true
    }

    /// One step of reading an open preview: a scroll every quarter second (down, then up), a zoom
    /// in on the pages after two seconds, and at `until` a pinch back (the preview closes).
    mutating func read(until: Double, ticks: Int, now: Double) -> Bool {
        if now >= until || previewPages == nil {
            if previewPages != nil {
                _ = send(#"{"type": "pinch"}"#)
                pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
                page.previewsRead += 1
                descents = max(0, descents - 1)
            }
            phase = .findBubble(asked: 0)
            return true
        }
        let quarter = Int(options.displayHz / 4)
        if ticks % quarter == 0 {
            let dy = ticks < Int(options.displayHz * 2) ? 300 + random.below(600) : -(200 + random.below(400))
            guard send(#"{"type": "scroll", "dy": \#(dy)}"#) else { return false }
            pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
        }
        if ticks == Int(options.displayHz * 2), let r = previewPages {
            guard send(#"{"type": "zoom", "scale": 2, "x": \#(r[0] + r[2] / 2), "y": \#(r[1] + r[3] / 2)}"#) else { return false }
        }
        phase = .reading(until: until, ticks: ticks + 1)
        return true
    }

    /// One step of the drag round `c`: a move, or at `until` the release (and every third time a
    /// tap); counts a wait over `maxGap` as a stall.
    mutating func drag(centre c: (Double, Double), until: Double, ticks: Int, now: Double) -> Bool {
        let wait = now - max(lastFrameAt, dragBegan)
        page.longestGap = max(page.longestGap, wait)
        if wait > options.maxGap && !stallCounted {
            page.gapsOverLimit += 1
            stallCounted = true
            openStall = max(lastFrameAt, dragBegan)
        }
        if now >= until {
            if let start = openStall {
                page.stalls.append((start, now))
                openStall = nil
            }
            _ = send(#"{"type": "release"}"#)
            cycle += 1
            let tapAndPinch = cycle % 3 == 0 || options.viewer
            if tapAndPinch { _ = send(#"{"type": "tap", "x": \#(c.0), "y": \#(c.1)}"#) }
            pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
            phase = .pause(until: now + (tapAndPinch ? 1.2 : 0.3), pinch: tapAndPinch)
        } else {
            let a = Double(ticks) * 2 * Double.pi / (options.displayHz * 0.8)
            let x = c.0 + 60 * cos(a) - 60, y = c.1 + 60 * sin(a)
            guard send(#"{"type": "move", "x": \#((x * 10).rounded() / 10), "y": \#((y * 10).rounded() / 10)}"#) else {
                return false
            }
            pendingInputAt = pendingInputAt ?? MonotonicClock.seconds()
            phase = .drag(centre: c, until: until, ticks: ticks + 1)
        }
        return true
    }
}
