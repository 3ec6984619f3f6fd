/// Why the lean reader stopped: its window ended before the value did (read a larger window),
/// or the file is not of the plain shape it reads (let the full reader read it).
enum LeanStop: Error {
    case more
    case bail
}

/// One value as the lean lexer saw it: its kind, where its bytes are in the window, and for
/// numbers and references the number.
struct LeanValue {
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

/// White space (NUL, HT, LF, FF, CR, space) and the delimiters `%` `(` `)` `/` `<` `>`, as bits of
/// the byte value (all below 64).
private let leanLowStops: UInt64 = (1 << 0x00) | (1 << 0x09) | (1 << 0x0A) | (1 << 0x0C) | (1 << 0x0D) | (1 << 0x20)
    | (1 << 0x25) | (1 << 0x28) | (1 << 0x29) | (1 << 0x2F) | (1 << 0x3C) | (1 << 0x3E)
/// The delimiters `[` `]` `{` `}`, as bits of the byte value less 64.
private let leanHighStops: UInt64 = (1 << (0x5B - 64)) | (1 << (0x5D - 64)) | (1 << (0x7B - 64)) | (1 << (0x7D - 64))

/// Byte classes for the lean lexer's scans, one character a byte value (`0x40` plus flags): 1, the
/// byte ends a name (white space, a delimiter or `#`); 2, a literal string must look at it (`(`,
/// `)`, `\`, CR).
private let leanClasses: StaticString = "A@@@@@@@@AA@AC@@@@@@@@@@@@@@@@@@A@@A@A@@CC@@@@@A@@@@@@@@@@@@A@A@@@@@@@@@@@@@@@@@@@@@@@@@@@@ABA@@@@@@@@@@@@@@@@@@@@@@@@@@@@@A@A@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"

/// Whether `c` ends a token: white space or a delimiter (`isPDFWhite(c) || isPDFDelimiter(c)`).
@inline(__always) func leanStops(_ c: UInt8) -> Bool {
    c < 64 ? (leanLowStops >> UInt64(c)) & 1 != 0 : (c < 128 && (leanHighStops >> UInt64(c &- 64)) & 1 != 0)
}

/// A lexer over one window of the file, for the lean reader: it reads PDF syntax exactly as
/// ``Parser`` does, but builds no objects (values are kinds and byte ranges) and gives up
/// (`LeanStop.bail`) on anything the plain shape does not need: `#` escapes in names, stray
/// delimiters, `endobj` inside an object, a truncated object, deep nesting.
///
/// Every access is checked against the window's count.
struct LeanLexer {
    let b: UnsafeBufferPointer<UInt8>
    /// The window's offset in the file.
    let base: Int
    /// True when the window ends where the file ends.
    let atEOF: Bool
    let maxDepth: Int
    var pos: Int

    init(_ b: UnsafeBufferPointer<UInt8>, base: Int, atEOF: Bool, maxDepth: Int, pos: Int) {
        self.b = b
        self.base = base
        self.atEOF = atEOF
        self.maxDepth = min(maxDepth, 32)
        self.pos = pos
    }

    @inline(__always) var n: Int { b.count }

    /// The stop for running off the window: more bytes when the file goes on, else the file is
    /// truncated (the full reader reports it).
    @inline(__always) var runOff: LeanStop { atEOF ? .bail : .more }

    @inline(__always) mutating func skipWhitespace() throws(LeanStop) {
        // Most calls stand on a token already (no white space, all at or below 0x20, and no
        // comment), or on one space before it.
        if pos < n {
            var c = b[pos]
            if c == 0x20 && pos + 1 < n {
                c = b[pos + 1]
                if c > 0x20 && c != UInt8(ascii: "%") { pos += 1; return }
            } else if c > 0x20 && c != UInt8(ascii: "%") {
                return
            }
        }
        try skipWhitespaceSlow()
    }

    mutating func skipWhitespaceSlow() throws(LeanStop) {
        var p = pos
        while p < n {
            switch b[p] {
            case 0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x00:
                p += 1
            case UInt8(ascii: "%"):
                while p < n && b[p] != 0x0A && b[p] != 0x0D { p += 1 }
            default:
                pos = p
                return
            }
        }
        pos = p
        if !atEOF { throw .more }
    }

    /// ``Parser/matches(_:)``: the bytes at the position spell `word`, followed by a delimiter,
    /// white space or the end of the window.
    func matches(_ word: StaticString) -> Bool {
        var i = pos
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for c in w {
            guard i < n, b[i] == c else { return false }
            i += 1
        }
        return i >= n || leanStops(b[i])
    }

    /// ``Parser/unsignedInt()``.
    mutating func unsignedInt() -> Int? {
        var i = pos
        var v = 0
        while i < n, isDigit(b[i]) {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(b[i] &- 0x30))
            if o1 || o2 { return nil }
            v = a
            i += 1
        }
        if i == pos { return nil }
        if i < n && !leanStops(b[i]) { return nil }
        pos = i
        return v
    }

    /// ``Parser/indirectHeader()``: the object number of `N G obj`, or nil.
    mutating func indirectHeader() throws(LeanStop) -> Int? {
        try skipWhitespace()
        guard let num = unsignedInt() else { return nil }
        try skipWhitespace()
        guard unsignedInt() != nil else { return nil }
        try skipWhitespace()
        guard matches("obj") || (pos + 3 <= n && b[pos] == UInt8(ascii: "o")
            && b[pos + 1] == UInt8(ascii: "b") && b[pos + 2] == UInt8(ascii: "j")) else { return nil }
        pos += 3
        return num
    }

    /// ``Parser/isStructuralKeyword()``.
    func isStructuralKeyword() -> Bool {
        guard pos < n else { return false }
        switch b[pos] {
        case UInt8(ascii: "e"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "x"), UInt8(ascii: "t"): break
        default: return false
        }
        return matches("endobj") || matches("stream") || matches("endstream") || matches("obj")
            || matches("xref") || matches("trailer") || matches("startxref")
    }

    /// Whether the bytes `start ..< end` of the window are `word`.
    @inline(__always) func equals(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount, start >= 0, end <= n else { return false }
        let w = word.utf8Start
        var i = 0
        while i < end - start {
            if b[start + i] != w[i] { return false }
            i += 1
        }
        return true
    }

    /// A name after its `/`: the range of its bytes. Names with `#` escapes are not read here.
    mutating func name() throws(LeanStop) -> (Int, Int) {
        let start = pos + 1
        var p = start
        let n = self.n
        // White space, delimiters and `#` end the scan (one table look-up a byte).
        let classes = leanClasses.utf8Start
        while p < n && classes[Int(b[p])] & 1 == 0 { p += 1 }
        pos = p
        if pos < n && b[pos] == UInt8(ascii: "#") { throw .bail }
        if pos >= n && !atEOF { throw .more }
        return (start, pos)
    }

    /// Moves past a literal string (at its `(`), as ``Parser/parseLiteralString()`` reads it.
    /// Returns whether its bytes are its content as they stand (no escape, no CR, no nested
    /// parentheses).
    mutating func skipLiteral() throws(LeanStop) -> Bool {
        pos += 1
        var level = 1
        var plain = true
        let classes = leanClasses.utf8Start
        while true {
            // Bytes that are content as they stand are passed over with one look-up each.
            var p = pos
            while p < n && classes[Int(b[p])] & 2 == 0 { p += 1 }
            pos = p
            guard pos < n else { throw runOff }
            let c = b[pos]
            pos += 1
            switch c {
            case UInt8(ascii: "("):
                level += 1
                plain = false
            case UInt8(ascii: ")"):
                level -= 1
                if level == 0 { return plain }
            case UInt8(ascii: "\\"):
                guard pos < n else { throw runOff }
                pos += 1 // the escaped byte: never a parenthesis that counts
                plain = false
            case 0x0D:
                plain = false
            default: break
            }
        }
    }

    /// Moves past a hex string (at its `<`).
    mutating func skipHex() throws(LeanStop) {
        pos += 1
        while true {
            guard pos < n else { throw runOff }
            let c = b[pos]
            pos += 1
            if c == UInt8(ascii: ">") { return }
        }
    }

    /// The bytes of a literal string whose `(` is at `start`, as ``Parser/parseLiteralString()``
    /// decodes them (the string was read whole by ``skipLiteral()``; `plain` is what it returned).
    func literalBytes(_ start: Int, _ end: Int, plain: Bool) -> [UInt8] {
        if plain && end - start >= 2 { return Array(UnsafeBufferPointer(rebasing: b[start + 1 ..< end - 1])) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var p = start + 1
        var level = 1
        while p < end {
            let c = b[p]
            p += 1
            switch c {
            case UInt8(ascii: "("):
                level += 1
                out.append(c)
            case UInt8(ascii: ")"):
                level -= 1
                if level == 0 { return out }
                out.append(c)
            case 0x0D:
                if p < end && b[p] == 0x0A { p += 1 }
                out.append(0x0A)
            case UInt8(ascii: "\\"):
                guard p < end else { return out }
                let e = b[p]
                p += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case 0x0D:
                    if p < end && b[p] == 0x0A { p += 1 }
                case 0x0A:
                    break
                case 0x30 ... 0x37:
                    var v = Int(e - 0x30)
                    var k = 1
                    while k < 3, p < end, b[p] >= 0x30, b[p] <= 0x37 {
                        v = v * 8 + Int(b[p] - 0x30)
                        p += 1
                        k += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: v))
                default:
                    out.append(e)
                }
            default:
                out.append(c)
            }
        }
        return out
    }

    /// The bytes of a hex string whose `<` is at `start`, as ``Parser/parseHexString()`` decodes them.
    func hexBytes(_ start: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((end - start) / 2)
        var high: UInt8? = nil
        var p = start + 1
        while p < end {
            let c = b[p]
            p += 1
            if c == UInt8(ascii: ">") { break }
            guard let v = hexValue(c) else { continue }
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        if let h = high { out.append(h << 4) }
        return out
    }

    /// ``Parser/number(_:)`` on the token `start ..< end`: its kind (`int` or `real`) and, for an
    /// integer, its value; nil when it is not a number.
    func number(_ start: Int, _ end: Int) -> (LeanValue.Kind, Int)? {
        var i = start
        var negative = false
        while i < end, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            if b[i] == UInt8(ascii: "-") { negative.toggle() }
            i += 1
        }
        var intPart = 0
        var overflow = false
        var digits = 0
        var dot = false
        while i < end {
            let c = b[i]
            if isDigit(c) {
                digits += 1
                if !dot {
                    let (m, o1) = intPart.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(Int(c - 0x30))
                    if o1 || o2 { overflow = true } else { intPart = a }
                }
            } else if c == UInt8(ascii: ".") && !dot {
                dot = true
            } else {
                return nil
            }
            i += 1
        }
        if digits == 0 { return nil }
        if dot || overflow { return (.real, 0) }
        return (.int, negative ? -intPart : intPart)
    }

    /// One value, as ``Parser/parseObject(depth:allowStream:)`` reads it. Dictionaries are read
    /// through, their entries not kept.
    mutating func value(depth: Int) throws(LeanStop) -> LeanValue {
        if depth > maxDepth { throw .bail }
        // Fast paths: a plain unsigned integer not followed by another (so not a reference), and
        // `N G R` or `N G x` with single spaces. Anything else takes the general way below.
        if pos < n, isDigit(b[pos]) {
            let start = pos
            var i = pos
            var v = 0
            while i < n && i - start < 18 && isDigit(b[i]) { v = v &* 10 &+ Int(b[i] &- 0x30); i += 1 }
            if i < n && i - start < 18 && leanStops(b[i]) && b[i] != UInt8(ascii: "%") {
                // After white space, the next byte decides: not a digit (nor a comment or the end)
                // means no `G R` can follow.
                var j = i
                while j < n && (b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D) { j += 1 }
                if j < n && !isDigit(b[j]) && b[j] != UInt8(ascii: "%") && b[j] > 0x20 {
                    pos = i
                    return LeanValue(kind: .int, start: start, end: i, number: v)
                }
                if b[i] == 0x20 && j == i + 1 && j < n && isDigit(b[j]) {
                    // One space, then a second number of at most 9 digits, then one space.
                    var g = j
                    while g < n && g - j < 10 && isDigit(b[g]) { g += 1 }
                    if g - j < 10 && g + 2 < n && b[g] == 0x20 {
                        let x = b[g + 1]
                        if x == UInt8(ascii: "R") && leanStops(b[g + 2]) {
                            pos = g + 2
                            return LeanValue(kind: .ref, start: start, end: pos, number: v)
                        }
                        if x != UInt8(ascii: "R") && x > 0x20 && x != UInt8(ascii: "%") {
                            pos = i
                            return LeanValue(kind: .int, start: start, end: i, number: v)
                        }
                    }
                }
            }
        }
        try skipWhitespace()
        guard pos < n else { throw runOff }
        let start = pos
        switch b[pos] {
        case UInt8(ascii: "/"):
            let (s, e) = try name()
            return LeanValue(kind: .name, start: s, end: e)
        case UInt8(ascii: "("):
            let plain = try skipLiteral()
            return LeanValue(kind: .literal, start: start, end: pos, number: plain ? 1 : 0)
        case UInt8(ascii: "["):
            pos += 1
            while true {
                try skipWhitespace()
                guard pos < n else { throw runOff }
                if b[pos] == UInt8(ascii: "]") { pos += 1; break }
                if b[pos] == UInt8(ascii: ")") || b[pos] == UInt8(ascii: ">") || b[pos] == UInt8(ascii: "}") { throw .bail }
                if isStructuralKeyword() { throw .bail }
                _ = try value(depth: depth + 1)
            }
            return LeanValue(kind: .array, start: start, end: pos)
        case UInt8(ascii: "<"):
            guard pos + 1 < n else { throw runOff }
            if b[pos + 1] == UInt8(ascii: "<") {
                var none = LeanIgnore()
                try dictBody(depth: depth, &none)
                return LeanValue(kind: .dict, start: start, end: pos)
            }
            try skipHex()
            return LeanValue(kind: .hex, start: start, end: pos)
        case UInt8(ascii: "]"), UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            throw .bail
        default:
            return try numberOrKeyword()
        }
    }

    /// A dictionary, at its `<<`, as ``Parser/parseDictBody(depth:)`` reads it; `visitor` sees
    /// each entry in file order (so a later entry for a key replaces an earlier one).
    mutating func dictBody<V: LeanVisitor>(depth: Int, _ visitor: inout V) throws(LeanStop) {
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
            if b[pos] == UInt8(ascii: ">") || isStructuralKeyword() { throw .bail }
            let v = try value(depth: depth + 1)
            try visitor.entry(LeanKey(b, ks, ke), v, self)
        }
    }

    /// A number, a reference `N G R`, or a keyword, as ``Parser/parseNumberOrKeyword()`` reads them.
    mutating func numberOrKeyword() throws(LeanStop) -> LeanValue {
        let start = pos
        while pos < n && !leanStops(b[pos]) { pos += 1 }
        if pos == n && !atEOF { throw .more }
        let end = pos
        if end == start { throw .bail }
        if let (kind, num) = number(start, end) {
            if kind == .int, num >= 0 {
                let save = pos
                // No reference unless a digit follows the white space.
                var j = pos
                while j < n && (b[j] == 0x20 || b[j] == 0x0A || b[j] == 0x0D) { j += 1 }
                if j < n && !isDigit(b[j]) && b[j] != UInt8(ascii: "%") && b[j] > 0x20 {
                    return LeanValue(kind: kind, start: start, end: end, number: num)
                }
                try skipWhitespace()
                if unsignedInt() != nil {
                    try skipWhitespace()
                    if pos < n && b[pos] == UInt8(ascii: "R") && (pos + 1 >= n || leanStops(b[pos + 1])) {
                        if pos + 1 >= n && !atEOF { throw .more }
                        pos += 1
                        return LeanValue(kind: .ref, start: start, end: pos, number: num)
                    }
                }
                pos = save
            }
            return LeanValue(kind: kind, start: start, end: end, number: num)
        }
        if equals(start, end, "true") || equals(start, end, "false") { return LeanValue(kind: .bool, start: start, end: end) }
        if equals(start, end, "null") { return LeanValue(kind: .null, start: start, end: end) }
        pos = start
        if isStructuralKeyword() { throw .bail }
        pos = end
        return LeanValue(kind: .null, start: start, end: end) // an unknown keyword reads as null
    }

    /// After a top-level dictionary of an indirect object: the offset of the stream data when
    /// `stream` follows (as ``Parser/streamAfter(_:)``), else nil with the position unmoved.
    mutating func streamAfter() throws(LeanStop) -> Int? {
        let save = pos
        try skipWhitespace()
        guard matches("stream") else {
            pos = save
            return nil
        }
        pos += 6
        if pos < n && b[pos] == 0x0D { pos += 1 }
        if pos < n && b[pos] == 0x0A { pos += 1 }
        if pos >= n && !atEOF { throw .more }
        return base &+ pos
    }
}

/// A dictionary key: the bytes of its name in the window.
struct LeanKey {
    let b: UnsafeBufferPointer<UInt8>
    let start: Int
    let end: Int

    init(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.b = b
        self.start = start
        self.end = end
    }

    /// The keys the lean reader looks at.
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
/// in ``PDFDict``), and a later entry for a key replaces an earlier one.
protocol LeanVisitor {
    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop)
}

/// Keeps nothing (dictionaries inside values).
struct LeanIgnore: LeanVisitor {
    @inline(__always) mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {}
}

@inline(__always) private func present(_ v: LeanValue) -> LeanValue? { v.kind == .null ? nil : v }

/// The trailer: `/Root` and `/Info`; anything the update chain, a hybrid file or encryption
/// would use sends the file to the full reader.
struct LeanTrailer: LeanVisitor {
    var root: LeanValue?
    var info: LeanValue?

    /// The object numbers of `/Root` (required) and `/Info`; other values: the full reader.
    func numbers() throws(LeanStop) -> (Int, Int?) {
        guard let root, root.kind == .ref else { throw .bail }
        guard let info else { return (root.number, nil) }
        guard info.kind == .ref else { throw .bail }
        return (root.number, info.number)
    }

    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {
        switch key.id {
        case .root: root = present(value)
        case .info: info = present(value)
        case .prev, .xrefStm, .encrypt: throw .bail
        default: break
        }
    }
}

/// The catalog's `/Type`, `/Pages`, `/Version` and `/Metadata`.
struct LeanCatalog: LeanVisitor {
    var type: LeanValue?
    var typeIsCatalog = false
    var pages: LeanValue?
    var version: String??
    var metadata: LeanValue?
    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {
        switch key.id {
        case .type:
            type = present(value)
            typeIsCatalog = value.kind == .name && LeanKey(lx.b, value.start, value.end).is("Catalog")
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

/// A page tree node or page: what ``Document/isNode(_:)`` and the count check read, and the
/// root's kids (references only).
struct LeanNode: LeanVisitor {
    let wantKids: Bool
    /// `/Type` when it is a name: `Page`, `Pages`, or another name.
    var typeName: (present: Bool, page: Bool, pages: Bool) = (false, false, false)
    var kids: LeanValue?
    /// The kids' object numbers: the first four in place, the rest (rare) in `moreKids`.
    var kidNums = LeanKids(filler: 0)
    var count: LeanValue?
    var contents = false
    var mediaBox = false

    init(wantKids: Bool) { self.wantKids = wantKids }

    var isNode: Bool {
        if typeName.page { return false }
        if typeName.pages { return true }
        return kids?.kind == .array || kids?.kind == .ref
    }

    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {
        switch key.id {
        case .type:
            if value.kind == .name {
                let t = LeanKey(lx.b, value.start, value.end)
                typeName = (true, t.is("Page"), t.is("Pages"))
            } else {
                typeName = (false, false, false)
            }
        case .kids:
            kids = present(value)
            kidNums = LeanKids(filler: 0)
            if wantKids && value.kind == .array {
                // The array was read whole: read its items again, each must be a reference.
                var sub = LeanLexer(UnsafeBufferPointer(rebasing: lx.b[0 ..< value.end]), base: lx.base, atEOF: true,
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
typealias LeanKids = SmallList<4, Int>

/// The Info dictionary: every string or name value by its key, the last entry deciding (a value
/// of another kind, `null` included, leaves the key out), kept as raw bytes in the packed form of
/// ``InfoEntries``; and where the entries that the fields come from are among them.
struct LeanInfo: LeanVisitor {
    var entries = InfoEntriesWriter()
    /// For each entry of ``PDFDocumentInfo/InfoFields`` (by its slot), where its raw bytes start
    /// and end in `entries`; a start of -1 when it is absent.
    var starts = InlineArray<8, Int>(repeating: -1)
    var ends = InlineArray<8, Int>(repeating: -1)

    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {
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
struct LeanStreamDict: LeanVisitor {
    var length: LeanValue?
    var filter: LeanValue?
    var flate = false
    /// `/DecodeParms` and `/DP` (read when `/DecodeParms` is absent), with their parameters.
    var decodeParms: LeanValue?
    var dp: LeanValue?
    var decodeParmsValues = PDFStreamDecoder.PredictorParameters()
    var dpValues = PDFStreamDecoder.PredictorParameters()
    /// The predictor's parameters, nil without a parameters dictionary.
    var predictor: PDFStreamDecoder.PredictorParameters? {
        decodeParms != nil ? decodeParmsValues : dp != nil ? dpValues : nil
    }
    var w: [Int]?
    var index: [Int]?
    var size: LeanValue?
    var n: LeanValue?
    var first: LeanValue?
    var trailer = LeanTrailer()

    /// The integers of an array value (anything else in it: the full reader).
    static func ints(_ v: LeanValue, _ lx: LeanLexer) throws(LeanStop) -> [Int] {
        guard v.kind == .array else { throw .bail }
        var sub = LeanLexer(UnsafeBufferPointer(rebasing: lx.b[0 ..< v.end]), base: lx.base, atEOF: true,
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

    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {
        switch key.id {
        case .length: length = present(value)
        case .filter:
            filter = present(value)
            flate = value.kind == .name && (LeanKey(lx.b, value.start, value.end).is("FlateDecode")
                || LeanKey(lx.b, value.start, value.end).is("Fl"))
        case .decodeParms, .dp:
            // Only a direct dictionary of direct integers is read here.
            if value.kind == .null {
                if key.id == .decodeParms { decodeParms = nil } else { dp = nil }
                return
            }
            guard value.kind == .dict else { throw .bail }
            var sub = LeanLexer(UnsafeBufferPointer(rebasing: lx.b[0 ..< value.end]), base: lx.base, atEOF: true,
                                maxDepth: lx.maxDepth, pos: value.start)
            var parms = LeanParms()
            try sub.dictBody(depth: 1, &parms)
            if key.id == .decodeParms {
                decodeParms = value
                decodeParmsValues = parms.parameters
            } else {
                dp = value
                dpValues = parms.parameters
            }
        case .w: w = value.kind == .null ? nil : try LeanStreamDict.ints(value, lx)
        case .index: index = value.kind == .null ? nil : try LeanStreamDict.ints(value, lx)
        case .size: size = present(value)
        case .n: n = present(value)
        case .first: first = present(value)
        default: try trailer.entry(key, value, lx)
        }
    }
}

/// A Flate predictor's parameters (direct integers; anything else: the full reader).
struct LeanParms: LeanVisitor {
    var parameters = PDFStreamDecoder.PredictorParameters()
    mutating func entry(_ key: LeanKey, _ value: LeanValue, _ lx: LeanLexer) throws(LeanStop) {
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

/// The reader's fast path: for a file of the plain shape (the `%PDF-` header at byte 0, one
/// cross-reference section, a classic table or a stream, whose trailer names a catalog; no
/// encryption, no update sections; objects where the cross-reference data says, in the file or
/// in an object stream that decodes whole within its first step) it reads the catalog, the page
/// tree's root and the kids that ``Document/pageCount(root:rootRef:declared:)`` checks, the Info
/// dictionary and the XMP stream without building ``PDFObject`` values, and fills in a
/// ``PDFMetadata`` exactly as the full reader would. At the first thing it does not read the way
/// the full reader does (anything that would be repaired or warned about, indirect values where
/// it expects direct ones, encryption, a stream filter other than Flate...) it returns nil and
/// the full reader reads the file.
///
/// It reads through the same ``ByteSource`` with the same windows as the full reader, so the
/// bytes read are the same.
struct LeanReader {
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
    /// while the body needs more (as ``Document/parseAt(_:initial:maxBytes:_:)``).
    func parse<T>(at offset: Int, initial: Int, _ body: (inout LeanLexer) throws(LeanStop) -> T) throws(LeanStop) -> T {
        if let whole = src.residentBytes {
            let r: Result<T, LeanStop> = whole.withUnsafeBufferPointer { buf in
                var lx = LeanLexer(buf, base: 0, atEOF: true, maxDepth: options.maxNestingDepth,
                                   pos: max(0, min(offset, buf.count)))
                do throws(LeanStop) { return .success(try body(&lx)) } catch { return .failure(error) }
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
            let r: Result<T, LeanStop>? = src.withBytes(offset, len) { buf in
                var lx = LeanLexer(buf, base: offset, atEOF: offset &+ buf.count >= size, maxDepth: options.maxNestingDepth, pos: 0)
                do throws(LeanStop) { return .success(try body(&lx)) } catch { return .failure(error) }
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
    mutating func read() -> PDFMetadata? {
        do throws(LeanStop) {
            return try readPlain()
        } catch {
            return nil
        }
    }

    /// The indirect object `num` at the file offset the cross-reference data gives, parsed with
    /// `body` (the lexer is at the object's value). Anything but a plain object with that number
    /// in the file stops the fast path.
    func object<T>(_ num: Int, window: Int, _ body: (inout LeanLexer) throws(LeanStop) -> T) throws(LeanStop) -> T {
        guard num > 0, num < slots.count, slots[num] > 0 else { throw .bail }
        return try parse(at: slots[num], initial: window) { (lx: inout LeanLexer) throws(LeanStop) -> T in
            guard let id = try lx.indirectHeader(), id == num else { throw .bail }
            return try body(&lx)
        }
    }

    /// An indirect object that must be a dictionary: `visitor` sees its entries (it starts again
    /// from `fresh` for each window tried). Returns where its stream data starts when it is a
    /// stream. An object in an object stream is read there (as Document.loadCompressed reads it).
    mutating func dictObject<V: LeanVisitor>(_ num: Int, window: Int, _ visitor: inout V, fresh: V) throws(LeanStop) -> Int? {
        guard num > 0, num < slots.count else { throw .bail }
        if slots[num] <= -2 {
            let code = -2 - slots[num]
            try compressedDict(num, stream: code >> 20, index: code & 0xFFFFF, window: window, &visitor)
            return nil
        }
        return try object(num, window: window) { (lx: inout LeanLexer) throws(LeanStop) -> Int? in
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
            var lx = LeanLexer(tail, base: size - tailLen, atEOF: true, maxDepth: 1, pos: i + 9)
            try? lx.skipWhitespace()
            return lx.unsignedInt()
        } ?? nil
    }

    /// One classic cross-reference table at `offset` (Document.readXrefTable): the entries into
    /// `slots`, and the trailer's `/Root` and `/Info` object numbers.
    mutating func table(at offset: Int) throws(LeanStop) -> (root: Int, info: Int?) {
        let size = src.size
        let maxEntries = options.maxXrefEntries
        let (table, root, info) = try parse(at: offset, initial: 4096) {
            (lx: inout LeanLexer) throws(LeanStop) -> ([Int], Int, Int?) in
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
                    var t = LeanTrailer()
                    try lx.dictBody(depth: 0, &t)
                    let (root, info) = try t.numbers()
                    return (slots, root, info)
                }
                guard let first = lx.unsignedInt() else { throw .bail }
                try lx.skipWhitespace()
                guard let count = lx.unsignedInt() else { throw .bail }
                guard first <= LeanReader.maxObjects, count <= LeanReader.maxObjects - first else { throw .bail }
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
    mutating func xrefStream(at offset: Int) throws(LeanStop) -> (root: Int, info: Int?) {
        // The stream object, read with the full reader's first window.
        let (d, dataOffset) = try parse(at: offset, initial: 2048) {
            (lx: inout LeanLexer) throws(LeanStop) -> (LeanStreamDict, Int?) in
            guard try lx.indirectHeader() != nil else { throw .bail }
            try lx.skipWhitespace()
            guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
            var v = LeanStreamDict()
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
        try forEachXrefStreamEntry(data, widths: w, index: index) { (number, type, f2, f3) throws(LeanStop) in
            guard let num = number, num < LeanReader.maxObjects else { throw .bail }
            if slots.count <= num { slots.append(contentsOf: repeatElement(0, count: num + 1 - slots.count)) }
            if slots[num] != 0 { return }
            if set >= options.maxXrefEntries { throw .bail }
            switch type {
            case 0: slots[num] = -1; set += 1
            case 1: if f2 > 0 && f2 < fileSize { slots[num] = f2; set += 1 }
            case 2:
                guard f2 >= 0, f2 < LeanReader.maxObjects, f3 >= 0, f3 < 1 << 20 else { throw .bail }
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
    func streamData(_ offset: Int, length len: Int, _ d: LeanStreamDict, cap: Int, maxRatio: Int? = nil,
                    keepPrefix: Bool = false) throws(LeanStop) -> [UInt8] {
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
    mutating func compressedDict<V: LeanVisitor>(_ num: Int, stream: Int, index: Int, window: Int,
                                                 _ visitor: inout V) throws(LeanStop) {
        if objectStream?.num != stream {
            guard stream > 0, stream < slots.count, slots[stream] > 0 else { throw .bail }
            let (d, dataOffset) = try object(stream, window: window) {
                (lx: inout LeanLexer) throws(LeanStop) -> (LeanStreamDict, Int?) in
                try lx.skipWhitespace()
                guard lx.pos + 1 < lx.n, lx.b[lx.pos] == UInt8(ascii: "<"), lx.b[lx.pos + 1] == UInt8(ascii: "<") else { throw .bail }
                var v = LeanStreamDict()
                try lx.dictBody(depth: 0, &v)
                return (v, try lx.streamAfter())
            }
            guard let dataOffset, let length = d.length else { throw .bail }
            var len = length.number
            switch length.kind {
            case .int: break
            case .ref:
                len = try object(length.number, window: window) { (lx: inout LeanLexer) throws(LeanStop) -> Int in
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
                var p = LeanLexer(buf, base: 0, atEOF: true, maxDepth: 4, pos: 0)
                for _ in 0 ..< count {
                    try? p.skipWhitespace()
                    guard p.pos < first, let on = p.unsignedInt() else { break }
                    try? p.skipWhitespace()
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
        let failed: LeanStop? = os.data.withUnsafeBufferPointer { all in
            var lx = LeanLexer(UnsafeBufferPointer(rebasing: all[start ..< end]), base: 0, atEOF: true, maxDepth: maxDepth, pos: 0)
            do throws(LeanStop) {
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

    mutating func readPlain() throws(LeanStop) -> PDFMetadata {
        let size = src.size
        guard size > 0, !options.strict, options.maxNestingDepth >= 2, options.maxXrefSections >= 1 else { throw .bail }
        guard let headerVersion = header() else { throw .bail }
        guard let xrefOffset = startxref(), xrefOffset >= 0, xrefOffset < size else { throw .bail }
        let isTable = try parse(at: xrefOffset, initial: 64) { (lx: inout LeanLexer) throws(LeanStop) -> Bool in
            try lx.skipWhitespace()
            return lx.matches("xref")
        }
        let (rootNum, infoNum) = isTable ? try table(at: xrefOffset) : try xrefStream(at: xrefOffset)

        // The catalog (Document.rootIsValid, then extract).
        var m = PDFMetadata()
        m.version = headerVersion
        var catalog = LeanCatalog()
        let catalogStream = try dictObject(rootNum, window: 2048, &catalog, fresh: LeanCatalog())
        guard catalogStream == nil, catalog.typeIsCatalog || catalog.pages != nil else { throw .bail }
        if case .some(.some(let v)) = catalog.version, PDFDocumentInfo.isNewer(v, than: m.version) { m.version = v }
        guard let pages = catalog.pages, pages.kind == .ref else { throw .bail }
        m.pageCount = try pageCount(pages.number)

        // Info (extract).
        let fields: PDFDocumentInfo.InfoFields
        if let infoNum {
            var info = LeanInfo()
            let stream = try dictObject(infoNum, window: 2048, &info, fresh: LeanInfo())
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
    mutating func pageCount(_ pagesNum: Int) throws(LeanStop) -> Int {
        var root = LeanNode(wantKids: true)
        let rootStream = try dictObject(pagesNum, window: 2048, &root, fresh: LeanNode(wantKids: true))
        guard rootStream == nil else { throw .bail }
        if root.typeName.page || (!root.typeName.present && !root.isNode && (root.contents || root.mediaBox)) { throw .bail }
        guard let c = root.count, c.kind == .int, c.number >= 0 else { throw .bail }
        let declared = c.number
        // A /Kids that is not an array (a reference, one dictionary) is for the full reader.
        if let k = root.kids, k.kind != .array { throw .bail }
        let kids = root.kids?.kind == .array ? root.kidNums : LeanKids(filler: 0)
        func kidCount(_ num: Int) throws(LeanStop) -> Int {
            // Page objects are read with the full reader's 256-byte first window.
            var k = LeanNode(wantKids: false)
            let stream = try dictObject(num, window: 256, &k, fresh: LeanNode(wantKids: false))
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
    mutating func xmp(_ num: Int) throws(LeanStop) -> XMPMetadata? {
        guard num > 0, num < slots.count, slots[num] != 0 else { throw .bail }
        if slots[num] == -1 { return nil } // free: null, no packet
        var d = LeanStreamDict()
        let streamOffset = try dictObject(num, window: 2048, &d, fresh: LeanStreamDict())
        guard let offset = streamOffset else { return nil }
        guard let length = d.length, d.decodeParms == nil, d.dp == nil else { throw .bail }
        var len: Int
        switch length.kind {
        case .int: len = length.number
        case .ref:
            len = try object(length.number, window: 2048) { (lx: inout LeanLexer) throws(LeanStop) -> Int in
                let v = try lx.value(depth: 0)
                guard v.kind == .int else { throw .bail }
                return v.number
            }
        default: throw .bail
        }
        let cap = min(options.maxMetadataStreamSize, options.maxDecompressedSize)
        let bytes = try streamData(offset, length: len, d, cap: cap, maxRatio: options.maxMetadataInflateRatio)
        if find(Array("<!DOCTYPE".utf8), in: bytes) != nil || find(Array("<!ENTITY".utf8), in: bytes) != nil { throw .bail }
        guard let x = try? XMPMetadata.parse(bytes) else { throw .bail }
        return x
    }
}
