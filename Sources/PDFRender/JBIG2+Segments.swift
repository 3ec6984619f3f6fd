// The segment loop: segment headers, what each segment type does, and the page it composes (7.2, 7.4).
extension JBIG2Decoder {
    struct DecodeState {
        var page: Bitmap?
        var pageDefaultOp = 0
        var pageStriped = false
        var symbols: [Int: [Bitmap]] = [:]
        var patterns: [Int: [Bitmap]] = [:]
        var regions: [Int: (Bitmap, Int, Int)] = [:]
        var tables: [Int: HuffmanTable] = [:]
        var retained: [Int: RetainedContexts] = [:]

        /// Reads the segments of `data` in order and applies each to the state, up to the end of
        /// the data or an end-of-file segment.
        mutating func run(_ data: [UInt8], warn: (String) -> Void) throws {
            var r = ByteReader(data: data)
            while r.pos + 11 <= data.count {
                let header = try SegmentHeader(&r)
                let start = r.pos
                let length = header.length == 0xFFFF_FFFF ? Self.immediateGenericLength(data, start: start, type: header.type) : header.length
                guard start + length <= data.count, length >= 0 else {
                    throw Failure(message: "segment \(header.number) runs past the data")
                }
                let body = Array(data[start ..< start + length])
                r.pos = start + length
                try apply(header, body: body, warn: warn)
                if header.type == 51 { break }
            }
        }

        /// The length of an immediate generic region of unknown length: it ends at 0xFFAC (or
        /// 0x0000 for MMR) followed by the 4-byte row count.
        static func immediateGenericLength(_ data: [UInt8], start: Int, type: Int) -> Int {
            var i = start + 18
            var end: Int? = nil
            while i + 5 < data.count {
                if (data[i] == 0xFF && data[i + 1] == 0xAC) || (data[i] == 0 && data[i + 1] == 0 && type == 38) {
                    end = i + 6; break
                }
                i += 1
            }
            return (end ?? data.count) - start
        }

        /// What one segment does to the state, by its type.
        mutating func apply(_ header: SegmentHeader, body: [UInt8], warn: (String) -> Void) throws {
            let number = header.number, refs = header.refs, type = header.type
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
                var info = try RegionInfo(body)
                let reference = try referenceBitmap(header, info: info)
                let region = try JBIG2Decoder.refinementRegion(body, info: &info, reference: reference)
                place(region, info, number: number, immediate: type != 40)
            case 48:
                try pageInformation(body)
            case 50:
                try endOfStripe(body)
            case 49, 51, 52, 62: break
            case 53:
                tables[number] = try HuffmanTable(segment: body)
            default:
                warn("JBIG2 segment type \(type) ignored")
            }
        }

        /// The bitmap a refinement region refines: the intermediate region it refers to, or else
        /// the page's pixels under it.
        func referenceBitmap(_ header: SegmentHeader, info: RegionInfo) throws -> Bitmap {
            if let ref = header.refs.first, let (bm, _, _) = regions[ref] {
                return bm
            } else if let page {
                var reference = Bitmap(width: info.width, height: info.height)
                for y in 0 ..< info.height { for x in 0 ..< info.width { reference.pixels[y * info.width + x] = page.at(info.x + x, info.y + y) } }
                return reference
            }
            throw Failure(message: "refinement region \(header.number) has nothing to refine")
        }

        /// A page information segment (7.4.8): the page's size, default pixel and operator.
        mutating func pageInformation(_ body: [UInt8]) throws {
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
        }

        /// End of stripe: a striped page of unknown height grows to the stripe's end.
        mutating func endOfStripe(_ body: [UInt8]) throws {
            if pageStriped, var p = page, body.count >= 4 {
                var br = ByteReader(data: body)
                let rowEnd = Int(try br.u32()) + 1
                if rowEnd > p.height, rowEnd * p.width <= maxPixels {
                    p.pixels += [UInt8](repeating: 0, count: (rowEnd - p.height) * p.width)
                    p.height = rowEnd
                    page = p
                }
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
    /// A segment's header (7.2): its number, type, the segments it refers to and its data length
    /// (0xFFFF_FFFF: unknown, for an immediate generic region).
    struct SegmentHeader {
        var number: Int
        var type: Int
        var refs: [Int]
        var length: Int

        init(_ r: inout ByteReader) throws {
            number = Int(try r.u32())
            let flags = try r.u8()
            type = Int(flags & 0x3F)
            let countByte = try r.u8()
            var referred = Int(countByte >> 5)
            if referred == 7 {
                r.pos -= 1
                referred = Int(try r.u32() & 0x1FFF_FFFF)
                guard referred < 1 << 16 else { throw Failure(message: "segment \(number) refers to \(referred) segments") }
                r.pos += (referred + 8) / 8
            }
            let refSize = number <= 256 ? 1 : (number <= 65536 ? 2 : 4)
            refs = []
            for _ in 0 ..< referred {
                switch refSize {
                case 1: refs.append(Int(try r.u8()))
                case 2: refs.append(Int(try r.u16()))
                default: refs.append(Int(try r.u32()))
                }
            }
            // The page association, one byte or four.
            _ = flags & 0x40 != 0 ? try r.u32() : UInt32(try r.u8())
            length = Int(try r.u32())
        }
    }
}
