@_spi(Testbed) import BubbleDashboard
import BubblePlay
import PlayLoadClient
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// One page's session from start to close: welcome, a tap, frames until a PNG came, a close.
func briefSession(port: Int) throws {
    let ws = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
    ws.read()
    try ws.send(#"{"type": "tap", "x": 384, "y": 540}"#)
    try ws.send(#"{"type": "ready"}"#)
    ws.read(until: { $0.binaries.count >= 1 }, seconds: 30)
    try ws.sendFrame(opcode: 8, [0x03, 0xE8])
    ws.read(until: { $0.closed }, seconds: 10)
}

/// The process's memory after giving freed memory back: (malloc in use, resident), bytes.
func settledMemory() -> (inUse: Int, resident: Int) {
    PlayMemory.returnFreedMemory()
    return (PlayMemory.mallocInUseBytes(), PlayMemory.residentBytes())
}

@Suite("Play memory and soak")
struct PlaySoakTests {
    /// A closed session frees everything it held (dashboard, renderer and its caches, pictures,
    /// recorder): nothing keeps it alive.
    @Test func aClosedSessionIsFreed() throws {
        weak var weakSession: PlaySession?
        do {
            let session = try PlaySession(source: sampleSource, scale: 2, now: 0)
            weakSession = session
            let page = FakePage(session)
            page.send(.tap(ScenePoint(x: 384, y: 540)))
            // The renderer's caches stop growing after about 16 frames of this transition.
            try page.run(0.3)
            #expect(session.cacheStatistics.rasterBytes > 0)
            #expect(session.cacheStatistics.pictureBytes > 0)
        }
        #expect(weakSession == nil)
    }

    /// The sprite budget is a bound in bytes, and a lower one applies at once.
    @Test func theSpriteBudgetHolds() throws {
        let session = try PlaySession(source: sampleSource, scale: 2, now: 0)
        session.spriteBudgetBytes = 2 << 20
        let page = FakePage(session)
        page.send(.tap(ScenePoint(x: 384, y: 540)))
        // The renderer's caches stop growing after about 16 frames of this transition.
        try page.run(0.4)
        #expect(session.cacheStatistics.rasterBytes - session.cacheStatistics.pictureBytes < 40 << 20)
        session.spriteBudgetBytes = 1 << 20
        #expect(session.cacheStatistics.rasterBytes < 30 << 20, "background, bars and focus are not sprites, about 20 MB at scale 2")
    }

    /// A few hundred sessions come and go, four at a time; the memory in use comes back to where
    /// it was after the first ones (within 96 MB, for the other tests running beside this one;
    /// a leak of one session's dashboard and renderer would be 10-30 MB each, gigabytes here).
    @Test func hundredsOfSessionsComeAndGoAndMemoryComesBack() async throws {
        var options = PlayServerOptions()
        options.maxSessions = 4
        let s = try await RunningServer(options: options)
        let port = s.port
        try await onThread { for _ in 0..<8 { try briefSession(port: port) } }
        let before = settledMemory()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { try await onThread { for _ in 0..<50 { try briefSession(port: port) } } }
            }
            try await group.waitForAll()
        }
        for _ in 0..<100 where s.server.counters.activeSessions > 0 { try await Task.sleep(for: .milliseconds(100)) }
        let after = settledMemory()
        let c = s.server.counters
        // A client that opens its next session at once can find the last one's slot not yet free
        // (the server ends a session after the close handshake): refused, not lost.
        #expect(c.sessionsStarted + c.sessionsRefused == 208)
        #expect(c.sessionsStarted >= 150)
        #expect(c.activeSessions == 0)
        #expect(after.inUse - before.inUse < 96 << 20, "malloc in use \(before.inUse >> 20) MB before, \(after.inUse >> 20) MB after 200 sessions")
        #expect(after.resident - before.resident < 160 << 20, "resident \(before.resident >> 20) MB before, \(after.resident >> 20) MB after")
        await s.stop()
    }

    /// The soak of the issue, short: four pages dragging at 60 Hz and misbehaving clients
    /// (extra sessions, floods, oversized and malformed messages, binary messages, half-sent
    /// requests, rapid reconnects) for 30 s. Fails on a lost credit (a page waiting over 2 s for
    /// a frame while it drags as other pages get theirs), a server stall (no page getting a frame
    /// for 10 s), a page whose connection ends, a wrong close code, a half-sent request left
    /// open, growth of malloc's memory in use over 128 MB after a 10 s warm-up, or a server that
    /// no longer serves. `scripts/soak-play.sh MINUTES` is the long variant.
    @Test(.timeLimit(.minutes(3))) func fourPagesAndMisbehavingClientsFor30Seconds() async throws {
        var options = PlayServerOptions()
        options.maxSessions = 6
        options.requestTimeout = 3
        options.httpIdleTimeout = 5
        let s = try await RunningServer(options: options)
        var soak = PlaySoak.Options(port: s.port, seconds: 30)
        soak.requestTimeout = 3
        soak.sampleInterval = 2.5
        // Pages on 60 Hz displays: the suite's other tests share the two cores.
        soak.displayHz = 60
        let samples = Box<[(t: Double, inUse: Int, resident: Int)]>([])
        let o = soak
        let report = try await onThread {
            PlaySoak.run(o) { t in
                let m = (t, PlayMemory.mallocInUseBytes(), PlayMemory.residentBytes())
                samples.withLock { $0.append(m) }
            }
        }
        #expect(report.failures.isEmpty, "\(report.text)")
        #expect(report.misbehaviour.halfSentClosed > 0 && report.misbehaviour.floodsAnswered > 0, "\(report.text)")
        let after = samples.withLock { $0 }.filter { $0.t >= 10 }
        if let first = after.first {
            let peak = after.map(\.inUse).max() ?? first.inUse
            #expect(peak - first.inUse < 128 << 20, "malloc in use grew from \(first.inUse >> 20) MB to \(peak >> 20) MB after warm-up")
        }
        // Still serving: a new page gets its welcome, and every session has ended.
        let welcome = try await onThread { () -> String? in
            let ws = try RawWebSocket(port: s.port, origin: "http://127.0.0.1:\(s.port)")
            ws.read()
            return ws.lastText
        }
        #expect(object(welcome ?? "")["type"] as? String == "welcome")
        await s.stop()
    }
}
