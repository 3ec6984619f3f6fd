import BubblePlay
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Waits until the server closes `fd` (recv returns 0 or an error) or `seconds` pass; returns the
/// seconds it took, nil if still open. Reads and discards whatever the server sends.
func secondsUntilClosed(_ fd: Int32, within seconds: Double, dribble: [UInt8] = []) -> Double? {
    let start = Date()
    var timeout = timeval(tv_sec: 0, tv_usec: 250_000)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 4096)
    var next = 0
    while Date().timeIntervalSince(start) < seconds {
        // A slow client: one more byte of its request every quarter second.
        if next < dribble.count {
            let sent = withUnsafePointer(to: dribble[next]) { send(fd, $0, 1, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return Date().timeIntervalSince(start) }
            next += 1
        }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return Date().timeIntervalSince(start) }
    }
    return nil
}

@Suite("Play server limits")
struct PlayServerLimitsTests {
    @Test func closeCodesAreRFC6455s() async throws {
        let s = try await RunningServer()
        let port = s.port, origin = "http://127.0.0.1:\(port)"
        let (utf8, binary, tooBig, stillServes) = try await onThread { () -> (WSTranscript, WSTranscript, WSTranscript, WSTranscript) in
            // Text that is not UTF-8: 1007.
            let a = try RawWebSocket(port: port, origin: origin)
            a.read()
            try a.sendFrame(opcode: 1, [0x7B, 0xC3, 0x28, 0x7D])
            a.read(until: { $0.closed })
            // A binary message, even one holding JSON: refused with 1003.
            let b = try RawWebSocket(port: port, origin: origin)
            b.read()
            try b.sendFrame(opcode: 2, Array(#"{"type": "ready"}"#.utf8))
            b.read(until: { $0.closed })
            // A message over 64 KiB in fragments of 16 KiB: 1009.
            let c = try RawWebSocket(port: port, origin: origin)
            c.read()
            let piece = [UInt8](repeating: 0x20, count: 16_384)
            try c.sendFrame(opcode: 1, piece, fin: false)
            for _ in 0..<4 { try? c.sendFrame(opcode: 0, piece, fin: false) }
            try? c.sendFrame(opcode: 0, piece, fin: true)
            c.read(until: { $0.closed })
            let d = try RawWebSocket(port: port, origin: origin)
            d.read()
            return (a.transcript, b.transcript, c.transcript, d.transcript)
        }
        #expect(utf8.closeCode == 1007, "\(utf8)")
        #expect(binary.closeCode == 1003, "\(binary)")
        #expect(binary.errors.contains { $0.hasPrefix("binary messages are refused") })
        #expect(tooBig.closeCode == 1009, "\(tooBig)")
        #expect(object(stillServes.texts.first ?? "")["type"] as? String == "welcome")
        await s.stop()
    }

    @Test func aHalfSentRequestIsClosed() async throws {
        var options = PlayServerOptions()
        options.requestTimeout = 3
        options.httpIdleTimeout = 3
        let s = try await RunningServer(options: options)
        let port = s.port
        let upgrade = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        let head = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Pad: " + String(repeating: "a", count: 200)
        // At once: headers a byte at a time and never finished, a WebSocket upgrade the same
        // way, a connection that never sends a byte, and a prompt client that gets its page.
        async let slowHead = onThread { () -> Double? in
            let fd = try connectLoopback(port: port)
            defer { close(fd) }
            return secondsUntilClosed(fd, within: 30, dribble: Array(head.utf8))
        }
        async let slowUpgrade = onThread { () -> Double? in
            let fd = try connectLoopback(port: port)
            defer { close(fd) }
            return secondsUntilClosed(fd, within: 30, dribble: Array(upgrade.utf8))
        }
        async let silent = onThread { () -> Double? in
            let fd = try connectLoopback(port: port)
            defer { close(fd) }
            return secondsUntilClosed(fd, within: 30)
        }
        async let served = onThread { try blockingHTTP(port: port, "GET /play.css HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n") }
        let (a, b, c, page) = try await (slowHead, slowUpgrade, silent, served)
        #expect(a.map { $0 < 25 } == true, "slow head: \(String(describing: a))")
        #expect(b.map { $0 < 25 } == true, "slow upgrade: \(String(describing: b))")
        #expect(c.map { $0 < 25 } == true, "silent: \(String(describing: c))")
        #expect(page.hasPrefix("HTTP/1.1 200"), "a prompt client is served")
        #expect(s.server.statistics.connectionsTimedOut >= 3)
        await s.stop()
    }

    @Test func connectionsAreBoundedPerAddressAndInAll() async throws {
        var options = PlayServerOptions()
        options.maxConnectionsPerAddress = 3
        options.maxConnections = 100
        let s = try await RunningServer(options: options)
        let port = s.port
        let (extra, afterwards) = try await onThread { () -> (Double?, String) in
            let held = try (0..<3).map { _ in try connectLoopback(port: port) }
            Thread.sleep(forTimeInterval: 0.2)
            let fourth = try connectLoopback(port: port)
            let closedAfter = secondsUntilClosed(fourth, within: 5)
            close(fourth)
            for fd in held { close(fd) }
            Thread.sleep(forTimeInterval: 0.3)
            return (closedAfter, try blockingHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"))
        }
        #expect(extra.map { $0 < 2 } == true, "the fourth connection from one address: \(String(describing: extra))")
        #expect(afterwards.hasPrefix("HTTP/1.1 200"), "slots come back when connections close")
        #expect(s.server.statistics.connectionsRefused >= 1)
        await s.stop()
    }

    /// A page that stops reading its frames: the server's writes wait (no queue grows), and after
    /// `sendTimeout` the connection is dropped and its slot is free again.
    @Test func aPageThatStopsReadingIsDropped() async throws {
        var options = PlayServerOptions()
        options.sendTimeout = 2
        options.maxSessions = 1
        let s = try await RunningServer(options: options)
        let port = s.port, origin = "http://127.0.0.1:\(port)"
        let next = try await onThread { () -> WSTranscript in
            let ws = try RawWebSocket(port: port, origin: origin, receiveBuffer: 4096)
            try ws.send(#"{"type": "hello", "scale": 2}"#)
            try ws.send(#"{"type": "tap", "x": 384, "y": 540}"#)
            // Credits, never reading a byte: the frames pile up in the socket until it is full.
            let deadline = Date().addingTimeInterval(90)
            var open = true, k = 0
            while open && Date() < deadline {
                // A new scale each time: every frame is a whole picture of a few hundred KB.
                k += 1
                open = (try? ws.send(#"{"type": "hello", "scale": \#(k % 2 == 0 ? 2 : 1.5)}"#)) != nil
                open = open && (try? ws.send(#"{"type": "ready"}"#)) != nil
                if s.server.counters.slowReadersClosed > 0 { break }
                Thread.sleep(forTimeInterval: 0.01)
            }
            Thread.sleep(forTimeInterval: 0.5)
            let again = try RawWebSocket(port: port, origin: origin)
            again.read()
            return again.transcript
        }
        #expect(s.server.counters.slowReadersClosed == 1)
        #expect(object(next.texts.first ?? "")["type"] as? String == "welcome", "the slot is free again: \(next.texts)")
        await s.stop()
    }
}
