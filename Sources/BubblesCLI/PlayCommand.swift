import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubblePlay
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import Foundation
import Synchronization

/// `bubbles play`: the live engine in a browser.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play the dashboard live in a browser: touch, drag, pinch, tune, record.",
        discussion: """
            Starts a web server and prints its URL. The page shows the dashboard at the browser's \
            display rate, drawn by the renderer on the server; it takes taps, drags, two-finger \
            pinches (or ctrl/⌘ + wheel), has pause, single step, slow motion, restart, a debug \
            overlay and a settings panel, and saves the session as a scenario file that \
            'bubbles export' replays bit for bit. Ctrl-C stops the server (and writes --record). \
            The protocol and the settings file are described in docs/play.md.
            """)

    @Option(help: "The datasource JSON file.")
    var data = "Data/reports.json"

    @Option(help: "The address to listen on (anything but a loopback address exposes the engine to the network).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8300

    @Option(help: "A settings file (JSON, as the page's 'Save settings' writes it).")
    var settings: String?

    @Option(help: "Write the session's recording here as a scenario file (atomically), when it ends and when saved; a second page's goes to FILE-2.json beside it, and so on.")
    var record: String?

    @Option(name: .customLong("max-sessions"), help: "At most this many pages at once.")
    var maxSessions = 4

    @Option(name: .customLong("idle-timeout"), help: "Close a page that sends nothing for this many seconds.")
    var idleTimeout = 600.0

    @Option(help: "Canvas size in points, WIDTHxHEIGHT.")
    var size = "768x1024"

    @Flag(name: .customLong("no-pdf"), help: "Do not read the PDFs (no page counts, authors or PDF keywords).")
    var skipPDFs = false

    @Option(help: ArgumentHelp("Print the server's statistics (sessions, frames, memory, caches, connections) to standard error every this many seconds.", valueName: "seconds"))
    var stats: Double?

    @Option(help: ArgumentHelp("Deprecated: `bubbles play-client --seconds N --port P` drives a running server. This runs it and exits without serving.", valueName: "seconds"))
    var soak: Double?

    @Option(name: .customLong("soak-pages"), help: "Deprecated, with --soak: `bubbles play-client --pages`.")
    var soakPages = 4

    @Option(name: .customLong("soak-scale"), help: "Deprecated, with --soak: `bubbles play-client --scale`.")
    var soakScale = 1.0

    @Flag(name: .customLong("soak-polite"), help: "Deprecated, with --soak: `bubbles play-client --polite`.")
    var soakPolite = false

    @OptionGroup var indexOptions: IndexOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be within 0...65535, not \(port)") }
        guard (1...64).contains(maxSessions) else { throw ValidationError("--max-sessions must be within 1...64, not \(maxSessions)") }
        guard idleTimeout.isFinite, idleTimeout >= 1, idleTimeout <= 86_400 else {
            throw ValidationError("--idle-timeout must be within 1...86400 seconds, not \(idleTimeout)")
        }
        _ = try parseSize(size)
        if let stats, !(stats.isFinite && stats >= 0.5 && stats <= 86_400) { throw ValidationError("--stats must be within 0.5...86400 seconds, not \(stats)") }
        if let soak {
            try PlayClient.validate(
                port: port, seconds: soak, pages: soakPages, scale: soakScale,
                names: ("--port", "--soak", "--soak-pages", "--soak-scale"))
        }
    }

    func run() throws {
        if let soak {
            printError("warning: `bubbles play --soak` is deprecated; use `bubbles play-client --seconds \(JSONLiteral.number(soak)) --port \(port)`")
            return try PlayClient.drive(port: port, seconds: soak, pages: soakPages, scale: soakScale, polite: soakPolite, name: "bubbles play --soak")
        }
        let source: PlaySource
        do {
            let canvas = try parseSize(size)
            var dashboardSettings = DashboardSettings()
            dashboardSettings.canvasWidth = canvas.width
            dashboardSettings.canvasHeight = canvas.height
            if let settings { dashboardSettings = try SettingsFile.load(settings, base: dashboardSettings) }
            // An index rebuilt or damaged, and a search it could not answer, are said on standard error.
            source = try PlaySource.load(dataPath: data, settings: dashboardSettings, pdfMetadata: indexOptions.source(readPDFs: !skipPDFs)) {
                printError("warning: bubbles play: " + Diagnostics.oneLine($0))
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
        var options = PlayServerOptions()
        options.host = host
        options.port = port
        options.maxSessions = maxSessions
        // Every page may come from one address (all of them on loopback): room for each page's
        // WebSocket and a few HTTP connections, however many pages --max-sessions allows.
        options.maxConnectionsPerAddress = max(options.maxConnectionsPerAddress, maxSessions + 16)
        options.idleTimeout = idleTimeout
        options.recordPath = record
        let server = PlayServer(source: source, options: options)
        if !options.isLoopback {
            printError("warning: listening on \(host): anyone who can reach this address can use the engine (the default, 127.0.0.1, is this machine only)")
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        // Set from an async task: locked through a function that is not inlined into it (see
        // `Locked` in BubblePlay: an inlined `Mutex` could take the lock in another thread's name).
        let failure = Mutex<String?>(nil)
        @inline(never) func setFailure(_ message: String) { failure.withLock { $0 = message } }
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run(handleSignals: true) { port in
                    let line = "bubbles play: http://\(shown == "0.0.0.0" ? "127.0.0.1" : shown):\(port)/  (Ctrl-C stops)\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                }
            } catch {
                setFailure("\(host):\(port): \(error)")
            }
            done.signal()
        }
        if let stats {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + stats, repeating: stats)
            timer.setEventHandler { printError("bubbles play: \(server.statistics.line)") }
            timer.resume()
            done.wait()
            timer.cancel()
        } else {
            done.wait()
        }
        if let message = failure.withLock({ $0 }) {
            printError("error: cannot serve: \(message)")
            throw ExitCode.failure
        }
        let c = server.counters
        printError("bubbles play: stopped after \(c.sessionsStarted) session(s), \(c.framesSent) frames")
    }
}
