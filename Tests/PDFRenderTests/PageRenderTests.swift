import DeterminismPins
import Foundation
import PDFRender
import Testing
import TestSupport

/// Golden renders: every fixture's pixels at 96 dpi, pinned by hash (`PageRenderPins` in
/// DeterminismPins, with the pinned Debian fonts and libraries). This suite checks them in the
/// debug build; `scripts/test.sh` checks the same pins with `determinism-check` built in release.
@Suite("PageRenderDeterminism")
struct PageRenderDeterminismTests {
    @Test("every fixture draws the pinned pixels (PDFRENDER_RECORD=1 re-pins)")
    func golden() throws {
        for result in try PageRenderPins.checkGolden() {
            #expect(result.matches, "\(result)")
        }
    }

    @Test("the same file and size give the same bits twice, and on two threads at once")
    func sameBitsTwice() async throws {
        let result = try await PageRenderPins.checkSameBitsTwice()
        #expect(result.matches, "\(result)")
    }
}

@Suite("Page renderer")
struct PageRendererTests {
    @Test("text in render mode 3 (a scan's text layer) draws nothing")
    func invisibleText() throws {
        let img = try renderFirstPage(pageFixtures + "/text-invisible.pdf")
        #expect(grey(img).allSatisfy { $0 > 254.5 })
    }

    @Test("a hidden optional-content group and hidden annotations are not drawn; a form cycle is a warning")
    func hiddenContent() throws {
        let forms = try renderFirstPage(pageFixtures + "/forms.pdf", dpi: 72)
        // The OFF layer's rectangle (page 150…250 × 100…180) and form (150…250 × 0…100) stay white.
        #expect(pixel(forms, 200, 200 - 140) == (255, 255, 255))
        #expect(pixel(forms, 200, 200 - 50) == (255, 255, 255))
        #expect(pixel(forms, 280, 200 - 190) == (0, 255, 0))
        #expect(forms.warnings.contains { $0.kind == .limit && $0.message.contains("cycle") })
        let annots = try renderFirstPage(pageFixtures + "/annotations.pdf", dpi: 72)
        #expect(pixel(annots, 100, 200 - 60) == (255, 255, 0))
        #expect(pixel(annots, 70, 200 - 140) == (204, 204, 204))
        #expect(pixel(annots, 190, 200 - 140) == (204, 204, 204))
    }

    @Test("the crop box, /Rotate and page labels")
    func geometry() throws {
        let doc = try PDFPageDocument(path: pageFixtures + "/rotated-cropped.pdf")
        let info = try doc.pageInfo(1)
        #expect(info.rotation == 90)
        #expect(info.size.width == 220 && info.size.height == 320)
        #expect(try doc.pixelSize(page: 1, dpi: 72) == (220, 320))
        #expect(doc.pageLabel(1) == "p-iv")
        let img = try doc.render(page: 1, width: 220, height: 320)
        // Rotated clockwise: the page's (60, 75) shows at (75 − 40, 60 − 40).
        #expect(pixel(img, 35, 20) == (255, 0, 0))
        #expect(pixel(img, 150, 250) == (0, 0, 255))
    }

    @Test("tiling patterns are anchored at the page's origin (as PDFium draws them)")
    func tilingPhase() throws {
        let img = try renderFirstPage(pageFixtures + "/tiling.pdf", dpi: 72)
        #expect(pixel(img, 25, 12) == (255, 0, 0))
        #expect(pixel(img, 12, 22) == (0, 0, 255))
        #expect(pixel(img, 12, 12) == (255, 255, 255))
    }

    @Test("CMYK process colours look as printed (PDFium's values within 2)")
    func cmyk() throws {
        let img = try renderFirstPage(pageFixtures + "/colours.pdf", dpi: 72)
        let cyan = pixel(img, 180, 170), red = pixel(img, 130, 170)
        #expect(abs(cyan.0 - 0) <= 2 && abs(cyan.1 - 174) <= 2 && abs(cyan.2 - 239) <= 2)
        #expect(abs(red.0 - 238) <= 2 && abs(red.1 - 29) <= 2 && abs(red.2 - 35) <= 2)
    }

    @Test("damaged content draws what it can and warns with places")
    func damage() throws {
        let img = try renderFirstPage(pageFixtures + "/damaged-content.pdf", dpi: 72)
        let kinds = Set(img.warnings.map(\.kind))
        #expect(kinds.contains(.contentSyntax))
        #expect(img.warnings.contains { $0.kind == .image && $0.message.contains("JBIG2") })
        #expect(kinds.contains(.image))
        #expect(img.warnings.allSatisfy { $0.object != nil })
        #expect(pixel(img, 30, 160) == (255, 0, 0))
        #expect(pixel(img, 90, 160) == (0, 255, 0))
    }

    @Test("standard-14 fonts that are not embedded are substituted, with a warning each")
    func substitutes() throws {
        let img = try renderFirstPage(pageFixtures + "/text-standard14.pdf")
        let subs = img.warnings.filter { $0.kind == .fontSubstituted }
        #expect(subs.count >= 5)
        #expect(subs.contains { $0.message.contains("Liberation Serif") })
        #expect(!img.warnings.contains { $0.kind == .font })
        #expect(grey(img).filter { $0 < 128 }.count > 2_000)
    }

    @Test("errors name their place")
    func errors() throws {
        #expect(throws: PDFRenderError.self) { try PDFPageDocument(path: pageFixtures + "/no-such-file.pdf") }
        let doc = try PDFPageDocument(path: pageFixtures + "/paths.pdf")
        do {
            _ = try doc.render(page: 2, width: 10, height: 10)
            Issue.record("page 2 of a one-page file drew")
        } catch {
            #expect(error.kind == .noSuchPage && error.page == 2)
        }
        let enc = packageRoot + "/Tests/PDFMetadataTests/Fixtures/enc-user-password.pdf"
        do {
            _ = try PDFPageDocument(path: enc)
            Issue.record("an encrypted file opened without its password")
        } catch {
            #expect(error.kind == .passwordRequired)
        }
        var o = PDFRenderOptions()
        o.password = "user-pw"
        let opened = try PDFPageDocument(path: enc, options: o)
        #expect(opened.pageCount == 3)
    }

    @Test("a page past its timeout stops, returns what it drew and warns")
    func timeout() throws {
        var content = "0 0 1 rg 0 190 10 10 re f\n"
        for i in 0 ..< 200_000 { content += "\(i % 300) 0 m \(i % 200) 100 l S\n" }
        let pdf = minimalPDF(content: content)
        var o = PDFRenderOptions()
        o.timeout = .milliseconds(5)
        let doc = try PDFPageDocument(data: pdf, options: o)
        let img = try doc.render(page: 1, width: 300, height: 200)
        #expect(img.warnings.contains { $0.kind == .timeout })
        #expect(pixel(img, 2, 5) == (0, 0, 255))
    }

    @Test("operators with more operands than they take use the last ones (a mutated file once trapped on Tf)")
    func extraOperands() throws {
        let pdf = minimalPDF(content: "BT 1 2 3 4 5 6 7 /F1 12 Tf 9 8 7 6 5 4 3 2 1 0 0 1 100 100 Tm (x) Tj ET 1 2 3 4 5 6 7 8 0 0 1 rg 0 0 10 10 re f")
        let doc = try PDFPageDocument(data: pdf)
        let img = try doc.render(page: 1, width: 300, height: 200)
        #expect(pixel(img, 2, 197) == (0, 0, 255))
    }

    @Test("SVG output keeps the page as vectors, written whole")
    func svg() throws {
        let dir = NSTemporaryDirectory() + "pdfrender-svg-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let doc = try PDFPageDocument(path: pageFixtures + "/paths.pdf")
        _ = try doc.writeSVG(page: 1, width: 400, height: 267, to: dir + "/p.svg")
        let text = try String(contentsOfFile: dir + "/p.svg", encoding: .utf8)
        #expect(text.contains("<svg") && text.contains("<path"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["p.svg"])
    }

    @Test("mutated fixtures never crash: each page draws or fails with a PDFRenderError", arguments: ["paths", "text-standard14", "images", "transparency", "shadings"])
    func mutations(_ name: String) throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pageFixtures + "/\(name).pdf")))
        var rng = SeededRandom(seed: 0x5eed_0000 ^ UInt64(name.utf8.count))
        var drawn = 0
        for _ in 0 ..< 60 {
            var bytes = original
            for _ in 0 ..< 1 + rng.below(8) {
                let at = rng.below(bytes.count)
                switch rng.below(3) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeSubrange(at ..< min(bytes.count, at + rng.below(64) + 1))
                default: bytes.insert(contentsOf: [UInt8]("9999999 -1e309 [ << (".utf8), at: at)
                }
                if bytes.isEmpty { bytes = [0x25] }
            }
            var o = PDFRenderOptions()
            o.timeout = .seconds(5)
            do {
                let doc = try PDFPageDocument(data: bytes, options: o)
                _ = try doc.render(page: 1, width: 100, height: 80)
                drawn += 1
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
        #expect(drawn > 0)
    }
}

/// A one-page PDF around a content stream (cross-reference offsets computed). `page` and
/// `catalog` are added to those dictionaries; `objects` are numbered from 5.
func minimalPDF(content: String, page: String = "", catalog: String = "", objects more: [String] = []) -> [UInt8] {
    var out = Array("%PDF-1.4\n".utf8)
    var offsets: [Int] = []
    let c = Array(content.utf8)
    let objects: [[UInt8]] = [
        Array("<< /Type /Catalog /Pages 2 0 R \(catalog) >>".utf8),
        Array("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
        Array("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R \(page) >>".utf8),
        Array("<< /Length \(c.count) >>\nstream\n".utf8) + c + Array("\nendstream".utf8),
    ] + more.map { Array($0.utf8) }
    for (i, o) in objects.enumerated() {
        offsets.append(out.count)
        out += Array("\(i + 1) 0 obj\n".utf8) + o + Array("\nendobj\n".utf8)
    }
    let xref = out.count
    out += Array("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
    for off in offsets {
        let s = String(off)
        out += Array((String(repeating: "0", count: 10 - s.count) + s + " 00000 n \n").utf8)
    }
    out += Array("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
    return out
}
