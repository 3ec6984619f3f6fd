import Foundation
import PDFRender
import Testing

/// Predefined CJK CMaps (`90ms-RKSJ-H`…) from Adobe's resources as Debian's poppler-data installs
/// them: Shift-JIS codes become Adobe-Japan1 CIDs, and a font that is not embedded is drawn with
/// Noto CJK through the collection's CID-to-Unicode CMap.
@Suite("Predefined CJK CMaps", .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/poppler/cMap/Adobe-Japan1/90ms-RKSJ-H"),
                                        "needs poppler-data's cMap files (scripts/deps.sh installs them)"))
struct CJKCMapTests {
    /// A page showing the Shift-JIS bytes `text` in a non-embedded Type 0 font with `encoding`.
    func page(_ text: String, encoding: String) -> [UInt8] {
        minimalPDF(content: "BT /F1 40 Tf 20 80 Td <\(text)> Tj ET", page: "/Resources << /Font << /F1 5 0 R >> >>", objects: [
            "<< /Type /Font /Subtype /Type0 /BaseFont /MS-Gothic /Encoding /\(encoding) /DescendantFonts [6 0 R] >>",
            "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /MS-Gothic /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>",
            "<< /Type /FontDescriptor /FontName /MS-Gothic /Flags 4 /FontBBox [0 -141 1000 859] /ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 700 /StemV 80 >>",
        ])
    }

    func render(_ pdf: [UInt8]) throws -> (image: PDFPageImage, warnings: [PDFRenderWarning]) {
        let doc = try PDFPageDocument(data: pdf)
        let img = try doc.render(page: 1, width: 300, height: 200)
        return (img, img.warnings)
    }

    @Test("Shift-JIS あいう through 90ms-RKSJ-H draws three glyphs a font size apart, through Unicode")
    func shiftJIS() throws {
        let (img, warnings) = try render(page("82A082A282A4", encoding: "90ms-RKSJ-H"))
        #expect(!warnings.contains { $0.message.contains("not installed") || $0.message.contains("glyph indices") })
        #expect(warnings.contains { $0.message.contains("Japan1 collection's Unicode mapping") })
        // Ink in each of the three 40-point cells from x = 20 (2-byte codes: one glyph per cell).
        for cell in 0 ..< 3 {
            var ink = 0
            for y in 70 ..< 125 { for x in 20 + cell * 40 ..< 60 + cell * 40 where pixel(img, x, y).0 < 128 { ink += 1 } }
            #expect(ink > 30, "cell \(cell)")
        }
        // Nothing past the third cell: six bytes are three codes, not six.
        var after = 0
        for y in 0 ..< 200 { for x in 142 ..< 300 where pixel(img, x, y).0 < 128 { after += 1 } }
        #expect(after == 0)
    }

    @Test("a CMap that is not among the resources is a warning, and the codes are read as CIDs")
    func missing() throws {
        let (_, warnings) = try render(page("82A0", encoding: "No-Such-CMap-H"))
        #expect(warnings.contains { $0.message.contains("No-Such-CMap-H") && $0.message.contains("not installed") })
    }
}
