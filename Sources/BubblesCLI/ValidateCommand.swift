import ArgumentParser
import ReportLibrary

/// `bubbles validate [DATA]`: loads a datasource and prints a summary or the first problem.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load and validate a report datasource.",
        discussion: """
            Prints a summary (categories, reports, depth, PDFs found), or one line naming the file, \
            line, column and JSON path of the first problem, and exits with status 1.
            """)

    @Argument(help: "The datasource JSON file.")
    var data: String = "Data/reports.json"

    @Flag(name: .customLong("no-check-files"), help: "Do not check that each report's PDF exists and is readable.")
    var skipFileCheck = false

    func run() throws {
        let tree: ReportTree
        do {
            tree = try LibraryLoader.load(data, options: LibraryLoadOptions(checkFiles: !skipFileCheck))
        } catch {
            printError("error: \(error)")
            throw ExitCode.failure
        }
        let stats = tree.statistics
        print("\(data): valid")
        print("  categories  \(stats.categories) (root included)")
        print("  reports     \(stats.reports)")
        print("  depth       \(stats.depth) levels below the root")
        print("  largest     \(stats.largestCategory) children in one category")
        print("  PDFs found  \(skipFileCheck ? "not checked" : "\(stats.reports) of \(stats.reports)")")
    }
}
