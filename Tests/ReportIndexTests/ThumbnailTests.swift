import Foundation
import GRDB
import IndexThumbnails
import ReportLibrary
import TestSupport
import Testing

@testable import ReportIndex

/// The thumbnail table: built once per content and width, pruned with the PDFs, committed in
/// whole batches, and kept across the migration from schema version 1.
@Suite struct ThumbnailTests {
    struct Stop: Error {}

    /// A builder's drawing that counts its calls.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func add(_ path: String) { lock.withLock { paths.append(path) } }
        var drawn: [String] { lock.withLock { paths.sorted() } }
    }

    static func counting(_ counter: Counter) -> @Sendable (ThumbnailTask) throws -> ThumbnailRecord? {
        { task in
            counter.add(task.path)
            return ThumbnailBuilder.draw(task)
        }
    }

    func indexed(_ library: TestLibrary) throws -> ReportIndex {
        let index = try ReportIndex.open(at: library.indexPath)
        _ = try index.update(with: try library.tree())
        return index
    }

    @Test func aSecondRunDrawsNothingAndAChangedPDFGetsANewOne() throws {
        try Self.buildsOnceAndFollowsThePDFs(.sqlite)
    }

    /// Thumbnails drawn, looked up, drawn again for a changed PDF and pruned, in `store`.
    static func buildsOnceAndFollowsThePDFs(_ store: TestStore) throws {
        let library = try TestLibrary(name: "thumbs", store: store)
        defer { library.remove() }
        let index = try ReportIndex.open(at: library.indexPath)
        _ = try index.update(with: try library.tree())
        let stored = try #require(try index.storedFile(atPath: library.folder + "/pdf/0.pdf"))
        #expect(stored.contentHash.count == 32 && stored.size > 0)
        let builder = ThumbnailBuilder(jobs: 2, batchSize: 3)
        let first = try builder.update(index)
        #expect(first.drawn == TestLibrary.samplePDFs.count && first.failed == 0 && first.pruned == 0)

        let thumb = try #require(try index.thumbnail(forReport: "rev-2016", width: ThumbnailBuilder.defaultWidth))
        #expect(Array(thumb.png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(thumb.pixelWidth == 128)
        #expect(abs(Double(thumb.pixelHeight) - 128 * thumb.pageHeight / thumb.pageWidth) <= 1)
        #expect(thumb.pageWidth > 100 && thumb.pageHeight > 100)
        #expect(try index.thumbnail(forReport: "rev-2016", width: 64) == nil)
        #expect(try index.thumbnail(forReport: "nope", width: 128) == nil)
        let batch = try index.thumbnails(forReports: ["rev-2016", "ar-report", "nope", "rev-2016"], width: 128)
        #expect(Set(batch.keys) == ["rev-2016", "ar-report"])
        #expect(batch["ar-report"] == thumb, "the two reports share one PDF")

        // Warm: nothing drawn, nothing read.
        let counter = Counter()
        let warm = try builder.update(index, draw: Self.counting(counter))
        #expect(warm == ThumbnailUpdate())
        #expect(counter.drawn.isEmpty)

        // One PDF changed: only it is drawn, and its old thumbnail goes.
        let changed = library.folder + "/pdf/0.pdf"
        let handle = try #require(FileHandle(forWritingAtPath: changed))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("%changed\n".utf8))
        try handle.close()
        _ = try index.update(with: try library.tree())
        let again = try builder.update(index, draw: Self.counting(counter))
        #expect(again.drawn == 1 && again.pruned == 1)
        #expect(counter.drawn == [changed])
        #expect(try index.thumbnail(forReport: "rev-2016", width: 128) != nil)

        // Reports dropped: the thumbnails of the PDFs no report uses any more go.
        try library.write(TestLibrary.reports.filter { $0.3 != 7 && $0.3 != 6 })
        _ = try index.update(with: try library.tree())
        let pruned = try builder.update(index, draw: Self.counting(counter))
        #expect(pruned.pruned == 2 && pruned.drawn == 0)
        #expect(try index.thumbnailCounts(width: 128).drawn == TestLibrary.samplePDFs.count - 2)
    }

    @Test func anInterruptedPassKeepsItsCommittedBatchesAndTheNextFinishes() throws {
        let library = try TestLibrary(name: "thumbs-stop")
        defer { library.remove() }
        let clean = try TestLibrary(name: "thumbs-clean")
        defer { clean.remove() }
        let reference = try indexed(clean)
        _ = try ThumbnailBuilder(jobs: 1).update(reference)

        let index = try indexed(library)
        let builder = ThumbnailBuilder(jobs: 3, batchSize: 2)
        // The fifth PDF stops the pass: the batches of the first four are committed, the third
        // batch (the fifth and sixth) is not, whatever thread finished first.
        #expect(throws: Stop.self) {
            _ = try builder.update(index) { task in
                if task.path.hasSuffix("/4.pdf") { throw Stop() }
                return ThumbnailBuilder.draw(task)
            }
        }
        #expect(try index.thumbnailCounts(width: 128).drawn == 4)
        #expect(try index.integrityProblems() == [])
        let counter = Counter()
        let resumed = try builder.update(index, draw: Self.counting(counter))
        #expect(resumed.drawn == TestLibrary.samplePDFs.count - 4)
        #expect(counter.drawn.count == TestLibrary.samplePDFs.count - 4)
        // The same rows as a pass that was never interrupted (the PNGs are the same bytes).
        let thumbs = { (i: ReportIndex) throws(IndexError) in
            try i.read { db in
                try String.fetchAll(db, sql: "SELECT hex(sha256) || width || hex(png) || coalesce(error, '') FROM thumbnail ORDER BY sha256, width")
            }
        }
        #expect(try thumbs(index) == thumbs(reference))
        #expect(try index.thumbnails(forReports: TestLibrary.reports.map(\.0), width: 128)
                == reference.thumbnails(forReports: TestLibrary.reports.map(\.0), width: 128))
    }

    @Test func aPDFThatCannotBeDrawnIsRecordedAndNotTriedAgain() throws {
        let library = try TestLibrary(name: "thumbs-bad")
        defer { library.remove() }
        // The metadata reader reads it; its page tree has no page the renderer can draw.
        try FileManager.default.copyItem(
            atPath: packageRoot + "/Tests/PDFMetadataTests/Fixtures/hand-kids-unreadable.pdf", toPath: library.folder + "/pdf/8.pdf")
        try library.write(TestLibrary.reports + [("bad", "Unreadable pages", ["europe", "odd"], 8, [])])
        let index = try indexed(library)
        let builder = ThumbnailBuilder(jobs: 2)
        let first = try builder.update(index)
        #expect(first.failed == 1 && first.drawn == TestLibrary.samplePDFs.count)
        #expect(try index.thumbnail(forReport: "bad", width: 128) == nil)
        let error = try index.read { db in try String.fetchOne(db, sql: "SELECT error FROM thumbnail WHERE png IS NULL") }
        #expect(error?.contains("no readable page") == true, "\(error ?? "nil")")
        let counter = Counter()
        #expect(try builder.update(index, draw: Self.counting(counter)) == ThumbnailUpdate())
        #expect(counter.drawn.isEmpty)
        // A PDF that changed after the index read it is left for the next update.
        let task = ThumbnailTask(sha256: [UInt8](repeating: 0, count: 32), path: library.folder + "/pdf/0.pdf", width: 128)
        #expect(ThumbnailBuilder.draw(task) == nil)
    }

    @Test func anIndexOfSchemaVersionOneGainsTheTableAndKeepsItsRows() throws {
        let library = try TestLibrary(name: "thumbs-migrate")
        defer { library.remove() }
        do {
            let index = try indexed(library)
            _ = try ThumbnailBuilder(jobs: 2).update(index)
        }
        // What version 1 wrote: no thumbnail table, no hash index.
        let queue = try DatabaseQueue(path: library.indexPath)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "DROP TABLE thumbnail; DROP INDEX file_by_sha256; PRAGMA user_version = 1")
        }
        try queue.close()
        let before = try dumpRows(library.indexPath)  // version 1 opens to read
        let old = try ReportIndex.open(at: library.indexPath, mode: .readOnly)
        #expect(try old.thumbnail(forReport: "rev-2016", width: 128) == nil)
        #expect(try old.thumbnailsToBuild(width: 128).isEmpty)

        var warnings: [String] = []
        let index = try ReportIndex.open(at: library.indexPath) { warnings.append($0) }
        #expect(warnings.isEmpty, "migrated in place, not rebuilt: \(warnings)")
        #expect(try index.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == ReportIndex.schemaVersion)
        #expect(try index.tableDump() == before)
        let update = try index.update(with: try library.tree())
        #expect(update.read == 0 && update.unchanged == TestLibrary.samplePDFs.count)
        #expect(try ThumbnailBuilder(jobs: 2).update(index).drawn == TestLibrary.samplePDFs.count)
    }
}

/// The thumbnails in the PostgreSQL store: skipped unless `BUBBLES_TEST_POSTGRES_URL` names a
/// server (scripts/test.sh starts a throw-away one).
@Suite(.enabled(if: TestStore.postgresURL != nil, "no PostgreSQL server (set BUBBLES_TEST_POSTGRES_URL)"))
struct PostgresThumbnailTests {
    @Test func aSecondRunDrawsNothingAndAChangedPDFGetsANewOne() throws {
        try ThumbnailTests.buildsOnceAndFollowsThePDFs(.postgres)
    }
}
