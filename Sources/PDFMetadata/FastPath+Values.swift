import PDFCore
/// Why the fast path stopped: its window ended before the value did (read a larger window),
/// or the file is not of the plain shape it reads (let the full reader read it).
enum FastPathStop: Error {
    case more
    case bail
}

/// One value as the fast path's lexer saw it: its kind, where its bytes are in the window, and for
/// numbers and references the number.
struct FastPathValue {
    enum Kind: UInt8 {
        case null, bool, int, real, name, literal, hex, array, dict, ref
    }
    var kind: Kind
    /// The value's first byte in the window (for a name, the byte after `/`).
    var start: Int
    /// One past the value's last byte in the window.
    var end: Int
    /// An integer's value, or a reference's object number.
    var number: Int = 0
}

/// The fast path's view of one window of the file: `PDFLexer`, the token reader every PDF
/// reader of the package shares, with the fast path's object model on top. It reads PDF syntax exactly
/// as `Parser` does, but builds no objects (values are kinds and byte ranges) and gives up
/// (`FastPathStop.bail`) on anything the plain shape does not need: `#` escapes in names, stray
/// delimiters, `endobj` inside an object, a truncated object, deep nesting.
///
/// Every access is checked against the window's count.
struct FastPathLexer {
    var lexer: PDFLexer<UnsafeBufferPointer<UInt8>>
    let maxDepth: Int

    init(_ b: UnsafeBufferPointer<UInt8>, base: Int, atEOF: Bool, maxDepth: Int, pos: Int) {
        lexer = PDFLexer(b, base: base, atEOF: atEOF, pos: pos)
        self.maxDepth = min(maxDepth, 32)
    }

    /// The window.
    @inline(__always) var b: UnsafeBufferPointer<UInt8> { lexer.bytes }
    /// The window's offset in the file.
    @inline(__always) var base: Int { lexer.base }
    /// True when the window ends where the file ends.
    @inline(__always) var atEOF: Bool { lexer.atEOF }
    @inline(__always) var n: Int { lexer.count }
    @inline(__always) var pos: Int {
        get { lexer.pos }
        set { lexer.pos = newValue }
    }

    /// The stop for running off the window: more bytes when the file goes on, else the file is
    /// truncated (the full reader reports it).
    @inline(__always) var runOff: FastPathStop { atEOF ? .bail : .more }

    @inline(__always) mutating func skipWhitespace() throws(FastPathStop) {
        if !lexer.skipWhitespace() && !atEOF { throw .more }
    }

    @inline(__always) func matches(_ word: StaticString) -> Bool { lexer.matches(word) }

    @inline(__always) mutating func unsignedInt() -> Int? { lexer.unsignedInt() }

    /// The object number of `N G obj`, or nil.
    mutating func indirectHeader() throws(FastPathStop) -> Int? {
        switch lexer.indirectHeader() {
        case .found(let h): return h.num
        case .absent: return nil
        case .runOff: throw .more
        }
    }

    /// A name after its `/`: the range of its bytes. Names with `#` escapes are not read here.
    @inline(__always) mutating func name() throws(FastPathStop) -> (Int, Int) {
        let (start, end, escaped) = lexer.scanName()
        if escaped { throw .bail }
        if lexer.ranOff { throw .more }
        return (start, end)
    }

    /// The bytes of a literal string whose `(` is at `start` (`plain` as `PDFLexer/scanLiteral()`
    /// returned it).
    func literalBytes(_ start: Int, _ end: Int, plain: Bool) -> [UInt8] {
        lexer.decodeLiteral(start, end, plain: plain)
    }

    /// The bytes of a hex string whose `<` is at `start`.
    func hexBytes(_ start: Int, _ end: Int) -> [UInt8] { lexer.decodeHex(start, end) }

    /// One value, as `Parser/parseObject(depth:allowStream:)` reads it. Dictionaries are read
    /// through, their entries not kept.
    mutating func value(depth: Int) throws(FastPathStop) -> FastPathValue {
        if depth > maxDepth { throw .bail }
        if let q = lexer.quickIntegerOrReference() {
            return FastPathValue(kind: q.gen == nil ? .int : .ref, start: q.start, end: pos, number: q.number)
        }
        try skipWhitespace()
        guard pos < n else { throw runOff }
        let start = pos
        switch b[pos] {
        case UInt8(ascii: "/"):
            let (s, e) = try name()
            return FastPathValue(kind: .name, start: s, end: e)
        case UInt8(ascii: "("):
            guard let plain = lexer.scanLiteral() else { throw runOff }
            return FastPathValue(kind: .literal, start: start, end: pos, number: plain ? 1 : 0)
        case UInt8(ascii: "["):
            pos += 1
            while true {
                try skipWhitespace()
                guard pos < n else { throw runOff }
                if b[pos] == UInt8(ascii: "]") { pos += 1; break }
                if b[pos] == UInt8(ascii: ")") || b[pos] == UInt8(ascii: ">") || b[pos] == UInt8(ascii: "}") { throw .bail }
                if lexer.isStructuralKeyword() { throw .bail }
                _ = try value(depth: depth + 1)
            }
            return FastPathValue(kind: .array, start: start, end: pos)
        case UInt8(ascii: "<"):
            guard pos + 1 < n else { throw runOff }
            if b[pos + 1] == UInt8(ascii: "<") {
                var none = FastPathIgnore()
                try dictBody(depth: depth, &none)
                return FastPathValue(kind: .dict, start: start, end: pos)
            }
            guard lexer.scanHex() else { throw runOff }
            return FastPathValue(kind: .hex, start: start, end: pos)
        case UInt8(ascii: "]"), UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            throw .bail
        default:
            return try numberOrKeyword()
        }
    }

    /// A dictionary, at its `<<`, as `Parser/parseDictBody(depth:)` reads it; `visitor` sees
    /// each entry in file order (so a later entry for a key replaces an earlier one).
    mutating func dictBody<V: FastPathVisitor>(depth: Int, _ visitor: inout V) throws(FastPathStop) {
        if depth > maxDepth { throw .bail }
        pos += 2
        while true {
            try skipWhitespace()
            guard pos < n else { throw runOff }
            let c = b[pos]
            if c == UInt8(ascii: ">") {
                if pos + 1 < n && b[pos + 1] == UInt8(ascii: ">") { pos += 2; return }
                if pos + 1 >= n && !atEOF { throw .more }
                throw .bail // a single '>'
            }
            guard c == UInt8(ascii: "/") else { throw .bail }
            let (ks, ke) = try name()
            try skipWhitespace()
            guard pos < n else { throw runOff }
            if b[pos] == UInt8(ascii: ">") || lexer.isStructuralKeyword() { throw .bail }
            let v = try value(depth: depth + 1)
            try visitor.entry(FastPathKey(b, ks, ke), v, self)
        }
    }

    /// A number, a reference `N G R`, or a keyword, as `Parser/parseNumberOrKeyword()` reads them.
    mutating func numberOrKeyword() throws(FastPathStop) -> FastPathValue {
        let start = pos
        let end = lexer.regularTokenEnd()
        if lexer.ranOff { throw .more }
        if end == start { throw .bail }
        if let num = PDFNumberToken(b, start, end) {
            if num.isReal { return FastPathValue(kind: .real, start: start, end: end) }
            if num.int >= 0 {
                switch lexer.referenceAfterNumber() {
                case .found: return FastPathValue(kind: .ref, start: start, end: pos, number: num.int)
                case .absent: break
                case .runOff: throw .more
                }
            }
            return FastPathValue(kind: .int, start: start, end: end, number: num.int)
        }
        if lexer.equals(start, end, "true") || lexer.equals(start, end, "false") { return FastPathValue(kind: .bool, start: start, end: end) }
        if lexer.equals(start, end, "null") { return FastPathValue(kind: .null, start: start, end: end) }
        pos = start
        if lexer.isStructuralKeyword() { throw .bail }
        pos = end
        return FastPathValue(kind: .null, start: start, end: end) // an unknown keyword reads as null
    }

    /// After a top-level dictionary of an indirect object: the offset of the stream data when
    /// `stream` follows (as `Parser/streamAfter(_:)`), else nil with the position unmoved.
    mutating func streamAfter() throws(FastPathStop) -> Int? {
        switch lexer.streamDataStart() {
        case .found(let offset): return offset
        case .absent: return nil
        case .runOff: throw .more
        }
    }
}

/// A dictionary key: the bytes of its name in the window.
struct FastPathKey {
    let b: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int

    init(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.b = b
        self.start = start
        self.end = end
    }

    /// The keys the fast path looks at.
    enum ID {
        case type, pages, version, metadata, kids, count, contents, mediaBox, root, info, prev, xrefStm, encrypt
        case length, filter, decodeParms, dp, w, index, size, n, first, predictor, colors, bitsPerComponent, columns
        case other
    }

    @inline(__always) func `is`(_ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        let w = word.utf8Start
        var i = 0
        while i < end - start {
            if b[start + i] != w[i] { return false }
            i += 1
        }
        return true
    }

    var id: ID {
        switch end - start {
        case 1: return b[start] == UInt8(ascii: "W") ? .w : b[start] == UInt8(ascii: "N") ? .n : .other
        case 2: return self.is("DP") ? .dp : .other
        case 4:
            switch b[start] {
            case UInt8(ascii: "T"): return self.is("Type") ? .type : .other
            case UInt8(ascii: "K"): return self.is("Kids") ? .kids : .other
            case UInt8(ascii: "R"): return self.is("Root") ? .root : .other
            case UInt8(ascii: "I"): return self.is("Info") ? .info : .other
            case UInt8(ascii: "P"): return self.is("Prev") ? .prev : .other
            case UInt8(ascii: "S"): return self.is("Size") ? .size : .other
            default: return .other
            }
        case 5:
            return self.is("Pages") ? .pages : self.is("Count") ? .count : self.is("Index") ? .index : self.is("First") ? .first : .other
        case 6: return self.is("Length") ? .length : self.is("Filter") ? .filter : self.is("Colors") ? .colors : .other
        case 7:
            return self.is("Version") ? .version : self.is("XRefStm") ? .xrefStm : self.is("Encrypt") ? .encrypt
                : self.is("Columns") ? .columns : .other
        case 8: return self.is("Metadata") ? .metadata : self.is("Contents") ? .contents : self.is("MediaBox") ? .mediaBox : .other
        case 9: return self.is("Predictor") ? .predictor : .other
        case 11: return self.is("DecodeParms") ? .decodeParms : .other
        case 16: return self.is("BitsPerComponent") ? .bitsPerComponent : .other
        default: return .other
        }
    }
}

/// Sees the entries of a dictionary in file order. A `null` value stands for an absent key (as
/// in `PDFDict`), and a later entry for a key replaces an earlier one.
protocol FastPathVisitor {
    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop)
}

/// Keeps nothing (dictionaries inside values).
struct FastPathIgnore: FastPathVisitor {
    @inline(__always) mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {}
}

@inline(__always) private func present(_ v: FastPathValue) -> FastPathValue? { v.kind == .null ? nil : v }

/// The trailer: `/Root` and `/Info`; anything the update chain, a hybrid file or encryption
/// would use sends the file to the full reader.
struct FastPathTrailer: FastPathVisitor {
    var root: FastPathValue?
    var info: FastPathValue?

    /// The object numbers of `/Root` (required) and `/Info`; other values: the full reader.
    func numbers() throws(FastPathStop) -> (Int, Int?) {
        guard let root, root.kind == .ref else { throw .bail }
        guard let info else { return (root.number, nil) }
        guard info.kind == .ref else { throw .bail }
        return (root.number, info.number)
    }

    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {
        switch key.id {
        case .root: root = present(value)
        case .info: info = present(value)
        case .prev, .xrefStm, .encrypt: throw .bail
        default: break
        }
    }
}

/// The catalog's `/Type`, `/Pages`, `/Version` and `/Metadata`.
struct FastPathCatalog: FastPathVisitor {
    var type: FastPathValue?
    var typeIsCatalog = false
    var pages: FastPathValue?
    var version: String??
    var metadata: FastPathValue?
    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {
        switch key.id {
        case .type:
            type = present(value)
            typeIsCatalog = value.kind == .name && FastPathKey(lx.b, value.start, value.end).is("Catalog")
        case .pages: pages = present(value)
        case .version:
            switch value.kind {
            case .null: version = nil
            case .ref: throw .bail
            case .name: version = .some(String(decoding: UnsafeBufferPointer(rebasing: lx.b[value.start ..< value.end]), as: UTF8.self))
            default: version = .some(nil) // present, not a name: no version
            }
        case .metadata: metadata = present(value)
        default: break
        }
    }
}

/// A page tree node or page: what `Document/isNode(_:)` and the count check read, and the
/// root's kids (references only).
struct FastPathNode: FastPathVisitor {
    let wantKids: Bool
    /// `/Type` when it is a name: `Page`, `Pages`, or another name.
    var typeName: (present: Bool, page: Bool, pages: Bool) = (false, false, false)
    var kids: FastPathValue?
    /// The kids' object numbers: the first four in place, the rest (rare) in `moreKids`.
    var kidNums = FastPathKids(filler: 0)
    var count: FastPathValue?
    var contents = false
    var mediaBox = false

    init(wantKids: Bool) { self.wantKids = wantKids }

    var isNode: Bool {
        if typeName.page { return false }
        if typeName.pages { return true }
        return kids?.kind == .array || kids?.kind == .ref
    }

    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {
        switch key.id {
        case .type:
            if value.kind == .name {
                let t = FastPathKey(lx.b, value.start, value.end)
                typeName = (true, t.is("Page"), t.is("Pages"))
            } else {
                typeName = (false, false, false)
            }
        case .kids:
            kids = present(value)
            kidNums = FastPathKids(filler: 0)
            if wantKids && value.kind == .array {
                // The array was read whole: read its items again, each must be a reference.
                var sub = FastPathLexer(UnsafeBufferPointer(rebasing: lx.b[0 ..< value.end]), base: lx.base, atEOF: true,
                                    maxDepth: lx.maxDepth, pos: value.start + 1)
                while true {
                    try sub.skipWhitespace()
                    guard sub.pos < sub.n else { throw .bail }
                    if sub.b[sub.pos] == UInt8(ascii: "]") { break }
                    let v = try sub.value(depth: 1)
                    guard v.kind == .ref else { throw .bail }
                    kidNums.append(v.number)
                }
            }
        case .count: count = present(value)
        case .contents: contents = value.kind != .null
        case .mediaBox: mediaBox = value.kind != .null
        default: break
        }
    }
}

/// A page tree node's kids (object numbers) in order, the first four without an allocation.
typealias FastPathKids = SmallList<4, Int>

/// The Info dictionary: every string or name value by its key, the last entry deciding (a value
/// of another kind, `null` included, leaves the key out), kept as raw bytes in the packed form of
/// ``InfoEntries``; and where the entries that the fields come from are among them.
struct FastPathInfo: FastPathVisitor {
    var entries = InfoEntriesWriter()
    /// For each entry of ``PDFDocumentInfo/InfoFields`` (by its slot), where its raw bytes start
    /// and end in `entries`; a start of -1 when it is absent.
    var starts = InlineArray<8, Int>(repeating: -1)
    var ends = InlineArray<8, Int>(repeating: -1)

    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {
        var i = key.start
        while i < key.end { if lx.b[i] >= 0x80 { throw .bail }; i += 1 }
        let k = UnsafeBufferPointer(rebasing: lx.b[key.start ..< key.end])
        guard k.count <= 0xFFFF else { throw .bail }
        var start = -1
        switch value.kind {
        case .literal:
            if value.number == 1 && value.end - value.start >= 2 {
                start = entries.append(key: k, value: UnsafeBufferPointer(rebasing: lx.b[value.start + 1 ..< value.end - 1]))
            } else {
                let bytes = lx.literalBytes(value.start, value.end, plain: false)
                start = bytes.withUnsafeBufferPointer { entries.append(key: k, value: $0) }
            }
        case .hex:
            let bytes = lx.hexBytes(value.start, value.end)
            start = bytes.withUnsafeBufferPointer { entries.append(key: k, value: $0) }
        case .name:
            var j = value.start
            while j < value.end { if lx.b[j] >= 0x80 { throw .bail }; j += 1 }
            start = entries.append(key: k, value: UnsafeBufferPointer(rebasing: lx.b[value.start ..< value.end]))
        case .ref: throw .bail
        default: entries.append(key: k, value: nil)
        }
        if let slot = PDFDocumentInfo.InfoFields.slot(k) {
            starts[slot] = start
            ends[slot] = entries.bytes.count
        }
    }

    /// The fields' entries, decoded.
    func fields() -> PDFDocumentInfo.InfoFields {
        var f = PDFDocumentInfo.InfoFields()
        entries.bytes.withUnsafeBufferPointer { b in
            for slot in 0 ..< PDFDocumentInfo.InfoFields.slotCount where starts[slot] >= 0 {
                f.set(slot, UnsafeBufferPointer(rebasing: b[starts[slot] ..< ends[slot]]))
            }
        }
        return f
    }
}

/// A stream's dictionary: `/Length`, the filter (none, or Flate), the Flate predictor's
/// parameters; for a cross-reference stream also `/W`, `/Index`, `/Size` and the trailer's
/// entries; for an object stream `/N` and `/First`.
struct FastPathStreamDict: FastPathVisitor {
    var length: FastPathValue?
    var filter: FastPathValue?
    var flate = false
    /// `/DecodeParms` and `/DP` (read when `/DecodeParms` is absent), with their parameters.
    var decodeParms: FastPathValue?
    var dp: FastPathValue?
    var decodeParmsValues = PDFStreamDecoder.PredictorParameters()
    var dpValues = PDFStreamDecoder.PredictorParameters()
    /// The predictor's parameters, nil without a parameters dictionary.
    var predictor: PDFStreamDecoder.PredictorParameters? {
        decodeParms != nil ? decodeParmsValues : dp != nil ? dpValues : nil
    }
    var w: [Int]?
    var index: [Int]?
    var size: FastPathValue?
    var n: FastPathValue?
    var first: FastPathValue?
    var trailer = FastPathTrailer()

    /// The integers of an array value (anything else in it: the full reader).
    static func ints(_ v: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) -> [Int] {
        guard v.kind == .array else { throw .bail }
        var sub = FastPathLexer(UnsafeBufferPointer(rebasing: lx.b[0 ..< v.end]), base: lx.base, atEOF: true,
                            maxDepth: lx.maxDepth, pos: v.start + 1)
        var out: [Int] = []
        while true {
            try sub.skipWhitespace()
            guard sub.pos < sub.n else { throw .bail }
            if sub.b[sub.pos] == UInt8(ascii: "]") { return out }
            let x = try sub.value(depth: 1)
            guard x.kind == .int else { throw .bail }
            out.append(x.number)
        }
    }

    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {
        switch key.id {
        case .length: length = present(value)
        case .filter:
            filter = present(value)
            flate = value.kind == .name && (FastPathKey(lx.b, value.start, value.end).is("FlateDecode")
                || FastPathKey(lx.b, value.start, value.end).is("Fl"))
        case .decodeParms, .dp:
            // Only a direct dictionary of direct integers is read here.
            if value.kind == .null {
                if key.id == .decodeParms { decodeParms = nil } else { dp = nil }
                return
            }
            guard value.kind == .dict else { throw .bail }
            var sub = FastPathLexer(UnsafeBufferPointer(rebasing: lx.b[0 ..< value.end]), base: lx.base, atEOF: true,
                                maxDepth: lx.maxDepth, pos: value.start)
            var parms = FastPathParms()
            try sub.dictBody(depth: 1, &parms)
            if key.id == .decodeParms {
                decodeParms = value
                decodeParmsValues = parms.parameters
            } else {
                dp = value
                dpValues = parms.parameters
            }
        case .w: w = value.kind == .null ? nil : try FastPathStreamDict.ints(value, lx)
        case .index: index = value.kind == .null ? nil : try FastPathStreamDict.ints(value, lx)
        case .size: size = present(value)
        case .n: n = present(value)
        case .first: first = present(value)
        default: try trailer.entry(key, value, lx)
        }
    }
}

/// A Flate predictor's parameters (direct integers; anything else: the full reader).
struct FastPathParms: FastPathVisitor {
    var parameters = PDFStreamDecoder.PredictorParameters()
    mutating func entry(_ key: FastPathKey, _ value: FastPathValue, _ lx: FastPathLexer) throws(FastPathStop) {
        let id = key.id
        guard id == .predictor || id == .colors || id == .bitsPerComponent || id == .columns else { return }
        let v: Int
        switch value.kind {
        case .int: v = value.number
        case .null:
            v = id == .bitsPerComponent ? 8 : 1 // absent: the default
        default: throw .bail
        }
        switch id {
        case .predictor: parameters.predictor = v
        case .colors: parameters.colors = v
        case .bitsPerComponent: parameters.bitsPerComponent = v
        default: parameters.columns = v
        }
    }
}
