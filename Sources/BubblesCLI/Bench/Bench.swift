import ArgumentParser
import BubblePhysics
import BubbleThreads
import Foundation
import BubbleSupport

/// `bubbles bench`: the benchmarks, one subcommand each. Plain `bubbles bench [options]` is
/// `bubbles bench physics [options]`.
///
/// Every benchmark is one file of this folder holding its subcommand and its measuring code
/// (`PhysicsBench.swift`, `RenderBench.swift`, …); the commands outside `Bench/` measure nothing.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the physics step (the default), the renderer, the export, level taps, the play server, the PDF reader or the library index and search.",
        discussion: """
            Run `bubbles bench <subcommand> --help` for the options of one benchmark; every \
            subcommand takes --json. Build with -c release.

            The flags that chose a benchmark before the subcommands (--render, --export, --levels, \
            --play, --pdf DIR..., --search) still work for one release: `bubbles bench --levels ...` \
            runs `bubbles bench levels ...` and says so on standard error.
            """,
        subcommands: [
            BenchPhysics.self, BenchRender.self, BenchExport.self, BenchLevels.self, BenchFind.self, BenchPlay.self, BenchPDF.self,
            BenchPage.self, BenchSearch.self,
        ],
        defaultSubcommand: BenchPhysics.self)

    /// The deprecated mode flags and the subcommand each stands for.
    static let legacyModes: [(flag: String, subcommand: String)] = [
        ("--render", "render"), ("--export", "export"), ("--levels", "levels"), ("--play", "play"),
        ("--pdf", "pdf"), ("--search", "search"),
    ]

    /// Rewrites a command line that picks its benchmark with one of the deprecated flags
    /// (`bench --levels --children 10` → `bench levels --children 10`; `bench --pdf A B --json` →
    /// `bench pdf A B --json`), and returns the one-line notice to print; nil when `arguments`
    /// (the whole command line after `bubbles`) uses no such flag. The old internal
    /// `--levels-child PATH` becomes `levels --child PATH`, silently.
    static func rewritingLegacyFlags(_ arguments: [String]) -> (arguments: [String], notice: String?)? {
        let names = Set(Bubbles.configuration.subcommands.map { $0._commandName })
        guard let b = arguments.firstIndex(where: { names.contains($0) }), arguments[b] == "bench" else { return nil }
        var rest = Array(arguments[(b + 1)...])
        if let first = rest.first, configuration.subcommands.contains(where: { $0._commandName == first }) { return nil }
        if let c = rest.firstIndex(of: "--levels-child") {
            rest[c] = "--child"
            return (Array(arguments[...b]) + ["levels"] + rest, nil)
        }
        for (flag, subcommand) in legacyModes {
            guard let i = rest.firstIndex(where: { $0 == flag || $0.hasPrefix(flag + "=") }) else { continue }
            if rest[i] == flag {
                rest.remove(at: i)
            } else {
                rest[i] = String(rest[i].dropFirst(flag.count + 1))
            }
            let notice = "warning: `bubbles bench \(flag)` is deprecated and will be removed; use `bubbles bench \(subcommand)`"
            return (Array(arguments[...b]) + [subcommand] + rest, notice)
        }
        return nil
    }

    /// Runs a benchmark's body the way every subcommand does: its own errors are one `error:`
    /// line (exit status 1), usage errors go to the caller, `--verbose` adds the time.
    static func running(_ global: GlobalOptions, _ body: () throws -> Void) throws {
        let start = MonotonicClock.seconds()
        defer { Diagnostics.timing(since: start, verbose: global.verbose) }
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
    }
}
