import Foundation
@testable import PDFRender
import Testing
import TestSupport

/// The JBIG2 decoder's Huffman coding (T.88 Annex B, 6.4 and 6.5 with SBHUFF/SDHUFF = 1), its
/// refinement aggregates and retained contexts, on the streams of `jbig2-huffman.pdf`
/// (scripts/make-jbig2-fixtures.py, copied from pdf.js's test files).
@Suite("JBIG2")
struct JBIG2Tests {
    static let fixture = pageFixtures + "/jbig2-huffman.pdf"
    /// Pages 2… of the fixture, one stream each, named after the pdf.js file it comes from.
    static let pages = Array(2 ... 8)
    static let names = ["symhuff-texthuff", "symhuffB5B3-texthuffB7B9B12", "symhuffcustom-texthuffcustom", "texthuffrefinecustom",
                        "symhuffrefine-textrefine", "symbolrefineone-customat", "context-reuse"]

    /// Every stream draws the same 399×400 picture. PDFium (pypdfium2 5.15, scale 1) draws each of
    /// pages 2…8 as these pixels: the FNV-1a 64 of the page's pixels as 1 (grey below 128) or 0, and
    /// the number of 1s. pdftoppm -r 72 draws 10 950 + 142 dark pixels for each, the extra ones on
    /// the edges of the picture's strokes (its image smoothing), and nothing at all for
    /// symhuffB5B3-texthuffB7B9B12.
    static let pdfiumHash = "601547a910bb0ca1"
    static let pdfiumBlack = 10950

    @Test("each stream draws PDFium's pixels at one image pixel a device pixel, without a warning", arguments: zip(pages, names))
    func decodes(_ page: Int, _ name: String) throws {
        let doc = try PDFPageDocument(path: Self.fixture)
        let img = try doc.render(page: page, width: 399, height: 400)
        #expect(img.warnings.isEmpty, "\(name): \(img.warnings.map(\.message))")
        let bits = grey(img).map { $0 < 128 ? UInt8(1) : 0 }
        #expect(bits.reduce(0) { $0 + Int($1) } == Self.pdfiumBlack, "\(name)")
        #expect(fnv(bits) == Self.pdfiumHash, "\(name)")
    }

    @Test("the fixture's first page draws its six streams without a warning")
    func firstPage() throws {
        let img = try renderFirstPage(Self.fixture)
        #expect(img.warnings.isEmpty, "\(img.warnings.map(\.message))")
        // Each picture has 10 950 dark pixels at 72 dpi, about 16/9 as many at 96.
        #expect(grey(img).filter { $0 < 128 }.count > 6 * 15_000)
    }

    @Test("the standard tables are complete prefix codes (the Kraft sum of their codes is 1)", arguments: 1 ... 15)
    func standardTables(_ n: Int) {
        let lines = JBIG2Decoder.HuffmanTable.standard(n).lines
        let sum = lines.filter { $0.prefixLength > 0 }.reduce(0.0) { $0 + 1 / Double(1 << $1.prefixLength) }
        #expect(sum == 1, "B.\(n)")
    }

    @Test("standard tables decode values, the lower and upper ranges and out-of-band")
    func standardValues() throws {
        typealias T = JBIG2Decoder.HuffmanTable
        // B.1: 0 + 0101 is 5; 110 + 16 bits is 272 + 3. B.2: 111111 is out of band.
        // B.15: 1111110 + 32 bits is −25 − 2 (the lower range); 0 is 0.
        let bits = "00101" + "110" + "0000000000000011" + "111111" + "1111110" + String(repeating: "0", count: 30) + "10" + "0"
        var r = JBIG2Decoder.BitReader(data: pack(bits), pos: 0)
        #expect(try T.standard(1).decode(&r) == 5)
        #expect(try T.standard(1).decode(&r) == 275)
        #expect(try T.standard(2).decode(&r) == nil)
        #expect(try T.standard(15).decode(&r) == -27)
        #expect(try T.standard(15).decode(&r) == 0)
        // The data ends: an error, not a value.
        #expect(throws: JBIG2Decoder.Failure.self) { _ = try T.standard(1).decode(&r) }
    }

    @Test("a custom table segment (B.2) decodes its lines, upper range and out-of-band value")
    func customTable() throws {
        // HTOOB, 2-bit prefix and range lengths, values 0…8: lines 0…3 (prefix length 1) and 4…7
        // (length 2), no lower range line, upper range and OOB with length 3. Codes: 0, 10, 110, 111.
        let table = try JBIG2Decoder.HuffmanTable(segment: [0x13, 0, 0, 0, 0, 0, 0, 0, 8] + pack("0110" + "1010" + "00" + "11" + "11"))
        var r = JBIG2Decoder.BitReader(data: pack("1010" + "010" + "110" + String(repeating: "0", count: 29) + "101" + "111"), pos: 0)
        #expect(try table.decode(&r) == 6)
        #expect(try table.decode(&r) == 2)
        #expect(try table.decode(&r) == 13)
        #expect(try table.decode(&r) == nil)
        // Values from high to low, and a line's range of 32 bits, are errors.
        #expect(throws: JBIG2Decoder.Failure.self) { _ = try JBIG2Decoder.HuffmanTable(segment: [0x13, 0, 0, 0, 8, 0, 0, 0, 0, 0xFF, 0xFF]) }
        #expect(throws: JBIG2Decoder.Failure.self) { _ = try JBIG2Decoder.HuffmanTable(segment: [0x71, 0, 0, 0, 0, 0x7F, 0xFF, 0xFF, 0xFF, 0x10, 0x00]) }
    }

    @Test("MMR-coded halftone planes end at their end-of-block; a file header before the segments is skipped")
    func planesAndHeader() {
        let eofb = "000000000001" + "000000000001"
        #expect(JBIG2Decoder.endOfBlock(pack("101" + eofb + "11111"), from: 0) == 4)
        #expect(JBIG2Decoder.endOfBlock(pack("10110110" + eofb), from: 1) == 4)
        #expect(JBIG2Decoder.endOfBlock(pack("0" + eofb + "0000000"), from: 1) == nil)
        let segments: [UInt8] = [0, 0, 0, 0, 0x30, 0, 1]
        let magic: [UInt8] = [0x97, 0x4A, 0x42, 0x32, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(JBIG2Decoder.withoutFileHeader(magic + [0x01, 0, 0, 0, 1] + segments) == segments)
        #expect(JBIG2Decoder.withoutFileHeader(magic + [0x03] + segments) == segments)
        #expect(JBIG2Decoder.withoutFileHeader(segments) == segments)
    }

    @Test("a page or region whose width × height passes Int's range is an error, not a trap")
    func overflowingSizes() {
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        // A page information segment (type 48) of 2^32 − 1 × 2^32 − 2 pixels.
        let page: [UInt8] = [0, 0, 0, 0, 0x30, 0, 1, 0, 0, 0, 19] + huge + [UInt8](repeating: 0, count: 11)
        #expect(throws: JBIG2Decoder.Failure.self) { _ = try JBIG2Decoder.decode(page, globals: nil) { _ in } }
        // A generic region (type 38) as large, on a small page.
        let small: [UInt8] = [0, 0, 0, 0, 0x30, 0, 1, 0, 0, 0, 19, 0, 0, 0, 8, 0, 0, 0, 8] + [UInt8](repeating: 0, count: 11)
        let region: [UInt8] = [0, 0, 0, 1, 0x26, 0, 1, 0, 0, 0, 26] + huge + [UInt8](repeating: 0, count: 18)
        #expect(throws: JBIG2Decoder.Failure.self) { _ = try JBIG2Decoder.decode(small + region, globals: nil) { _ in } }
    }

    @Test("cut and damaged Huffman-coded streams fail or draw, never trap")
    func damaged() throws {
        let streams = try jbig2Streams(Self.fixture)
        #expect(streams.count == Self.names.count)
        var rng = SeededRandom(seed: 0x1b16_2000)
        var failed = 0
        for stream in streams.prefix(5) {
            // The page information segment (the first 30 bytes) is kept: a damaged one would only
            // ask for a larger page.
            for cut in stride(from: 30, to: stream.count, by: 9) {
                do { _ = try JBIG2Decoder.decode(Array(stream.prefix(cut)), globals: nil) { _ in } } catch { failed += 1 }
            }
            for _ in 0 ..< 40 {
                var bytes = stream
                bytes[30 + rng.below(bytes.count - 30)] ^= UInt8(1 << rng.below(8))
                do { _ = try JBIG2Decoder.decode(bytes, globals: nil) { _ in } } catch { failed += 1 }
            }
        }
        #expect(failed > 0)
    }

    /// FNV-1a 64 as 16 hex digits.
    func fnv(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// A string of 0s and 1s as bytes, padded with 0s.
    func pack(_ bits: String) -> [UInt8] {
        var out: [UInt8] = []
        for (i, c) in bits.enumerated() {
            if i % 8 == 0 { out.append(0) }
            if c == "1" { out[out.count - 1] |= 0x80 >> UInt8(i % 8) }
        }
        return out
    }

    /// The JBIG2Decode streams of a file the fixture script wrote (`/Filter /JBIG2Decode /Length n >>`).
    func jbig2Streams(_ path: String) throws -> [[UInt8]] {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let key = [UInt8]("/JBIG2Decode /Length ".utf8)
        var out: [[UInt8]] = []
        var i = 0
        while i + key.count < data.count {
            guard data[i ..< i + key.count].elementsEqual(key) else { i += 1; continue }
            i += key.count
            var length = 0
            while i < data.count, data[i] >= 0x30, data[i] <= 0x39 { length = length * 10 + Int(data[i] - 0x30); i += 1 }
            let start = i + " >>\nstream\n".utf8.count
            guard start + length <= data.count else { break }
            out.append(Array(data[start ..< start + length]))
            i = start + length
        }
        return out
    }
}
