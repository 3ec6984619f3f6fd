import ArgumentParser
import BubbleSupport
import Foundation
import PlayLoadClient

/// `bubbles play-client`: the load-testing client of a play server that is already running.
struct PlayClient: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play-client",
        abstract: "Drive a running play server with loading pages and misbehaving clients, and report what they saw.",
        discussion: """
            A client, not a server: it connects to the `bubbles play` server already listening on \
            127.0.0.1:--port, plays --pages pages (drags at 120 Hz, taps, pinches back) and, \
            unless --polite, clients that misbehave, for --seconds; it prints a line every 30 s, \
            then each page's frames/s and input-to-frame latency, and exits with status 1 when it \
            saw a failure (scripts/soak-play.sh).
            """)

    @Option(help: "The server's port on 127.0.0.1.")
    var port = 8300

    @Option(help: ArgumentHelp("How long to drive the server.", valueName: "seconds"))
    var seconds: Double

    @Option(help: "Pages that play at once.")
    var pages = 4

    @Option(help: "The pages' devicePixelRatio (0.5...2).")
    var scale = 1.0

    @Flag(help: "No misbehaving clients, only the pages.")
    var polite = false

    @Flag(help: "Pages open reports and read them: scroll their pages, zoom in, go back.")
    var viewer = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        try Self.validate(port: port, seconds: seconds, pages: pages, scale: scale, names: ("--port", "--seconds", "--pages", "--scale"))
    }

    func run() throws {
        try Self.drive(port: port, seconds: seconds, pages: pages, scale: scale, polite: polite, viewer: viewer, name: "bubbles play-client")
    }

    /// Refuses values the client cannot use; `names` are the flags as the user wrote them.
    static func validate(port: Int, seconds: Double, pages: Int, scale: Double, names: (port: String, seconds: String, pages: String, scale: String)) throws {
        guard seconds.isFinite, seconds >= 1, seconds <= 7 * 86_400 else {
            throw ValidationError("\(names.seconds) must be within 1...604800 seconds, not \(seconds)")
        }
        guard (1...65535).contains(port) else { throw ValidationError("\(names.seconds) needs the server's \(names.port)") }
        guard (1...64).contains(pages) else { throw ValidationError("\(names.pages) must be within 1...64, not \(pages)") }
        guard scale.isFinite, (0.5...2).contains(scale) else { throw ValidationError("\(names.scale) must be within 0.5...2, not \(scale)") }
    }

    /// Runs the load clients against the server on 127.0.0.1:`port`; prints every 30 s and at the
    /// end, and fails (exit status 1) when they saw a failure.
    static func drive(port: Int, seconds: Double, pages: Int, scale: Double, polite: Bool, viewer: Bool = false, name: String) throws {
        var o = PlaySoak.Options(port: port, seconds: seconds)
        o.viewer = viewer
        o.pages = pages
        o.scale = scale
        o.misbehave = !polite
        o.sampleInterval = 30
        printError("\(name): \(pages) pages at scale \(JSONLiteral.number(scale))\(polite ? "" : " and misbehaving clients") against 127.0.0.1:\(port) for \(Int(seconds)) s")
        let report = PlaySoak.run(o) { t in printError("\(name): \(Int(t)) s") }
        FileHandle.standardOutput.write(Data(report.text.utf8))
        if !report.failures.isEmpty { throw ExitCode.failure }
    }
}
