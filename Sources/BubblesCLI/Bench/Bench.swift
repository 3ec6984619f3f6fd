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
            """,
        subcommands: [
            BenchPhysics.self, BenchRender.self, BenchExport.self, BenchLevels.self, BenchFind.self, BenchPlay.self, BenchPDF.self,
            BenchPage.self, BenchSearch.self,
        ],
        defaultSubcommand: BenchPhysics.self)

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
