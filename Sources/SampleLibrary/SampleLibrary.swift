// The public face of the sample-library generator: build the library, write reports.json and one
// PDF per report, and describe what was written.

import Foundation

/// The deterministic generator of the shipped sample library (`Data/reports.json` and
/// `Data/reports/*.pdf`).
///
/// The same generator version with the same Cairo version always writes byte-identical files:
/// every varying value is drawn from a generator seeded with the report id, PDF dates are fixed
/// per report, and nothing reads the clock, the locale or system randomness.
public enum SampleLibrary {
    /// The resolved library tree; its root is the `root` category.
    public static func library() throws -> SampleCategory {
        try LibraryResolver.resolve(sampleLibrarySpec)
    }

    /// The datasource document (the contents of reports.json) for `root`.
    public static func jsonDocument(for root: SampleCategory) -> String {
        JSONWriter.document(root)
    }

    /// The PDF bytes of one report.
    public static func pdf(for report: SampleReport) throws -> [UInt8] {
        try PDFWriter.render(report)
    }

    /// Writes `reports.json`, `international.json` (see `internationalDocument()`), `large.json`
    /// (see `largeDocument()`) and
    /// `reports/<id>.pdf` for every report into `directory`, creating
    /// it if needed. Each file is written under a temporary name and renamed into place; files
    /// whose contents are already right are left untouched. PDFs in `reports/` that are not part
    /// of the library are removed.
    @discardableResult
    public static func generate(into directory: String) throws -> GenerationSummary {
        let root = try library()
        let fileManager = FileManager.default
        let reportsDirectory = (directory as NSString).appendingPathComponent("reports")
        try fileManager.createDirectory(atPath: reportsDirectory, withIntermediateDirectories: true)

        var summary = GenerationSummary()
        summary.measure(root)

        // PDFs first, so reports.json never points at a missing file.
        var expected: Set<String> = []
        for report in allReports(root) {
            let bytes = try pdf(for: report)
            let name = (report.file as NSString).lastPathComponent
            expected.insert(name)
            let changed = try writeFile(
                bytes, to: (reportsDirectory as NSString).appendingPathComponent(name))
            summary.pdfCount += 1
            summary.pdfBytes += bytes.count
            if changed { summary.filesWritten += 1 }
        }

        // Stale PDFs (and temporary files of an interrupted run).
        for name in try fileManager.contentsOfDirectory(atPath: reportsDirectory).sorted() {
            let isStalePDF = name.hasSuffix(".pdf") && !expected.contains(name)
            let isLeftover = name.hasPrefix(".") && name.hasSuffix(temporarySuffix)
            if isStalePDF || isLeftover {
                try fileManager.removeItem(
                    atPath: (reportsDirectory as NSString).appendingPathComponent(name))
                if isStalePDF { summary.stalePDFsRemoved.append(name) }
            }
        }

        let json = Array(jsonDocument(for: root).utf8)
        summary.jsonBytes = json.count
        if try writeFile(json, to: (directory as NSString).appendingPathComponent("reports.json")) {
            summary.filesWritten += 1
        }
        for (name, document) in [("international.json", internationalDocument()), ("large.json", largeDocument())] {
            if try writeFile(Array(document.utf8), to: (directory as NSString).appendingPathComponent(name)) {
                summary.filesWritten += 1
            }
        }
        return summary
    }

    /// Every report of the tree, depth first in document order.
    public static func allReports(_ category: SampleCategory) -> [SampleReport] {
        category.children.flatMap { node -> [SampleReport] in
            switch node {
            case .category(let sub): allReports(sub)
            case .report(let report): [report]
            }
        }
    }

    private static let temporarySuffix = ".tmp"

    /// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
    /// Returns false (and writes nothing) when the file already holds exactly these bytes.
    private static func writeFile(_ bytes: [UInt8], to path: String) throws -> Bool {
        if let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(bytes) {
            return false
        }
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(
            ".\(name).\(ProcessInfo.processInfo.processIdentifier)\(temporarySuffix)")
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw GenerationError(
                    description: "cannot rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)  // cleanup after the error being thrown
            throw error
        }
        return true
    }
}

/// Writing the sample library failed.
public struct GenerationError: Error, CustomStringConvertible {
    /// What failed, one line.
    public var description: String
}

/// What `SampleLibrary.generate(into:)` wrote, and the shape of the library.
public struct GenerationSummary: Sendable, CustomStringConvertible {
    /// Categories including the root.
    public var categoryCount = 0
    /// Reports.
    public var reportCount = 0
    /// Levels below the root down to the deepest node (a report directly in a top-level
    /// category is at depth 2).
    public var depth = 0
    /// The category with the most children, and how many it has.
    public var largestCategory: (id: String, children: Int) = ("", 0)
    /// Ids of categories with exactly one child.
    public var singleChildCategories: [String] = []
    /// Distinct PDFs written or kept.
    public var pdfCount = 0
    /// Their bytes in all.
    public var pdfBytes = 0
    /// The bytes of reports.json.
    public var jsonBytes = 0
    /// Files actually (re)written; unchanged files are left alone.
    public var filesWritten = 0
    /// PDFs of an earlier library that this one no longer names, removed.
    public var stalePDFsRemoved: [String] = []
    /// Reports whose PDF has no keywords, one, twelve or more, a non-ASCII one, or uses `;`.
    public var keywordCoverage = KeywordCoverage()
    /// Reports with author-supplied keywords in reports.json.
    public var reportsWithExtraKeywords = 0
    /// Reports by page count (index 0: one page).
    public var pageCounts = [0, 0, 0]
    /// Shortest and longest titles, in words.
    public var titleWords: ClosedRange<Int> = 0...0

    /// Counts of keyword situations the PDF reader has to handle.
    public struct KeywordCoverage: Sendable {
        /// PDFs without keywords.
        public var none = 0
        /// PDFs with one keyword.
        public var single = 0
        /// PDFs with twelve keywords or more.
        public var long = 0
        /// PDFs with a keyword outside ASCII.
        public var nonASCII = 0
        /// PDFs whose keywords are separated by `;`.
        public var semicolonSeparated = 0
    }

    mutating func measure(_ root: SampleCategory) {
        var shortest = Int.max
        var longest = 0
        func visit(_ category: SampleCategory, level: Int) {
            categoryCount += 1
            if category.children.count > largestCategory.children {
                largestCategory = (category.id, category.children.count)
            }
            if category.children.count == 1 { singleChildCategories.append(category.id) }
            for child in category.children {
                depth = max(depth, level + 1)
                switch child {
                case .category(let sub):
                    visit(sub, level: level + 1)
                case .report(let report):
                    reportCount += 1
                    let words = report.title.split(separator: " ").filter { $0 != "—" && $0 != "&" }.count
                    shortest = min(shortest, words)
                    longest = max(longest, words)
                    pageCounts[report.pageCount - 1] += 1
                    if !report.extraKeywords.isEmpty { reportsWithExtraKeywords += 1 }
                    let keywords = report.pdfKeywords
                    if keywords.isEmpty { keywordCoverage.none += 1 }
                    if keywords.count == 1 { keywordCoverage.single += 1 }
                    if keywords.count >= 12 { keywordCoverage.long += 1 }
                    if keywords.contains(where: { $0.unicodeScalars.contains { !$0.isASCII } }) {
                        keywordCoverage.nonASCII += 1
                    }
                    if keywords.count > 1, report.keywordSeparator.hasPrefix(";") {
                        keywordCoverage.semicolonSeparated += 1
                    }
                }
            }
        }
        visit(root, level: 0)
        titleWords = shortest...longest
    }

    /// The summary as lines for a terminal.
    public var description: String {
        var lines = [
            "categories: \(categoryCount) (including the root)",
            "reports: \(reportCount)",
            "depth: \(depth) levels below the root",
            "largest category: \(largestCategory.id) (\(largestCategory.children) children)",
            "categories with one child: \(singleChildCategories.joined(separator: ", "))",
            "title length: \(titleWords.lowerBound)–\(titleWords.upperBound) words",
            "pages: \(pageCounts[0]) one-page, \(pageCounts[1]) two-page, \(pageCounts[2]) three-page",
            "PDF keywords: \(keywordCoverage.none) none, \(keywordCoverage.single) single, "
                + "\(keywordCoverage.long) with 12+, \(keywordCoverage.nonASCII) non-ASCII, "
                + "\(keywordCoverage.semicolonSeparated) semicolon-separated",
            "author keywords in JSON: \(reportsWithExtraKeywords) reports",
            "PDFs: \(pdfCount), \(pdfBytes) bytes",
            "reports.json: \(jsonBytes) bytes",
            "files written: \(filesWritten) (others unchanged)",
        ]
        if !stalePDFsRemoved.isEmpty {
            lines.append("stale PDFs removed: \(stalePDFsRemoved.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n")
    }
}
