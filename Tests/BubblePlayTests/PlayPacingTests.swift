@_spi(Testbed) import BubbleDashboard
import BubblePhysics
import BubblePlay
import Foundation
import TestSupport
import Testing

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

@Suite("Play pacing")
struct PlayPacingTests {
    /// The issue's reproduction: a 144 Hz page dragging sends a `ready` and a move per refresh,
    /// 288 messages a second against a limit of 240. Nothing may be dropped.
    @Test func a144HzDragIsNotAFlood() {
        let inbox = PlayInbox(canvasWidth: 768, canvasHeight: 1024)
        var receipts: [PlayInbox.Receipt: Int] = [:]
        inbox.receive(bytes(#"{"type": "press", "x": 300, "y": 400}"#), now: 0)
        for k in 1...(144 * 60) {
            let t = Double(k) / 144
            receipts[inbox.receive(bytes(#"{"type": "ready"}"#), now: t), default: 0] += 1
            receipts[inbox.receive(bytes(#"{"type": "move", "x": \#(300 + k % 50), "y": 400}"#), now: t), default: 0] += 1
            // The session takes the inbox about once a frame.
            if k % 2 == 0 { _ = inbox.take() }
        }
        #expect(receipts[.dropped] == nil, "\(receipts)")
        #expect(receipts[.credit] == 144 * 60)
        // A 240 Hz display with a fast finger, and a thousand `ready`s in a burst: still nothing dropped.
        for k in 1...(240 * 10) {
            let t = 61 + Double(k) / 240
            for _ in 0..<4 { #expect(inbox.receive(bytes(#"{"type": "ready"}"#), now: t) == .credit) }
            #expect(inbox.receive(bytes(#"{"type": "move", "x": 5, "y": \#(k % 900)}"#), now: t) != .dropped)
            if k % 4 == 0 { _ = inbox.take() }
        }
    }

    /// What costs work is limited; the credit never is, and moves in a row are merged.
    @Test func floodsDropWorkNotCredit() {
        let inbox = PlayInbox(rate: 50, burst: 100, queueLimit: 16, canvasWidth: 768, canvasHeight: 1024)
        var dropped = 0
        for k in 0..<1000 {
            if inbox.receive(bytes(#"{"type": "pinch"}"#), now: Double(k) * 1e-4) == .dropped { dropped += 1 }
        }
        #expect(dropped == 1000 - 16, "the queue holds 16")
        #expect(inbox.receive(bytes(#"{"type": "ready"}"#), now: 0.1) == .credit)
        let batch = inbox.take()
        #expect(batch.credit && batch.items.count == 16 && batch.dropped == dropped)
        #expect(inbox.take().credit == false, "a credit is taken once")
        // Moves right after one another keep only the last.
        inbox.receive(bytes(#"{"type": "press", "x": 1, "y": 1}"#), now: 20)
        for k in 0..<50 { inbox.receive(bytes(#"{"type": "move", "x": \#(k), "y": 2}"#), now: 20 + Double(k) * 1e-3) }
        inbox.receive(bytes(#"{"type": "release"}"#), now: 20.1)
        let moves = inbox.take().items
        #expect(moves.count == 3)
        #expect(moves[1] == .move(ScenePoint(x: 49, y: 2)))
        // After close nothing is taken, and the last take says so.
        inbox.close()
        #expect(inbox.receive(bytes(#"{"type": "ready"}"#), now: 21) == .closed)
        #expect(inbox.take().closed)
    }

    /// A session driven as the server drives it (inbox, then `apply`, then a frame if it wants
    /// one) by a page and a hostile client sharing its connection, on a clock the test owns:
    /// readies at random moments (also several at once), drags at up to 500 Hz, floods that
    /// overrun the rate limit and the queue, malformed and oversized messages, pause, single
    /// step, speed, scale changes and restarts, and frames that reach the page late. After every
    /// server turn: a page that waits for a frame has either one on the way or its credit is
    /// held by the session; a held credit with something to draw has been spent.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func noCreditIsLostUnderAHostileInterleaving(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let session = try PlaySession(source: sampleSource, scale: 0.5, now: 0)
        let inbox = PlayInbox(rate: 240, burst: 60, queueLimit: 24, canvasWidth: 768, canvasHeight: 1024)
        var now = 0.0
        // The page: whether it waits for a frame (a new session starts with a credit) and the
        // frames on their way to it.
        var pageWaits = true
        var onTheWay = 0
        var framesSeen = 0, turns = 0, losses: [String] = []
        let garbage = ["{", "[1]", #"{"type": "ready", "x": 1}"#, #"{"type": "move", "x": "a", "y": 1}"#, String(repeating: "x", count: 5000),
                       #"{"type": "tap", "x": 5, "y": 5}"#, #"{"type": "explode"}"#]
        var pressed = false
        for _ in 0..<1200 {
            now += random.unit() * 0.01
            switch random.below(20) {
            case 0...3:
                // The page shows a frame that arrived and sends its credit (sometimes twice).
                if onTheWay > 0 {
                    onTheWay -= 1
                    framesSeen += 1
                    if onTheWay == 0 { pageWaits = false }
                }
                if !pageWaits || random.below(4) == 0 {
                    for _ in 0...random.below(2) { inbox.receive(bytes(#"{"type": "ready"}"#), now: now) }
                    pageWaits = true
                }
            case 4...7:
                if !pressed {
                    let p = session.firstChildCentre() ?? ScenePoint(x: 384, y: 512)
                    inbox.receive(bytes(#"{"type": "press", "x": \#(p.x), "y": \#(p.y)}"#), now: now)
                    pressed = true
                }
                for _ in 0..<(1 + random.below(6)) {
                    now += 0.002
                    inbox.receive(bytes(#"{"type": "move", "x": \#(random.below(768)), "y": \#(random.below(1024))}"#), now: now)
                }
                if random.below(5) == 0 {
                    inbox.receive(bytes(#"{"type": "release"}"#), now: now)
                    pressed = false
                }
            case 8:
                // A flood: over the burst and the queue.
                for k in 0..<(50 + random.below(200)) {
                    let m = k % 3 == 0 ? #"{"type": "pinch"}"# : garbage[random.below(garbage.count)]
                    inbox.receive(bytes(m), now: now)
                }
            case 9:
                let controls = [#"{"type": "pause", "on": true}"#, #"{"type": "pause", "on": false}"#, #"{"type": "step"}"#,
                                #"{"type": "speed", "value": 0.5}"#, #"{"type": "speed", "value": 1}"#, #"{"type": "hello", "scale": 0.75}"#,
                                #"{"type": "hello", "scale": 0.5}"#, #"{"type": "debug", "on": true}"#, #"{"type": "tap", "x": 384, "y": 600}"#]
                inbox.receive(bytes(controls[random.below(controls.count)]), now: now)
                if random.below(40) == 0 { inbox.receive(bytes(#"{"type": "restart"}"#), now: now) }
            default:
                // A server turn.
                turns += 1
                let batch = inbox.take()
                _ = session.apply(batch, now: { now })
                if session.wantsFrame, try session.frame(now: now) != nil { onTheWay += 1 }
                if session.wantsFrame { losses.append("turn \(turns): a held credit with something to draw was not spent") }
                if pageWaits && onTheWay == 0 && !session.hasCredit {
                    losses.append("turn \(turns) at \(now) s: the page waits, no frame is on its way and the session holds no credit")
                }
            }
        }
        #expect(losses.isEmpty, "\(losses.prefix(5))")
        let totals = inbox.totals
        #expect(totals.dropped > 0, "the schedule overran the limits")
        #expect(totals.coalesced > 0)
        #expect(framesSeen > 20, "frames flowed: \(framesSeen)")
    }
}
