/// Huffman coding for the JBIG2 decoder (ITU-T T.88 Annex B, 6.4 and 6.5 with SBHUFF/SDHUFF = 1):
/// the bit reader, code tables (the fifteen standard ones, custom ones from table segments, the
/// symbol ID codes of a text region), Huffman-coded text regions and symbol dictionaries with their
/// collective bitmaps and refinement aggregates.
extension JBIG2Decoder {
    // MARK: Bits

    /// Reads a segment's data bit by bit, most significant bit first.
    struct BitReader {
        let data: [UInt8]
        /// The next byte to load.
        private(set) var pos: Int
        private var current: UInt8 = 0
        private var left = 0

        init(data: [UInt8], pos: Int) {
            self.data = data
            self.pos = pos
        }

        mutating func bit() throws -> Int {
            if left == 0 {
                guard pos >= 0, pos < data.count else { throw Failure(message: "Huffman-coded data ends early") }
                current = data[pos]
                pos += 1
                left = 8
            }
            left -= 1
            return Int(current >> UInt8(left)) & 1
        }

        /// `n` bits (at most 32) as an unsigned number.
        mutating func bits(_ n: Int) throws -> Int {
            guard n >= 0, n <= 32 else { throw Failure(message: "a \(n)-bit field") }
            var v = 0
            for _ in 0 ..< n { v = (v << 1) | (try bit()) }
            return v
        }

        /// Skips to the next byte boundary; `pos` is then the next byte to read.
        mutating func align() { left = 0 }

        /// Moves to byte `to` (aligned), which must lie within the data.
        mutating func seek(_ to: Int) throws {
            guard to >= 0, to <= data.count else { throw Failure(message: "Huffman-coded data ends early") }
            pos = to
            left = 0
        }
    }

    // MARK: Code tables (Annex B)

    /// A Huffman code table: lines of a prefix length and a range, prefix codes assigned as B.3 says.
    struct HuffmanTable {
        enum Kind { case normal, lower, outOfBand }
        struct Line {
            var low: Int
            var prefixLength: Int
            var rangeLength: Int
            var kind: Kind = .normal
        }

        let lines: [Line]
        /// Per prefix length: the first code of that length and the lines with that length, in order.
        private let firstCode: [Int]
        private let byLength: [[Int]]

        /// The longest prefix accepted (codes are read into an Int).
        static let maxPrefixLength = 32

        init(_ lines: [Line]) throws {
            self.lines = lines
            let longest = lines.map(\.prefixLength).max() ?? 0
            guard longest <= Self.maxPrefixLength, lines.allSatisfy({ $0.prefixLength >= 0 }) else {
                throw Failure(message: "Huffman prefix of \(longest) bits")
            }
            var byLength = [[Int]](repeating: [], count: longest + 1)
            for (i, line) in lines.enumerated() where line.prefixLength > 0 { byLength[line.prefixLength].append(i) }
            var firstCode = [Int](repeating: 0, count: longest + 1)
            if longest >= 1 {
                for l in 1 ... longest { firstCode[l] = (firstCode[l - 1] + byLength[l - 1].count) << 1 }
            }
            self.firstCode = firstCode
            self.byLength = byLength
        }

        /// Decodes one value; nil is the out-of-band value.
        func decode(_ r: inout BitReader) throws -> Int? {
            var code = 0
            var l = 0
            while l + 1 < byLength.count {
                l += 1
                code = (code << 1) | (try r.bit())
                let k = code - firstCode[l]
                if k >= 0 && k < byLength[l].count {
                    let line = lines[byLength[l][k]]
                    switch line.kind {
                    case .outOfBand: return nil
                    case .lower: return line.low - (try r.bits(line.rangeLength))
                    case .normal: return line.low + (try r.bits(line.rangeLength))
                    }
                }
            }
            throw Failure(message: "no Huffman code matches")
        }

        /// Decodes one value that may not be out of band.
        func value(_ r: inout BitReader) throws -> Int {
            guard let v = try decode(&r) else { throw Failure(message: "a Huffman value is out of band") }
            return v
        }

        /// Prefix codes of the given lengths for the values 0, 1, 2, …
        init(lengths: [Int]) throws {
            try self.init(lengths.enumerated().map { Line(low: $0.offset, prefixLength: $0.element, rangeLength: 0) })
        }

        /// A table segment (7.4.13, B.2).
        init(segment body: [UInt8]) throws {
            var br = ByteReader(data: body)
            let flags = try br.u8()
            let low = try br.s32(), high = try br.s32()
            let prefixBits = Int((flags >> 1) & 7) + 1, rangeBits = Int((flags >> 4) & 7) + 1
            guard low < high else { throw Failure(message: "Huffman table from \(low) to \(high)") }
            var r = BitReader(data: body, pos: 9)
            var lines: [Line] = []
            var current = low
            repeat {
                let prefix = try r.bits(prefixBits), range = try r.bits(rangeBits)
                guard range < 32, lines.count < 1 << 16 else { throw Failure(message: "Huffman table line of \(range) bits") }
                lines.append(Line(low: current, prefixLength: prefix, rangeLength: range))
                current += 1 << range
            } while current < high
            lines.append(Line(low: low - 1, prefixLength: try r.bits(prefixBits), rangeLength: 32, kind: .lower))
            lines.append(Line(low: high, prefixLength: try r.bits(prefixBits), rangeLength: 32))
            if flags & 1 != 0 {
                lines.append(Line(low: 0, prefixLength: try r.bits(prefixBits), rangeLength: 0, kind: .outOfBand))
            }
            try self.init(lines)
        }

        /// Standard table B.n (1…15).
        static func standard(_ n: Int) -> HuffmanTable { standardTables[n - 1] }

        private static let standardTables: [HuffmanTable] = standardLines.map { try! HuffmanTable($0) }

        // Annex B.5, as (range low, prefix length, range length); `lower`, `upper` and `oob` mark the
        // special lines, which come last as the standard lists them.
        private static func n(_ low: Int, _ prefix: Int, _ range: Int) -> Line { Line(low: low, prefixLength: prefix, rangeLength: range) }
        private static func lower(_ low: Int, _ prefix: Int) -> Line { Line(low: low, prefixLength: prefix, rangeLength: 32, kind: .lower) }
        private static func upper(_ low: Int, _ prefix: Int) -> Line { Line(low: low, prefixLength: prefix, rangeLength: 32) }
        private static func oob(_ prefix: Int) -> Line { Line(low: 0, prefixLength: prefix, rangeLength: 0, kind: .outOfBand) }

        private static let standardLines: [[Line]] = [
            // B.1
            [n(0, 1, 4), n(16, 2, 8), n(272, 3, 16), upper(65808, 3)],
            // B.2
            [n(0, 1, 0), n(1, 2, 0), n(2, 3, 0), n(3, 4, 3), n(11, 5, 6), upper(75, 6), oob(6)],
            // B.3
            [n(-256, 8, 8), n(0, 1, 0), n(1, 2, 0), n(2, 3, 0), n(3, 4, 3), n(11, 5, 6), lower(-257, 8), upper(75, 7), oob(6)],
            // B.4
            [n(1, 1, 0), n(2, 2, 0), n(3, 3, 0), n(4, 4, 3), n(12, 5, 6), upper(76, 5)],
            // B.5
            [n(-255, 7, 8), n(1, 1, 0), n(2, 2, 0), n(3, 3, 0), n(4, 4, 3), n(12, 5, 6), lower(-256, 7), upper(76, 6)],
            // B.6
            [n(-2048, 5, 10), n(-1024, 4, 9), n(-512, 4, 8), n(-256, 4, 7), n(-128, 5, 6), n(-64, 5, 5), n(-32, 4, 5),
             n(0, 2, 7), n(128, 3, 7), n(256, 3, 8), n(512, 4, 9), n(1024, 4, 10), lower(-2049, 6), upper(2048, 6)],
            // B.7
            [n(-1024, 4, 9), n(-512, 3, 8), n(-256, 4, 7), n(-128, 5, 6), n(-64, 5, 5), n(-32, 4, 5), n(0, 4, 5),
             n(32, 5, 5), n(64, 5, 6), n(128, 4, 7), n(256, 3, 8), n(512, 3, 9), n(1024, 3, 10), lower(-1025, 5), upper(2048, 5)],
            // B.8
            [n(-15, 8, 3), n(-7, 9, 1), n(-5, 8, 1), n(-3, 9, 0), n(-2, 7, 0), n(-1, 4, 0), n(0, 2, 1), n(2, 5, 0),
             n(3, 6, 0), n(4, 3, 4), n(20, 6, 1), n(22, 4, 4), n(38, 4, 5), n(70, 5, 6), n(134, 5, 7), n(262, 6, 7),
             n(390, 7, 8), n(646, 6, 10), lower(-16, 9), upper(1670, 9), oob(2)],
            // B.9
            [n(-31, 8, 4), n(-15, 9, 2), n(-11, 8, 2), n(-7, 9, 1), n(-5, 7, 1), n(-3, 4, 1), n(-1, 3, 1), n(1, 3, 1),
             n(3, 5, 1), n(5, 6, 1), n(7, 3, 5), n(39, 6, 2), n(43, 4, 5), n(75, 4, 6), n(139, 5, 7), n(267, 5, 8),
             n(523, 6, 8), n(779, 7, 9), n(1291, 6, 11), lower(-32, 9), upper(3339, 9), oob(2)],
            // B.10
            [n(-21, 7, 4), n(-5, 8, 0), n(-4, 7, 0), n(-3, 5, 0), n(-2, 2, 2), n(2, 5, 0), n(3, 6, 0), n(4, 7, 0),
             n(5, 8, 0), n(6, 2, 6), n(70, 5, 5), n(102, 6, 5), n(134, 6, 6), n(198, 6, 7), n(326, 6, 8), n(582, 6, 9),
             n(1094, 6, 10), n(2118, 7, 11), lower(-22, 8), upper(4166, 8), oob(2)],
            // B.11
            [n(1, 1, 0), n(2, 2, 1), n(4, 4, 0), n(5, 4, 1), n(7, 5, 1), n(9, 5, 2), n(13, 6, 2), n(17, 7, 2),
             n(21, 7, 3), n(29, 7, 4), n(45, 7, 5), n(77, 7, 6), upper(141, 7)],
            // B.12
            [n(1, 1, 0), n(2, 2, 0), n(3, 3, 1), n(5, 5, 0), n(6, 5, 1), n(8, 6, 1), n(10, 7, 0), n(11, 7, 1),
             n(13, 7, 2), n(17, 7, 3), n(25, 7, 4), n(41, 8, 5), upper(73, 8)],
            // B.13
            [n(1, 1, 0), n(2, 3, 0), n(3, 4, 0), n(4, 5, 0), n(5, 4, 1), n(7, 3, 3), n(15, 6, 1), n(17, 6, 2),
             n(21, 6, 3), n(29, 6, 4), n(45, 6, 5), n(77, 7, 6), upper(141, 7)],
            // B.14
            [n(-2, 3, 0), n(-1, 3, 0), n(0, 1, 0), n(1, 3, 0), n(2, 3, 0)],
            // B.15
            [n(-24, 7, 4), n(-8, 6, 2), n(-4, 5, 1), n(-2, 4, 0), n(-1, 3, 0), n(0, 1, 0), n(1, 3, 0), n(2, 4, 0),
             n(3, 5, 1), n(5, 6, 2), n(9, 7, 4), lower(-25, 7), upper(25, 7)],
        ]
    }

    /// Hands out the standard table a selector names, or the next custom table (7.4.2.1.6, 7.4.3.1.6).
    struct TableSelection {
        let custom: [HuffmanTable]
        var next = 0

        /// `choices[selector]` is a standard table's number, 0 for an invalid selector; `customSelector`
        /// takes the next custom table.
        mutating func table(_ selector: Int, _ choices: [Int], customSelector: Int, name: String) throws -> HuffmanTable {
            if selector == customSelector {
                guard next < custom.count else { throw Failure(message: "the \(name) Huffman table is missing") }
                next += 1
                return custom[next - 1]
            }
            guard selector >= 0, selector < choices.count, choices[selector] > 0 else {
                throw Failure(message: "Huffman table selector \(selector) for \(name)")
            }
            return HuffmanTable.standard(choices[selector])
        }
    }

    /// The symbol ID codes of a Huffman-coded text region (7.4.3.1.7), read from the segment.
    static func symbolIDTable(_ r: inout BitReader, symbols: Int) throws -> HuffmanTable {
        var runLengths: [Int] = []
        for _ in 0 ..< 35 { runLengths.append(try r.bits(4)) }
        let runCodes = try HuffmanTable(lengths: runLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(symbols)
        while lengths.count < symbols {
            let code = try runCodes.value(&r)
            var repeats = 1, length = code
            switch code {
            case 0 ..< 32: break
            case 32:
                guard let previous = lengths.last else { throw Failure(message: "symbol ID code run repeats nothing") }
                repeats = try r.bits(2) + 3; length = previous
            case 33: repeats = try r.bits(3) + 3; length = 0
            case 34: repeats = try r.bits(7) + 11; length = 0
            default: throw Failure(message: "symbol ID run code \(code)")
            }
            guard lengths.count + repeats <= symbols else { throw Failure(message: "symbol ID code lengths run past \(symbols) symbols") }
            lengths += repeatElement(length, count: repeats)
        }
        r.align()
        return try HuffmanTable(lengths: lengths)
    }

    // MARK: Text regions (6.4 with SBHUFF = 1)

    /// A text region's values from Huffman tables; refinement bitmaps are arithmetic-coded in
    /// between, each in its own byte-aligned run of bytes whose length the region gives (6.4.11).
    struct HuffmanTextCoder: TextRegionCoder {
        var r: BitReader
        var ids: HuffmanTable
        let fs: HuffmanTable, ds: HuffmanTable, dt: HuffmanTable
        /// RDW, RDH, RDX, RDY and RSIZE: only with refinement.
        let refinementTables: [HuffmanTable]
        var refinementContexts = [UInt8](repeating: 0, count: 1 << 14)

        mutating func initialStripT() throws -> Int { try dt.value(&r) }
        mutating func deltaT() throws -> Int { try dt.value(&r) }
        mutating func deltaFirstS() throws -> Int { try fs.value(&r) }
        mutating func deltaS() throws -> Int? { try ds.decode(&r) }
        mutating func currentT(strips: Int) throws -> Int { strips > 1 ? try r.bits(codeLength(strips)) : 0 }
        mutating func symbolID() throws -> Int { try ids.value(&r) }
        mutating func refines() throws -> Bool { try r.bit() == 1 }

        mutating func refine(_ symbol: Bitmap, template: Int, at: [(Int, Int)]) throws -> Bitmap {
            guard refinementTables.count == 5 else { throw Failure(message: "refinement without its Huffman tables") }
            let rdw = try refinementTables[0].value(&r), rdh = try refinementTables[1].value(&r)
            let rdx = try refinementTables[2].value(&r), rdy = try refinementTables[3].value(&r)
            let size = try refinementTables[4].value(&r)
            return try refineAligned(symbol, width: symbol.width + rdw, height: symbol.height + rdh,
                                     dx: (rdw >> 1) + rdx, dy: (rdh >> 1) + rdy, size: size, template: template, at: at)
        }

        /// Decodes a refinement bitmap from the next byte boundary and skips its `size` bytes.
        mutating func refineAligned(_ reference: Bitmap, width: Int, height: Int, dx: Int, dy: Int, size: Int,
                                    template: Int, at: [(Int, Int)]) throws -> Bitmap {
            guard fits(width, height, maxSymbolPixels),
                  abs(dx) < 1 << 24, abs(dy) < 1 << 24 else {
                throw Failure(message: "refined symbol of \(width)×\(height)")
            }
            r.align()
            let start = r.pos
            guard size >= 0, size <= r.data.count - start else { throw Failure(message: "refinement data of \(size) bytes") }
            var d = ArithmeticDecoder(r.data, start: start)
            let bm = refinementBitmap(width: width, height: height, template: template, reference: reference, dx: dx, dy: dy,
                                      prediction: false, at: at, decoder: &d, contexts: &refinementContexts)
            try r.seek(start + size)
            return bm
        }
    }

    static func huffmanTextRegion(_ body: [UInt8], at pos: Int, info: RegionInfo, flags: UInt16, huffmanFlags: UInt16,
                                  instances: Int, symbols: [Bitmap], tables: [HuffmanTable], layout: TextLayout) throws -> Bitmap {
        var select = TableSelection(custom: tables)
        let f = Int(huffmanFlags)
        let fs = try select.table(f & 3, [6, 7, 0], customSelector: 3, name: "first S")
        let ds = try select.table((f >> 2) & 3, [8, 9, 10], customSelector: 3, name: "delta S")
        let dt = try select.table((f >> 4) & 3, [11, 12, 13], customSelector: 3, name: "delta T")
        var refinementTables: [HuffmanTable] = []
        if layout.refinement {
            for (shift, name) in [(6, "RDW"), (8, "RDH"), (10, "RDX"), (12, "RDY")] {
                refinementTables.append(try select.table((f >> shift) & 3, [14, 15, 0], customSelector: 3, name: name))
            }
            refinementTables.append(try select.table((f >> 14) & 1, [1], customSelector: 1, name: "RSIZE"))
        }
        var r = BitReader(data: body, pos: pos)
        let ids = try symbolIDTable(&r, symbols: symbols.count)
        var coder = HuffmanTextCoder(r: r, ids: ids, fs: fs, ds: ds, dt: dt, refinementTables: refinementTables)
        return try textRegionBitmap(width: info.width, height: info.height, instances: instances, symbols: symbols,
                                    layout: layout, coder: &coder)
    }

    // MARK: Symbol dictionaries (6.5 with SDHUFF = 1)

    static func huffmanSymbolDictionary(_ body: [UInt8], at pos: Int, flags: UInt16, input: [Bitmap], numNew: Int, numExported: Int,
                                        rTemplate: Int, rAt: [(Int, Int)], tables: [HuffmanTable], reused: RetainedContexts?,
                                        retain: Bool) throws -> ([Bitmap], RetainedContexts?) {
        let f = Int(flags)
        let refAgg = f & 2 != 0
        var select = TableSelection(custom: tables)
        let dhTable = try select.table((f >> 2) & 3, [4, 5, 0], customSelector: 3, name: "height class delta")
        let dwTable = try select.table((f >> 4) & 3, [2, 3, 0], customSelector: 3, name: "width delta")
        let sizeTable = try select.table((f >> 6) & 1, [1], customSelector: 1, name: "bitmap size")
        let instancesTable = refAgg ? try select.table((f >> 7) & 1, [1], customSelector: 1, name: "aggregate instances") : sizeTable
        // The tables of refinement/aggregate coding are fixed (6.5.8.2, Table 17); symbol IDs are
        // fixed-length codes, as long as all the dictionary's symbols need.
        let idLength = max(1, codeLength(input.count + numNew))
        var coder = HuffmanTextCoder(r: BitReader(data: body, pos: pos),
                                     ids: try HuffmanTable(lengths: refAgg ? [Int](repeating: idLength, count: input.count + numNew) : []),
                                     fs: .standard(6), ds: .standard(8), dt: .standard(11),
                                     refinementTables: [.standard(15), .standard(15), .standard(15), .standard(15), .standard(1)])
        if let reused { coder.refinementContexts = reused.refinement }
        var newSymbols: [Bitmap] = []
        newSymbols.reserveCapacity(numNew)
        var heightClass = 0, classes = 0, pixels = 0
        while newSymbols.count < numNew {
            classes += 1
            guard classes <= numNew else { throw Failure(message: "height classes without symbols") }
            heightClass += try dhTable.value(&coder.r)
            guard heightClass >= 0, heightClass < 1 << 16 else { throw Failure(message: "symbol height \(heightClass)") }
            var width = 0, totalWidth = 0
            var widths: [Int] = []
            while let dw = try dwTable.decode(&coder.r) {
                width += dw
                guard width >= 0, width < 1 << 16, newSymbols.count + widths.count < numNew else {
                    throw Failure(message: "symbol width \(width)")
                }
                totalWidth += width
                pixels += width * heightClass
                guard pixels <= maxSymbolPixels else { throw Failure(message: "symbol dictionary of more than \(maxSymbolPixels) pixels") }
                guard !refAgg else {
                    let instances = try instancesTable.value(&coder.r)
                    let all = input + newSymbols
                    if instances == 1 {
                        let id = try coder.r.bits(idLength)
                        let rdx = try HuffmanTable.standard(15).value(&coder.r), rdy = try HuffmanTable.standard(15).value(&coder.r)
                        let size = try HuffmanTable.standard(1).value(&coder.r)
                        guard id < all.count else { throw Failure(message: "symbol \(id) of \(all.count)") }
                        newSymbols.append(try coder.refineAligned(all[id], width: width, height: heightClass, dx: rdx, dy: rdy,
                                                                  size: size, template: rTemplate, at: rAt))
                    } else if instances > 1 {
                        let layout = TextLayout(strips: 1, refinement: true, refCorner: 1, transposed: false, combOp: 0,
                                                defaultPixel: 0, dsOffset: 0, rTemplate: rTemplate, rAt: rAt)
                        newSymbols.append(try textRegionBitmap(width: width, height: heightClass, instances: instances,
                                                               symbols: all, layout: layout, coder: &coder))
                    } else {
                        throw Failure(message: "aggregate of \(instances) symbols")
                    }
                    continue
                }
                widths.append(width)
            }
            if refAgg { continue }
            // The height class's symbols side by side in one bitmap, uncompressed or MMR-coded (6.5.9).
            let size = try sizeTable.value(&coder.r)
            coder.r.align()
            let start = coder.r.pos
            guard fits(totalWidth, heightClass, maxPixels) else {
                throw Failure(message: "collective bitmap of \(totalWidth)×\(heightClass)")
            }
            var collective = Bitmap(width: totalWidth, height: heightClass)
            if size == 0 {
                let rowBytes = (totalWidth + 7) / 8
                guard rowBytes * heightClass <= body.count - start else { throw Failure(message: "collective bitmap runs past the data") }
                for y in 0 ..< heightClass {
                    for x in 0 ..< totalWidth {
                        collective.pixels[y * totalWidth + x] = (body[start + y * rowBytes + x >> 3] >> UInt8(7 - x & 7)) & 1
                    }
                }
                try coder.r.seek(start + rowBytes * heightClass)
            } else {
                guard size > 0, size <= body.count - start else { throw Failure(message: "collective bitmap of \(size) bytes") }
                collective = mmrBitmap(Array(body[start ..< start + size]), width: totalWidth, height: heightClass)
                try coder.r.seek(start + size)
            }
            var x0 = 0
            for w in widths {
                var sym = Bitmap(width: w, height: heightClass)
                for y in 0 ..< heightClass {
                    for x in 0 ..< w { sym.pixels[y * w + x] = collective.pixels[y * totalWidth + x0 + x] }
                }
                newSymbols.append(sym)
                x0 += w
            }
        }
        let exported = try exportedSymbols(input + newSymbols, count: numExported) { try HuffmanTable.standard(1).value(&coder.r) }
        // Only the refinement contexts are arithmetic here; the generic ones are kept as they came.
        let kept = RetainedContexts(generic: reused?.generic ?? [UInt8](repeating: 0, count: 1 << 16), refinement: coder.refinementContexts)
        return (exported, retain ? kept : nil)
    }
}
