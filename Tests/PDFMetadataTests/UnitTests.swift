import Foundation
import PDFMetadata
import PDFCore
import TestSupport
import Testing

@Suite("Text strings")
struct TextStringTests {
    func text(_ syntax: String) -> String? { PDFTextString(syntax: Array(syntax.utf8))?.text }

    @Test func literalEscapes() {
        #expect(text(#"(a\nb\tc\(d\)e\\f)"#) == "a\nb\tc(d)e\\f")
        #expect(text(#"(\101\102\103 \0611 \7)"#) == "ABC 11 \u{07}")
        #expect(text("(line\\\ncontinued)") == "linecontinued")
        #expect(text("(line\\\r\ncontinued)") == "linecontinued")
        #expect(text("(a\r\nb\rc)") == "a\nb\nc")
        #expect(text("(bal(anced) parens)") == "bal(anced) parens")
        #expect(text(#"(unknown \q escape)"#) == "unknown q escape")
        #expect(text(#"(\501 wraps)"#) == "A wraps") // octal overflow: high bits dropped
        #expect(text("(unterminated") == nil)
    }

    @Test func hexStrings() {
        #expect(text("<48 65 6C6C 6F>") == "Hello")
        #expect(text("<414>") == "A@") // odd digit count: padded with 0
        #expect(text("<FEFF00E9>") == "é")
    }

    @Test func byteOrderMarks() {
        #expect(PDFTextString(bytes: [0xFE, 0xFF, 0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00]).text == "A😀")
        #expect(PDFTextString(bytes: [0xFF, 0xFE, 0x41, 0x00, 0xE9, 0x00]).text == "Aé")
        #expect(PDFTextString(bytes: [0xFF, 0xFE, 0x41, 0x00]).encoding == .utf16LE)
        #expect(PDFTextString(bytes: [0xEF, 0xBB, 0xBF, 0xC3, 0xA9]).text == "é")
        // Language escape in UTF-16 is dropped.
        #expect(PDFTextString(bytes: [0xFE, 0xFF, 0x00, 0x1B, 0x00, 0x65, 0x00, 0x6E, 0x00, 0x1B, 0x00, 0x48, 0x00, 0x69]).text == "Hi")
    }

    /// Our UTF-16 transcoder agrees with the standard library's decoder (each unpaired surrogate
    /// becomes one U+FFFD) on random unit sequences rich in surrogates, in both byte orders.
    @Test func utf16MatchesStandardLibrary() {
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        func next() -> UInt64 { random.next() }
        let pool: [UInt16] = [0x41, 0xE9, 0x65E5, 0xD83D, 0xDE00, 0xDBFF, 0xDC00, 0xFFFD, 0xFEFF, 0x2028, 0x1B]
        for round in 0 ..< 2000 {
            let count = Int(next() % 12)
            var units: [UInt16] = []
            for _ in 0 ..< count {
                units.append(next() % 3 == 0 ? UInt16(truncatingIfNeeded: next()) : pool[Int(next() % UInt64(pool.count))])
            }
            units.removeAll { $0 == 0x1B } // language escapes are covered above
            let bigEndian = round % 2 == 0
            var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
            for u in units {
                bytes += bigEndian ? [UInt8(u >> 8), UInt8(u & 0xFF)] : [UInt8(u & 0xFF), UInt8(u >> 8)]
            }
            if next() % 4 == 0 { bytes.append(0x41) } // a ragged last byte is ignored
            #expect(PDFTextString(bytes: bytes).text == String(decoding: units, as: UTF16.self), "\(units)")
        }
    }

    @Test func pdfDocEncoding() {
        let s = PDFTextString(bytes: [0x80, 0x84, 0x8D, 0x8E, 0x93, 0xA0, 0xE9, 0x18])
        #expect(s.text == "•—“”ﬁ€é˘")
        #expect(s.encoding == .pdfDoc)
        #expect(PDFTextString(bytes: Array("plain".utf8)).encoding == .pdfDoc)
    }

    @Test func utf8WithoutBOM() {
        let s = PDFTextString(bytes: Array("Grüße".utf8))
        #expect(s.text == "Grüße")
        #expect(s.encoding == .utf8WithoutBOM)
        #expect(s.bytes == Array("Grüße".utf8))
        #expect(PDFTextString(bytes: [0x47, 0xFC]).text == "Gü") // not valid UTF-8: PDFDocEncoding
    }
}

@Suite("Keywords")
struct KeywordTests {
    @Test func splitting() {
        #expect(PDFKeywords.split("a, b;c\nd\r\ne\r f") == ["a", "b", "c", "d", "e", "f"])
        #expect(PDFKeywords.split("  spaced  ,\u{00A0}nbsp\u{00A0} ,, ; ") == ["spaced", "nbsp"])
        #expect(PDFKeywords.split("") == [])
        #expect(PDFKeywords.split("東京、大阪，名古屋；京都") == ["東京", "大阪", "名古屋", "京都"])
    }

    @Test func duplicatesCaseInsensitiveFirstKept() {
        #expect(PDFKeywords.split("PDF, pdf, Pdf; other, OTHER") == ["PDF", "other"])
        #expect(PDFKeywords.split("Straße, STRASSE") == ["Straße", "STRASSE"]) // lowercasing, not full folding
        #expect(PDFKeywords.split("e\u{301}, é") == ["e\u{301}"]) // canonical equivalence
        #expect(PDFKeywords.merge(["a", "B"], ["b", "c"]) == ["a", "B", "c"])
    }
}

@Suite("Dates")
struct DateTests {
    func iso(_ s: String) -> Date? { ISO8601DateFormatter().date(from: s) }

    @Test func pdfDates() {
        #expect(PDFDate.parse("D:20240301100000+01'00'") == iso("2024-03-01T09:00:00Z"))
        #expect(PDFDate.parse("20240301100000+01'00") == iso("2024-03-01T09:00:00Z")) // Cairo 1.16: no D:
        #expect(PDFDate.parse("D:20240301100000Z") == iso("2024-03-01T10:00:00Z"))
        #expect(PDFDate.parse("D:20240301100000-05'30'") == iso("2024-03-01T15:30:00Z"))
        #expect(PDFDate.parse("D:2024") == iso("2024-01-01T00:00:00Z"))
        #expect(PDFDate.parse("D:202403") == iso("2024-03-01T00:00:00Z"))
        #expect(PDFDate.parse("D:20241301") == nil)
        #expect(PDFDate.parse("garbage") == nil)
        #expect(PDFDate.parse("") == nil)
    }

    @Test func xmpDates() {
        #expect(PDFDate.parseISO8601("2024-03-01T10:00:00+01:00") == iso("2024-03-01T09:00:00Z"))
        #expect(PDFDate.parseISO8601("2024-03-01T10:00:00.123Z") == iso("2024-03-01T10:00:00Z"))
        #expect(PDFDate.parseISO8601("2024-03") == iso("2024-03-01T00:00:00Z"))
    }
}

@Suite("Predictors and filters")
struct PredictorTests {
    typealias P = PDFStreamDecoder.PredictorParameters

    @Test func pngAllFilterTypes() throws {
        // Two rows of 3 bytes, Colors 1, BPC 8, Columns 3.
        let rows: [[UInt8]] = [[10, 20, 30], [15, 25, 40]]
        let p = P(predictor: 12, colors: 1, bitsPerComponent: 8, columns: 3)
        // None.
        #expect(try PDFStreamDecoder.unpredict([0, 10, 20, 30, 0, 15, 25, 40], p) == rows.flatMap { $0 })
        // Sub: differences from the left.
        #expect(try PDFStreamDecoder.unpredict([1, 10, 10, 10, 1, 15, 10, 15], p) == rows.flatMap { $0 })
        // Up: differences from the row above.
        #expect(try PDFStreamDecoder.unpredict([2, 10, 20, 30, 2, 5, 5, 10], p) == rows.flatMap { $0 })
        // Average: x - floor((left + up) / 2).
        #expect(try PDFStreamDecoder.unpredict([3, 10, 15, 20, 3, 10, 8, 13], p) == rows.flatMap { $0 })
        // Paeth, first row (up = 0: predictor is left), second row computed by hand.
        let paeth: [UInt8] = [4, 10, 10, 10, 4, 5, 5, 10]
        #expect(try PDFStreamDecoder.unpredict(paeth, p) == rows.flatMap { $0 })
        #expect(throws: PDFError.self) { try PDFStreamDecoder.unpredict([9, 1, 2, 3], p) }
    }

    @Test func pngShortLastRowAndMultiByteSamples() throws {
        let p = P(predictor: 10, colors: 2, bitsPerComponent: 8, columns: 2)
        // bpp 2: Sub adds the byte two to the left.
        #expect(try PDFStreamDecoder.unpredict([1, 1, 2, 1, 1], p) == [1, 2, 2, 3])
        #expect(try PDFStreamDecoder.unpredict([1, 1, 2], p) == [1, 2]) // short row
    }

    /// The PNG predictors as the PDF and PNG specifications describe them, one padded row
    /// buffer at a time: the reference that the in-place decoder is compared with.
    static func referencePNG(_ data: [UInt8], rowLength: Int, bpp: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var prior = [UInt8](repeating: 0, count: rowLength)
        var i = 0
        while i < data.count {
            let tag = data[i]
            i += 1
            let n = min(rowLength, data.count - i)
            var row = [UInt8](repeating: 0, count: rowLength)
            for k in 0 ..< n { row[k] = data[i + k] }
            i += n
            for k in 0 ..< rowLength {
                let a = k >= bpp ? Int(row[k - bpp]) : 0, b = Int(prior[k]), c = k >= bpp ? Int(prior[k - bpp]) : 0
                let pred: Int
                switch tag {
                case 0: pred = 0
                case 1: pred = a
                case 2: pred = b
                case 3: pred = (a + b) / 2
                case 4:
                    let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                    pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                default: return nil
                }
                row[k] = row[k] &+ UInt8(pred)
            }
            out += row[0 ..< n]
            prior = row
        }
        return out
    }

    @Test func pngMatchesTheReferenceOnRandomRows() throws {
        var rng = SeededRandom(seed: 32)
        for round in 0 ..< 400 {
            let colors = [1, 1, 2, 3, 4][rng.below(5)]
            let bpc = [8, 8, 16, 1, 4][rng.below(5)]
            let columns = rng.int(in: 1 ... 9)
            let p = P(predictor: rng.int(in: 10 ... 15), colors: colors, bitsPerComponent: bpc, columns: columns)
            let rowLength = (columns * colors * bpc + 7) / 8
            let bpp = max(1, (colors * bpc + 7) / 8)
            var data: [UInt8] = []
            for _ in 0 ..< rng.below(7) {
                data.append(UInt8(rng.below(5)))
                for _ in 0 ..< rowLength { data.append(UInt8(truncatingIfNeeded: rng.next())) }
            }
            data.removeLast(rng.below(min(data.count, rowLength + 1) + 1)) // a short last row, or none
            if round % 50 == 0 && !data.isEmpty { data[0] = 7 } // a bad tag now and then
            let expected = Self.referencePNG(data, rowLength: rowLength, bpp: bpp)
            if let expected {
                #expect(try PDFStreamDecoder.unpredict(data, p) == expected, "round \(round)")
            } else {
                #expect(throws: PDFError.self) { try PDFStreamDecoder.unpredict(data, p) }
            }
        }
    }

    @Test func tiff() throws {
        let p8 = P(predictor: 2, colors: 1, bitsPerComponent: 8, columns: 4)
        #expect(try PDFStreamDecoder.unpredict([1, 1, 1, 1, 5, 255, 1, 0], p8) == [1, 2, 3, 4, 5, 4, 5, 5])
        let p16 = P(predictor: 2, colors: 1, bitsPerComponent: 16, columns: 2)
        #expect(try PDFStreamDecoder.unpredict([0x01, 0xFF, 0x00, 0x01], p16) == [0x01, 0xFF, 0x02, 0x00])
        let p1 = P(predictor: 2, colors: 1, bitsPerComponent: 1, columns: 8)
        // Bits 1,0,0,0,1,0,0,0 → running XOR-sum: 1,1,1,1,0,0,0,0.
        #expect(try PDFStreamDecoder.unpredict([0b1000_1000], p1) == [0b1111_0000])
    }

    @Test func badParameters() {
        #expect(throws: PDFError.self) {
            try PDFStreamDecoder.unpredict([0, 1], P(predictor: 12, colors: 0, bitsPerComponent: 8, columns: 1))
        }
        #expect(throws: PDFError.self) {
            try PDFStreamDecoder.unpredict([0, 1], P(predictor: 12, colors: 1, bitsPerComponent: 3, columns: 1))
        }
    }

    /// A zlib stream made of one stored block (no compressor needed in the test).
    func stored(_ data: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in data { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        let n = UInt16(data.count)
        return [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + data
            + [UInt8(b >> 8), UInt8(b & 0xFF), UInt8(a >> 8), UInt8(a & 0xFF)]
    }

    @Test func inflateAndCap() throws {
        let data = Array("hello, inflate".utf8)
        let out = try PDFStreamDecoder.inflate(stored(data), limit: 100)
        #expect(out.bytes == data && !out.truncated)
        #expect(throws: PDFError.self) { try PDFStreamDecoder.inflate(stored(data), limit: 5) }
        let cut = try PDFStreamDecoder.inflate(Array(stored(data).dropLast(6)), limit: 100)
        #expect(cut.truncated)
        #expect(throws: PDFError.self) { try PDFStreamDecoder.inflate([0x12, 0x34, 0x56], limit: 100) }
    }

    @Test func asciiFilters() throws {
        #expect(PDFStreamDecoder.asciiHex(Array("48 69>".utf8)) == Array("Hi".utf8))
        #expect(try PDFStreamDecoder.ascii85(Array("87cURD]j7BEbo80~>".utf8)) == Array("Hello world!".utf8))
        #expect(try PDFStreamDecoder.ascii85(Array("z~>".utf8)) == [0, 0, 0, 0])
    }
}

@Suite("XMP")
struct XMPTests {
    func packet(_ body: String) -> [UInt8] {
        Array(("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:p="http://ns.adobe.com/pdf/1.3/" \(body)
        </rdf:RDF></x:xmpmeta>
        """).utf8)
    }

    @Test func containersAndPrefixes() throws {
        let m = try XMPMetadata.parse(packet("""
        p:Keywords="attr, form"><d:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">Title &amp; more</rdf:li></rdf:Alt></d:title>
        <d:subject><rdf:Bag><rdf:li>one</rdf:li><rdf:li><![CDATA[two <b>]]></rdf:li></rdf:Bag></d:subject>
        <d:creator><rdf:Seq><rdf:li>A&#233;</rdf:li></rdf:Seq></d:creator></rdf:Description>
        """))
        #expect(m.title == "Title & more")
        #expect(m.subjects == ["one", "two <b>"])
        #expect(m.creators == ["Aé"])
        #expect(m.keywords == "attr, form")
    }

    @Test("bag items keep the document's order, qualified items included")
    func bagOrder() throws {
        let m = try XMPMetadata.parse(packet("""
        ><d:subject><rdf:Bag><rdf:li rdf:parseType="Resource"><rdf:value>anchor</rdf:value><q:x xmlns:q="urn:q">y</q:x></rdf:li>
        <rdf:li>bag one</rdf:li><rdf:li><rdf:Description rdf:value="bag two"/></rdf:li><rdf:li rdf:value="bag three"/>
        <rdf:li><rdf:Description><rdf:value>bag four</rdf:value></rdf:Description></rdf:li></rdf:Bag></d:subject></rdf:Description>
        """))
        #expect(m.subjects == ["anchor", "bag one", "bag two", "bag three", "bag four"])
        let plain = try XMPMetadata.parse(packet("""
        ><d:subject><rdf:Bag><rdf:li>zeta</rdf:li><rdf:li>alpha</rdf:li><rdf:li>mu</rdf:li></rdf:Bag></d:subject></rdf:Description>
        """))
        #expect(plain.subjects == ["zeta", "alpha", "mu"])
    }

    @Test func entitiesRefused() {
        let evil = Array(#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>"#.utf8)
        #expect(throws: PDFError.self) { try XMPMetadata.parse(evil) }
    }

    @Test func malformedAndDeep() {
        #expect(throws: PDFError.self) { try XMPMetadata.parse(Array("<a><b></a>".utf8)) }
        let deep = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect(throws: PDFError.self) { try XMPMetadata.parse(Array(deep.utf8)) }
    }
}
