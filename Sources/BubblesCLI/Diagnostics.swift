import ArgumentParser
@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubbleRender
@_spi(Testbed) import BubbleScenario
import Foundation
import PDFCore
import PDFMetadata
import ReportIndex
import ReportLibrary
import BubbleSupport

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Flag(
        name: [.customLong("verbose"), .customShort("v")],
        help: "Add detail on standard error: an error's kind, byte offset and system error, warnings, timing.")
    var verbose = false
}

/// How the tool reports problems: one `error:` line on standard error that names the input and
/// the place (file:line:column and JSON path, byte offset, frame, flag); with `--verbose`, indented
/// detail lines after it.
enum Diagnostics {
    /// Prints `error: <error>` and, when verbose, the details of `error`.
    static func report(_ error: any Error, verbose: Bool) {
        let text = (error as? ExportError)?.commandLineDescription ?? (error as? IndexError)?.commandLineDescription ?? "\(error)"
        printError("error: \(oneLine(text))")
        if verbose { for line in details(of: error) { printError("  " + line) } }
    }

    /// Prints `warning: <text>` when verbose.
    static func warn(_ text: String, verbose: Bool) {
        if verbose { printError("warning: " + oneLine(text)) }
    }

    /// Prints the elapsed time of the command when verbose.
    static func timing(since start: Double, verbose: Bool) {
        if verbose { printError(String(format: "  time: %.3f s", MonotonicClock.seconds() - start)) }
    }

    /// Collapses line breaks so that a message is one line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// `kind: …`, `byte offset: …`, `system error: …` lines for `--verbose`.
    static func details(of error: any Error) -> [String] {
        switch error {
        case let e as LibraryError:
            var lines = ["kind: LibraryError.\(e.kind.rawValue)"]
            if let p = e.position { lines.append("byte offset: \(p.offset)") }
            if let other = e.otherPath { lines.append("first used at: \(other.isEmpty ? "the root" : other)") }
            return lines
        case let e as ScenarioError:
            var lines = ["kind: ScenarioError"]
            if let p = e.position { lines.append("byte offset: \(p.offset)") }
            return lines
        case let e as PDFError:
            var lines = ["kind: PDFError.\(e.kind.rawValue)"]
            if let o = e.offset { lines.append("byte offset: \(o)") }
            return lines
        case let e as RenderError:
            var lines = ["kind: RenderError.\(caseName(e))"]
            if case .diskFull = e { lines.append("system error: ENOSPC (\(String(cString: strerror(ENOSPC))))") }
            return lines
        case let e as ExportError:
            var lines = ["kind: ExportError.\(caseName(e))"]
            if case .diskFull = e { lines.append("system error: ENOSPC (\(String(cString: strerror(ENOSPC))))") }
            return lines
        case let e as DashboardError:
            return ["kind: DashboardError.\(caseName(e))"]
        case let e as CLIError:
            return e.details
        case is ValidationError:
            return ["kind: usage (a command-line value)"]
        default:
            let ns = error as NSError
            var lines = ["kind: \(type(of: error)).\(caseName(error))"]
            if ns.domain == NSPOSIXErrorDomain { lines.append("system error: \(String(cString: strerror(Int32(ns.code))))") }
            if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
                lines.append("system error: \(String(cString: strerror(Int32(underlying.code))))")
            }
            return lines
        }
    }

    /// The name of an enum case (or the type name of anything else).
    static func caseName(_ value: Any) -> String {
        let m = Mirror(reflecting: value)
        if m.displayStyle == .enum, let label = m.children.first?.label { return label }
        if m.displayStyle == .enum { return "\(value)".split(separator: "(").first.map(String.init) ?? "\(value)" }
        return "\(type(of: value))"
    }
}

/// A one-line error of the command-line tool, with optional detail lines for `--verbose`.
struct CLIError: Error, CustomStringConvertible {
    var description: String
    var details: [String] = []
    init(_ description: String, details: [String] = []) {
        self.description = description
        self.details = details
    }
}

/// This program's executable, for the benchmarks' child processes.
func ownExecutablePath() -> String {
    CommandLine.arguments[0].contains("/") ? CommandLine.arguments[0] : (Bundle.main.executablePath ?? CommandLine.arguments[0])
}

