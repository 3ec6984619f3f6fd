import Foundation
import PDFMetadata
import PDFCore
import Testing

/// The damage and encryption that PDF tools' own test suites keep (issue 32), beyond what the
/// fixture table checks: caps that name themselves, passwords, and salvage without a catalog.
@Suite("Cases from the peers' test suites")
struct PeerSuiteCaseTests {
    @Test("a password error for an /Encrypt dictionary inside the trailer names the trailer's section")
    func directEncryptNamesItsPlace() throws {
        let path = fixturePath("hand-enc-direct-user-password.pdf")
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        // The offset after the last `startxref`: where the trailer's cross-reference table starts.
        let tail = String(decoding: bytes.suffix(64), as: UTF8.self)
        let startxref = try #require(tail.components(separatedBy: "startxref").last?
            .split(whereSeparator: { $0.isWhitespace }).first.flatMap { Int($0) })
        do {
            _ = try PDFDocumentInfo.read(contentsOf: path)
            Issue.record("read without the password")
        } catch {
            #expect(error.kind == .passwordRequired)
            #expect(error.offset == startxref, "\(error)")
        }
        var o = PDFReadOptions()
        o.password = "secret"
        let m = try PDFDocumentInfo.read(contentsOf: path, options: o)
        #expect(m.title == "Case enc-direct-user-password")
        #expect(m.keywords == ["secret", "sauce"])
    }

    @Test("an object stream over maxObjectStreamSize is decoded only as far as the objects asked for")
    func objectStreamPrefix() throws {
        var o = PDFReadOptions()
        o.maxObjectStreamSize = 1 << 20
        // Catalog, pages and Info come before the 9 MiB filler: the first step of the inflate
        // reaches them, and the cap is never met.
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-objstm-large.pdf"), options: o)
        #expect(m.title == "Large object stream")
        #expect(m.pageCount == 1)
        #expect(m.warnings.isEmpty, "\(m.warnings)")
    }

    @Test("an object past the cap fails with an error naming the object, the stream, the cap and the option")
    func objectPastTheCap() throws {
        var o = PDFReadOptions()
        o.maxObjectStreamSize = 1 << 20
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-objstm-large-info-last.pdf"), options: o)
        #expect(m.title == nil)
        #expect(m.pageCount == 1) // the catalog and the pages come before the filler
        let w = try #require(m.warnings.first { $0.kind == .unreadableInfo })
        for part in ["object 20", "object stream 7", "maxObjectStreamSize", "\(1 << 20)"] {
            #expect(w.message.contains(part), "\(part) missing from \(w)")
        }
        let t = try #require(m.warnings.first { $0.kind == .truncatedStream })
        #expect(t.message.contains("object stream 7") && t.message.contains("maxObjectStreamSize"), "\(t)")
        #expect(t.offset != nil)
        // With the default cap the same file reads whole.
        let full = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-objstm-large-info-last.pdf"))
        #expect(full.title == "Large object stream")
        #expect(full.warnings.isEmpty, "\(full.warnings)")
    }

    @Test("strings under /StrF /Identity read without the password; the right password reads the XMP too")
    func stringsWithoutPassword() throws {
        let locked = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-enc-strf-identity.pdf"))
        #expect(locked.xmp == nil)
        let w = try #require(locked.warnings.first { $0.kind == .passwordRequired })
        #expect(w.message.contains("/StrF /Identity"))
        var o = PDFReadOptions()
        o.password = "streams only"
        let open = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-enc-strf-identity.pdf"), options: o)
        #expect(open.title == "Case enc-strf-identity")
        #expect(open.xmp?.title == "Hidden in XMP")
        #expect(open.warnings.isEmpty, "\(open.warnings)")
        // Strict mode does not read a locked file.
        var strict = PDFReadOptions()
        strict.strict = true
        #expect(throws: PDFError.self) {
            try PDFDocumentInfo.read(contentsOf: fixturePath("hand-enc-strf-identity.pdf"), options: strict)
        }
    }

    @Test("a file whose strings and streams are both encrypted still needs its password")
    func encryptedStringsNeedThePassword() {
        #expect {
            try PDFDocumentInfo.read(contentsOf: fixturePath("enc-user-password.pdf"))
        } throws: { ($0 as? PDFError)?.kind == .passwordRequired }
    }

    @Test("encryption of embedded files only asks for no password, even in strict mode")
    func embeddedFilesOnly() throws {
        var strict = PDFReadOptions()
        strict.strict = true
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-enc-eff-only.pdf"), options: strict)
        #expect(m.isEncrypted)
        #expect(m.title == "Case enc-eff-only")
    }

    @Test("no catalog and no Info dictionary is still a missingCatalog error")
    func nothingToSalvage() {
        let bytes = classicPDF(["(not a catalog)", "<< /Type /Page >>"], trailer: "<< /Size 3 /Root 1 0 R >>")
        #expect {
            try PDFDocumentInfo.read(data: bytes)
        } throws: { ($0 as? PDFError)?.kind == .missingCatalog }
    }

    @Test("a catalog object that is no dictionary leaves the Info dictionary readable, and strict mode refuses it")
    func infoWithoutCatalog() throws {
        let m = try PDFDocumentInfo.read(contentsOf: fixturePath("hand-catalog-not-a-dictionary.pdf"))
        #expect(m.author == nil && m.producer == "pdf_fixtures.py")
        #expect(m.pageCount == nil)
        var strict = PDFReadOptions()
        strict.strict = true
        #expect(throws: PDFError.self) {
            try PDFDocumentInfo.read(contentsOf: fixturePath("hand-catalog-not-a-dictionary.pdf"), options: strict)
        }
    }

    @Test("a dictionary cut short by endobj is read up to it, with the offset of the cut")
    func unterminatedDictionary() throws {
        let bytes = classicPDF(["<< /Type /Catalog /Pages 2 0 R /Junk [1 2", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                "<< /Type /Page /Parent 2 0 R >>", "<< /Title (Cut) >>"],
                               trailer: "<< /Size 5 /Root 1 0 R /Info 4 0 R >>")
        let m = try PDFDocumentInfo.read(data: bytes)
        #expect(m.title == "Cut")
        #expect(m.pageCount == 1)
        let w = try #require(m.warnings.first { $0.kind == .unterminatedObject })
        #expect(w.offset != nil && w.message.contains("object 1"))
    }

    @Test("/Pages naming a page, and a root without a usable /Count, are counted as qpdf counts them")
    func pageTreeShapes() throws {
        let direct = classicPDF(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Page /MediaBox [0 0 1 1] >>"],
                                trailer: "<< /Size 3 /Root 1 0 R >>")
        #expect(try PDFDocumentInfo.read(data: direct).pageCount == 1)
        let negative = classicPDF(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R 3 0 R] /Count -2 >>",
                                   "<< /Type /Page /Parent 2 0 R >>"], trailer: "<< /Size 4 /Root 1 0 R >>")
        // The same page listed twice is one page (each object is counted once).
        #expect(try PDFDocumentInfo.read(data: negative).pageCount == 1)
    }
}

/// Inputs the fuzzer found (Fuzz/Regressions/pdf/), read with the fuzz target's caps and with the
/// defaults: each must end in a value or a PDFError.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: fixturesDirectory).appendingPathComponent("../../../Fuzz/Regressions/pdf").standardized.path

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("each regression input ends in a value or a typed error", arguments: inputs)
    func regression(_ name: String) throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.folder + "/" + name))
        var fuzz = PDFReadOptions()
        fuzz.maxDecompressedSize = 1 << 20
        fuzz.maxObjectSize = 1 << 20
        fuzz.maxObjectStreamSize = 1 << 20
        for options in [fuzz, PDFReadOptions()] {
            let input = [UInt8](bytes)
            do throws(PDFError) {
                _ = try PDFDocumentInfo.read(data: input, options: options)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    /// The first regression: a truncated object stream whose page object, damaged, ran on into
    /// 9 MiB of filler and was parsed again at every decoding step (a 6 s fuzz timeout). An object
    /// in an object stream now ends where the next one starts, and a failed object is not read
    /// twice; the page that cannot be read is skipped, as before.
    @Test("an object in an object stream ends where the next one starts")
    func objectEndsAtTheNext() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.folder + "/objstm-damaged-object-runs-into-filler.pdf"))
        let m = try PDFDocumentInfo.read(data: [UInt8](bytes))
        #expect(m.warnings.contains { $0.kind == .xrefRebuilt })
    }
}
