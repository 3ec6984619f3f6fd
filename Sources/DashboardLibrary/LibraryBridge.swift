@_spi(Testbed) import BubbleDashboard
import PDFMetadata
import ReportIndex
import ReportLibrary
import Synchronization

/// What the dashboard shows of a report beyond its title: read from the PDF, merged with the
/// datasource's own keywords.
public struct ReportDetails: Sendable, Hashable {
    /// The PDF's author, if it names one.
    public var author: String?
    /// The PDF's page count, if its page tree could be read.
    public var pageCount: Int?
    /// The PDF's keywords first, then the datasource's extra ones; duplicates (compared without
    /// regard to case) removed, keeping the first.
    public var keywords: [String]
    /// Why the PDF could not be read, if it could not (the report still shows, without details).
    public var readError: String?
}

/// Where the reports' PDF metadata comes from.
public enum PDFMetadataSource: Sendable, Equatable {
    /// The library index at `path` (nil: beside the datasource, `NAME.index.sqlite`), brought up
    /// to date first: only new or changed PDFs are read, and written back when the index can be
    /// written. An index that cannot be opened at all falls back to reading every PDF.
    case index(path: String?)
    /// Every PDF read again, nothing written (`--no-index`).
    case readEveryPDF
    /// No PDF read: titles and the datasource's keywords only (`--no-pdf`).
    case none
}

/// True the first time it is asked only.
final class WarnedOnce: Sendable {
    let asked = Mutex(false)
    func first() -> Bool { asked.withLock { a in defer { a = true }; return !a } }
}

/// Turns a validated datasource into the dashboard's tree.
public enum LibraryBridge {
    /// The reports' PDFs for the preview's viewer and the list rows' thumbnails (from the index
    /// when `source` has one: `thumbnailWidth` pixels wide, default 128, as `bubbles index` builds
    /// them): nil when `source` reads no PDF (`--no-pdf`; the preview then draws a stand-in page).
    /// An index that cannot be read gives placeholders, and `warn` is told once.
    public static func pageSource(
        for tree: ReportTree, source: PDFMetadataSource, budgetBytes: Int = 256 << 20, thumbnailWidth: Int = 128,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) -> ReportPageSource? {
        switch source {
        case .none:
            return nil
        case .readEveryPDF:
            return ReportPageSource(tree: tree, budgetBytes: budgetBytes)
        case .index(let path):
            let file = path ?? ReportIndex.defaultPath(forDatasource: tree.sourceFile)
            let index: ReportIndex
            do {
                index = try ReportIndex.open(at: file, mode: .readOnly)
            } catch {
                warn("\(error); reports show placeholders for their thumbnails")
                return ReportPageSource(tree: tree, budgetBytes: budgetBytes)
            }
            let told = WarnedOnce()
            return ReportPageSource(tree: tree, budgetBytes: budgetBytes) { id in
                do {
                    return try index.thumbnail(forReport: id, width: thumbnailWidth)
                } catch {
                    if told.first() { warn("\(error); reports show placeholders for their thumbnails") }
                    return nil
                }
            }
        }
    }

    /// Every report's details, in tree order, with the PDFs read once per file.
    /// `readPDFs: false` uses only the JSON.
    public static func details(for tree: ReportTree, readPDFs: Bool = true) -> [Int: ReportDetails] {
        details(for: tree, source: readPDFs ? .readEveryPDF : .none)
    }

    /// Every report's details from `source`. The details are the same whatever the source (but
    /// `.none`); `warn` receives a line for an index rebuilt or not usable.
    public static func details(for tree: ReportTree, source: PDFMetadataSource, warn: (String) -> Void = { _ in }) -> [Int: ReportDetails] {
        var records: [String: PDFFileRecord] = [:]
        switch source {
        case .none:
            break
        case .readEveryPDF:
            records = readEveryPDF(tree)
        case .index(let path):
            let file = ReportIndex.location(path, forDatasource: tree.sourceFile)
            do {
                records = try indexedRecords(tree, index: file, warn: warn)
            } catch {
                warn("\(error); reading every PDF")
                records = readEveryPDF(tree)
            }
        }
        var result: [Int: ReportDetails] = [:]
        for (i, node) in tree.nodes.enumerated() where node.kind == .report {
            var details = ReportDetails(author: nil, pageCount: nil, keywords: node.keywords, readError: nil)
            if source != .none, let path = node.resolvedFile, let record = records[path] {
                if let problem = record.readError {
                    details.readError = problem
                } else {
                    details.author = record.author
                    details.pageCount = record.pageCount
                    details.keywords = ReportIndex.mergeKeywords(record.keywords, node.keywords)
                }
            }
            result[i] = details
        }
        return result
    }

    /// The index's records for `tree`'s PDFs: straight from the index when it was last updated
    /// from the datasource file as `tree` was loaded and no PDF changed since, else after an update.
    static func indexedRecords(_ tree: ReportTree, index path: String, warn: (String) -> Void) throws(IndexError) -> [String: PDFFileRecord] {
        if let stamp = tree.sourceStamp, let index = try? ReportIndex.open(at: path, mode: .updateIfPossible, warn: warn),  // the fast path only: any error
           let current = try? index.isCurrent(datasource: tree.sourceFile, stamp: stamp),  // takes the full update below, which reports it
           tree.nodes.allSatisfy({ $0.resolvedFile.map { current.files[$0] != nil } ?? true })
        {
            return current.files
        }
        return try ReportIndex.openAndUpdate(at: path, mode: .updateIfPossible, tree: tree, warn: warn).1.files
    }

    /// Each distinct PDF of `tree` read once, as an index update reads it.
    static func readEveryPDF(_ tree: ReportTree) -> [String: PDFFileRecord] {
        var records: [String: PDFFileRecord] = [:]
        for node in tree.nodes where node.kind == .report {
            guard let path = node.resolvedFile, records[path] == nil else { continue }
            records[path] = PDFFileRecord.read(path)
        }
        return records
    }

    /// The dashboard tree for `tree`, with `details` per report index.
    public static func dashboardTree(_ tree: ReportTree, details: [Int: ReportDetails] = [:]) throws(DashboardError) -> DashboardTree {
        var reportCounts = [Int](repeating: 0, count: tree.nodes.count)
        // Nodes are in pre-order, so children come after parents: sum from the end.
        for i in tree.nodes.indices.reversed() {
            let node = tree.nodes[i]
            reportCounts[i] = node.kind == .report ? 1 : node.children.reduce(0) { $0 + reportCounts[$1] }
        }
        let nodes = tree.nodes.enumerated().map { (i, node) in
            let d = details[i]
            return DashboardNode(
                id: node.id, title: node.title, kind: node.kind == .report ? .report : .category,
                colour: node.branchColour.map { SceneColour(red: $0.red, green: $0.green, blue: $0.blue) },
                children: node.children, reportCount: reportCounts[i], author: d?.author, pageCount: d?.pageCount,
                keywords: d?.keywords ?? node.keywords)
        }
        return try DashboardTree(nodes: nodes)
    }
}
