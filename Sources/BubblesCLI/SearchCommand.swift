import ArgumentParser
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import Foundation
import ReportIndex
import ReportLibrary

/// `bubbles search`: finds reports by title, keywords, author and category, in any script.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search a datasource's reports (titles, keywords, authors, categories) through its index.",
        discussion: """
            Case, accents and width are ignored in every script; Chinese, Japanese, Korean, Thai, \
            Lao, Khmer and Myanmar text is found from one character on, inside longer words. Every \
            word must match (in any field); the last word is a prefix; "quoted words" match as a \
            phrase. Nothing in the query is syntax. Results are ranked: title matches first, then \
            the PDF's title, keywords, author, category titles. The index is brought up to date \
            first (see 'bubbles index'). --json prints {query, total, results: [{id, title, path, \
            score, pages, matches: [{field, text, spans}]}], facets: [{keyword, count}]}, spans in \
            Unicode scalar offsets, end exclusive.
            """)

    @Argument(help: "The query (may be empty with --keyword).")
    var query: String = ""

    @Option(help: "The datasource JSON file.")
    var data = "Data/reports.json"

    @Option(name: .customLong("index"), help: "The index file, or a postgres:// URL (default: BUBBLES_INDEX_URL, else beside the datasource, NAME.index.sqlite).")
    var indexPath: String?

    @Option(name: .customLong("in"), help: "Only reports below this category id.")
    var within: String?

    @Option(name: .customLong("keyword"), help: "Only reports with this keyword (repeatable: all of them).")
    var keywords: [String] = []

    @Option(help: "Results to show (the total counts all).")
    var limit = 20

    @Flag(help: "Also count the keywords of all matching reports, most frequent first.")
    var facets = false

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard limit >= 0, limit <= 100_000 else { throw ValidationError("--limit must be within 0...100000, not \(limit)") }
    }

    func run() throws {
        let start = MonotonicClock.seconds()
        defer { Diagnostics.timing(since: start, verbose: global.verbose) }
        do {
            let path = ReportIndex.location(indexPath, forDatasource: data)
            let (index, _) = try Index.update(data: data, index: path, wait: nil) { Diagnostics.warn($0, verbose: global.verbose) }
            let options = SearchOptions(keywords: keywords, within: within, limit: limit)
            let found = try index.search(SearchQuery(query), options: options, withFacets: facets)
            print(json ? Self.json(found) : Self.text(found, emphasise: isatty(1) != 0))
        } catch {
            Diagnostics.report(error, verbose: global.verbose)
            throw ExitCode.failure
        }
    }

    static func json(_ found: SearchResults) -> String {
        // Scores to six significant digits (more would only show the ranking's noise).
        func number(_ x: Double) -> String { JSONLiteral.number(x.isFinite ? Double(String(format: "%.6g", x))! : x) }
        let results = found.results.map { r in
            let matches = r.matches.map { m in
                "{\"field\": \(JSONLiteral.string(m.field.rawValue)), \"text\": \(JSONLiteral.string(m.text)), \"spans\": ["
                    + m.spans.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ") + "]}"
            }
            return "{\"id\": \(JSONLiteral.string(r.id)), \"title\": \(JSONLiteral.string(r.title)), \"path\": ["
                + r.path.map { JSONLiteral.string($0) }.joined(separator: ", ") + "], \"score\": \(number(r.score)), "
                + "\"pages\": \(r.pageCount.map(String.init) ?? "null"), \"matches\": [" + matches.joined(separator: ", ") + "]}"
        }
        let facets = found.facets.map { "{\"keyword\": \(JSONLiteral.string($0.keyword)), \"count\": \($0.count)}" }
        return "{\"query\": \(JSONLiteral.string(found.query)), \"total\": \(found.total), \"results\": ["
            + results.joined(separator: ",\n  ") + "], \"facets\": [" + facets.joined(separator: ", ") + "]}"
    }

    static func text(_ found: SearchResults, emphasise: Bool) -> String {
        var lines: [String] = []
        let noun = found.total == 1 ? "report" : "reports"
        lines.append(found.query.isEmpty ? "\(found.total) \(noun)" : "\(found.total) \(noun) match '\(found.query)'")
        for (i, r) in found.results.enumerated() {
            let spans = r.matches.first { $0.field == .title }?.spans ?? []
            let title = emphasise ? Self.emphasise(r.title, spans) : r.title
            let pages = r.pageCount.map { " · \($0) p." } ?? ""
            lines.append(String(format: "%3d. ", i + 1) + title + pages)
            let other = r.matches.filter { $0.field != .title }.map { "\($0.field.rawValue): \($0.text)" }
            lines.append("     " + r.id + " in " + r.path.joined(separator: " / ") + (other.isEmpty ? "" : "  (" + other.joined(separator: "; ") + ")"))
        }
        if !found.facets.isEmpty {
            lines.append("keywords: " + found.facets.map { "\($0.keyword) (\($0.count))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with the spans in bold (ANSI), for a terminal.
    static func emphasise(_ text: String, _ spans: [Range<Int>]) -> String {
        guard !spans.isEmpty else { return text }
        var out = String.UnicodeScalarView()
        for (i, scalar) in text.unicodeScalars.enumerated() {
            if spans.contains(where: { $0.lowerBound == i }) { out.append(contentsOf: "\u{1B}[1m".unicodeScalars) }
            out.append(scalar)
            if spans.contains(where: { $0.upperBound == i + 1 }) { out.append(contentsOf: "\u{1B}[0m".unicodeScalars) }
        }
        return String(out)
    }
}
