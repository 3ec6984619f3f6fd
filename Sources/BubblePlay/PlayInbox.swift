import BubbleSupport
@_spi(Testbed) import BubbleDashboard

/// What a page has sent that its session has not taken yet: the pacing credit, the finger's
/// latest move, and the other messages in a bounded queue behind a rate limit.
///
/// The connection's reader task puts messages in (`receive`); the session task takes them out
/// (`take`) when the doorbell rings. The rules (docs/play.md, "Security" and "Pacing"):
/// - `ready` is one flag. It is never rate-limited, never queued and never dropped: a thousand of
///   them cost nothing, and a credit is either here, in the session, or spent on a frame.
/// - A `move` right behind another `move` replaces it (the dashboard keeps only the last move of
///   a step anyway), and a move costs the rate limit at most once per 1/60 s window of the
///   server's clock, so a 240 Hz display with a fast finger is not a flood.
/// - Every other message costs one token of the rate limit (`rate` a second, bursts of `burst`)
///   and waits in a queue of at most `queueLimit`; beyond either it is dropped and counted.
///
/// Thread-safe; the doorbell is an `AsyncStream` that keeps one pending ring, and `take` drains
/// everything, so no ring is lost.
public final class PlayInbox: Sendable {
    /// A message the session has to handle, in arrival order.
    public enum Item: Sendable, Equatable {
        /// A message to parse with the session's parser (it reports any error).
        case message([UInt8])
        /// A finger move, already checked.
        case move(ScenePoint)
    }

    /// What `take` hands the session.
    public struct Batch: Sendable, Equatable {
        /// The messages and finger moves taken, in arrival order (moves merged).
        public var items: [Item] = []
        /// The page sent `ready` since the last take: the session holds a credit now.
        public var credit = false
        /// Messages dropped (rate limit or full queue) since the last take.
        public var dropped = 0
        /// The connection has ended: the session ends after these items.
        public var closed = false
    }

    /// How a message was taken.
    public enum Receipt: Sendable, Equatable {
        case credit, queued, coalesced, dropped, closed
    }

    struct State {
        var items: [Item] = []
        var credit = false
        var dropped = 0
        var closed = false
        var tokens: Double
        var refilled: Double?
        var lastChargedMoveWindow = Int.min
        /// Totals, for tests and the stats page.
        var credits = 0
        var coalesced = 0
        var droppedTotal = 0
    }

    /// Messages per second a page may send on average (`PlayServerOptions.messagesPerSecond`).
    public let rate: Double
    /// Messages a page may send at once before the rate applies (`PlayServerOptions.messageBurst`).
    public let burst: Double
    /// Messages that may wait for the session; more are dropped (`PlayServerOptions.queueLimit`).
    public let queueLimit: Int
    let state: Locked<State>
    let classifier: PlayMessageParser
    let bell: AsyncStream<Void>.Continuation
    /// Rings (at most one pending) whenever there is something to take.
    public let doorbell: AsyncStream<Void>

    /// - Parameters:
    ///   - rate: messages a second that cost work, on average (default 240).
    ///   - burst: the most such messages at once (default 480).
    ///   - queueLimit: messages waiting for the session (default 256).
    ///   - canvasWidth, canvasHeight: the canvas (points), to check moves.
    public init(rate: Double = 240, burst: Double = 480, queueLimit: Int = 256, canvasWidth: Double, canvasHeight: Double) {
        self.rate = rate
        self.burst = burst
        self.queueLimit = max(1, queueLimit)
        state = Locked(State(tokens: burst))
        classifier = PlayMessageParser(canvasWidth: canvasWidth, canvasHeight: canvasHeight, baseSettings: DashboardSettings())
        (doorbell, bell) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Takes one message from the page that arrived at `now` (seconds on the server's clock).
    @discardableResult
    public func receive(_ bytes: [UInt8], now: Double) -> Receipt {
        var parsed: PlayMessage?
        if bytes.count <= 64 || bytes.count <= PlayMessageParser.maxMessageBytes && Self.mayBeReadyOrMove(bytes) {
            parsed = try? classifier.parse(bytes)  // only sorts credits and moves; the session parses and reports the rest
        }
        let receipt = state.withLock { s -> Receipt in
            guard !s.closed else { return .closed }
            if parsed == .ready {
                s.credit = true
                s.credits += 1
                return .credit
            }
            if let r = s.refilled { s.tokens = min(burst, s.tokens + max(0, now - r) * rate) }
            s.refilled = now
            if case .move(let p) = parsed {
                if case .move = s.items.last {
                    s.items[s.items.count - 1] = .move(p)
                    s.coalesced += 1
                    return .coalesced
                }
                let window = Int((now * 60).rounded(.down))
                if window != s.lastChargedMoveWindow {
                    guard s.tokens >= 1 else { return Self.drop(&s) }
                    s.tokens -= 1
                    s.lastChargedMoveWindow = window
                }
                guard s.items.count < queueLimit else { return Self.drop(&s) }
                s.items.append(.move(p))
                return .queued
            }
            guard s.tokens >= 1 else { return Self.drop(&s) }
            s.tokens -= 1
            guard s.items.count < queueLimit else { return Self.drop(&s) }
            s.items.append(.message(bytes))
            return .queued
        }
        if receipt != .closed { bell.yield() }
        return receipt
    }

    private static func drop(_ s: inout State) -> Receipt {
        s.dropped += 1
        s.droppedTotal += 1
        return .dropped
    }

    /// A cheap look for `"ready"` or `"move"` before parsing, so that a flood of other large
    /// messages is not parsed twice.
    static func mayBeReadyOrMove(_ bytes: [UInt8]) -> Bool {
        let ready = Array("\"ready\"".utf8), move = Array("\"move\"".utf8)
        func contains(_ needle: [UInt8]) -> Bool {
            guard bytes.count >= needle.count else { return false }
            for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                return true
            }
            return false
        }
        return contains(ready) || contains(move)
    }

    /// Everything waiting, and the credit (which moves to the caller: the inbox's flag clears).
    public func take() -> Batch {
        state.withLock { s in
            defer {
                s.items.removeAll(keepingCapacity: s.items.capacity <= 64)
                s.credit = false
                s.dropped = 0
            }
            return Batch(items: s.items, credit: s.credit, dropped: s.dropped, closed: s.closed)
        }
    }

    /// The connection has ended (or the session must): the session takes what is left and ends.
    public func close() {
        state.withLock { $0.closed = true }
        bell.yield()
        bell.finish()
    }

    /// Credits received, moves coalesced and messages dropped so far.
    public var totals: (credits: Int, coalesced: Int, dropped: Int) {
        state.withLock { ($0.credits, $0.coalesced, $0.droppedTotal) }
    }
}
