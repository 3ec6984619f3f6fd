import Foundation
import PDFMetadata
import PDFCore
import Testing

@Suite("Fixture corpus")
struct FixtureTests {
    @Test("expected.json and the fixture folder list the same files")
    func corpusIsComplete() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory)
            .filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(!files.isEmpty, "no fixtures: run scripts/make-pdf-fixtures.sh")
        #expect(files == fixtureNames)
    }

    @Test("each fixture gives its expected metadata or typed error", arguments: fixtureNames)
    func fixture(_ name: String) throws {
        let e = try #require(expectations[name])
        if let kind = e.error {
            do {
                let m = try PDFDocumentInfo.read(contentsOf: fixturePath(name))
                Issue.record("expected a \(kind) error, got \(m)")
            } catch {
                #expect(error.kind.rawValue == kind, "\(error)")
                #expect(error.offset != nil, "error without an offset: \(error)")
            }
            return
        }
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath(name))
        #expect(m.title == e.title)
        #expect(m.keywords == e.keywords)
        #expect(m.pageCount == e.pages)
        #expect(m.isEncrypted == e.encrypted)
        let kinds = Set(m.warnings.map(\.kind.rawValue))
        for w in e.warnings {
            #expect(kinds.contains(w), "missing warning \(w); got \(m.warnings)")
        }
        if e.warnings.isEmpty {
            #expect(m.warnings.isEmpty, "unexpected warnings \(m.warnings)")
        }
        if let a = e.author { #expect(m.author == a) }
        if let s = e.subject { #expect(m.subject == s) }
        if let v = e.version { #expect(m.version == v) }
        if let d = e.creationDate {
            let f = ISO8601DateFormatter()
            #expect(m.creationDate == f.date(from: d))
        }
        #expect(m.fileSize == fixtureBytes(name).count)
        #expect(m.bytesRead > 0)
    }

    @Test("read(data:) agrees with read(contentsOf:)", arguments: fixtureNames)
    func dataEntryPoint(_ name: String) {
        let a = Result { () throws(PDFError) in try PDFDocumentInfo.read(contentsOf: fixturePath(name)) }
        let b = Result { () throws(PDFError) in try PDFDocumentInfo.read(data: fixtureBytes(name)) }
        switch (a, b) {
        case (.success(let x), .success(let y)):
            #expect(x.title == y.title && x.keywords == y.keywords && x.pageCount == y.pageCount && x.warnings == y.warnings)
        case (.failure(let x), .failure(let y)):
            #expect(x == y)
        default:
            Issue.record("entry points disagree: \(a) vs \(b)")
        }
    }

    @Test("strict mode turns the first repair into an error")
    func strictMode() {
        var o = PDFReadOptions()
        o.strict = true
        #expect(throws: PDFError.self) { try PDFDocumentInfo.read(contentsOf: fixturePath("hand-startxref-off.pdf"), options: o) }
        #expect(throws: Never.self) { try PDFDocumentInfo.read(contentsOf: fixturePath("cairo-basic.pdf"), options: o) }
    }

    @Test("the decompression bomb is refused by its ratio (as a warning on the XMP stream)")
    func bomb() throws {
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-decompression-bomb.pdf"))
        let w = try #require(m.warnings.first { $0.kind == .unreadableXMP })
        #expect(w.message.contains("decompression bomb"))
        #expect(w.offset != nil)
        #expect(m.title == "Bomb")
    }

    @Test("without the ratio check, the decompression bomb hits the size cap")
    func bombCap() throws {
        var o = PDFReadOptions()
        o.maxMetadataInflateRatio = nil
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-decompression-bomb.pdf"), options: o)
        let w = try #require(m.warnings.first { $0.kind == .unreadableXMP })
        #expect(w.message.contains("cap"))
    }

    @Test("the ratio check passes real packets, also heavily padded ones")
    func paddedPacketPasses() throws {
        // 4 KB of text and 36 KB of padding inflate about 26 : 1: read, not refused.
        var packet = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">".utf8)
        for i in 0 ..< 200 { packet += Array("<!-- line \(i) of a long comment -->".utf8) }
        packet += [UInt8](repeating: 0x20, count: 36 << 10) + Array("</x:xmpmeta>".utf8)
        let deflated = try #require(zlibCompress(packet))
        let out = try PDFStreamDecoder.inflate(deflated, limit: 1 << 20, maxRatio: 128)
        #expect(out.bytes == packet)
        // The same size of zeros is refused.
        let zeros = try #require(zlibCompress([UInt8](repeating: 0, count: 1 << 20)))
        #expect(throws: PDFError.self) { try PDFStreamDecoder.inflate(zeros, limit: 1 << 20, maxRatio: 128) }
    }

    @Test("the reference loop is reported with an offset")
    func referenceLoop() throws {
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-reference-loop.pdf"))
        let w = try #require(m.warnings.first { $0.kind == .unreadableInfo })
        #expect(w.message.contains("loop"))
        #expect(w.offset != nil)
    }

    @Test("a wrong password is a typed error; the owner password opens the file")
    func passwords() throws {
        var o = PDFReadOptions()
        o.password = "nope"
        #expect(throws: PDFError.self) { try PDFDocumentInfo.read(contentsOf: fixturePath("enc-user-password.pdf"), options: o) }
        o.password = "user-pw"
        #expect(try PDFDocumentInfo.read(contentsOf: fixturePath("enc-user-password.pdf"), options: o).title == "Encrypted report")
        o.password = "owner-pw"
        #expect(try PDFDocumentInfo.read(contentsOf: fixturePath("enc-user-password.pdf"), options: o).title == "Encrypted report")
    }

    @Test("raw keyword bytes stay available")
    func rawBytes() throws {
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-utf16le.pdf"))
        let raw = try #require(m.rawKeywords)
        #expect(raw.bytes.prefix(2) == [0xFF, 0xFE])
        #expect(raw.encoding == .utf16LE)
        #expect(m.sources["keywords"] == .info)
    }

    @Test("reads stay small: only the blocks needed, and small files in one read")
    func lazy() throws {
        // Over 16 KiB (a sample report, in memory or as a file): only the blocks needed.
        let report = URL(fileURLWithPath: fixturesDirectory)
            .appendingPathComponent("../../../Data/reports/board-pack-2016-09.pdf").standardized.path
        let bytes = try #require(FileManager.default.contents(atPath: report))
        #expect(bytes.count > 16 << 10)
        let m = try PDFDocumentInfo.read(data: [UInt8](bytes))
        #expect(m.bytesRead < m.fileSize / 4)
        let r = try PDFDocumentInfo.read(contentsOf: report)
        #expect(r.bytesRead < r.fileSize / 4)
        // An input of at most 16 KiB is read whole, once.
        let f = try PDFDocumentInfo.read(contentsOf: fixturePath("cairo-basic.pdf"))
        #expect(f.bytesRead == f.fileSize)
        let d = try PDFDocumentInfo.read(data: fixtureBytes("cairo-basic.pdf"))
        #expect(d.bytesRead == d.fileSize)
    }

    @Test("bytes before %PDF-: offsets count from the header, no repair scan needed")
    func junkBeforeHeader() throws {
        for name in ["hand-junk-objstm.pdf", "hand-junk-incremental.pdf"] {
            let m = try PDFDocumentInfo.read(contentsOf: fixturePath(name))
            #expect(m.warnings.contains { $0.kind == .header && $0.message.contains("shifted by") }, "\(name): \(m.warnings)")
            #expect(!m.warnings.contains { $0.kind == .xrefRebuilt }, "\(name): \(m.warnings)")
        }
        // Without the junk, the same file reads with no warning at all.
        #expect(try PDFDocumentInfo.read(contentsOf: fixturePath("cairo-objstm.pdf")).warnings.isEmpty)
    }

    @Test("a page tree whose root /Count disagrees with its kids is counted, with a warning")
    func pageCountDisagrees() throws {
        for name in ["hand-count-flat.pdf", "hand-count-nested.pdf", "hand-count-over.pdf", "hand-count-loop.pdf"] {
            let m = try PDFDocumentInfo.read(contentsOf: fixturePath(name))
            #expect(m.pageCount == 12, "\(name)")
            let w = try #require(m.warnings.first { $0.kind == .pageCount }, "\(name)")
            #expect(w.message.contains("12 pages"), "\(w)")
            #expect(w.offset != nil)
        }
        var o = PDFReadOptions()
        o.strict = true
        #expect(throws: PDFError.self) { try PDFDocumentInfo.read(contentsOf: fixturePath("hand-count-flat.pdf"), options: o) }
        #expect(throws: Never.self) { try PDFDocumentInfo.read(contentsOf: fixturePath("hand-count-consistent.pdf"), options: o) }
    }

    @Test("past maxPageTreeNodes the walk stops and the root's /Count is kept")
    func pageTreeWalkBound() throws {
        var o = PDFReadOptions()
        o.maxPageTreeNodes = 5
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-count-flat.pdf"), options: o)
        #expect(m.pageCount == 5)
        #expect(m.warnings.contains { $0.kind == .pageCount && $0.message.contains("more than 5 nodes") })
    }

    @Test("the newest trailer decides whether there is an Info dictionary")
    func newestTrailerWithoutInfo() throws {
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-incremental-no-info.pdf"))
        #expect(m.info.isEmpty)
        #expect(m.title == nil && m.keywords.isEmpty)
        #expect(m.pageCount == 2)
        // An update that keeps /Info in its trailer still gets the newest Info.
        #expect(try PDFDocumentInfo.read(contentsOf: fixturePath("hand-incremental.pdf")).title == "Version two")
    }

    @Test("a missing file is an io error")
    func missingFile() {
        #expect(throws: PDFError.self) { try PDFDocumentInfo.read(contentsOf: "/nonexistent/x.pdf") }
    }
}
