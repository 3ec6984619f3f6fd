// Symbol dictionaries (6.5) and text regions (6.4), arithmetic-coded; the Huffman-coded ones are in
// JBIG2+Huffman.swift.
extension JBIG2Decoder {
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
}
