import Foundation
import ReportLibrary
import SampleLibrary
import TestSupport
import Testing

@Suite("Shipped sample data")
struct SampleDataTests {
    @Test func sampleLoadsAndHasThePromisedShape() throws {
        let tree = try LibraryLoader.load(packageRoot + "/Data/reports.json")
        let stats = tree.statistics
        #expect(stats.depth >= 4)
        #expect(stats.categories >= 30)
        #expect(stats.reports >= 120)
        #expect(stats.largestCategory >= 25)
        #expect(tree.nodes.contains { $0.kind == .category && $0.children.count == 1 })
        #expect(tree.node("finance")?.depth == 1)
        #expect(tree.node("q1-2016")?.kind == .report)
        let wordCounts = tree.nodes.map { $0.title.split(separator: " ").count }
        #expect(wordCounts.min() == 1)
        #expect(wordCounts.max()! >= 8)
    }

    /// FNV-1a 64 over every generated file, in sorted path order.
    func digest(_ folder: String) throws -> [String: UInt64] {
        var result: [String: UInt64] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/reports").sorted()
        for name in ["reports.json"] + names.map({ "reports/" + $0 }) {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            result[name] = FNV1a64.hash(bytes)
        }
        return result
    }

    @Test func generatorIsDeterministicAndMatchesTheCommittedData() throws {
        let base = NSTemporaryDirectory() + "bubbles-sample-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: base) }
        _ = try SampleLibrary.generate(into: base + "/a")
        _ = try SampleLibrary.generate(into: base + "/b")
        let a = try digest(base + "/a")
        let b = try digest(base + "/b")
        #expect(a.count == 141)
        #expect(a == b, "two runs of the generator must give identical files")

        let committed = try digest(packageRoot + "/Data")
        #expect(committed.keys.sorted() == a.keys.sorted(), "Data/ must hold exactly the generated files")
        #expect(committed["reports.json"] == a["reports.json"], "Data/reports.json is stale: run scripts/make-sample-library.sh")
        // PDF bytes also depend on the Cairo, zlib and DejaVu versions: compare them only when the
        // generated files name the same producer as the committed ones.
        let producer = { (path: String) -> String? in
            let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            return text.range(of: "/Producer (").map { String(text[$0.upperBound...].prefix(40)) }
        }
        let sample = "reports/q1-2016.pdf"
        if producer(base + "/a/" + sample) == producer(packageRoot + "/Data/" + sample) {
            let stale = a.keys.sorted().filter { a[$0] != committed[$0] }
            #expect(stale.isEmpty, "stale PDFs in Data/: \(stale.prefix(5)); run scripts/make-sample-library.sh")
        }
    }
}
