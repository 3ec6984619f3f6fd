import PDFCore

/// The reader's fast path: for a file of the plain shape (the `%PDF-` header at byte 0, one
/// cross-reference section, a classic table or a stream, whose trailer names a catalog; no
/// encryption, no update sections; objects where the cross-reference data says, in the file or
/// in an object stream that decodes whole within its first step) it reads the catalog, the page
/// tree's root and the kids that `Document/pageCount(root:rootRef:declared:)` checks, the Info
/// dictionary and the XMP stream without building `PDFObject` values, and fills in a
/// ``PDFDocumentMetadata`` exactly as the full reader would. At the first thing it does not read the way
/// the full reader does (anything that would be repaired or warned about, indirect values where
/// it expects direct ones, encryption, a stream filter other than Flate...) it returns nil and
/// the full reader reads the file.
///
/// It reads through the same `ByteSource` with the same windows as the full reader, so the
/// bytes read are the same.
struct FastPathReader {
    let src: ByteSource
    let options: PDFReadOptions
    /// Per object number: 0 when the cross-reference data has no entry, -1 for a free entry, a
    /// positive file offset, or `-2 - (stream << 20 | index)` for an object in an object stream.
    var slots: [Int] = []
    /// The object stream decoded last: its number, data, `/First` and header pairs.
    var objectStream: (num: Int, data: [UInt8], first: Int, pairs: [(num: Int, offset: Int)])?

    init(src: ByteSource, options: PDFReadOptions) {
        self.src = src
        self.options = options
    }

    /// The largest object number the fast path keeps a table for.
    static let maxObjects = 1 << 16

    /// Runs `body` on a window at `offset` that starts `initial` bytes long and grows four times
    /// while the body needs more (as `Document/parseAt(_:initial:maxBytes:_:)`).
    func parse<T>(at offset: Int, initial: Int, _ body: (inout FastPathLexer) throws(FastPathStop) -> T) throws(FastPathStop) -> T {
        if let whole = src.residentBytes {
            let r: Result<T, FastPathStop> = whole.withUnsafeBufferPointer { buf in
                var lx = FastPathLexer(buf, base: 0, atEOF: true, maxDepth: options.maxNestingDepth,
                                   pos: max(0, min(offset, buf.count)))
                do throws(FastPathStop) { return .success(try body(&lx)) } catch { return .failure(error) }
            }
            switch r {
            case .success(let v): return v
            case .failure: throw .bail
            }
        }
        let cap = min(options.maxObjectSize, 1 << 20)
        var len = min(initial, cap)
        while true {
            let size = src.size
            let r: Result<T, FastPathStop>? = src.withBytes(offset, len) { buf in
                var lx = FastPathLexer(buf, base: offset, atEOF: offset &+ buf.count >= size, maxDepth: options.maxNestingDepth, pos: 0)
                do throws(FastPathStop) { return .success(try body(&lx)) } catch { return .failure(error) }
            }
            switch r {
            case .success(let v)?: return v
            case .failure(.more)?:
                if len >= cap { throw .bail }
                len = min(len &* 4, cap)
            default: throw .bail
            }
        }
    }

    /// Reads the file, or nil for the full reader.
    mutating func read() -> PDFDocumentMetadata? {
        do throws(FastPathStop) {
            return try readPlain()
        } catch {
            return nil
        }
    }

    /// The indirect object `num` at the file offset the cross-reference data gives, parsed with
    /// `body` (the lexer is at the object's value). Anything but a plain object with that number
    /// in the file stops the fast path.
    func object<T>(_ num: Int, window: Int, _ body: (inout FastPathLexer) throws(FastPathStop) -> T) throws(FastPathStop) -> T {
        guard num > 0, num < slots.count, slots[num] > 0 else { throw .bail }
        return try parse(at: slots[num], initial: window) { (lx: inout FastPathLexer) throws(FastPathStop) -> T in
            guard let id = try lx.indirectHeader(), id == num else { throw .bail }
            return try body(&lx)
        }
    }

    /// An indirect object that must be a dictionary: `visitor` sees its entries (it starts again
    /// from `fresh` for each window tried). Returns where its stream data starts when it is a
    /// stream. An object in an object stream is read there (as Document.loadCompressed reads it).
    mutating func dictObject<V: FastPathVisitor>(_ num: Int, window: Int, _ visitor: inout V, fresh: V) throws(FastPathStop) -> Int? {
        guard num > 0, num < slots.count else { throw .bail }
        if slots[num] <= -2 {
            let code = -2 - slots[num]
            try compressedDict(num, stream: code >> 20, index: code & 0xFFFFF, window: window, &visitor)
            return nil
        }
        return try object(num, window: window) { (lx: inout FastPathLexer) throws(FastPathStop) -> Int? in
            visitor = fresh
            try lx.skipWhitespace()
            guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
            try lx.dictBody(depth: 0, &visitor)
            return try lx.streamAfter()
        }
    }

    /// The header's version: `%PDF-` at byte 0 (Document.readHeader); nil when it is elsewhere.
    func header() -> String?? {
        src.withBytes(0, 1024) { head -> String?? in
            guard head.count >= 5, head[0] == 0x25, head[1] == 0x50, head[2] == 0x44, head[3] == 0x46, head[4] == 0x2D else { return nil }
            var j = 5
            while j < head.count, isDigit(head[j]) || head[j] == UInt8(ascii: ".") { j += 1 }
            return .some(j == 5 ? nil : String(decoding: UnsafeBufferPointer(rebasing: head[5 ..< j]), as: UTF8.self))
        } ?? nil
    }

    /// The offset after the last `startxref` in the last KiB (Document.findStartXref).
    func startxref() -> Int? {
        let size = src.size
        let tailLen = min(size, 1024)
        return src.withBytes(size - tailLen, tailLen) { tail -> Int? in
            let pat: StaticString = "startxref"
            guard tail.count >= 9 else { return nil }
            var i = tail.count - 9
            while i >= 0 {
                if tail[i] == UInt8(ascii: "s") {
                    var k = 1
                    while k < 9 && tail[i + k] == pat.utf8Start[k] { k += 1 }
                    if k == 9 { break }
                }
                i -= 1
            }
            guard i >= 0 else { return nil }
            var lx = FastPathLexer(tail, base: size - tailLen, atEOF: true, maxDepth: 1, pos: i + 9)
            _ = lx.lexer.skipWhitespace()
            return lx.unsignedInt()
        } ?? nil
    }

    /// One classic cross-reference table at `offset` (Document.readXrefTable): the entries into
    /// `slots`, and the trailer's `/Root` and `/Info` object numbers.
    mutating func table(at offset: Int) throws(FastPathStop) -> (root: Int, info: Int?) {
        let size = src.size
        let maxEntries = options.maxXrefEntries
        let (table, root, info) = try parse(at: offset, initial: 4096) {
            (lx: inout FastPathLexer) throws(FastPathStop) -> ([Int], Int, Int?) in
            try lx.skipWhitespace()
            lx.pos += 4
            var slots: [Int] = []
            var set = 0
            while true {
                try lx.skipWhitespace()
                if lx.matches("trailer") {
                    lx.pos += 7
                    try lx.skipWhitespace()
                    guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
                    var t = FastPathTrailer()
                    try lx.dictBody(depth: 0, &t)
                    let (root, info) = try t.numbers()
                    return (slots, root, info)
                }
                guard let first = lx.unsignedInt() else { throw .bail }
                try lx.skipWhitespace()
                guard let count = lx.unsignedInt() else { throw .bail }
                guard first <= FastPathReader.maxObjects, count <= FastPathReader.maxObjects - first else { throw .bail }
                if slots.count < first + count {
                    if slots.isEmpty { slots.reserveCapacity(first + count) }
                    slots.append(contentsOf: repeatElement(0, count: first + count - slots.count))
                }
                for k in 0 ..< count {
                    try lx.skipWhitespace()
                    let off: Int
                    let t: UInt8
                    let p = lx.pos
                    // The usual 20-byte entry, `nnnnnnnnnn ggggg n`: read in place. It reads as
                    // the general case below would.
                    if p + 18 <= lx.n, lx.b[p + 10] == 0x20, lx.b[p + 16] == 0x20,
                       lx.b[p + 17] == UInt8(ascii: "n") || lx.b[p + 17] == UInt8(ascii: "f") {
                        var v = 0
                        var ok = true
                        for i in 0 ..< 10 {
                            let c = lx.b[p + i]
                            if !isDigit(c) { ok = false; break }
                            v = v &* 10 &+ Int(c &- 0x30)
                        }
                        for i in 11 ..< 16 where !isDigit(lx.b[p + i]) { ok = false; break }
                        guard ok else { throw .bail }
                        off = v
                        t = lx.b[p + 17]
                        lx.pos = p + 18
                    } else {
                        guard let o = lx.unsignedInt() else { throw .bail }
                        try lx.skipWhitespace()
                        guard lx.unsignedInt() != nil else { throw .bail }
                        try lx.skipWhitespace()
                        guard lx.pos < lx.n else { throw lx.runOff }
                        off = o
                        t = lx.b[lx.pos]
                        lx.pos += 1
                    }
                    let num = first + k
                    if slots[num] != 0 { continue } // the first entry in a section wins
                    if set >= maxEntries { throw .bail }
                    if t == UInt8(ascii: "n") {
                        if off > 0 && off < size { slots[num] = off; set += 1 }
                    } else if t == UInt8(ascii: "f") {
                        slots[num] = -1
                        set += 1
                    } else {
                        throw .bail
                    }
                }
            }
        }
        slots = table
        return (root, info)
    }

    /// A cross-reference stream at `offset` (Document.readXrefStream): the entries into
    /// `slots`, and the trailer's `/Root` and `/Info` object numbers.
    mutating func xrefStream(at offset: Int) throws(FastPathStop) -> (root: Int, info: Int?) {
        // The stream object, read with the full reader's first window.
        let (d, dataOffset) = try parse(at: offset, initial: 2048) {
            (lx: inout FastPathLexer) throws(FastPathStop) -> (FastPathStreamDict, Int?) in
            guard try lx.indirectHeader() != nil else { throw .bail }
            try lx.skipWhitespace()
            guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
            var v = FastPathStreamDict()
            try lx.dictBody(depth: 0, &v)
            return (v, try lx.streamAfter())
        }
        guard let dataOffset, let w = d.w, w.count == 3, w.allSatisfy({ (0 ... 8).contains($0) }) else { throw .bail }
        // An indirect /Length would be looked up before the table exists (the repair scan).
        guard let length = d.length, length.kind == .int else { throw .bail }
        let entrySize = w[0] + w[1] + w[2]
        guard entrySize > 0 else { throw .bail }
        var size = 0
        if let s = d.size {
            guard s.kind == .int else { throw .bail }
            size = s.number
        }
        var index = d.index ?? [0, size]
        if index.count % 2 != 0 { index.removeLast() }
        let data = try streamData(dataOffset, length: length.number, d, cap: options.maxDecompressedSize)
        let (root, info) = try d.trailer.numbers()

        let fileSize = src.size
        var slots: [Int] = []
        var set = 0
        try forEachXrefStreamEntry(data, widths: w, index: index) { (number, type, f2, f3) throws(FastPathStop) in
            guard let num = number, num < FastPathReader.maxObjects else { throw .bail }
            if slots.count <= num { slots.append(contentsOf: repeatElement(0, count: num + 1 - slots.count)) }
            if slots[num] != 0 { return }
            if set >= options.maxXrefEntries { throw .bail }
            switch type {
            case 0: slots[num] = -1; set += 1
            case 1: if f2 > 0 && f2 < fileSize { slots[num] = f2; set += 1 }
            case 2:
                guard f2 >= 0, f2 < FastPathReader.maxObjects, f3 >= 0, f3 < 1 << 20 else { throw .bail }
                slots[num] = -2 - (f2 << 20 | f3)
                set += 1
            default: break
            }
        }
        self.slots = slots
        return (root, info)
    }

    /// A stream's data (Document.rawStreamData then decodeStream): `length` bytes at `offset`
    /// when `endstream` follows them, through Flate and its predictor when the dictionary says
    /// so. With `keepPrefix`, a stream that inflates past `cap` stops the fast path (it would be
    /// decoded in steps).
    func streamData(_ offset: Int, length len: Int, _ d: FastPathStreamDict, cap: Int, maxRatio: Int? = nil,
                    keepPrefix: Bool = false) throws(FastPathStop) -> [UInt8] {
        guard d.filter == nil || d.flate else { throw .bail }
        guard len >= 0, len <= cap, offset &+ len <= src.size else { throw .bail }
        let src = self.src
        let raw: [UInt8]? = src.withBytes(offset, len + 32) { data -> [UInt8]? in
            guard data.count >= len else { return nil }
            var i = len
            while i < data.count && isPDFWhite(data[i]) { i += 1 }
            var ok = offset + len == src.size
            if i + 9 <= data.count {
                let w: StaticString = "endstream"
                var k = 0
                while k < 9 && data[i + k] == w.utf8Start[k] { k += 1 }
                if k == 9 { ok = true }
            }
            if !ok && i == data.count && data.count < len + 32 { ok = true }
            return ok ? Array(data[0 ..< len]) : nil
        } ?? nil
        guard var bytes = raw else { throw .bail }
        if d.flate {
            // Any failure sends the file to the full reader, which reports it.
            guard let inflated = try? PDFStreamDecoder.inflate(bytes, limit: cap, maxRatio: maxRatio, keepPrefix: keepPrefix),
                  !inflated.truncated, !inflated.capped else { throw .bail }
            bytes = inflated.bytes
            if let pp = d.predictor {
                guard let u = try? PDFStreamDecoder.unpredict(bytes, pp) else { throw .bail }
                bytes = u
            }
            if bytes.count > cap { throw .bail }
        }
        return bytes
    }

    /// A dictionary in object stream `stream` (Document.objectStream and loadCompressed), for a
    /// stream that decodes whole within the full reader's first step.
    mutating func compressedDict<V: FastPathVisitor>(_ num: Int, stream: Int, index: Int, window: Int,
                                                 _ visitor: inout V) throws(FastPathStop) {
        if objectStream?.num != stream {
            guard stream > 0, stream < slots.count, slots[stream] > 0 else { throw .bail }
            let (d, dataOffset) = try object(stream, window: window) {
                (lx: inout FastPathLexer) throws(FastPathStop) -> (FastPathStreamDict, Int?) in
                try lx.skipWhitespace()
                guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
                var v = FastPathStreamDict()
                try lx.dictBody(depth: 0, &v)
                return (v, try lx.streamAfter())
            }
            guard let dataOffset, let length = d.length else { throw .bail }
            var len = length.number
            switch length.kind {
            case .int: break
            case .ref:
                len = try object(length.number, window: window) { (lx: inout FastPathLexer) throws(FastPathStop) -> Int in
                    let v = try lx.value(depth: 0)
                    guard v.kind == .int else { throw .bail }
                    return v.number
                }
            default: throw .bail
            }
            let limit = min(options.maxObjectStreamSize, Document.objectStreamFirstLimit)
            let data = try streamData(dataOffset, length: len, d, cap: limit, keepPrefix: true)
            guard let n = d.n, n.kind == .int, let f = d.first, f.kind == .int else { throw .bail }
            let count = n.number, first = f.number
            guard count >= 0, first >= 0, count <= data.count / 2 + 1, first <= data.count else { throw .bail }
            var pairs: [(num: Int, offset: Int)] = []
            pairs.reserveCapacity(count)
            data.withUnsafeBufferPointer { buf in
                var p = FastPathLexer(buf, base: 0, atEOF: true, maxDepth: 4, pos: 0)
                for _ in 0 ..< count {
                    _ = p.lexer.skipWhitespace()
                    guard p.pos < first, let on = p.unsignedInt() else { break }
                    _ = p.lexer.skipWhitespace()
                    guard let oo = p.unsignedInt() else { break }
                    pairs.append((on, oo))
                }
            }
            objectStream = (stream, data, first, pairs)
        }
        guard let os = objectStream else { throw .bail }
        var rel: Int? = nil
        if index < os.pairs.count && os.pairs[index].num == num {
            rel = os.pairs[index].offset
        } else {
            rel = os.pairs.first(where: { $0.num == num })?.offset
        }
        guard let r = rel else { throw .bail }
        let (start, ovf) = os.first.addingReportingOverflow(r)
        guard !ovf, start >= 0, start < os.data.count else { throw .bail }
        // The object ends where the next one in the stream starts (and within maxObjectSize).
        var next = Int.max
        for pair in os.pairs {
            let (o, ovf2) = os.first.addingReportingOverflow(pair.offset)
            if !ovf2 && o > start && o < next { next = o }
        }
        let end = min(next, start &+ options.maxObjectSize, os.data.count)
        guard end > start else { throw .bail }
        let maxDepth = options.maxNestingDepth
        let failed: FastPathStop? = os.data.withUnsafeBufferPointer { all in
            var lx = FastPathLexer(UnsafeBufferPointer(rebasing: all[start ..< end]), base: 0, atEOF: true, maxDepth: maxDepth, pos: 0)
            do throws(FastPathStop) {
                try lx.skipWhitespace()
                guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
                try lx.dictBody(depth: 0, &visitor)
                return nil
            } catch {
                return error
            }
        }
        if failed != nil { throw .bail }
    }

    mutating func readPlain() throws(FastPathStop) -> PDFDocumentMetadata {
        let size = src.size
        guard size > 0, !options.strict, options.maxNestingDepth >= 2, options.maxXrefSections >= 1 else { throw .bail }
        guard let headerVersion = header() else { throw .bail }
        guard let xrefOffset = startxref(), xrefOffset >= 0, xrefOffset < size else { throw .bail }
        let isTable = try parse(at: xrefOffset, initial: 64) { (lx: inout FastPathLexer) throws(FastPathStop) -> Bool in
            try lx.skipWhitespace()
            return lx.matches("xref")
        }
        let (rootNum, infoNum) = isTable ? try table(at: xrefOffset) : try xrefStream(at: xrefOffset)

        // The catalog (Document.rootIsValid, then extract).
        var m = PDFDocumentMetadata()
        m.version = headerVersion
        var catalog = FastPathCatalog()
        let catalogStream = try dictObject(rootNum, window: 2048, &catalog, fresh: FastPathCatalog())
        guard catalogStream == nil, catalog.typeIsCatalog || catalog.pages != nil else { throw .bail }
        if case .some(.some(let v)) = catalog.version, PDFDocumentInfo.isNewer(v, than: m.version) { m.version = v }
        guard let pages = catalog.pages, pages.kind == .ref else { throw .bail }
        m.pageCount = try pageCount(pages.number)

        // Info (extract).
        let fields: PDFDocumentInfo.InfoFields
        if let infoNum {
            var info = FastPathInfo()
            let stream = try dictObject(infoNum, window: 2048, &info, fresh: FastPathInfo())
            guard stream == nil else { throw .bail }
            m.infoEntries = InfoEntries(packed: info.entries.bytes)
            fields = info.fields()
        } else {
            fields = PDFDocumentInfo.InfoFields()
        }

        // XMP (extract).
        if options.readXMP, let md = catalog.metadata {
            guard md.kind == .ref else { throw .bail }
            m.xmp = try xmp(md.number)
        }

        var warnings: [PDFWarning] = []
        PDFDocumentInfo.merge(&m, fields: fields) { (kind, message) throws(Never) in
            let w = PDFWarning(kind, message, offset: nil)
            if !warnings.contains(w) { warnings.append(w) }
        }
        m.warnings = warnings
        m.bytesRead = src.bytesRead
        m.fileSize = src.size
        return m
    }

    /// Document.pageCount(catalog:) and pageCount(root:rootRef:declared:) for a tree whose root's
    /// `/Count` its kids bear out; anything else goes to the full reader.
    mutating func pageCount(_ pagesNum: Int) throws(FastPathStop) -> Int {
        var root = FastPathNode(wantKids: true)
        let rootStream = try dictObject(pagesNum, window: 2048, &root, fresh: FastPathNode(wantKids: true))
        guard rootStream == nil else { throw .bail }
        if root.typeName.page || (!root.typeName.present && !root.isNode && (root.contents || root.mediaBox)) { throw .bail }
        guard let c = root.count, c.kind == .int, c.number >= 0 else { throw .bail }
        let declared = c.number
        // A /Kids that is not an array (a reference, one dictionary) is for the full reader.
        if let k = root.kids, k.kind != .array { throw .bail }
        let kids = root.kids?.kind == .array ? root.kidNums : FastPathKids(filler: 0)
        func kidCount(_ num: Int) throws(FastPathStop) -> Int {
            // Page objects are read with the full reader's 256-byte first window.
            var k = FastPathNode(wantKids: false)
            let stream = try dictObject(num, window: 256, &k, fresh: FastPathNode(wantKids: false))
            guard stream == nil else { throw .bail }
            guard k.isNode else { return 1 }
            guard let c = k.count, c.kind == .int, c.number >= 0 else { throw .bail }
            return c.number
        }
        if kids.count > declared { throw .bail }
        if kids.count < declared {
            var sum = 0
            for kid in kids {
                sum += try kidCount(kid)
                if sum > declared { break }
            }
            guard sum == declared else { throw .bail }
        } else if kids.count <= 2 {
            for kid in kids where try kidCount(kid) != 1 { throw .bail }
        } else {
            if try kidCount(kids[0]) != 1 { throw .bail }
            if try kidCount(kids[kids.count - 1]) != 1 { throw .bail }
        }
        return declared
    }

    /// The XMP packet of the metadata stream `num` (extract's XMP step), nil when the object is
    /// not a stream.
    mutating func xmp(_ num: Int) throws(FastPathStop) -> XMPMetadata? {
        guard num > 0, num < slots.count, slots[num] != 0 else { throw .bail }
        if slots[num] == -1 { return nil } // free: null, no packet
        var d = FastPathStreamDict()
        let streamOffset = try dictObject(num, window: 2048, &d, fresh: FastPathStreamDict())
        guard let offset = streamOffset else { return nil }
        guard let length = d.length, d.decodeParms == nil, d.dp == nil else { throw .bail }
        var len: Int
        switch length.kind {
        case .int: len = length.number
        case .ref:
            len = try object(length.number, window: 2048) { (lx: inout FastPathLexer) throws(FastPathStop) -> Int in
                let v = try lx.value(depth: 0)
                guard v.kind == .int else { throw .bail }
                return v.number
            }
        default: throw .bail
        }
        let cap = min(options.maxMetadataStreamSize, options.maxDecompressedSize)
        let bytes = try streamData(offset, length: len, d, cap: cap, maxRatio: options.maxMetadataInflateRatio)
        if find(Array("<!DOCTYPE".utf8), in: bytes) != nil || find(Array("<!ENTITY".utf8), in: bytes) != nil { throw .bail }
        guard let x = try? XMPMetadata.parse(bytes) else { throw .bail } // the full reader warns
        return x
    }
}
