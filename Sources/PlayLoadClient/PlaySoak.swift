import BubbleSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A load test of a play server on this machine (127.0.0.1 only): pages that play as people do
/// (drags at the display's rate, taps, pinches back, a `ready` per frame shown and never again
/// until the next frame comes), and clients that misbehave. Used by the soak test of the suite
/// and by `bubbles play-client` (`scripts/soak-play.sh`). Every loop is bounded in time.
public enum PlaySoak {
    /// What to run.
    public struct Options: Sendable {
        /// The server's port on 127.0.0.1.
        public var port: Int
        /// How long (seconds).
        public var seconds: Double
        /// Pages that play (default 4).
        public var pages = 4
        /// The pages' display rate: one `ready` at most, and one finger move, per refresh (Hz,
        /// default 120).
        public var displayHz = 120.0
        /// The pages' devicePixelRatio (default 1).
        public var scale = 1.0
        /// Pages open reports and read them (default false): every drag ends with a tap that
        /// goes down a level, and where the tap opened a report's preview the page scrolls its
        /// pages, zooms in and goes back after four seconds.
        public var viewer = false
        /// Run the misbehaving clients too (default true): extra sessions, floods, oversized,
        /// malformed, non-UTF-8 and binary messages, half-sent HTTP requests, rapid reconnects.
        public var misbehave = true
        /// The server's request time limit (seconds), to check that half-sent requests end.
        public var requestTimeout = 10.0
        /// A page waiting this long for a frame while it drags, while another page got frames (five
        /// or more), is a failure: a lost credit or a starved page (seconds, default 2).
        public var maxGap = 2.0
        /// No page getting a frame for this long while they drag is a failure: the server stalled
        /// (seconds, default 10). Shorter waits shared by every page are the machine being busy
        /// (the soak test runs beside the rest of the suite) and are counted, not failed.
        public var maxServerStall = 10.0
        /// Seconds between calls of `sample` (default 5).
        public var sampleInterval = 5.0
        /// The seed of the pages' and clients' choices (default 1).
        public var seed: UInt64 = 1

        /// A soak of the server on 127.0.0.1:`port` for `seconds`, every other option at its default.
        public init(port: Int, seconds: Double) {
            self.port = port
            self.seconds = seconds
        }
    }

    /// One page's figures.
    public struct Page: Sendable {
        /// Frames received.
        public var frames = 0
        /// Seconds the page played.
        public var seconds = 0.0
        /// Report previews the page opened and read (viewer mode).
        public var previewsRead = 0
        /// Input to the next frame's header, milliseconds, sorted.
        public var latencies: [Double] = []
        /// The longest wait for a frame while the page dragged and the last frame was moving (s).
        public var longestGap = 0.0
        /// Waits over `maxGap`.
        public var gapsOverLimit = 0
        /// When each frame came, and the waits over `maxGap` (start, end), seconds.
        var frameTimes: [Double] = []
        var stalls: [(start: Double, end: Double)] = []
        /// Error messages the server sent the page.
        public var errors = 0
        /// Frames that carried a picture (whole or changed tiles), and the first error messages.
        public var pictures = 0
        /// The first few error messages, as sent.
        public var firstErrors: [String] = []
        /// The connection ended before the soak did (with the close code, 0 for none).
        public var endedEarly: Int?

        /// Frames per second over the page's time.
        public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
        /// The latency (ms) below which the share `p` (0...1) of them fall; 0 with none.
        public func latencyPercentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            return latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
    }

    /// What the misbehaving clients did and saw.
    public struct Misbehaviour: Sendable {
        /// Sessions beyond the server's limit that it refused, as it should.
        public var extraSessionsRefused = 0
        /// Floods sent (2 000 messages at once, malformed and oversized ones among them), and those
        /// the server answered with its rate limit's error within 20 s.
        public var floods = 0
        /// See `floods`.
        public var floodsAnswered = 0
        /// How often the server closed a misbehaving connection with each close code.
        public var closeCodes: [Int: Int] = [:]
        /// Connections closed with another code than the misbehaviour calls for, described.
        public var wrongCloseCodes: [String] = []
        /// HTTP requests sent only in part, and those the server closed within its request time-out.
        public var halfSentRequests = 0
        /// See `halfSentRequests`.
        public var halfSentClosed = 0
        /// Connections opened and closed at once, one after the other.
        public var reconnects = 0
        /// What the misbehaving clients saw that counts as a failure.
        public var failures: [String] = []
    }

    /// What a soak saw: each page's figures, the misbehaving clients' and the failures.
    public struct Report: Sendable {
        /// Each page's figures, in page order.
        public var pages: [Page]
        /// What the misbehaving clients did and saw.
        public var misbehaviour: Misbehaviour
        /// The conditions that failed (lost credit, gaps, pages that ended, wrong close codes).
        public var failures: [String]
        /// Waits over `maxGap` that every page shared (the machine was busy), under `maxServerStall`.
        public var sharedStalls = 0

        /// Several lines for a terminal.
        public var text: String {
            var out = ""
            for (i, p) in pages.enumerated() {
                out += String(
                    format: "page %d: %.1f frames/s (%d in %.0f s, %d with a picture), input to frame p50 %.1f ms, p99 %.1f ms, longest wait while dragging %.2f s, errors %d",
                    i + 1, p.framesPerSecond, p.frames, p.seconds, p.pictures, p.latencyPercentile(0.5), p.latencyPercentile(0.99), p.longestGap, p.errors)
                if p.previewsRead > 0 { out += ", \(p.previewsRead) report previews read" }
                out += (p.endedEarly.map { ", ENDED (close \($0))" } ?? "")
                out += p.firstErrors.isEmpty ? "\n" : " (" + p.firstErrors.joined(separator: "; ") + ")\n"
            }
            let m = misbehaviour
            out += "misbehaving clients: \(m.extraSessionsRefused) extra sessions refused, \(m.floodsAnswered)/\(m.floods) floods limited, "
            out += "close codes \(m.closeCodes.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")), "
            out += "\(m.halfSentClosed)/\(m.halfSentRequests) half-sent requests closed, \(m.reconnects) rapid reconnects\n"
            if sharedStalls > 0 { out += "\(sharedStalls) waits over the limit shared by every page (the machine was busy; not a lost credit)\n" }
            out += failures.isEmpty ? "no failures\n" : "FAILURES:\n" + failures.map { "  " + $0 }.joined(separator: "\n") + "\n"
            return out
        }
    }

    /// Runs the pages and clients on threads of their own (blocking sockets, never the
    /// cooperative pool the server uses) and returns when all are done; `sample` is called every
    /// `sampleInterval` seconds with the seconds elapsed (on another thread).
    public static func run(_ options: Options, sample: @escaping @Sendable (Double) -> Void = { _ in }) -> Report {
        let start = MonotonicClock.seconds()
        let end = start + options.seconds
        let results = Locked<[Int: Page]>([:])
        let misbehaviour = Locked(Misbehaviour())
        let group = DispatchGroup()
        for i in 0..<options.pages {
            group.enter()
            Thread.detachNewThread {
                let page = playPage(options, index: i, end: end)
                results.withLock { $0[i] = page }
                group.leave()
            }
            usleep(100_000)
        }
        if options.misbehave {
            group.enter()
            Thread.detachNewThread {
                let m = misbehave(options, end: end)
                misbehaviour.withLock { $0 = m }
                group.leave()
            }
        }
        var nextSample = start + options.sampleInterval
        while group.wait(timeout: .now() + 0.2) == .timedOut {
            let t = MonotonicClock.seconds()
            if t >= nextSample {
                sample(t - start)
                nextSample += options.sampleInterval
            }
            if t > end + 120 { break }
        }
        let pages = results.withLock { r in (0..<options.pages).map { r[$0] ?? Page(endedEarly: -1) } }
        let m = misbehaviour.withLock { $0 }
        var failures: [String] = []
        var sharedStalls = 0
        for (i, p) in pages.enumerated() {
            if let code = p.endedEarly { failures.append("page \(i + 1) ended early (close code \(code))") }
            for stall in p.stalls {
                // Another page that got five frames or more meanwhile went on while this one
                // waited (in a stall of the whole server each gets one or two at its edges).
                let others = pages.indices.filter { j in j != i && pages[j].frameTimes.lazy.filter { $0 > stall.start && $0 < stall.end }.count >= 5 }
                if !others.isEmpty {
                    failures.append(String(format: "page %d waited %.2f s for a frame while dragging, while page %d got frames: a lost credit or a starved page", i + 1, stall.end - stall.start, others[0] + 1))
                } else if stall.end - stall.start > options.maxServerStall {
                    failures.append(String(format: "page %d waited %.2f s for a frame while dragging and no page got one: the server stalled", i + 1, stall.end - stall.start))
                } else {
                    sharedStalls += 1
                }
            }
            if p.frames == 0 { failures.append("page \(i + 1) got no frames") }
        }
        failures += m.wrongCloseCodes + m.failures
        return Report(pages: pages, misbehaviour: m, failures: failures, sharedStalls: sharedStalls)
    }

    // MARK: - A page

    /// A JSON number as Foundation's parser gives it (an Int for integers on Linux).
    static func number(_ v: Any?) -> Double? {
        if let d = v as? Double { return d }
        if let i = v as? Int { return Double(i) }
        return nil
    }

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]  // not JSON: counted as no header
    }

    /// One page that plays until `end` (monotonic seconds), its generator seeded by its index.
    static func playPage(_ o: Options, index: Int, end: Double) -> Page {
        let random = SplitMix64(seed: o.seed &* 7919 &+ UInt64(index))
        let ws: LoopbackWebSocket
        do {
            ws = try LoopbackWebSocket(port: o.port)
            try ws.send(#"{"type": "hello", "scale": \#(o.scale)}"#)
        } catch {
            var page = Page()
            page.endedEarly = -1
            return page
        }
        var player = PagePlayer(ws: ws, options: o, random: random, began: MonotonicClock.seconds())
        return player.play(until: end)
    }

    // MARK: - Misbehaving clients

    /// Half-sent requests: keeps four connections open that never finish their headers, counting
    /// those the server closed and failing those it kept past its request time limit.
    static func tendHalfSent(_ halfSent: inout [(fd: Int32, since: Double)], _ o: Options, random: inout SplitMix64,
                             counts m: inout Misbehaviour) {
        let now = MonotonicClock.seconds()
        for (i, h) in halfSent.enumerated().reversed() {
            var p = pollfd(fd: h.fd, events: Int16(POLLIN), revents: 0)
            var scratch = [UInt8](repeating: 0, count: 512)
            if poll(&p, 1, 0) > 0, scratch.withUnsafeMutableBytes({ recv(h.fd, $0.baseAddress, $0.count, 0) }) <= 0 {
                m.halfSentClosed += 1
                close(h.fd)
                halfSent.remove(at: i)
            } else if now - h.since > o.requestTimeout + 10 {
                m.failures.append("a half-sent request was still open after \(Int(now - h.since)) s")
                close(h.fd)
                halfSent.remove(at: i)
            }
        }
        while halfSent.count < 4, let fd = try? LoopbackWebSocket.connect(port: o.port) {  // refused connections are not half-sent
            let partial = random.below(2) == 0 ? "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(o.port)\r\nX-Slow: " : "GET /ws HTTP/1.1\r\nUpgr"
            _ = Array(partial.utf8).withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            halfSent.append((fd, MonotonicClock.seconds()))
            m.halfSentRequests += 1
        }
    }

    static func misbehave(_ o: Options, end: Double) -> Misbehaviour {
        var m = Misbehaviour()
        var random = SplitMix64(seed: o.seed &+ 0xBAD)
        var halfSent: [(fd: Int32, since: Double)] = []
        func expectClose(_ ws: LoopbackWebSocket, _ code: Int, _ what: String) {
            let deadline = MonotonicClock.seconds() + 10
            while MonotonicClock.seconds() < deadline {
                switch ws.read(timeout: 1) {
                case .close(let c):
                    m.closeCodes[c, default: 0] += 1
                    if c != code { m.wrongCloseCodes.append("\(what): close code \(c), expected \(code)") }
                    return
                case .ended:
                    m.wrongCloseCodes.append("\(what): connection ended without a close frame, expected \(code)")
                    return
                default:
                    continue
                }
            }
            m.wrongCloseCodes.append("\(what): no close within 10 s, expected \(code)")
        }
        /// A session of its own when a slot is free (the pages hold theirs).
        func session() -> LoopbackWebSocket? {
            guard let ws = try? LoopbackWebSocket(port: o.port) else { return nil }  // refused: counted by the caller
            if case .text(let s) = ws.read(timeout: 5), object(s)["type"] as? String == "welcome" { return ws }
            m.extraSessionsRefused += 1
            return nil
        }
        var round = 0
        while MonotonicClock.seconds() < end - 1 {
            round += 1
            tendHalfSent(&halfSent, o, random: &random, counts: &m)
            switch round % 5 {
            case 0:
                // Floods: over the rate limit, with oversized and malformed messages mixed in.
                guard let ws = session() else { break }
                m.floods += 1
                let junk = ["{", #"{"type": "explode"}"#, #"{"type": "tap", "x": 1e999, "y": 1}"#, String(repeating: "z", count: 5000), #"{"type": "pinch"}"#]
                for k in 0..<2000 where (try? ws.send(junk[k % junk.count])) != nil {}  // the server may cut a flood short
                // The answer comes after the replies to the malformed messages before it: on a
                // busy machine that takes a while, and it is not a latency check.
                let deadline = MonotonicClock.seconds() + 20
                while MonotonicClock.seconds() < deadline {
                    if case .text(let s) = ws.read(timeout: 1), (object(s)["message"] as? String)?.hasPrefix("too many messages") == true {
                        m.floodsAnswered += 1
                        break
                    }
                }
                try? ws.sendFrame(opcode: 8, [0x03, 0xE8])  // misbehaving on purpose: the server may be gone
            case 1:
                // A message over 64 KiB, in fragments: 1009.
                guard let ws = session() else { break }
                let piece = [UInt8](repeating: 0x20, count: 16_384)
                try? ws.sendFrame(opcode: 1, piece, fin: false)  // misbehaving on purpose: the server may be gone
                for k in 0..<5 { try? ws.sendFrame(opcode: 0, piece, fin: k == 4) }  // the server may close first
                expectClose(ws, 1009, "a fragmented message over 64 KiB")
            case 2:
                // Text that is not UTF-8: 1007.
                guard let ws = session() else { break }
                try? ws.sendFrame(opcode: 1, [0x7B, 0xFF, 0xFE, 0x7D])  // misbehaving on purpose: the server may be gone
                expectClose(ws, 1007, "text that is not UTF-8")
            case 3:
                // A binary message holding JSON: 1003.
                guard let ws = session() else { break }
                try? ws.sendFrame(opcode: 2, Array(#"{"type": "ready"}"#.utf8))  // misbehaving on purpose: the server may be gone
                expectClose(ws, 1003, "a binary message")
            default:
                // Rapid reconnects, and one session too many while holding one.
                for _ in 0..<10 {
                    if let ws = try? LoopbackWebSocket(port: o.port) {  // refused while reconnecting is allowed
                        try? ws.send(#"{"type": "hello", "scale": \#(o.scale)}"#)  // the connection is dropped at once anyway
                        m.reconnects += 1
                    }
                }
                if let held = session() {
                    var opened: [LoopbackWebSocket] = []
                    while opened.count < 8, let extra = session() { opened.append(extra) }
                    _ = held
                }
            }
            usleep(200_000)
        }
        for h in halfSent { close(h.fd) }
        return m
    }
}

