import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import NIOCore
import BubbleSupport

/// How `bubbles play` serves: address, limits and where the recording goes.
public struct PlayServerOptions: Sendable {
    /// The address to listen on (default 127.0.0.1; anything but loopback exposes the engine).
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
    /// See `messagesPerSecond` (messages).
    public var messageBurst = 480.0
    /// Messages waiting for the session; beyond this they are dropped with an error.
    public var queueLimit = 256
    /// A write to a page that has not completed after this long (the page stopped reading its
    /// frames) closes the connection (seconds, default 30). A page that reads slowly simply gets
    /// fewer frames: a frame is drawn only when the one before has been handed to the socket.
    public var sendTimeout: Double = 30
    /// The bytes all sessions' sprite caches may hold together (default 256 MiB), split evenly
    /// between `maxSessions`.
    public var cacheBudgetBytes = 256 << 20
    /// The bytes all sessions' text caches (layouts, fitted labels) may hold together, by the
    /// renderer's estimate (default 64 MiB), split the same way.
    public var textBudgetBytes = 64 << 20
    /// Connections open at once, in all (default 256) and from one client address (default 32).
    /// One more is closed as soon as it opens.
    public var maxConnections = 256
    /// See `maxConnections`.
    public var maxConnectionsPerAddress = 32
    /// An HTTP request (head and body, the WebSocket upgrade too) must arrive within this long of
    /// its first byte (seconds, default 10); an HTTP connection may be silent between requests
    /// for `httpIdleTimeout` (seconds, default 30).
    public var requestTimeout: Double = 10
    /// See `requestTimeout` (seconds).
    public var httpIdleTimeout: Double = 30
    /// Serve `/stats` (JSON: sessions, frames, memory, caches, connections) on a loopback host.
    public var servesStatistics = true

    /// The defaults of `bubbles play`.
    public init() {}

    /// True for 127.0.0.0/8, ::1 and localhost.
    public var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }
}

/// What the server did, for tests and the command's summary.
public struct PlayServerCounters: Sendable, Equatable {
    /// Pages that got a session.
    public var sessionsStarted = 0
    /// Pages refused because `maxSessions` were playing.
    public var sessionsRefused = 0
    /// Sessions playing now.
    public var activeSessions = 0
    /// Frames sent to pages, in all.
    public var framesSent = 0
    /// Messages refused (malformed, over the rate limit, queue full).
    public var messagesRefused = 0
    /// Sessions that have ended.
    public var sessionsEnded = 0
    /// `ready` messages taken (never dropped) and finger moves merged into the one before, by the
    /// sessions that have ended.
    public var creditsReceived = 0
    /// See `creditsReceived`.
    public var movesCoalesced = 0
    /// Connections closed because the page stopped reading its frames (`sendTimeout`).
    public var slowReadersClosed = 0
    /// The state hash and step of the last frame each ended session sent, latest session last.
    public var lastStep = 0
    /// See `lastStep`.
    public var lastHash: UInt64 = 0
}

/// The `bubbles play` server: the page and its two assets over HTTP, the reports' PDFs at
/// `/reports/ID.pdf` (found by report id among the datasource's files: no file is ever read by a
/// path from a request), and one WebSocket per page at `/ws`, each with its own `PlaySession`.
/// The WebSocket upgrade needs an `Origin` naming this server (no cross-site WebSocket
/// hijacking); on a loopback address the `Host` must name it too (no DNS rebinding).
public final class PlayServer: Sendable {
    /// How the server serves.
    public let options: PlayServerOptions
    /// What every session plays.
    public let source: PlaySource
    let state = Locked(PlayServerCounters())
    let boundPort = Locked<Int?>(nil)
    let cacheSizes = Locked<[ObjectIdentifier: PlaySession.CacheStatistics]>([:])
    let connections: ConnectionCounts
    let trim = Locked<(last: Double, pending: Bool)>((-10, false))

    /// A server of `source` with `options`; `run` starts it.
    public init(source: PlaySource, options: PlayServerOptions) {
        self.source = source
        self.options = options
        connections = ConnectionCounts(maxTotal: options.maxConnections, maxPerAddress: options.maxConnectionsPerAddress)
    }

    /// What the server has done so far.
    public var counters: PlayServerCounters { state.withLock { $0 } }
    /// The port once listening.
    public var port: Int? { boundPort.withLock { $0 } }

    /// Runs until cancelled, or until SIGINT/SIGTERM when `handleSignals`; `onRunning` gets the port.
    /// Connections and sessions run on the server's own threads (`PlayExecutor`), so that a page
    /// never waits for work elsewhere in the process.
    public func run(handleSignals: Bool, onRunning: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let executor = PlayExecutor()
        executorBox.withLock { $0 = executor }
        do {
            try await withTaskExecutorPreference(executor) {
                try await serve(handleSignals: handleSignals, onRunning: onRunning)
            }
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }

    /// The executor of the running server (nil before `run`: tasks then run on Swift's shared pool).
    private let executorBox = Locked<PlayExecutor?>(nil)
    var executor: PlayExecutor? { executorBox.withLock { $0 } }

    private func serve(handleSignals: Bool, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        var logger = Logger(label: "bubbles.play")
        logger.logLevel = .critical
        let router = Router()
        let checks = HostOriginMiddleware<BasicRequestContext>(listenHost: options.host, isLoopback: options.isLoopback) { [self] in port ?? options.port }
        // The page, its assets and the statistics pass the Host check; an unknown path is a 404
        // whatever its Host.
        let checked = router.group().add(middleware: checks)
        for file in PlayAssets.files {
            let body = ByteBuffer(string: file.body)
            let type = file.contentType
            checked.get(RouterPath(file.path)) { _, _ -> Response in
                Response(
                    status: .ok,
                    headers: [.contentType: type, .cacheControl: "no-store"],
                    body: .init(byteBuffer: body))
            }
        }
        // The reports' PDFs, by report id only ("Open PDF"); any other name is a 404.
        let files = source.files
        checked.get("/reports/:name") { request, _ -> Response in files.respond(request) }
        checked.head("/reports/:name") { request, _ -> Response in files.respond(request) }
        if options.servesStatistics && options.isLoopback {
            checked.get("/stats") { [self] _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(string: statistics.json + "\n")))
            }
        }
        router.get("/ws") { _, _ -> Response in
            Self.plain(.forbidden, "WebSocket refused: the Origin must be this server's page")
        }
        let wsConfiguration = WebSocketServerConfiguration(
            maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(5), validateUTF8: true)
        let upgrade = HTTP1WebSocketUpgradeChannel.Configuration(ws: wsConfiguration)
        let counts = connections
        let requestTimeout = TimeAmount.milliseconds(Int64(options.requestTimeout * 1000))
        let httpIdle = TimeAmount.milliseconds(Int64(options.httpIdleTimeout * 1000))
        let builder = HTTPServerBuilder { [self] responder in
            GuardedChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: upgrade) { [self] request, channel, _ in
                    guard request.path == "/ws", checks.upgradeAllowed(request) else { return .dontUpgrade }
                    return .upgrade([:]) { [self] inbound, outbound, _ in
                        try await serveSession(inbound: inbound, outbound: outbound, channel: channel)
                    }
                },
                counts: counts, requestTimeout: requestTimeout, idleTimeout: httpIdle)
        }
        let app = Application(
            router: router,
            server: builder,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? options.port
                boundPort.withLock { $0 = port }
                onRunning(port)
            },
            logger: logger)
        let group = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [], logger: logger))
        serviceGroup.withLock { $0 = group }
        try await group.run()
    }

    /// The running server's service group (nil before `run` has started it).
    private let serviceGroup = Locked<ServiceGroup?>(nil)

    /// Stops a running server as SIGTERM does: it stops listening, lets its connections finish,
    /// and `run` returns. Does nothing before `run` has reported its port. Prefer it to cancelling
    /// the task that runs the server: cancellation reaches every connection's tasks at once.
    public func shutdown() async {
        await serviceGroup.withLock { $0 }?.triggerGracefulShutdown()
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    // MARK: - A session

    /// Why a connection ended, when not by the page closing it.
    enum Ending: Error {
        case binaryMessage
    }

    func serveSession(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel) async throws {
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
            try? await outbound.write(.text(PlaySession.error("too many sessions: this server plays at most \(options.maxSessions) pages at once (--max-sessions)")))  // the page may be gone already
            try? await outbound.close(.policyViolation, reason: "too many sessions")  // the page may be gone already
            return
        }

        let clock = ContinuousClock()
        let start = clock.now
        @Sendable func now() -> Double {
            let d = clock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        let inbox = PlayInbox(
            rate: options.messagesPerSecond, burst: options.messageBurst, queueLimit: options.queueLimit,
            canvasWidth: source.settings.canvasWidth, canvasHeight: source.settings.canvasHeight)
        let lastHeard = Locked(now())
        // When the write under way began (nil: none): a page that stops reading is closed.
        let writing = Locked<Double?>(nil)

        // The session's own task: takes the inbox, applies, draws, writes.
        let sessionTask = Task(executorPreference: executor) { [self] in
            await runSession(inbox: inbox, outbound: outbound, now: now, writing: writing, recordPath: options.recordPath(session: number))
        }
        // Idle and slow-reader watchdog.
        let idle = options.idleTimeout, sendTimeout = options.sendTimeout
        let watchdog = Task(executorPreference: executor) { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(min(1, idle / 4, sendTimeout / 4)))  // cancelled: the loop's condition ends it
                let t = now()
                if let w = writing.withLock({ $0 }), t - w > sendTimeout {
                    // The page does not read its frames: nothing more can be written, so drop
                    // the connection without a close handshake.
                    state.withLock { $0.slowReadersClosed += 1 }
                    inbox.close()
                    channel.close(promise: nil)
                    return
                }
                if t - lastHeard.withLock({ $0 }) > idle {
                    inbox.close()
                    try? await outbound.write(.text(PlaySession.error("idle for \(Int(idle)) s: session closed")))  // the page may be gone already
                    try? await outbound.close(.goingAway, reason: "idle")  // the page may be gone already
                    return
                }
            }
        }
        // This task reads: sizes (the library), message types, then the inbox's limits.
        var failure: (any Error)?
        do {
            for try await message in inbound.messages(maxSize: 1 << 16) {
                let t = now()
                lastHeard.withLock { $0 = t }
                switch message {
                case .text(let s):
                    inbox.receive(Array(s.utf8), now: t)
                case .binary:
                    throw Ending.binaryMessage
                }
            }
        } catch {
            failure = error
        }
        inbox.close()
        await sessionTask.value
        watchdog.cancel()
        let totals = inbox.totals
        state.withLock {
            $0.activeSessions -= 1
            $0.sessionsEnded += 1
            $0.creditsReceived += totals.credits
            $0.movesCoalesced += totals.coalesced
        }
        // The session's memory is free now: give it back to the system.
        returnFreedMemorySoon()
        switch failure {
        case nil:
            return
        case Ending.binaryMessage?:
            try? await outbound.write(.text(PlaySession.error("binary messages are refused: page messages are JSON text")))  // the page may be gone already
            try? await outbound.close(.unacceptableData, reason: "binary message")  // the page may be gone already
        case let error?:
            // The WebSocket library closes with the code the error names: 1007 for text that is
            // not UTF-8, 1009 for a message over 64 KiB, 1002 for a broken frame sequence.
            throw error
        }
    }

    /// The session loop: whenever the inbox rings, every waiting message, then a frame if the
    /// page holds a credit and anything can have changed.
    func runSession(
        inbox: PlayInbox, outbound: WebSocketOutboundWriter, now: @escaping @Sendable () -> Double, writing: Locked<Double?>,
        recordPath: String?
    ) async {
        let session: PlaySession
        do {
            session = try PlaySession(source: source, scale: 1, now: now())
        } catch {
            try? await outbound.write(.text(PlaySession.error("cannot start a session: \(error)")))  // the page may be gone already
            try? await outbound.close(.unexpectedServerError, reason: "no session")  // the page may be gone already
            return
        }
        @Sendable func send(_ message: WebSocketOutboundWriter.OutboundFrame) async throws {
            writing.withLock { $0 = now() }
            defer { writing.withLock { $0 = nil } }
            try await outbound.write(message)
        }
        var lastDropReport = -10.0
        do {
            try await send(.text(session.welcome()))
            loop: for await _ in inbox.doorbell {
                let batch = inbox.take()
                let taken = session.apply(batch, now: now)
                var replies = taken.replies
                if taken.refused > 0 { state.withLock { $0.messagesRefused += taken.refused } }
                if taken.recordingAsked, let path = recordPath {
                    do {
                        try session.recorder.write(to: path, endStep: session.dashboard.stepCount)
                    } catch {
                        replies.append(PlaySession.error("cannot write the recording to \(path): \(error)"))
                    }
                }
                if batch.dropped > 0 {
                    state.withLock { $0.messagesRefused += batch.dropped }
                    let t = now()
                    if t - lastDropReport >= 1 {
                        lastDropReport = t
                        replies.append(PlaySession.error("too many messages: \(batch.dropped) dropped (at most \(Int(options.messagesPerSecond)) a second)"))
                    }
                }
                for r in replies { try await send(.text(r)) }
                if batch.closed { break loop }
                if session.wantsFrame {
                    session.spriteBudgetBytes = spriteBudgetPerSession
                    session.textBudgetBytes = options.textBudgetBytes / max(1, options.maxSessions)
                    if let frame = try session.frame(now: now()) {
                        try await send(.text(frame.header))
                        // No PNG follows a frame in which no tile changed.
                        if !frame.png.isEmpty { try await send(.binary(ByteBuffer(bytes: frame.png))) }
                        let cache = session.cacheStatistics
                        state.withLock {
                            $0.framesSent += 1
                            $0.lastStep = frame.step
                            $0.lastHash = frame.stateHash
                        }
                        cacheSizes.withLock { $0[ObjectIdentifier(session)] = cache }
                    }
                }
            }
        } catch {
            // The connection is gone (or a frame could not be drawn): the session ends.
        }
        cacheSizes.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(session)) }
        if let path = recordPath {
            session.advanceClock(now())
            do {
                try session.recorder.write(to: path, endStep: session.dashboard.stepCount)
            } catch {
                FileHandle.standardError.write(Data("error: \(path): cannot write the recording: \(error)\n".utf8))
            }
        }
    }

    /// Each session's share of `cacheBudgetBytes` for its sprites: an even split between the most
    /// sessions the server plays at once, so that the sum holds whatever comes and goes (a share
    /// that followed the sessions open would wipe every page's sprites whenever one more opened).
    var spriteBudgetPerSession: Int { options.cacheBudgetBytes / max(1, options.maxSessions) }

    /// `malloc_trim` now, or (when the last was under a second ago: sessions that close in a
    /// burst, rapid reconnects) once a second later, so that trimming costs at most a few
    /// milliseconds a second of the threads that draw frames.
    func returnFreedMemorySoon() {
        let now = MonotonicClock.seconds()
        let action = trim.withLock { t -> Int in
            if now - t.last >= 1 {
                t.last = now
                return 1
            }
            if t.pending { return 0 }
            t.pending = true
            return 2
        }
        switch action {
        case 1:
            PlayMemory.returnFreedMemory()
        case 2:
            Task(executorPreference: executor) { [self] in
                try? await Task.sleep(for: .seconds(1))  // cancelled: the loop's condition ends it
                trim.withLock {
                    $0.pending = false
                    $0.last = MonotonicClock.seconds()
                }
                PlayMemory.returnFreedMemory()
            }
        default:
            break
        }
    }

    // MARK: - Statistics

    /// Sessions, frames, memory and cache sizes now.
    public var statistics: PlayServerStatistics {
        let c = counters
        let caches = cacheSizes.withLock { Array($0.values) }
        let conn = connections.state.withLock { $0 }
        return PlayServerStatistics(
            counters: c, residentBytes: PlayMemory.residentBytes(), mallocInUseBytes: PlayMemory.mallocInUseBytes(),
            mallocFreeBytes: PlayMemory.mallocFreeBytes(),
            rasterCacheBytes: caches.reduce(0) { $0 + $1.rasterBytes }, textCacheEntries: caches.reduce(0) { $0 + $1.textEntries },
            textCacheBytes: caches.reduce(0) { $0 + $1.textBytes }, textBudgetBytes: options.textBudgetBytes,
            cacheBudgetBytes: options.cacheBudgetBytes, openConnections: conn.total, connectionsRefused: conn.refused,
            connectionsTimedOut: conn.timedOut, pageCacheBytes: source.pages?.cachedBytes ?? 0,
            pageBudgetBytes: source.pages?.budgetBytes ?? 0)
    }
}

/// A snapshot for `/stats` and `bubbles play --stats`.
public struct PlayServerStatistics: Sendable {
    /// What the server has done so far.
    public var counters: PlayServerCounters
    /// The process's resident set size (bytes).
    public var residentBytes: Int
    /// Bytes malloc has handed out (bytes).
    public var mallocInUseBytes: Int
    /// Bytes free inside malloc's arenas, not yet returned to the system (bytes).
    public var mallocFreeBytes: Int
    /// Every session's raster caches (sprites, background, bars, focus) at its last frame (bytes).
    public var rasterCacheBytes: Int
    /// Every session's cached text layouts and sizes (entries).
    public var textCacheEntries: Int
    /// Every session's cached text layouts and labels, by the renderer's estimate (bytes), and
    /// their server-wide budget.
    public var textCacheBytes: Int
    /// See `textCacheBytes` (bytes).
    public var textBudgetBytes: Int
    /// The server-wide sprite budget (bytes).
    public var cacheBudgetBytes: Int
    /// Connections open now.
    public var openConnections: Int
    /// Connections closed at once for being over `maxConnections` or `maxConnectionsPerAddress`.
    public var connectionsRefused: Int
    /// Connections closed for a request that did not arrive in time or an idle HTTP connection.
    public var connectionsTimedOut: Int
    /// The report pages' pictures, shared by every session (bytes), and their budget.
    public var pageCacheBytes: Int = 0
    /// See `pageCacheBytes` (bytes).
    public var pageBudgetBytes: Int = 0

    /// As one JSON object.
    public var json: String {
        let c = counters
        return "{\"sessions\": \(c.activeSessions), \"sessionsStarted\": \(c.sessionsStarted), \"sessionsEnded\": \(c.sessionsEnded), "
            + "\"sessionsRefused\": \(c.sessionsRefused), \"frames\": \(c.framesSent), \"creditsReceived\": \(c.creditsReceived), "
            + "\"movesCoalesced\": \(c.movesCoalesced), \"messagesRefused\": \(c.messagesRefused), \"slowReadersClosed\": \(c.slowReadersClosed), "
            + "\"residentBytes\": \(residentBytes), \"mallocInUseBytes\": \(mallocInUseBytes), \"mallocFreeBytes\": \(mallocFreeBytes), "
            + "\"rasterCacheBytes\": \(rasterCacheBytes), \"cacheBudgetBytes\": \(cacheBudgetBytes), \"textCacheEntries\": \(textCacheEntries), \"textCacheBytes\": \(textCacheBytes), \"textBudgetBytes\": \(textBudgetBytes), "
            + "\"openConnections\": \(openConnections), \"connectionsRefused\": \(connectionsRefused), \"connectionsTimedOut\": \(connectionsTimedOut), "
            + "\"pageCacheBytes\": \(pageCacheBytes), \"pageBudgetBytes\": \(pageBudgetBytes)}"
    }

    /// As one line for a terminal.
    public var line: String {
        let c = counters
        func mb(_ b: Int) -> String { String(format: "%.0f MB", Double(b) / 1e6) }
        return "sessions \(c.activeSessions) (\(c.sessionsStarted) started, \(c.sessionsRefused) refused), frames \(c.framesSent), "
            + "resident \(mb(residentBytes)), malloc in use \(mb(mallocInUseBytes)) (free \(mb(mallocFreeBytes))), "
            + "raster caches \(mb(rasterCacheBytes)) of \(mb(cacheBudgetBytes)), pages \(mb(pageCacheBytes)) of \(mb(pageBudgetBytes)), text caches \(mb(textCacheBytes)) of \(mb(textBudgetBytes)) (\(textCacheEntries) entries), "
            + "connections \(openConnections) (\(connectionsRefused) refused, \(connectionsTimedOut) timed out)"
    }
}


