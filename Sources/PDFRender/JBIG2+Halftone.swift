// Pattern dictionaries (6.7) and halftone regions (6.6).
extension JBIG2Decoder {
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
