import ArgumentParser
import Foundation

/// The `bubbles` command: the engine's tools on the command line.
@main
struct Bubbles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bubbles",
        abstract: "Headless core of the bubble-dashboard report browser.",
        discussion: """
            Run `bubbles help <subcommand>` for the options of one subcommand. Every error is one \
            line on standard error starting with `error:` that names the input and the place; \
            --verbose (on any subcommand) adds detail lines. Exit status: 0 on success, 1 when a \
            command failed, 64 for a malformed command line.
            """,
        subcommands: [Validate.self, Index.self, Search.self, Render.self, Page.self, Keywords.self, Bench.self, Export.self, Play.self, PlayClient.self])

    static let verboseFlags: Set<String> = ["--verbose", "-v"]

    /// Parses and runs like ArgumentParser's own `main()`, except that a malformed command line is
    /// one `error:` line naming the subcommand (ArgumentParser adds the usage; `--verbose` keeps
    /// it), and that `--verbose` is also taken before the subcommand's name.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let names = Set(configuration.subcommands.map { $0._commandName })
        if let s = arguments.firstIndex(where: { names.contains($0) }) {
            let early = arguments[..<s].filter { verboseFlags.contains($0) }
            if !early.isEmpty {
                arguments = arguments[..<s].filter { !verboseFlags.contains($0) } + [arguments[s]] + early
                    + arguments[(s + 1)...]
            }
        }
        let verbose = arguments.contains { verboseFlags.contains($0) }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            usageFailure(error, arguments: arguments, names: names, verbose: verbose)
        }
        do {
            try command.run()
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch let error as ValidationError {
            usageFailure(error, arguments: arguments, names: names, verbose: verbose)
        } catch where exitCode(for: error) == .success {
            exit(withError: error)
        } catch {
            // Subcommands report their own errors; this is the net for anything that escaped.
            Diagnostics.report(error, verbose: verbose)
            Foundation.exit(1)
        }
        Foundation.exit(0)
    }

    /// Help and version go out as ArgumentParser prints them; anything else is one line.
    static func usageFailure(_ error: any Error, arguments: [String], names: Set<String>, verbose: Bool) -> Never {
        let code = exitCode(for: error)
        if code == .success { exit(withError: error) }
        let sub = arguments.firstIndex { names.contains($0) }
        var place = "bubbles" + (sub.map { " " + arguments[$0] } ?? "")
        // A nested subcommand (`bench levels`) is named too.
        if let sub, sub + 1 < arguments.count,
           let command = configuration.subcommands.first(where: { $0._commandName == arguments[sub] }),
           command.configuration.subcommands.contains(where: { $0._commandName == arguments[sub + 1] }) {
            place += " " + arguments[sub + 1]
        }
        let lines = message(for: error).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let first = lines.first ?? "invalid command line"
        printError("error: \(place): \(first) (see '\(place) --help')")
        if verbose {
            printError("  kind: usage (exit status \(code.rawValue))")
            for line in lines.dropFirst() { printError("  " + line) }
            for line in fullMessage(for: error).split(whereSeparator: \.isNewline) where line.hasPrefix("Usage:") {
                printError("  " + line.trimmingCharacters(in: .whitespaces))
            }
        }
        Foundation.exit(code.rawValue)
    }
}
