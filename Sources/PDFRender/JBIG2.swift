/// A JBIG2 decoder (ITU-T T.88) for JBIG2Decode images: generic regions (arithmetic with
/// templates 0–3, typical prediction and adaptive pixels, or MMR), refinement regions, symbol
/// dictionaries and text regions (arithmetic or Huffman coding, with the standard or custom tables:
/// `JBIG2+Huffman.swift`), pattern dictionaries and halftone regions, composed onto the page with
/// the five combination operators.
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

    // MARK: Decoding state

    struct DecodeState {
        var page: Bitmap?
        var pageDefaultOp = 0
        var pageStriped = false
        var symbols: [Int: [Bitmap]] = [:]
        var patterns: [Int: [Bitmap]] = [:]
        var regions: [Int: (Bitmap, Int, Int)] = [:]
        var tables: [Int: HuffmanTable] = [:]
        var retained: [Int: RetainedContexts] = [:]

        mutating func run(_ data: [UInt8], warn: (String) -> Void) throws {
            var r = ByteReader(data: data)
            while r.pos + 11 <= data.count {
                let number = Int(try r.u32())
                let flags = try r.u8()
                let type = Int(flags & 0x3F)
                var countByte = try r.u8()
                var referred = Int(countByte >> 5)
                if referred == 7 {
                    r.pos -= 1
                    referred = Int(try r.u32() & 0x1FFF_FFFF)
                    guard referred < 1 << 16 else { throw Failure(message: "segment \(number) refers to \(referred) segments") }
                    r.pos += (referred + 8) / 8
                    countByte = 0
                }
                let refSize = number <= 256 ? 1 : (number <= 65536 ? 2 : 4)
                var refs: [Int] = []
                for _ in 0 ..< referred {
                    switch refSize {
                    case 1: refs.append(Int(try r.u8()))
                    case 2: refs.append(Int(try r.u16()))
                    default: refs.append(Int(try r.u32()))
                    }
                }
                _ = flags & 0x40 != 0 ? try r.u32() : UInt32(try r.u8())
                var length = Int(try r.u32())
                let start = r.pos
                if length == 0xFFFF_FFFF {
                    // An immediate generic region of unknown length: it ends at 0xFFAC (or 0x0000 for
                    // MMR) followed by the 4-byte row count.
                    var i = start + 18
                    var end: Int? = nil
                    while i + 5 < data.count {
                        if (data[i] == 0xFF && data[i + 1] == 0xAC) || (data[i] == 0 && data[i + 1] == 0 && type == 38) {
                            end = i + 6; break
                        }
                        i += 1
                    }
                    length = (end ?? data.count) - start
                }
                guard start + length <= data.count, length >= 0 else { throw Failure(message: "segment \(number) runs past the data") }
                let body = Array(data[start ..< start + length])
                r.pos = start + length
                switch type {
                case 0:
                    var input: [Bitmap] = []
                    for ref in refs { input += symbols[ref] ?? [] }
                    // Contexts a dictionary may reuse: those the last dictionary it refers to kept.
                    let last = refs.last { symbols[$0] != nil }
                    let (exported, kept) = try JBIG2Decoder.symbolDictionary(body, input: input, tables: refs.compactMap { tables[$0] },
                                                                             reused: last.flatMap { retained[$0] })
                    symbols[number] = exported
                    retained[number] = kept
                case 4, 6, 7:
                    var input: [Bitmap] = []
                    for ref in refs { input += symbols[ref] ?? [] }
                    let (info, region) = try JBIG2Decoder.textRegion(body, symbols: input, tables: refs.compactMap { tables[$0] })
                    place(region, info, number: number, immediate: type != 4)
                case 16:
                    patterns[number] = try JBIG2Decoder.patternDictionary(body)
                case 20, 22, 23:
                    var pats: [Bitmap] = []
                    for ref in refs { pats += patterns[ref] ?? [] }
                    let (info, region) = try JBIG2Decoder.halftoneRegion(body, patterns: pats)
                    place(region, info, number: number, immediate: type != 20)
                case 36, 38, 39:
                    let (info, region) = try JBIG2Decoder.genericRegion(body)
                    place(region, info, number: number, immediate: type != 36)
                case 40, 42, 43:
                    var reference: Bitmap
                    var info = try RegionInfo(body)
                    if let ref = refs.first, let (bm, _, _) = regions[ref] {
                        reference = bm
                    } else if let page {
                        reference = Bitmap(width: info.width, height: info.height)
                        for y in 0 ..< info.height { for x in 0 ..< info.width { reference.pixels[y * info.width + x] = page.at(info.x + x, info.y + y) } }
                    } else {
                        throw Failure(message: "refinement region \(number) has nothing to refine")
                    }
                    let region = try JBIG2Decoder.refinementRegion(body, info: &info, reference: reference)
                    place(region, info, number: number, immediate: type != 40)
                case 48:
                    var pr = ByteReader(data: body)
                    let w = Int(try pr.u32()), h = Int(try pr.u32())
                    _ = try pr.u32(); _ = try pr.u32()
                    let pf = try pr.u8()
                    let striping = pr.pos + 2 <= body.count ? try pr.u16() : 0
                    pageStriped = h == 0xFFFF_FFFF
                    let height = pageStriped ? Int(striping & 0x7FFF) : h
                    guard w > 0, fits(w, max(1, height), maxPixels) else {
                        throw Failure(message: "page of \(w)×\(h) pixels")
                    }
                    page = Bitmap(width: w, height: height, fill: (pf >> 2) & 1)
                    pageDefaultOp = Int((pf >> 3) & 3)
                case 50:
                    // End of stripe: a striped page of unknown height grows to the stripe's end.
                    if pageStriped, var p = page, body.count >= 4 {
                        var br = ByteReader(data: body)
                        let rowEnd = Int(try br.u32()) + 1
                        if rowEnd > p.height, rowEnd * p.width <= maxPixels {
                            p.pixels += [UInt8](repeating: 0, count: (rowEnd - p.height) * p.width)
                            p.height = rowEnd
                            page = p
                        }
                    }
                case 49, 51, 52, 62: break
                case 53:
                    tables[number] = try HuffmanTable(segment: body)
                default:
                    warn("JBIG2 segment type \(type) ignored")
                }
                if type == 51 { break }
            }
        }

        mutating func place(_ region: Bitmap, _ info: RegionInfo, number: Int, immediate: Bool) {
            if !immediate {
                regions[number] = (region, info.x, info.y)
                return
            }
            guard var p = page else { return }
            if pageStriped && info.y + info.height > p.height, (info.y + info.height) * p.width <= maxPixels {
                p.pixels += [UInt8](repeating: 0, count: (info.y + info.height - p.height) * p.width)
                p.height = info.y + info.height
            }
            p.combine(region, x: info.x, y: info.y, op: info.op)
            page = p
        }
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

    // MARK: Arithmetic decoding (Annex E)

    /// The probability estimation table: Qe, next index after an MPS, after an LPS, and whether
    /// an LPS switches the MPS sense.
    static let qe: [(UInt32, UInt8, UInt8, Bool)] = [
        (0x5601, 1, 1, true), (0x3401, 2, 6, false), (0x1801, 3, 9, false), (0x0AC1, 4, 12, false),
        (0x0521, 5, 29, false), (0x0221, 38, 33, false), (0x5601, 7, 6, true), (0x5401, 8, 14, false),
        (0x4801, 9, 14, false), (0x3801, 10, 14, false), (0x3001, 11, 17, false), (0x2401, 12, 18, false),
        (0x1C01, 13, 20, false), (0x1601, 29, 21, false), (0x5601, 15, 14, true), (0x5401, 16, 14, false),
        (0x5101, 17, 15, false), (0x4801, 18, 16, false), (0x3801, 19, 17, false), (0x3401, 20, 18, false),
        (0x3001, 21, 19, false), (0x2801, 22, 19, false), (0x2401, 23, 20, false), (0x2201, 24, 21, false),
        (0x1C01, 25, 22, false), (0x1801, 26, 23, false), (0x1601, 27, 24, false), (0x1401, 28, 25, false),
        (0x1201, 29, 26, false), (0x1101, 30, 27, false), (0x0AC1, 31, 28, false), (0x09C1, 32, 29, false),
        (0x08A1, 33, 30, false), (0x0521, 34, 31, false), (0x0441, 35, 32, false), (0x02A1, 36, 33, false),
        (0x0221, 37, 34, false), (0x0141, 38, 35, false), (0x0111, 39, 36, false), (0x0085, 40, 37, false),
        (0x0049, 41, 38, false), (0x0025, 42, 39, false), (0x0015, 43, 40, false), (0x0009, 44, 41, false),
        (0x0005, 45, 42, false), (0x0001, 45, 43, false), (0x5601, 46, 46, false),
    ]

    /// The MQ arithmetic decoder, as the decoding flowcharts of Annex E describe it.
    struct ArithmeticDecoder {
        let data: [UInt8]
        var bp: Int
        var c: UInt32 = 0
        var a: UInt32 = 0x8000
        var ct = 0

        init(_ data: [UInt8], start: Int) {
            self.data = data
            bp = start
            c = UInt32(byte(bp)) << 16
            byteIn()
            c <<= 7
            ct -= 7
            a = 0x8000
        }

        func byte(_ i: Int) -> UInt8 { i < data.count ? data[i] : 0xFF }

        mutating func byteIn() {
            if byte(bp) == 0xFF {
                if byte(bp + 1) > 0x8F {
                    c &+= 0xFF00
                    ct = 8
                } else {
                    bp += 1
                    c &+= UInt32(byte(bp)) << 9
                    ct = 7
                }
            } else {
                bp += 1
                c &+= UInt32(byte(bp)) << 8
                ct = 8
            }
        }

        /// Decodes one bit with the context state `cx` (index << 1 | MPS).
        mutating func bit(_ cx: inout UInt8) -> Int {
            var index = Int(cx >> 1)
            var mps = Int(cx & 1)
            let (qe, nmps, nlps, switchMPS) = JBIG2Decoder.qe[index]
            a -= qe
            var d: Int
            if (c >> 16) < qe {
                // LPS exchange.
                if a < qe {
                    d = mps; index = Int(nmps)
                } else {
                    d = 1 - mps
                    if switchMPS { mps = 1 - mps }
                    index = Int(nlps)
                }
                a = qe
            } else {
                c -= qe << 16
                if a & 0x8000 != 0 { return mps }
                // MPS exchange.
                if a < qe {
                    d = 1 - mps
                    if switchMPS { mps = 1 - mps }
                    index = Int(nlps)
                } else {
                    d = mps; index = Int(nmps)
                }
            }
            // Renormalise.
            repeat {
                if ct == 0 { byteIn() }
                a <<= 1
                c <<= 1
                ct -= 1
            } while a & 0x8000 == 0
            c &= 0xFFFF_FFFF
            cx = UInt8(index << 1 | mps)
            return d
        }
    }

    /// The integer arithmetic decoding procedure (Annex A.2) with its 512 contexts.
    struct IntegerContexts {
        var cx = [UInt8](repeating: 0, count: 512)

        /// The decoded integer, nil for out-of-band.
        mutating func decode(_ d: inout ArithmeticDecoder) -> Int? {
            var prev = 1
            func bits(_ n: Int) -> Int {
                var v = 0
                for _ in 0 ..< n {
                    let b = d.bit(&cx[prev])
                    prev = prev < 256 ? (prev << 1) | b : (((prev << 1) | b) & 511) | 256
                    v = (v << 1) | b
                }
                return v
            }
            let sign = bits(1)
            let v: Int
            if bits(1) == 0 { v = bits(2) }
            else if bits(1) == 0 { v = bits(4) + 4 }
            else if bits(1) == 0 { v = bits(6) + 20 }
            else if bits(1) == 0 { v = bits(8) + 84 }
            else if bits(1) == 0 { v = bits(12) + 340 }
            else { v = bits(32) + 4436 }
            if sign == 0 { return v }
            return v > 0 ? -v : nil
        }
    }

    /// The symbol ID decoding procedure (IAID, Annex A.3).
    struct IDContexts {
        var cx: [UInt8]
        let length: Int
        init(length: Int) {
            self.length = length
            cx = [UInt8](repeating: 0, count: 1 << min(length + 1, 24))
        }
        mutating func decode(_ d: inout ArithmeticDecoder) -> Int {
            var prev = 1
            for _ in 0 ..< length { prev = (prev << 1) | d.bit(&cx[prev]) }
            return prev & ((1 << length) - 1)
        }
    }

    // MARK: Generic regions (6.2)

    static let templates: [[(Int, Int)]] = [
        [(-1, -2), (0, -2), (1, -2), (-2, -1), (-1, -1), (0, -1), (1, -1), (2, -1), (-4, 0), (-3, 0), (-2, 0), (-1, 0)],
        [(-1, -2), (0, -2), (1, -2), (2, -2), (-2, -1), (-1, -1), (0, -1), (1, -1), (2, -1), (-3, 0), (-2, 0), (-1, 0)],
        [(-1, -2), (0, -2), (1, -2), (-2, -1), (-1, -1), (0, -1), (1, -1), (-2, 0), (-1, 0)],
        [(-3, -1), (-2, -1), (-1, -1), (0, -1), (1, -1), (-4, 0), (-3, 0), (-2, 0), (-1, 0)],
    ]
    /// The context of the typical-prediction bit, per template (its label in the sorted order).
    static let typicalContexts = [0x9B25, 0x0795, 0x00E5, 0x0195]

    /// Decodes a generic region with the arithmetic decoder `d` and the contexts `cx`.
    static func genericBitmap(width: Int, height: Int, template: Int, prediction: Bool, at: [(Int, Int)],
                              skip: Bitmap? = nil, decoder d: inout ArithmeticDecoder, contexts cx: inout [UInt8]) -> Bitmap {
        var bm = Bitmap(width: width, height: height)
        var tpl = templates[template] + at.prefix(template == 0 ? 4 : 1)
        tpl.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        var ltp = 0
        for y in 0 ..< height {
            if prediction {
                ltp ^= d.bit(&cx[typicalContexts[template]])
                if ltp == 1 {
                    if y > 0 { for x in 0 ..< width { bm.pixels[y * width + x] = bm.pixels[(y - 1) * width + x] } }
                    continue
                }
            }
            for x in 0 ..< width {
                if let skip, skip.at(x, y) == 1 { continue }
                var label = 0
                for (dx, dy) in tpl { label = (label << 1) | Int(bm.at(x + dx, y + dy)) }
                bm.pixels[y * width + x] = UInt8(d.bit(&cx[label]))
            }
        }
        return bm
    }

    /// Decodes an MMR-coded generic region (T.6, as the CCITT decoder reads Group 4).
    static func mmrBitmap(_ data: [UInt8], width: Int, height: Int) -> Bitmap {
        var dec = CCITTDecoder()
        dec.k = -1
        dec.columns = width
        dec.rows = height
        let out = dec.decode(data, maxRows: height)
        var bm = Bitmap(width: width, height: height)
        let rowBytes = (width + 7) / 8
        for y in 0 ..< min(height, out.rows) {
            for x in 0 ..< width {
                // The CCITT decoder writes 1 for white.
                bm.pixels[y * width + x] = (out.bytes[y * rowBytes + x >> 3] >> UInt8(7 - x & 7)) & 1 == 0 ? 1 : 0
            }
        }
        return bm
    }

    static func genericRegion(_ body: [UInt8]) throws -> (RegionInfo, Bitmap) {
        let info = try RegionInfo(body)
        var r = ByteReader(data: body, pos: RegionInfo.size)
        let flags = try r.u8()
        let mmr = flags & 1 != 0
        let template = Int((flags >> 1) & 3)
        let prediction = flags & 8 != 0
        if mmr { return (info, mmrBitmap(Array(body[r.pos...]), width: info.width, height: info.height)) }
        var at: [(Int, Int)] = []
        for _ in 0 ..< (template == 0 ? 4 : 1) { at.append((try r.s8(), try r.s8())) }
        var d = ArithmeticDecoder(body, start: r.pos)
        var cx = [UInt8](repeating: 0, count: 1 << 16)
        return (info, genericBitmap(width: info.width, height: info.height, template: template, prediction: prediction, at: at,
                                    decoder: &d, contexts: &cx))
    }

    // MARK: Refinement (6.3)

    /// The refined bitmap's pixels in each template's context (template 0 adds its first adaptive
    /// pixel here, its second to the reference's).
    static let refinementCoding: [[(Int, Int)]] = [[(0, -1), (1, -1), (-1, 0)], [(-1, -1), (0, -1), (1, -1), (-1, 0)]]
    static let refinementReference: [[(Int, Int)]] = [
        [(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
        [(0, -1), (-1, 0), (0, 0), (1, 0), (0, 1), (1, 1)],
    ]
    static let refinementTypicalContexts = [0x0020, 0x0008]

    static func refinementBitmap(width: Int, height: Int, template: Int, reference: Bitmap, dx: Int, dy: Int,
                                 prediction: Bool, at: [(Int, Int)], decoder d: inout ArithmeticDecoder, contexts cx: inout [UInt8]) -> Bitmap {
        var bm = Bitmap(width: width, height: height)
        var coding = refinementCoding[template]
        var refTpl = refinementReference[template]
        if template == 0 && at.count >= 2 { coding.append(at[0]); refTpl.append(at[1]) }
        var ltp = 0
        for y in 0 ..< height {
            if prediction {
                ltp ^= d.bit(&cx[refinementTypicalContexts[template]])
            }
            for x in 0 ..< width {
                if ltp == 1 {
                    // Typical prediction: where the reference's 3×3 neighbourhood is uniform, copy it.
                    let rx = x - dx, ry = y - dy
                    let v = reference.at(rx, ry)
                    var uniform = true
                    for j in -1 ... 1 { for i in -1 ... 1 where reference.at(rx + i, ry + j) != v { uniform = false } }
                    if uniform { bm.pixels[y * width + x] = v; continue }
                }
                var label = 0
                for (cxo, cyo) in coding { label = (label << 1) | Int(bm.at(x + cxo, y + cyo)) }
                for (rxo, ryo) in refTpl { label = (label << 1) | Int(reference.at(x + rxo - dx, y + ryo - dy)) }
                bm.pixels[y * width + x] = UInt8(d.bit(&cx[label]))
            }
        }
        return bm
    }

    static func refinementRegion(_ body: [UInt8], info: inout RegionInfo, reference: Bitmap) throws -> Bitmap {
        var r = ByteReader(data: body, pos: RegionInfo.size)
        let flags = try r.u8()
        let template = Int(flags & 1)
        let prediction = flags & 2 != 0
        var at: [(Int, Int)] = []
        if template == 0 { for _ in 0 ..< 2 { at.append((try r.s8(), try r.s8())) } }
        var d = ArithmeticDecoder(body, start: r.pos)
        var cx = [UInt8](repeating: 0, count: 1 << 14)
        return refinementBitmap(width: info.width, height: info.height, template: template, reference: reference, dx: 0, dy: 0,
                                prediction: prediction, at: at, decoder: &d, contexts: &cx)
    }

    // MARK: Symbol dictionaries (6.5) and text regions (6.4)

    /// The contexts every procedure of one arithmetic-coded segment shares.
    struct TextContexts {
        var iadh = IntegerContexts(), iadw = IntegerContexts(), iaex = IntegerContexts(), iaai = IntegerContexts()
        var iadt = IntegerContexts(), iafs = IntegerContexts(), iads = IntegerContexts(), iait = IntegerContexts()
        var iari = IntegerContexts(), iardw = IntegerContexts(), iardh = IntegerContexts(), iardx = IntegerContexts()
        var iardy = IntegerContexts()
        var generic = [UInt8](repeating: 0, count: 1 << 16)
        var refinement = [UInt8](repeating: 0, count: 1 << 14)
        var id: IDContexts
        init(codeLength: Int) { id = IDContexts(length: codeLength) }
    }

    static func codeLength(_ n: Int) -> Int {
        var l = 0
        while (1 << l) < n && l < 22 { l += 1 }
        return l
    }

    /// How a text region lays its symbols out (7.4.3.1.1).
    struct TextLayout {
        var strips: Int
        var refinement: Bool
        var refCorner: Int
        var transposed: Bool
        var combOp: Int
        var defaultPixel: UInt8
        var dsOffset: Int
        var rTemplate: Int
        var rAt: [(Int, Int)]
    }

    /// Where a text region's numbers come from (6.4.5): the arithmetic integer decoders, or
    /// Huffman tables (`HuffmanTextCoder`).
    protocol TextRegionCoder {
        mutating func initialStripT() throws -> Int
        mutating func deltaT() throws -> Int
        mutating func deltaFirstS() throws -> Int
        /// Nil (out of band) ends the strip.
        mutating func deltaS() throws -> Int?
        mutating func currentT(strips: Int) throws -> Int
        mutating func symbolID() throws -> Int
        /// Whether the instance is refined (read only when the region has refinement).
        mutating func refines() throws -> Bool
        /// The refined instance of `symbol`: its size and offset deltas, then the refinement bitmap.
        mutating func refine(_ symbol: Bitmap, template: Int, at: [(Int, Int)]) throws -> Bitmap
    }

    /// A segment's arithmetic decoder and contexts: the text region procedures and the rest of a
    /// symbol dictionary read from the same ones.
    struct ArithmeticTextCoder: TextRegionCoder {
        var d: ArithmeticDecoder
        var ctx: TextContexts

        mutating func initialStripT() throws -> Int { ctx.iadt.decode(&d) ?? 0 }
        mutating func deltaT() throws -> Int {
            guard let v = ctx.iadt.decode(&d) else { throw Failure(message: "text strip out of band") }
            return v
        }
        mutating func deltaFirstS() throws -> Int {
            guard let v = ctx.iafs.decode(&d) else { throw Failure(message: "text strip out of band") }
            return v
        }
        mutating func deltaS() throws -> Int? { ctx.iads.decode(&d) }
        mutating func currentT(strips: Int) throws -> Int { strips > 1 ? (ctx.iait.decode(&d) ?? 0) : 0 }
        mutating func symbolID() throws -> Int { ctx.id.decode(&d) }
        mutating func refines() throws -> Bool { (ctx.iari.decode(&d) ?? 0) != 0 }
        mutating func refine(_ symbol: Bitmap, template: Int, at: [(Int, Int)]) throws -> Bitmap {
            let rdw = ctx.iardw.decode(&d) ?? 0, rdh = ctx.iardh.decode(&d) ?? 0
            let rdx = ctx.iardx.decode(&d) ?? 0, rdy = ctx.iardy.decode(&d) ?? 0
            let w = symbol.width + rdw, h = symbol.height + rdh
            guard fits(w, h, maxSymbolPixels) else {
                throw Failure(message: "refined symbol of \(w)×\(h)")
            }
            return refinementBitmap(width: w, height: h, template: template, reference: symbol, dx: (rdw >> 1) + rdx,
                                    dy: (rdh >> 1) + rdy, prediction: false, at: at, decoder: &d, contexts: &ctx.refinement)
        }
    }

    /// The generic and refinement contexts a symbol dictionary keeps for a later one (7.4.2.1.1).
    struct RetainedContexts {
        var generic: [UInt8]
        var refinement: [UInt8]
    }

    /// Decodes a symbol dictionary to its exported symbols, and the contexts it retains if its flags
    /// say so. `tables` are the custom Huffman tables of the table segments it refers to, in order;
    /// `reused`, the contexts its flags may ask for.
    static func symbolDictionary(_ body: [UInt8], input: [Bitmap], tables: [HuffmanTable],
                                 reused: RetainedContexts? = nil) throws -> ([Bitmap], RetainedContexts?) {
        var r = ByteReader(data: body)
        let flags = try r.u16()
        let huffman = flags & 1 != 0
        let refAgg = flags & 2 != 0
        let template = Int((flags >> 10) & 3)
        let rTemplate = Int((flags >> 12) & 1)
        var at: [(Int, Int)] = []
        if !huffman { for _ in 0 ..< (template == 0 ? 4 : 1) { at.append((try r.s8(), try r.s8())) } }
        var rAt: [(Int, Int)] = []
        if refAgg && rTemplate == 0 { for _ in 0 ..< 2 { rAt.append((try r.s8(), try r.s8())) } }
        let numExported = Int(try r.u32()), numNew = Int(try r.u32())
        guard numNew < 1 << 20, numExported < 1 << 21 else { throw Failure(message: "symbol dictionary of \(numNew) symbols") }
        let reuse = flags & 0x100 != 0 ? reused : nil, retain = flags & 0x200 != 0
        if huffman {
            return try huffmanSymbolDictionary(body, at: r.pos, flags: flags, input: input, numNew: numNew, numExported: numExported,
                                               rTemplate: rTemplate, rAt: rAt, tables: tables, reused: reuse, retain: retain)
        }
        var coder = ArithmeticTextCoder(d: ArithmeticDecoder(body, start: r.pos), ctx: TextContexts(codeLength: codeLength(input.count + numNew)))
        if let reuse {
            coder.ctx.generic = reuse.generic
            coder.ctx.refinement = reuse.refinement
        }
        var newSymbols: [Bitmap] = []
        var heightClass = 0, classes = 0, pixels = 0
        while newSymbols.count < numNew {
            classes += 1
            guard classes <= numNew, let dh = coder.ctx.iadh.decode(&coder.d) else { throw Failure(message: "symbol height is out of band") }
            heightClass += dh
            guard heightClass >= 0, heightClass < 1 << 16 else { throw Failure(message: "symbol height \(heightClass)") }
            var width = 0
            while true {
                guard let dw = coder.ctx.iadw.decode(&coder.d) else { break }
                width += dw
                guard width >= 0, width < 1 << 16, newSymbols.count < numNew else { throw Failure(message: "symbol width \(width)") }
                pixels += width * heightClass
                guard pixels <= maxSymbolPixels else { throw Failure(message: "symbol dictionary of more than \(maxSymbolPixels) pixels") }
                if refAgg {
                    guard let instances = coder.ctx.iaai.decode(&coder.d) else { throw Failure(message: "aggregate count out of band") }
                    let all = input + newSymbols
                    if instances > 1 {
                        let layout = TextLayout(strips: 1, refinement: true, refCorner: 1, transposed: false, combOp: 0,
                                                defaultPixel: 0, dsOffset: 0, rTemplate: rTemplate, rAt: rAt)
                        newSymbols.append(try textRegionBitmap(width: width, height: heightClass, instances: instances,
                                                               symbols: all, layout: layout, coder: &coder))
                    } else {
                        let id = coder.ctx.id.decode(&coder.d)
                        let rdx = coder.ctx.iardx.decode(&coder.d) ?? 0, rdy = coder.ctx.iardy.decode(&coder.d) ?? 0
                        guard id < all.count else { throw Failure(message: "symbol \(id) of \(all.count)") }
                        newSymbols.append(refinementBitmap(width: width, height: heightClass, template: rTemplate, reference: all[id],
                                                           dx: rdx, dy: rdy, prediction: false, at: rAt, decoder: &coder.d,
                                                           contexts: &coder.ctx.refinement))
                    }
                } else {
                    newSymbols.append(genericBitmap(width: width, height: heightClass, template: template, prediction: false, at: at,
                                                    decoder: &coder.d, contexts: &coder.ctx.generic))
                }
            }
        }
        let exported = try exportedSymbols(input + newSymbols, count: numExported) { coder.ctx.iaex.decode(&coder.d) }
        return (exported, retain ? RetainedContexts(generic: coder.ctx.generic, refinement: coder.ctx.refinement) : nil)
    }

    /// Which of the input and new symbols a dictionary exports: alternating runs of not exported
    /// and exported ones (6.5.10).
    static func exportedSymbols(_ all: [Bitmap], count: Int, run: () throws -> Int?) throws -> [Bitmap] {
        var exported: [Bitmap] = []
        var i = 0, runs = 0
        var export = false
        while i < all.count && exported.count < count && runs <= 2 * all.count + 2 {
            guard let n = try run(), n >= 0 else { break }
            if export { exported += all[i ..< min(all.count, i + n)].prefix(count - exported.count) }
            i += n
            runs += 1
            export.toggle()
        }
        return exported
    }

    static func textRegion(_ body: [UInt8], symbols: [Bitmap], tables: [HuffmanTable]) throws -> (RegionInfo, Bitmap) {
        let info = try RegionInfo(body)
        var r = ByteReader(data: body, pos: RegionInfo.size)
        let flags = try r.u16()
        let huffman = flags & 1 != 0
        let refine = flags & 2 != 0
        var dsOffset = Int((flags >> 10) & 0x1F)
        if dsOffset > 15 { dsOffset -= 32 }
        let rTemplate = Int((flags >> 15) & 1)
        let huffmanFlags = huffman ? try r.u16() : 0
        var rAt: [(Int, Int)] = []
        if refine && rTemplate == 0 { for _ in 0 ..< 2 { rAt.append((try r.s8(), try r.s8())) } }
        let instances = Int(try r.u32())
        let layout = TextLayout(strips: 1 << Int((flags >> 2) & 3), refinement: refine, refCorner: Int((flags >> 4) & 3),
                                transposed: flags & 0x40 != 0, combOp: Int((flags >> 7) & 3), defaultPixel: UInt8((flags >> 9) & 1),
                                dsOffset: dsOffset, rTemplate: rTemplate, rAt: rAt)
        // Every instance takes some of the data: at most 32 a byte, as PDFium bounds it.
        guard instances <= 32 * body.count else { throw Failure(message: "\(instances) symbol instances in \(body.count) bytes") }
        if huffman {
            return (info, try huffmanTextRegion(body, at: r.pos, info: info, flags: flags, huffmanFlags: huffmanFlags,
                                                instances: instances, symbols: symbols, tables: tables, layout: layout))
        }
        var coder = ArithmeticTextCoder(d: ArithmeticDecoder(body, start: r.pos), ctx: TextContexts(codeLength: codeLength(symbols.count)))
        return (info, try textRegionBitmap(width: info.width, height: info.height, instances: instances, symbols: symbols,
                                           layout: layout, coder: &coder))
    }

    /// Decodes a text region's symbol instances (6.4.5) and draws them into a new bitmap.
    static func textRegionBitmap<C: TextRegionCoder>(width: Int, height: Int, instances: Int, symbols: [Bitmap],
                                                     layout: TextLayout, coder: inout C) throws -> Bitmap {
        var bm = Bitmap(width: width, height: height, fill: layout.defaultPixel)
        guard instances >= 0, instances < 1 << 24 else { throw Failure(message: "\(instances) symbol instances") }
        let strips = layout.strips, refCorner = layout.refCorner, transposed = layout.transposed
        var stripT = -(try coder.initialStripT()) * strips
        var firstS = 0
        var placed = 0, work = 0
        while placed < instances {
            stripT += try coder.deltaT() * strips
            firstS += try coder.deltaFirstS()
            var currentS = firstS
            while true {
                let t = stripT + (try coder.currentT(strips: strips))
                let id = try coder.symbolID()
                guard id >= 0, id < symbols.count else { throw Failure(message: "symbol \(id) of \(symbols.count)") }
                var sym = symbols[id]
                if layout.refinement, try coder.refines() {
                    sym = try coder.refine(sym, template: layout.rTemplate, at: layout.rAt)
                }
                // The symbol's corner at (S, T) by the reference corner; S advances along the strip.
                var increment = 0
                if !transposed {
                    if refCorner > 1 { currentS += sym.width - 1 } else { increment = sym.width - 1 }
                } else {
                    if refCorner & 1 == 0 { currentS += sym.height - 1 } else { increment = sym.height - 1 }
                }
                let x: Int, y: Int
                if !transposed {
                    x = currentS - (refCorner & 2 != 0 ? sym.width - 1 : 0)
                    y = t - (refCorner & 1 != 0 ? 0 : sym.height - 1)
                } else {
                    x = t - (refCorner & 2 != 0 ? sym.width - 1 : 0)
                    y = currentS - (refCorner & 1 != 0 ? 0 : sym.height - 1)
                }
                guard abs(x) < 1 << 30, abs(y) < 1 << 30 else { throw Failure(message: "symbol instance at \(x), \(y)") }
                // The pixels drawn, bounded so that hostile data cannot keep the decoder busy for long.
                work += max(0, min(x + sym.width, width) - max(x, 0)) * max(0, min(y + sym.height, height) - max(y, 0)) + 1
                guard work <= maxPixels else { throw Failure(message: "text region draws more than \(maxPixels) pixels") }
                bm.combine(sym, x: x, y: y, op: layout.combOp)
                placed += 1
                // Every strip ends with an out-of-band S delta, read even after the last instance:
                // a refinement aggregate's coding goes on after it.
                guard let ds = try coder.deltaS(), placed < instances else { break }
                currentS += increment + ds + layout.dsOffset
            }
        }
        return bm
    }

    // MARK: Patterns and halftones (6.6, 6.7)

    static func patternDictionary(_ body: [UInt8]) throws -> [Bitmap] {
        var r = ByteReader(data: body)
        let flags = try r.u8()
        let mmr = flags & 1 != 0
        let template = Int((flags >> 1) & 3)
        let pw = Int(try r.u8()), ph = Int(try r.u8())
        let grayMax = Int(try r.u32())
        guard pw > 0, ph > 0, grayMax < 1 << 16 else { throw Failure(message: "pattern dictionary \(pw)×\(ph), \(grayMax)") }
        let width = (grayMax + 1) * pw
        let collective: Bitmap
        if mmr {
            collective = mmrBitmap(Array(body[r.pos...]), width: width, height: ph)
        } else {
            var d = ArithmeticDecoder(body, start: r.pos)
            var cx = [UInt8](repeating: 0, count: 1 << 16)
            let at = [(-pw, 0), (-3, -1), (2, -2), (-2, -2)]
            collective = genericBitmap(width: width, height: ph, template: template, prediction: false, at: at, decoder: &d, contexts: &cx)
        }
        var out: [Bitmap] = []
        for g in 0 ... grayMax {
            var p = Bitmap(width: pw, height: ph)
            for y in 0 ..< ph { for x in 0 ..< pw { p.pixels[y * pw + x] = collective.at(g * pw + x, y) } }
            out.append(p)
        }
        return out
    }

    /// The byte after the first MMR end-of-block (24 bits 0x001001 at any bit position) at or after
    /// byte `from`, nil if there is none.
    static func endOfBlock(_ data: [UInt8], from: Int) -> Int? {
        var window: UInt32 = 0
        var bit = max(0, from) * 8
        let end = data.count * 8
        while bit < end {
            window = ((window << 1) | UInt32(data[bit >> 3] >> UInt8(7 - bit & 7)) & 1) & 0xFF_FFFF
            bit += 1
            if window == 0x001001 && bit - max(0, from) * 8 >= 24 { return (bit + 7) / 8 }
        }
        return nil
    }

    static func halftoneRegion(_ body: [UInt8], patterns: [Bitmap]) throws -> (RegionInfo, Bitmap) {
        let info = try RegionInfo(body)
        var r = ByteReader(data: body, pos: RegionInfo.size)
        let flags = try r.u8()
        let mmr = flags & 1 != 0
        let template = Int((flags >> 1) & 3)
        let enableSkip = flags & 8 != 0
        let combOp = Int((flags >> 4) & 7)
        let defaultPixel = (flags >> 7) & 1
        let gw = Int(try r.u32()), gh = Int(try r.u32())
        let gx = try r.s32(), gy = try r.s32()
        let rx = Int(try r.u16()), ry = Int(try r.u16())
        // The grid's planes are decoded cell by cell: bounded as a symbol dictionary's pixels are.
        guard !patterns.isEmpty, fits(gw * max(1, codeLength(patterns.count)), gh, maxSymbolPixels) else {
            throw Failure(message: "halftone grid \(gw)×\(gh) with \(patterns.count) patterns")
        }
        var bm = Bitmap(width: info.width, height: info.height, fill: defaultPixel)
        let pw = patterns[0].width, ph = patterns[0].height
        var skip: Bitmap? = nil
        if enableSkip {
            var s = Bitmap(width: gw, height: gh)
            for m in 0 ..< gh {
                for n in 0 ..< gw {
                    let x = (gx + m * ry + n * rx) >> 8, y = (gy + m * rx - n * ry) >> 8
                    if x + pw <= 0 || x >= info.width || y + ph <= 0 || y >= info.height { s.pixels[m * gw + n] = 1 }
                }
            }
            skip = s
        }
        let bits = codeLength(patterns.count)
        var planes: [Bitmap] = []
        let data = Array(body[r.pos...])
        var d = ArithmeticDecoder(data, start: 0)
        var cx = [UInt8](repeating: 0, count: 1 << 16)
        var mmrOffset = 0
        let at = [(template <= 1 ? 3 : 2, -1), (-3, -1), (2, -2), (-2, -2)]
        for _ in 0 ..< bits {
            var plane: Bitmap
            if mmr {
                // Each plane is coded up to its end-of-block and padded to a byte (C.5): the next
                // one starts after the first EOFB, two EOL codes (0000 0000 0001 twice), from here.
                let end = endOfBlock(data, from: mmrOffset) ?? data.count
                plane = mmrBitmap(Array(data[min(mmrOffset, data.count) ..< end]), width: gw, height: gh)
                mmrOffset = end
            } else {
                plane = genericBitmap(width: gw, height: gh, template: template, prediction: false, at: at, skip: skip, decoder: &d, contexts: &cx)
            }
            if let prev = planes.last { for k in 0 ..< plane.pixels.count { plane.pixels[k] ^= prev.pixels[k] } }
            planes.append(plane)
        }
        var work = 0
        for m in 0 ..< gh {
            for n in 0 ..< gw {
                var v = 0
                for p in planes { v = (v << 1) | Int(p.pixels[m * gw + n]) }
                let x = (gx + m * ry + n * rx) >> 8, y = (gy + m * rx - n * ry) >> 8
                // The pixels drawn, bounded as a text region's are.
                work += max(0, min(x + pw, info.width) - max(x, 0)) * max(0, min(y + ph, info.height) - max(y, 0)) + 1
                guard work <= maxPixels else { throw Failure(message: "halftone region draws more than \(maxPixels) pixels") }
                bm.combine(patterns[min(v, patterns.count - 1)], x: x, y: y, op: combOp)
            }
        }
        return (info, bm)
    }
}
