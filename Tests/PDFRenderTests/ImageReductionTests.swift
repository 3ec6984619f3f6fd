import CTurboJPEG
import Foundation
import PDFRender
import Testing

/// Images with far more pixels than the page shows are reduced before drawing: by averaging
/// blocks (so fine detail becomes grey levels, not whichever pixel a pick lands on), and a soft
/// mask finer than its image keeps its shapes.
@Suite("Images larger than the page needs")
struct ImageReductionTests {
    /// An image XObject whose samples are `rows` (bytes each), written as ASCII hex.
    static func image(_ keys: String, rows: [[UInt8]]) -> String {
        var hex = ""
        for row in rows {
            for byte in row { hex += String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
            hex += "\n"
        }
        hex += ">"
        return "<< /Type /XObject /Subtype /Image \(keys) /Filter /ASCIIHexDecode /Length \(hex.utf8.count) >>\nstream\n\(hex)\nendstream"
    }

    /// Page 1 of `pdf` drawn at one pixel a point (300 × 200).
    static func draw(_ pdf: [UInt8]) throws -> PDFPageImage {
        let doc = try PDFPageDocument(data: pdf, options: PDFRenderOptions())
        return try doc.render(page: 1, width: 300, height: 200)
    }

    /// 1 200 × 1 200 one-bit checkerboard rows (alternate bits set, shifted on odd rows).
    static let checkerboard: [[UInt8]] = (0 ..< 1_200).map { y in [UInt8](repeating: y % 2 == 0 ? 0xAA : 0x55, count: 150) }

    @Test("a one-bit checkerboard of 1 200 pixels drawn 100 points wide is even grey, as an image and as a stencil mask")
    func averagedToGrey() throws {
        for keys in ["/Width 1200 /Height 1200 /ColorSpace /DeviceGray /BitsPerComponent 1", "/Width 1200 /Height 1200 /ImageMask true"] {
            let pdf = minimalPDF(content: "0 g q 100 0 0 100 50 50 cm /Im Do Q", page: "/Resources << /XObject << /Im 5 0 R >> >>",
                                 objects: [Self.image(keys, rows: Self.checkerboard)])
            let levels = grey(try Self.draw(pdf))
            // The image covers x 50…150, y 50…150 (rows from the top); its inside only.
            for y in stride(from: 55, to: 146, by: 10) {
                for x in stride(from: 55, to: 146, by: 10) {
                    let level = levels[y * 300 + x]
                    #expect(level > 100 && level < 155, "\(keys): pixel (\(x), \(y)) is \(level), not mid grey")
                }
            }
        }
    }

    @Test("a one-bit image averaged down draws as the same image with eight-bit samples (rows of 1 203 pixels: whole bytes and a remainder)")
    func oneBitLikeEightBit() throws {
        let width = 1_203, height = 400
        // White (1) where x < 601 + y / 4, black elsewhere.
        func white(_ x: Int, _ y: Int) -> Bool { x < 601 + y / 4 }
        let bits: [[UInt8]] = (0 ..< height).map { y in
            (0 ..< (width + 7) / 8).map { b in
                var v: UInt8 = 0
                for k in 0 ..< 8 where b * 8 + k < width && white(b * 8 + k, y) { v |= 0x80 >> UInt8(k) }
                return v
            }
        }
        let bytes: [[UInt8]] = (0 ..< height).map { y in (0 ..< width).map { white($0, y) ? 255 : 0 } }
        func drawn(_ keys: String, _ rows: [[UInt8]]) throws -> [Double] {
            let pdf = minimalPDF(content: "q 100 0 0 100 50 50 cm /Im Do Q", page: "/Resources << /XObject << /Im 5 0 R >> >>",
                                 objects: [Self.image("/Width \(width) /Height \(height) /ColorSpace /DeviceGray " + keys, rows: rows)])
            return grey(try Self.draw(pdf))
        }
        let one = try drawn("/BitsPerComponent 1", bits), eight = try drawn("/BitsPerComponent 8", bytes)
        #expect(one == eight)
        #expect(one[100 * 300 + 60] > 225 && one[100 * 300 + 140] < 30, "white on the left, black on the right")
    }

    /// A grey baseline JPEG of `width` × `height` pixels, made by libjpeg-turbo.
    static func jpeg(width: Int, height: Int, _ level: (Int, Int) -> UInt8) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0 ..< height { for x in 0 ..< width { pixels[y * width + x] = level(x, y) } }
        let tj = try #require(tjInitCompress())
        defer { tjDestroy(tj) }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = tjCompress2(tj, pixels, Int32(width), 0, Int32(height), TJPF_GRAY.rawValue, &out, &size, Int32(TJSAMP_GRAY.rawValue), 95, 0)
        defer { tjFree(out) }
        try #require(rc == 0 && out != nil)
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    @Test("a JPEG squeezed on one axis is decoded at the pixels its other axis needs (each axis, not their mean)")
    func squeezedJPEG() throws {
        // Vertical stripes two pixels wide, drawn 300 pixels wide and 20 high: the stripes need
        // the JPEG's full width; a decode at a quarter of it (the mean of 300 and 20) is grey.
        let data = try Self.jpeg(width: 400, height: 400) { x, _ in (x / 2) % 2 == 0 ? 0 : 255 }
        let hex = data.map { String(format: "%02x", $0) }.joined() + ">"
        let image = "<< /Type /XObject /Subtype /Image /Width 400 /Height 400 /ColorSpace /DeviceGray /BitsPerComponent 8 "
            + "/Filter [/ASCIIHexDecode /DCTDecode] /Length \(hex.utf8.count) >>\nstream\n\(hex)\nendstream"
        let pdf = minimalPDF(content: "q 300 0 0 20 0 90 cm /Im Do Q", page: "/Resources << /XObject << /Im 5 0 R >> >>", objects: [image])
        let levels = grey(try Self.draw(pdf))
        let row = (20 ..< 280).map { levels[100 * 300 + $0] }
        #expect(row.max()! - row.min()! > 120, "the stripes are \(row.min()!)…\(row.max()!)")
    }

    @Test("a 2 × 2 black image under a 400 × 400 soft mask with an opaque middle band draws the band only")
    func fineSoftMask() throws {
        let mask: [[UInt8]] = (0 ..< 400).map { y in [UInt8](repeating: (150 ..< 250).contains(y) ? 0xFF : 0x00, count: 50) }
        let pdf = minimalPDF(
            content: "q 100 0 0 100 50 50 cm /Im Do Q", page: "/Resources << /XObject << /Im 5 0 R >> >>",
            objects: [
                Self.image("/Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 /SMask 6 0 R", rows: [[0, 0], [0, 0]]),
                Self.image("/Width 400 /Height 400 /ColorSpace /DeviceGray /BitsPerComponent 1", rows: mask),
            ])
        let levels = grey(try Self.draw(pdf))
        // The band covers 37.5–62.5 % of the image's height: rows 87.5…112.5.
        #expect(levels[100 * 300 + 100] < 30, "the band's middle is \(levels[100 * 300 + 100])")
        #expect(levels[65 * 300 + 100] > 225, "above the band is \(levels[65 * 300 + 100])")
        #expect(levels[135 * 300 + 100] > 225, "below the band is \(levels[135 * 300 + 100])")
    }

    @Test("an image drawn nine times over itself is evenly darker than once (the decode is reused, not changed)")
    func repeatedImage() throws {
        let once = "q 100 0 0 100 50 50 cm /Im Do Q"
        let pdfOnce = minimalPDF(content: once, page: "/Resources << /XObject << /Im 5 0 R >> >>",
                                 objects: [Self.image("/Width 1200 /Height 1200 /ImageMask true", rows: Self.checkerboard)])
        // Drawn nine times at the same place: the cached decode must be the same pixels.
        let pdfMany = minimalPDF(content: String(repeating: once + " ", count: 9), page: "/Resources << /XObject << /Im 5 0 R >> >>",
                                 objects: [Self.image("/Width 1200 /Height 1200 /ImageMask true", rows: Self.checkerboard)])
        let a = try Self.draw(pdfOnce), b = try Self.draw(pdfMany)
        // Nine layers of 50 % coverage are darker; the same decode each time keeps them even.
        let levels = grey(b)
        let first = levels[100 * 300 + 100]
        for y in stride(from: 55, to: 146, by: 15) {
            for x in stride(from: 55, to: 146, by: 15) { #expect(abs(levels[y * 300 + x] - first) < 8) }
        }
        #expect(grey(a)[100 * 300 + 100] > first)
    }
}
