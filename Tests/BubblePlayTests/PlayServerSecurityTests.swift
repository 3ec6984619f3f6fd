import BubblePlay
import Foundation
import TestSupport
import Testing

@Suite("Play server security")
struct PlayServerSecurityTests {
    @Test func servesItsOwnPageAndAssetsOnly() async throws {
        let s = try await RunningServer()
        for (path, marker) in [("/", "<title>bubbles play</title>"), ("/play.js", "createImageBitmap"), ("/play.css", "#stage")] {
            let r = try await rawHTTP(port: s.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nConnection: close\r\n\r\n")
            #expect(r.hasPrefix("HTTP/1.1 200"), "\(path): \(r.prefix(80))")
            #expect(r.contains(marker))
        }
        let attempts = [
            "/../Package.swift", "/..%2f..%2fPackage.swift", "/play.js/../../Package.swift", "/%2e%2e/%2e%2e/etc/passwd",
            "//etc/passwd", "/Data/reports.json", "/Sources/BubblePlay/PlayServer.swift", "/./play.js/..%2F..%2FREADME.md",
            "/play.js%00.png", "/etc/passwd", "/..\\..\\Package.swift", "/index.html", "/ws/../Package.swift",
        ]
        for path in attempts {
            let r = try await rawHTTP(port: s.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nConnection: close\r\n\r\n")
            #expect(!r.hasPrefix("HTTP/1.1 200"), "\(path) was served: \(r.prefix(200))")
            #expect(!r.contains("swift-tools-version") && !r.contains("root:x:0") && !r.contains("\"children\""), "\(path) leaked a file")
        }
        let post = try await rawHTTP(port: s.port, "POST / HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(!post.hasPrefix("HTTP/1.1 200"))
        await s.stop()
    }

    @Test func aForeignHostHeaderIsRefused() async throws {
        let s = try await RunningServer()
        let r = try await rawHTTP(port: s.port, "GET / HTTP/1.1\r\nHost: attacker.example:\(s.port)\r\nConnection: close\r\n\r\n")
        #expect(r.hasPrefix("HTTP/1.1 403"), "\(r.prefix(80))")
        let ok = try await rawHTTP(port: s.port, "GET / HTTP/1.1\r\nHost: localhost:\(s.port)\r\nConnection: close\r\n\r\n")
        #expect(ok.hasPrefix("HTTP/1.1 200"))
        await s.stop()
    }

    @Test func theWebSocketNeedsThisServersOrigin() async throws {
        let s = try await RunningServer()
        let port = s.port
        for bad in ["http://attacker.example", "http://127.0.0.1:1", "null", "ws://127.0.0.1", nil] as [String?] {
            let refused = try await onThread { () -> String in
                do {
                    _ = try RawWebSocket(port: port, origin: bad)
                    return "upgraded"
                } catch {
                    return "\(error)"
                }
            }
            #expect(refused.hasPrefix("upgrade refused: HTTP/1.1 4"), "origin \(bad ?? "none"): \(refused)")
        }
        // A foreign Host (DNS rebinding) with a matching Origin is refused too.
        let rebinding = try await onThread { () -> String in
            do {
                _ = try RawWebSocket(port: port, host: "attacker.example:\(port)", origin: "http://attacker.example:\(port)")
                return "upgraded"
            } catch {
                return "\(error)"
            }
        }
        #expect(rebinding.hasPrefix("upgrade refused"), "\(rebinding)")
        // The page's own origin gets the session.
        let welcome = try await onThread { () -> String? in
            let ws = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            ws.read()
            return ws.lastText
        }
        #expect(object(welcome ?? "")["type"] as? String == "welcome")
        await s.stop()
    }

    @Test func badMessagesGetAnErrorAndTheSessionGoesOn() async throws {
        let s = try await RunningServer()
        let port = s.port
        let bad = [
            "{", "[1]", #"{"type": "explode"}"#, #"{"type": "tap", "x": NaN, "y": 1}"#, #"{"type": "tap", "x": 1e999, "y": 1}"#,
            #"{"type": "tap", "x": 1e200, "y": 1}"#, #"{"type": "tap", "x": 5, "y": 5}"#, #"{"type": "settings", "values": {"nope": 1}}"#,
            #"{"type": "ready", "pad": ""# + String(repeating: "x", count: 6000) + #""}"#, #"{"type": "tap", "id": "root"}"#,
        ]
        let t = try await onThread { () -> WSTranscript in
            let ws = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            for b in bad { try ws.send(b) }
            ws.read(until: { $0.errors.count >= bad.count })
            try ws.send(#"{"type": "hello", "scale": 1}"#)
            try ws.send(#"{"type": "tap", "x": 384, "y": 540}"#)
            for _ in 0..<5 {
                try ws.send(#"{"type": "ready"}"#)
                ws.read(until: { _ in false }, seconds: 0.05)
            }
            ws.read(until: { $0.binaries.count >= 2 })
            return ws.transcript
        }
        #expect(t.errors.count == bad.count, "\(t.errors)")
        #expect(t.errors.contains { $0.hasPrefix("nothing at (5, 5)") })
        #expect(t.errors.contains { $0.hasPrefix("message of") })
        #expect(t.binaries.count >= 2, "no frames after the bad messages")
        #expect(s.server.counters.messagesRefused == bad.count - 1)
        await s.stop()
    }

    @Test func aFloodIsRateLimitedAndTheSessionSurvives() async throws {
        var options = PlayServerOptions()
        options.messagesPerSecond = 50
        options.messageBurst = 100
        let s = try await RunningServer(options: options)
        let port = s.port
        let t = try await onThread { () -> WSTranscript in
            let ws = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            for _ in 0..<1500 { try ws.send(#"{"type": "pinch"}"#) }
            ws.read(until: { $0.errors.contains { $0.hasPrefix("too many messages") } })
            ws.read(until: { _ in false }, seconds: 0.5)
            try ws.send(#"{"type": "tap", "x": 384, "y": 540}"#)
            try ws.send(#"{"type": "ready"}"#)
            ws.read(until: { $0.binaries.count >= 2 })
            return ws.transcript
        }
        #expect(t.errors.contains { $0.hasPrefix("too many messages") })
        #expect(t.binaries.count >= 2, "no frames after the flood")
        #expect(s.server.counters.messagesRefused > 1000)
        await s.stop()
    }

    @Test func sessionsBeyondTheLimitAreRefused() async throws {
        var options = PlayServerOptions()
        options.maxSessions = 1
        let s = try await RunningServer(options: options)
        let port = s.port
        let t = try await onThread { () -> WSTranscript in
            let first = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            first.read()
            let second = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            second.read(until: { $0.closed })
            _ = first
            return second.transcript
        }
        #expect(t.errors.first?.hasPrefix("too many sessions") == true, "\(t.texts)")
        #expect(t.closed)
        #expect(s.server.counters.sessionsRefused == 1)
        await s.stop()
    }

    @Test func idleSessionsAreClosed() async throws {
        var options = PlayServerOptions()
        options.idleTimeout = 1
        let s = try await RunningServer(options: options)
        let port = s.port
        let t = try await onThread { () -> WSTranscript in
            let ws = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            ws.read(until: { $0.closed })
            return ws.transcript
        }
        #expect(t.closed)
        #expect(t.errors.contains { $0.hasPrefix("idle for") })
        await s.stop()
    }

    @Test func aMessageOverTheFrameLimitEndsOnlyThatConnection() async throws {
        let s = try await RunningServer()
        let port = s.port
        let (first, second) = try await onThread { () -> (WSTranscript, WSTranscript) in
            let ws = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            ws.read()
            try ws.send(#"{"type": "ready", "pad": ""# + String(repeating: "x", count: 70_000) + #""}"#)
            ws.read(until: { $0.closed })
            let next = try RawWebSocket(port: port, origin: "http://127.0.0.1:\(port)")
            next.read()
            return (ws.transcript, next.transcript)
        }
        #expect(first.closed)
        #expect(object(second.texts.first ?? "")["type"] as? String == "welcome", "the server stopped serving")
        await s.stop()
    }
}
