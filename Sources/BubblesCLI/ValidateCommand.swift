import ArgumentParser
import DashboardLibrary
import Foundation
@_spi(Testbed) import BubbleScenario
import PDFMetadata
import ReportLibrary
import BubbleSupport

/// `bubbles validate [DATA]`: loads a datasource and prints a summary or the first problem.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load and validate a report datasource.",
        discussion: """
            Prints a summary (categories, reports, depth, PDFs found and read), or one line naming \
            the file, line, column and JSON path of the first problem, and exits with status 1. \
            Every report's PDF is also read with the PDF metadata reader; a PDF that cannot be read \
            gets one line of its own and makes the exit status 1.
            """)

    @Argument(help: "The datasource JSON file.")
    var data: String = "Data/reports.json"

    @Flag(name: .customLong("no-check-files"), help: "Do not check that each report's PDF exists and is readable.")
    var skipFileCheck = false

    @OptionGroup var indexOptions: IndexOptions

    @OptionGroup var nodeLimit: NodeLimitOptions

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let start = MonotonicClock.seconds()
        defer { Diagnostics.timing(since: start, verbose: global.verbose) }
        let tree: ReportTree
        do {
            tree = try LibraryLoader.load(data, options: LibraryLoadOptions(checkFiles: !skipFileCheck, limits: nodeLimit.limits))
        } catch {
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
        let stats = tree.statistics
        var unreadable = 0
        var withKeywords = 0
        var keywordCount = 0
        var pages = 0
        let details = skipFileCheck ? [:] : LibraryBridge.details(for: tree, source: indexOptions.source()) { Diagnostics.warn($0, verbose: global.verbose) }
        GlyphWarnings.check(tree, details: details, source: data)
        if !skipFileCheck {
            for (index, node) in tree.nodes.enumerated() where node.kind == .report {
                guard let d = details[index] else { continue }
                if let problem = d.readError {
                    unreadable += 1
                    let place = node.jsonPath.isEmpty ? "file" : node.jsonPath + ".file"
                    printError("error: \(data): \(place): PDF '\(node.file ?? "")' cannot be read: \(problem)")
                    if global.verbose, let path = node.resolvedFile {
                        do { _ = try PDFDocumentInfo.read(contentsOf: path) } catch {
                            for line in Diagnostics.details(of: error) { printError("  " + line) }
                        }
                    }
                    continue
                }
                if !d.keywords.isEmpty { withKeywords += 1 }
                keywordCount += d.keywords.count
                pages += d.pageCount ?? 0
            }
        }
        print(unreadable == 0 ? "\(data): valid" : "\(data): \(unreadable) unreadable PDF\(unreadable == 1 ? "" : "s")")
        print("  categories  \(stats.categories) (root included)")
        print("  reports     \(stats.reports)")
        print("  depth       \(stats.depth) levels below the root")
        print("  largest     \(stats.largestCategory) children in one category")
        if skipFileCheck {
            print("  PDFs        not checked")
        } else {
            print("  PDFs found  \(stats.reports) of \(stats.reports), read \(stats.reports - unreadable) (\(pages) pages)")
            print("  keywords    \(keywordCount) on \(withKeywords) reports (from the PDFs and the datasource)")
        }
        if unreadable > 0 { throw ExitCode.failure }
    }
}
