// Generic regions (6.2), arithmetic or MMR, and refinement regions (6.3).
extension JBIG2Decoder {
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
}
