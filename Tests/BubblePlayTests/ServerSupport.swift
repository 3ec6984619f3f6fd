import BubblePlay
import Foundation
import Synchronization
import TestSupport

/// A play server on a free loopback port, for one test.
final class RunningServer: Sendable {
    let server: PlayServer
    let task: Task<Void, Never>
    let port: Int

    init(options: PlayServerOptions = PlayServerOptions(), source: PlaySource = sampleSource) async throws {
        var o = options
        o.port = 0
        // The suite runs many servers and a soak in one process on a loaded machine: a request
        // that waits its turn must not meet the 10 s request limit, unless a test is about it.
        let defaults = PlayServerOptions()
        if o.requestTimeout == defaults.requestTimeout { o.requestTimeout = 120 }
        if o.httpIdleTimeout == defaults.httpIdleTimeout { o.httpIdleTimeout = 120 }
        let server = PlayServer(source: source, options: o)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        task = Task {
            do { try await server.run(handleSignals: false) { continuation.yield($0) } } catch {}
            continuation.finish()
        }
        var it = ports.makeAsyncIterator()
        guard let p = await it.next() else { throw POSIXError(.ECONNREFUSED) }
        self.server = server
        self.port = p
    }

    /// Stops the server gracefully (`PlayServer.shutdown`), and cancels it if it has not stopped
    /// within 10 s (a page that keeps its WebSocket open). Cancelling first could hang: the
    /// cancellation of the server's task tree met a lock of the service group's merged streams
    /// held by a child task finishing at that moment, and both waited for good.
    func stop() async {
        await server.shutdown()
        let task = self.task
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await task.value; return true }
            group.addTask { (try? await Task.sleep(for: .seconds(10))) != nil ? false : true }
            if await group.next() == false { task.cancel() }
            group.cancelAll()
        }
    }

    var origin: String { "http://127.0.0.1:\(port)" }
}

/// A value behind a lock, shared by reference between tasks.
final class Box<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ v: Value) { value = Mutex(v) }
    func withLock<R: Sendable>(_ body: (inout sending Value) throws -> sending R) rethrows -> R { try value.withLock(body) }
}

/// Opens headless Chromium with its profile at `profile`, runs `script` on a thread of its own with
/// a DevTools connection to the page, `server`'s origin and a box for its results, then stops the
/// server and Chromium and returns the results (an error thrown by the script under "failure").
func inChromium(
    server: RunningServer, profile: String, _ script: @escaping @Sendable (CDP, String, Box<[String: String]>) throws -> Void
) async throws -> [String: String] {
    let (chromium, devtoolsPort) = try await Chromium.launch(profile: profile)
    defer {
        chromium.terminate()
        chromium.waitUntilExit()
    }
    let pageURL = try await Chromium.pageWebSocketURL(devtoolsPort: devtoolsPort)
    let results = Box<[String: String]>([:])
    let origin = server.origin
    try await onThread {
        do {
            try script(try CDP(webSocketURL: pageURL), origin, results)
        } catch {
            results.withLock { $0["failure"] = "\(error)" }
        }
    }
    await server.stop()
    return results.withLock { $0 }
}
