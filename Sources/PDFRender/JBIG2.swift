/// A JBIG2 decoder (ITU-T T.88) for JBIG2Decode images: generic regions (arithmetic with
/// templates 0–3, typical prediction and adaptive pixels, or MMR), refinement regions, symbol
/// dictionaries and text regions (arithmetic or Huffman coding, with the standard or custom tables),
/// pattern dictionaries and halftone regions, composed onto the page with the five combination
/// operators. By job: this file (bitmaps, limits, the entry point, byte reading), `+Segments` (the
/// segment loop and the page), `+Arithmetic` (Annex E and A), `+Generic` (generic and refinement
/// regions), `+Text` (symbol dictionaries and text regions), `+Huffman` (their Huffman coding) and
/// `+Halftone` (pattern dictionaries and halftone regions).
struct JBIG2Decoder {
    /// A bilevel bitmap, one byte per pixel (1 = black), row after row.
    struct Bitmap {
        var width: Int
        var height: Int
        var pixels: [UInt8]

        init(width: Int, height: Int, fill: UInt8 = 0) {
            self.width = max(0, width)
            self.height = max(0, height)
            pixels = [UInt8](repeating: fill, count: self.width * self.height)
        }

        @inline(__always) func at(_ x: Int, _ y: Int) -> UInt8 {
            x >= 0 && y >= 0 && x < width && y < height ? pixels[y * width + x] : 0
        }

        /// Combines `other` onto this bitmap with its top-left corner at (x, y).
        mutating func combine(_ other: Bitmap, x: Int, y: Int, op: Int) {
            let rows = max(0, -y) ..< max(max(0, -y), min(other.height, height - y))
            let columns = max(0, -x) ..< max(max(0, -x), min(other.width, width - x))
            for j in rows {
                let ty = y + j
                for i in columns {
                    let tx = x + i
                    let s = other.pixels[j * other.width + i]
                    let k = ty * width + tx
                    switch op {
                    case 0: pixels[k] |= s
                    case 1: pixels[k] &= s
                    case 2: pixels[k] ^= s
                    case 3: pixels[k] = (pixels[k] ^ s) ^ 1
                    default: pixels[k] = s
                    }
                }
            }
        }
    }

    struct Failure: Error { var message: String }

    /// The most pixels one region or page may have, and one text region may draw.
    static let maxPixels = 1 << 28
    /// The most pixels of new symbols one symbol dictionary may have, and one refined symbol.
    static let maxSymbolPixels = 1 << 26

    /// Whether a width × height bitmap has at most `limit` pixels (not for a negative size or a
    /// product past Int's range).
    static func fits(_ width: Int, _ height: Int, _ limit: Int) -> Bool {
        guard width >= 0, height >= 0 else { return false }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= limit
    }

    /// Decodes a page from the embedded stream and the optional globals stream; the result's
    /// pixels are the page's, 1 = black. `warnings` receives what was skipped.
    static func decode(_ data: [UInt8], globals: [UInt8]?, warn: (String) -> Void) throws -> Bitmap {
        var state = DecodeState()
        if let globals { try state.run(withoutFileHeader(globals), warn: warn) }
        try state.run(withoutFileHeader(data), warn: warn)
        guard let page = state.page else { throw Failure(message: "no page information segment") }
        return page
    }

    /// The segments of a stream that starts with a JBIG2 file's header (D.4), which PDF's embedded
    /// streams leave out but some writers keep: the header and its page count skipped. Sequential
    /// organisation is assumed (random-access files put every segment header first).
    static func withoutFileHeader(_ data: [UInt8]) -> [UInt8] {
        let magic: [UInt8] = [0x97, 0x4A, 0x42, 0x32, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count > 9, data.prefix(8).elementsEqual(magic) else { return data }
        let skip = 9 + (data[8] & 2 == 0 ? 4 : 0)
        return Array(data.dropFirst(skip))
    }


    // MARK: Byte reading

    struct ByteReader {
        let data: [UInt8]
        var pos = 0
        mutating func u8() throws -> UInt8 {
            guard pos < data.count else { throw Failure(message: "data ends early") }
            pos += 1
            return data[pos - 1]
        }
        mutating func u16() throws -> UInt16 { UInt16(try u8()) << 8 | UInt16(try u8()) }
        mutating func u32() throws -> UInt32 { UInt32(try u16()) << 16 | UInt32(try u16()) }
        mutating func s8() throws -> Int { Int(Int8(bitPattern: try u8())) }
        mutating func s32() throws -> Int { Int(Int32(bitPattern: try u32())) }
    }

    struct RegionInfo {
        var width: Int, height: Int, x: Int, y: Int, op: Int
        /// The bytes the region information field takes.
        static let size = 17
        init(_ body: [UInt8]) throws {
            var r = ByteReader(data: body)
            width = Int(try r.u32()); height = Int(try r.u32())
            x = try r.s32(); y = try r.s32()
            op = Int(try r.u8() & 7)
            guard fits(width, height, maxPixels) else {
                throw Failure(message: "region of \(width)×\(height) pixels")
            }
        }
    }
}
