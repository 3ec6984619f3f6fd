import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// How `bubbles play` serves: address, limits and where the recording goes.
public struct PlayServerOptions: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (tests).
    public var port = 8300
    /// At most this many pages play at once; more are refused with an error message.
    public var maxSessions = 4
    /// A page that sends nothing for this long is closed (seconds).
    public var idleTimeout: Double = 600
    /// The first session's recording is written here (atomically) when it ends and when saved;
    /// the n-th session's beside it, with `-n` before the extension (`recording-2.json`), so that
    /// pages never overwrite each other's recordings.
    public var recordPath: String?

    /// Where session `number` (1 for the first the server started) writes its recording.
    public func recordPath(session number: Int) -> String? {
        guard let path = recordPath else { return nil }
        if number <= 1 { return path }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(path[..<dot]) + "-\(number)" + String(path[dot...])
        }
        return path + "-\(number)"
    }
    /// Messages a page may send per second on average, and in a burst, before they are dropped.
    public var messagesPerSecond = 240.0
    public var messageBurst = 480.0
    /// Messages waiting for the session; beyond this they are dropped with an error.
    public var queueLimit = 256

    public init() {}

    /// True for 127.0.0.0/8, ::1 and localhost.
    public var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }
}

/// What the server did, for tests and the command's summary.
public struct PlayServerCounters: Sendable, Equatable {
    public var sessionsStarted = 0
    public var sessionsRefused = 0
    public var activeSessions = 0
    public var framesSent = 0
    public var messagesRefused = 0
    /// The state hash and step of the last frame each ended session sent, latest session last.
    public var lastStep = 0
    public var lastHash: UInt64 = 0
}

/// The `bubbles play` server: the page and its two assets over HTTP (nothing else: no file is ever
/// read by a request path), and one WebSocket per page at `/ws`, each with its own `PlaySession`.
/// The WebSocket upgrade needs an `Origin` naming this server (no cross-site WebSocket
/// hijacking); on a loopback address the `Host` must name it too (no DNS rebinding).
public final class PlayServer: Sendable {
    public let options: PlayServerOptions
    public let source: PlaySource
    let state = Mutex(PlayServerCounters())
    let boundPort = Mutex<Int?>(nil)

    public init(source: PlaySource, options: PlayServerOptions) {
        self.source = source
        self.options = options
    }

    public var counters: PlayServerCounters { state.withLock { $0 } }
    /// The port once listening.
    public var port: Int? { boundPort.withLock { $0 } }

    /// Runs until cancelled, or until SIGINT/SIGTERM when `handleSignals`; `onRunning` gets the port.
    public func run(handleSignals: Bool, onRunning: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        var logger = Logger(label: "bubbles.play")
        logger.logLevel = .critical
        let router = Router()
        for file in PlayAssets.files {
            let body = ByteBuffer(string: file.body)
            let type = file.contentType
            router.get(RouterPath(file.path)) { [self] request, _ -> Response in
                guard hostAllowed(request.head.authority) else { return Self.plain(.forbidden, "host not allowed") }
                return Response(
                    status: .ok,
                    headers: [.contentType: type, .cacheControl: "no-store"],
                    body: .init(byteBuffer: body))
            }
        }
        router.get("/ws") { _, _ -> Response in
            Self.plain(.forbidden, "WebSocket refused: the Origin must be this server's page")
        }
        let wsConfiguration = WebSocketServerConfiguration(
            maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(5), validateUTF8: true)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: .init(ws: wsConfiguration)) { [self] request, _, _ in
                guard request.path == "/ws", upgradeAllowed(request) else { return .dontUpgrade }
                return .upgrade([:]) { [self] inbound, outbound, _ in
                    await serveSession(inbound: inbound, outbound: outbound)
                }
            },
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? options.port
                boundPort.withLock { $0 = port }
                onRunning(port)
            },
            logger: logger)
        if handleSignals {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } else {
            try await app.runService(gracefulShutdownSignals: [])
        }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    // MARK: - Origin and Host

    /// The Host values this server answers to on a loopback address.
    func hostAllowed(_ host: String?) -> Bool {
        guard options.isLoopback else { return true }
        guard let host else { return false }
        let port = self.port ?? options.port
        let names = ["127.0.0.1", "localhost", "[::1]", options.host.contains(":") ? "[\(options.host)]" : options.host]
        return names.contains { host == "\($0):\(port)" || (port == 80 && host == $0) }
    }

    /// A WebSocket upgrade needs an allowed Host and an Origin of `http://` that same host.
    func upgradeAllowed(_ request: HTTPRequest) -> Bool {
        guard let host = request.authority, hostAllowed(host) else { return false }
        guard let origin = request.headerFields[.origin] else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    // MARK: - A session

    enum Inbound: Sendable {
        case message([UInt8])
        case closed
    }

    func serveSession(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let number = state.withLock { s -> Int? in
            guard s.activeSessions < options.maxSessions else {
                s.sessionsRefused += 1
                return nil
            }
            s.activeSessions += 1
            s.sessionsStarted += 1
            return s.sessionsStarted
        }
        guard let number else {
            try? await outbound.write(.text(PlaySession.error("too many sessions: this server plays at most \(options.maxSessions) pages at once (--max-sessions)")))
            try? await outbound.close(.policyViolation, reason: "too many sessions")
            return
        }
        defer { state.withLock { $0.activeSessions -= 1 } }

        let clock = ContinuousClock()
        let start = clock.now
        @Sendable func now() -> Double {
            let d = clock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        let (stream, continuation) = AsyncStream<Inbound>.makeStream(bufferingPolicy: .bufferingOldest(options.queueLimit))
        let lastHeard = Locked(now())
        let dropped = Locked(0)
        let limits = (rate: options.messagesPerSecond, burst: options.messageBurst)

        // The session's own task: parses, applies, draws, writes.
        let sessionTask = Task { [self] in
            await runSession(stream: stream, outbound: outbound, now: now, dropped: dropped, recordPath: options.recordPath(session: number))
        }
        // Idle watchdog.
        let idle = options.idleTimeout
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(min(1, idle / 4)))
                if now() - lastHeard.value.withLock({ $0 }) > idle {
                    try? await outbound.write(.text(PlaySession.error("idle for \(Int(idle)) s: session closed")))
                    continuation.yield(.closed)
                    try? await outbound.close(.goingAway, reason: "idle")
                    return
                }
            }
        }
        // This task reads: sizes, rate limit, bounded queue.
        var tokens = limits.burst
        var refilled = now()
        do {
            for try await message in inbound.messages(maxSize: 1 << 16) {
                let t = now()
                lastHeard.value.withLock { $0 = t }
                tokens = min(limits.burst, tokens + (t - refilled) * limits.rate)
                refilled = t
                let bytes: [UInt8]
                switch message {
                case .text(let s): bytes = Array(s.utf8)
                case .binary(var b): bytes = b.readBytes(length: b.readableBytes) ?? []
                }
                guard tokens >= 1 else {
                    dropped.value.withLock { $0 += 1 }
                    continue
                }
                tokens -= 1
                if case .dropped = continuation.yield(.message(bytes)) { dropped.value.withLock { $0 += 1 } }
            }
        } catch {}
        continuation.yield(.closed)
        continuation.finish()
        watchdog.cancel()
        await sessionTask.value
    }

    /// The session loop: one message at a time, then a frame if the page has a credit.
    func runSession(
        stream: AsyncStream<Inbound>, outbound: WebSocketOutboundWriter, now: @escaping @Sendable () -> Double, dropped: Locked<Int>,
        recordPath: String?
    ) async {
        let session: PlaySession
        do {
            session = try PlaySession(source: source, scale: 1, now: now())
        } catch {
            try? await outbound.write(.text(PlaySession.error("cannot start a session: \(error)")))
            try? await outbound.close(.unexpectedServerError, reason: "no session")
            return
        }
        try? await outbound.write(.text(session.welcome()))
        var lastDropReport = -10.0
        loop: for await item in stream {
            switch item {
            case .closed:
                break loop
            case .message(let bytes):
                var replies: [String]
                do {
                    let message = try session.parser.parse(bytes)
                    replies = session.handle(message, now: now())
                    if message == .record, let path = recordPath {
                        do {
                            try session.recorder.write(to: path, endStep: session.dashboard.stepCount)
                        } catch {
                            replies.append(PlaySession.error("cannot write the recording to \(path): \(error)"))
                        }
                    }
                } catch {
                    state.withLock { $0.messagesRefused += 1 }
                    replies = [PlaySession.error(error.message, path: error.path)]
                }
                let lost = dropped.value.withLock { n -> Int in
                    defer { n = 0 }
                    return n
                }
                if lost > 0 {
                    state.withLock { $0.messagesRefused += lost }
                    let t = now()
                    if t - lastDropReport >= 1 {
                        lastDropReport = t
                        replies.append(PlaySession.error("too many messages: \(lost) dropped (at most \(Int(options.messagesPerSecond)) a second)"))
                    }
                }
                do {
                    for r in replies { try await outbound.write(.text(r)) }
                    if session.wantsFrame, let frame = try session.frame(now: now()) {
                        try await outbound.write(.text(frame.header))
                        // No PNG follows a frame in which no tile changed.
                        if !frame.png.isEmpty { try await outbound.write(.binary(ByteBuffer(bytes: frame.png))) }
                        state.withLock {
                            $0.framesSent += 1
                            $0.lastStep = frame.step
                            $0.lastHash = frame.stateHash
                        }
                    }
                } catch {
                    break loop
                }
            }
        }
        if let path = recordPath {
            session.advanceClock(now())
            do {
                try session.recorder.write(to: path, endStep: session.dashboard.stepCount)
            } catch {
                FileHandle.standardError.write(Data("error: \(path): cannot write the recording: \(error)\n".utf8))
            }
        }
    }
}

/// A value behind a lock, shared by reference between a session's tasks.
final class Locked<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ v: Value) { value = Mutex(v) }
}
