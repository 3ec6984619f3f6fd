/// PDF's token syntax (ISO 32000-2, 7.2 and 7.3), shared by every reader of PDF bytes: the object
/// parser (``Parser``), the metadata reader's fast path, which builds no objects, and the
/// content-stream lexer of the page renderer.
///
/// ``PDFLexer`` finds where tokens start and end and decodes their values; what to build of them
/// (objects, or only kinds and byte ranges) and how lenient to be is each reader's own. It works
/// on any random-access bytes indexed from 0: the parser's `[UInt8]` windows and the fast path's
/// `UnsafeBufferPointer` windows get specialised copies of the same code, which is why every
/// member is `@inlinable`.

/// Whether `b` is PDF white space: NUL, HT, LF, FF, CR or space.
@inlinable @inline(__always) public func isPDFWhite(_ b: UInt8) -> Bool {
    b <= 0x20 && (UInt64(0x1_0000_3601) >> UInt64(b)) & 1 != 0
}

/// Whether `b` is a PDF delimiter: `(` `)` `<` `>` `[` `]` `{` `}` `/` `%`.
@inlinable @inline(__always) public func isPDFDelimiter(_ b: UInt8) -> Bool {
    !isPDFWhite(b) && isPDFTokenEnd(b)
}

/// Whether `b` ends a regular token: white space or a delimiter. One shift and mask a byte.
@inlinable @inline(__always) public func isPDFTokenEnd(_ b: UInt8) -> Bool {
    b < 64 ? (UInt64(0x5000_8321_0000_3601) >> UInt64(b)) & 1 != 0
        : (b < 128 && (UInt64(0x2800_0000_2800_0000) >> UInt64(b &- 64)) & 1 != 0)
}

/// Whether `b` ends the plain part of a name: white space, a delimiter or `#`. Letters, most of
/// a name, are told with one subtraction.
@inlinable @inline(__always) func isPDFNameStop(_ b: UInt8) -> Bool {
    if (b | 0x20) &- 0x61 < 26 { return false }
    return b < 64 ? (UInt64(0x5000_8329_0000_3601) >> UInt64(b)) & 1 != 0
        : (b < 128 && (UInt64(0x2800_0000_2800_0000) >> UInt64(b &- 64)) & 1 != 0)
}

/// Whether a literal string's scan must look at `b`: `(`, `)`, `\` or CR.
@inlinable @inline(__always) func isPDFLiteralSpecial(_ b: UInt8) -> Bool {
    b > 0x29 ? b == UInt8(ascii: "\\") : (UInt64(0x300_0000_2000) >> UInt64(b)) & 1 != 0
}

/// Whether `b` is an ASCII digit.
@inlinable @inline(__always) public func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

/// The value of a hexadecimal digit, or nil.
@inlinable @inline(__always) public func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30 ... 0x39: return b - 0x30
    case 0x41 ... 0x46: return b - 0x41 + 10
    case 0x61 ... 0x66: return b - 0x61 + 10
    default: return nil
    }
}

/// A numeric token as PDF readers take it: leniently (`+5`, `-.5`, `--5`, `5.`).
public struct PDFNumberToken: Equatable {
    /// True for a real: a token with a `.`, or an integer too large for `Int`.
    public var isReal: Bool
    /// An integer's value (0 for a real).
    public var int: Int

    /// Reads `bytes[start ..< end]`; nil when the token is not a number.
    @inlinable public init?<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ start: Int, _ end: Int)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var i = start
        var negative = false
        while i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            if bytes[i] == UInt8(ascii: "-") { negative.toggle() }
            i += 1
        }
        var intPart = 0
        var overflow = false
        var digits = 0
        var dot = false
        while i < end {
            let c = bytes[i]
            if isDigit(c) {
                digits += 1
                if !dot {
                    let (m, o1) = intPart.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(Int(c &- 0x30))
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
        isReal = dot || overflow
        int = isReal ? 0 : (negative ? -intPart : intPart)
    }

    /// The value of the numeric token `bytes[start ..< end]` as a `Double`: the integer part
    /// accumulated digit by digit, plus the fraction's digits each times its power of ten, so the
    /// same token gives the same bits everywhere. Call it on a token ``init(_:_:_:)`` accepted.
    @inlinable public static func realValue<Bytes: RandomAccessCollection>(_ bytes: Bytes, _ start: Int, _ end: Int) -> Double
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var i = start
        var negative = false
        while i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            if bytes[i] == UInt8(ascii: "-") { negative.toggle() }
            i += 1
        }
        var dot = false
        var frac = 0.0
        var scale = 0.1
        var whole = 0.0
        while i < end {
            let c = bytes[i]
            if isDigit(c) {
                let d = Double(Int(c &- 0x30))
                if dot {
                    frac += d * scale
                    scale /= 10
                } else {
                    whole = whole * 10 + d
                }
            } else {
                dot = true
            }
            i += 1
        }
        let v = whole + frac
        return negative ? -v : v
    }
}

/// What a look for a syntax element found: the element, its absence (the position unmoved), or
/// the end of the window before the answer was known (read a larger window).
public enum PDFScan<Value> {
    case found(Value)
    case absent
    case runOff
}

/// A cursor over a window of PDF bytes that reads tokens: white space and comments, names,
/// strings, numbers, references, keywords and the `N G obj` and `stream` headers.
///
/// Positions are indices into `bytes` (which starts at index 0); `base` is the window's offset
/// in the file. A scan that reaches the end of the window before its token ends leaves `pos` at
/// `count`: when `atEOF` is false the caller reads a larger window, when true the file is
/// truncated there.
public struct PDFLexer<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    /// The window.
    public let bytes: Bytes
    /// The window's offset in the file, in bytes.
    public let base: Int
    /// True when the window ends where the file ends.
    public let atEOF: Bool
    /// The current index into `bytes`.
    public var pos: Int

    /// A lexer at `pos` of a window that starts `base` bytes into the file.
    @inlinable public init(_ bytes: Bytes, base: Int, atEOF: Bool, pos: Int = 0) {
        self.bytes = bytes
        self.base = base
        self.atEOF = atEOF
        self.pos = pos
    }

    /// The window's length in bytes.
    @inlinable @inline(__always) public var count: Int { bytes.count }

    /// The file offset of the current position.
    @inlinable public var offset: Int { base &+ pos }

    /// Whether the window ended before the token being read did, with more of the file to read.
    @inlinable @inline(__always) public var ranOff: Bool { pos >= count && !atEOF }

    // MARK: White space and keywords

    /// Skips white space and comments. True when a token starts at the new position; false at the
    /// end of the window.
    @inlinable @inline(__always) public mutating func skipWhitespace() -> Bool {
        // Most calls stand on a token already, or on one space before it.
        if pos < count {
            var c = bytes[pos]
            if c == 0x20 && pos + 1 < count {
                c = bytes[pos + 1]
                if c > 0x20 && c != UInt8(ascii: "%") { pos += 1; return true }
            } else if c > 0x20 && c != UInt8(ascii: "%") {
                return true
            }
        }
        return skipWhitespaceRun()
    }

    /// ``skipWhitespace()`` for runs longer than one space, and comments.
    @inlinable public mutating func skipWhitespaceRun() -> Bool {
        let bytes = self.bytes
        var p = pos
        let n = bytes.count
        while p < n {
            let c = bytes[p]
            if isPDFWhite(c) {
                p += 1
            } else if c == UInt8(ascii: "%") {
                while p < n && bytes[p] != 0x0A && bytes[p] != 0x0D { p += 1 }
            } else {
                pos = p
                return true
            }
        }
        pos = p
        return false
    }

    /// Whether the token at `i` has ended: the end of the window, white space or a delimiter.
    @inlinable @inline(__always) public func tokenEnds(at i: Int) -> Bool {
        i >= count || isPDFTokenEnd(bytes[i])
    }

    /// Whether the bytes at the position spell `word`, followed by white space, a delimiter or the
    /// end of the window.
    @inlinable public func matches(_ word: StaticString) -> Bool {
        var i = pos
        let w = word.utf8Start
        for k in 0 ..< word.utf8CodeUnitCount {
            guard i < count, bytes[i] == w[k] else { return false }
            i += 1
        }
        return tokenEnds(at: i)
    }

    /// Whether `bytes[start ..< end]` is `word`.
    @inlinable public func equals(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount, start >= 0, end <= count else { return false }
        let w = word.utf8Start
        var i = 0
        while i < end - start {
            if bytes[start + i] != w[i] { return false }
            i += 1
        }
        return true
    }

    /// Whether a keyword of the file's structure stands at the position (`endobj`, `stream`,
    /// `endstream`, `obj`, `xref`, `trailer`, `startxref`): where an object being read must end.
    @inlinable public func isStructuralKeyword() -> Bool {
        guard pos < count else { return false }
        switch bytes[pos] {
        case UInt8(ascii: "e"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "x"), UInt8(ascii: "t"): break
        default: return false
        }
        return matches("endobj") || matches("stream") || matches("endstream") || matches("obj")
            || matches("xref") || matches("trailer") || matches("startxref")
    }

    /// Moves past a run of regular bytes (a number or a keyword) and returns where it ends.
    @inlinable public mutating func regularTokenEnd() -> Int {
        var p = pos
        let n = count
        while p < n && !isPDFTokenEnd(bytes[p]) { p += 1 }
        pos = p
        return p
    }

    // MARK: Numbers and headers

    /// An unsigned integer token at the position (digits ended by white space, a delimiter or the
    /// end of the window), moving past it; nil, unmoved, when there is none or it overflows.
    @inlinable public mutating func unsignedInt() -> Int? {
        var i = pos
        var v = 0
        while i < count, isDigit(bytes[i]) {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(bytes[i] &- 0x30))
            if o1 || o2 { return nil }
            v = a
            i += 1
        }
        if i == pos || !tokenEnds(at: i) { return nil }
        pos = i
        return v
    }

    /// `N G obj` from the position (white space first): the object number and generation, with
    /// the position after `obj`. `obj` may run into the next token (`1 0 obj<<`).
    @inlinable public mutating func indirectHeader() -> PDFScan<(num: Int, gen: Int)> {
        guard skipWhitespace() || atEOF else { return .runOff }
        guard let num = unsignedInt() else { return .absent }
        guard skipWhitespace() || atEOF else { return .runOff }
        guard let gen = unsignedInt() else { return .absent }
        guard skipWhitespace() || atEOF else { return .runOff }
        guard pos + 3 <= count, bytes[pos] == UInt8(ascii: "o"), bytes[pos + 1] == UInt8(ascii: "b"),
              bytes[pos + 2] == UInt8(ascii: "j") else { return .absent }
        pos += 3
        return .found((num, gen))
    }

    /// After a non-negative integer token that ended at the position: the generation of a
    /// reference `N G R`, with the position after `R`; `absent` leaves the position unmoved.
    @inlinable public mutating func referenceAfterNumber() -> PDFScan<Int> {
        // No reference unless a digit follows the white space.
        var j = pos
        let n = count
        while j < n && (bytes[j] == 0x20 || bytes[j] == 0x0A || bytes[j] == 0x0D) { j += 1 }
        if j < n && !isDigit(bytes[j]) && bytes[j] != UInt8(ascii: "%") && bytes[j] > 0x20 { return .absent }
        let save = pos
        guard skipWhitespace() || atEOF else { return .runOff }
        if let gen = unsignedInt() {
            guard skipWhitespace() || atEOF else { return .runOff }
            if pos < n && bytes[pos] == UInt8(ascii: "R") && tokenEnds(at: pos + 1) {
                if pos + 1 >= n && !atEOF { return .runOff }
                pos += 1
                return .found(gen)
            }
        }
        pos = save
        return .absent
    }

    /// A plain unsigned integer, or a reference `N G R` written with single spaces, read in one
    /// pass: the common shapes of dictionary values. Nil, unmoved, for anything else (the general
    /// reading then decides).
    @inlinable public mutating func quickIntegerOrReference() -> (number: Int, gen: Int?, start: Int)? {
        let bytes = self.bytes
        let n = bytes.count
        guard pos < n, isDigit(bytes[pos]) else { return nil }
        let start = pos
        var i = pos
        var v = 0
        while i < n && i - start < 18 && isDigit(bytes[i]) { v = v &* 10 &+ Int(bytes[i] &- 0x30); i += 1 }
        guard i < n && i - start < 18 && isPDFTokenEnd(bytes[i]) && bytes[i] != UInt8(ascii: "%") else { return nil }
        // After white space, the next byte decides: not a digit (nor a comment or the end) means
        // no `G R` can follow.
        var j = i
        while j < n && (bytes[j] == 0x20 || bytes[j] == 0x0A || bytes[j] == 0x0D) { j += 1 }
        if j < n && !isDigit(bytes[j]) && bytes[j] != UInt8(ascii: "%") && bytes[j] > 0x20 {
            pos = i
            return (v, nil, start)
        }
        guard bytes[i] == 0x20 && j == i + 1 && j < n && isDigit(bytes[j]) else { return nil }
        // One space, then a second number of at most 9 digits, then one space.
        var g = j
        var gen = 0
        while g < n && g - j < 10 && isDigit(bytes[g]) { gen = gen &* 10 &+ Int(bytes[g] &- 0x30); g += 1 }
        guard g - j < 10 && g + 2 < n && bytes[g] == 0x20 else { return nil }
        let x = bytes[g + 1]
        if x == UInt8(ascii: "R") && isPDFTokenEnd(bytes[g + 2]) {
            pos = g + 2
            return (v, gen, start)
        }
        if x != UInt8(ascii: "R") && x > 0x20 && x != UInt8(ascii: "%") {
            pos = i
            return (v, nil, start)
        }
        return nil
    }

    /// After a dictionary at the top level of an indirect object: when `stream` follows, the
    /// file offset of the stream's data (past the keyword's end of line: CRLF or LF, a lone CR
    /// tolerated), with the position there.
    @inlinable public mutating func streamDataStart() -> PDFScan<Int> {
        let save = pos
        guard skipWhitespace() || atEOF else { return .runOff }
        guard matches("stream") else {
            pos = save
            return .absent
        }
        pos += 6
        if pos < count && bytes[pos] == 0x0D { pos += 1 }
        if pos < count && bytes[pos] == 0x0A { pos += 1 }
        if ranOff { return .runOff }
        return .found(base &+ pos)
    }

    // MARK: Names and strings

    /// A name, at its `/`: the range of its bytes after the `/`, and whether they hold `#`
    /// escapes (``decodeName(_:_:)``). The position is left after the name.
    @inlinable public mutating func scanName() -> (start: Int, end: Int, escaped: Bool) {
        let bytes = self.bytes
        let start = pos + 1
        var p = start
        let n = bytes.count
        while p < n && !isPDFNameStop(bytes[p]) { p += 1 }
        var escaped = false
        if p < n && bytes[p] == UInt8(ascii: "#") {
            escaped = true
            while p < n && !isPDFTokenEnd(bytes[p]) { p += 1 }
        }
        pos = p
        return (start, p, escaped)
    }

    /// A name's bytes with its `#XX` escapes decoded (a `#` not followed by two hex digits stands
    /// for itself).
    @inlinable public func decodeName(_ start: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var i = start
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: "#"), i + 2 < end, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }

    /// Moves past a literal string, at its `(`. Returns whether its bytes are its content as they
    /// stand (no escape, no CR, no nested parentheses); nil when the window ends inside it.
    @inlinable public mutating func scanLiteral() -> Bool? {
        let bytes = self.bytes
        pos += 1
        var level = 1
        var plain = true
        let n = bytes.count
        while true {
            // Bytes that are content as they stand are passed over with one test each.
            var p = pos
            while p < n && !isPDFLiteralSpecial(bytes[p]) { p += 1 }
            pos = p
            guard pos < n else { return nil }
            let c = bytes[pos]
            pos += 1
            switch c {
            case UInt8(ascii: "("):
                level += 1
                plain = false
            case UInt8(ascii: ")"):
                level -= 1
                if level == 0 { return plain }
            case UInt8(ascii: "\\"):
                guard pos < n else { return nil }
                pos += 1 // the escaped byte: never a parenthesis that counts
                plain = false
            default: // CR
                plain = false
            }
        }
    }

    /// The content of the literal string `bytes[start ..< end]` (from its `(` to its `)`, as
    /// ``scanLiteral()`` found it; `plain` is what that returned): escapes decoded (`\n`, octal,
    /// line continuations; an unknown escape is the character itself), an unescaped CR or CRLF read
    /// as LF.
    @inlinable public func decodeLiteral(_ start: Int, _ end: Int, plain: Bool) -> [UInt8] {
        if plain && end - start >= 2 { return Array(bytes[start + 1 ..< end - 1]) }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        var p = start + 1
        var level = 1
        while p < end {
            let c = bytes[p]
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
                if p < end && bytes[p] == 0x0A { p += 1 }
                out.append(0x0A)
            case UInt8(ascii: "\\"):
                guard p < end else { return out }
                let e = bytes[p]
                p += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case 0x0D:
                    if p < end && bytes[p] == 0x0A { p += 1 } // a line continuation produces nothing
                case 0x0A:
                    break
                case 0x30 ... 0x37:
                    var v = Int(e - 0x30)
                    var k = 1
                    while k < 3, p < end, bytes[p] >= 0x30, bytes[p] <= 0x37 {
                        v = v * 8 + Int(bytes[p] - 0x30)
                        p += 1
                        k += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: v)) // high-order overflow is ignored
                default:
                    out.append(e)
                }
            default:
                out.append(c)
            }
        }
        return out
    }

    /// Moves past a hex string, at its `<`; false when the window ends inside it.
    @inlinable public mutating func scanHex() -> Bool {
        let bytes = self.bytes
        var p = pos + 1
        let n = bytes.count
        while p < n && bytes[p] != UInt8(ascii: ">") { p += 1 }
        guard p < n else {
            pos = p
            return false
        }
        pos = p + 1
        return true
    }

    /// The content of the hex string `bytes[start ..< end]` (from its `<` to its `>`): white space
    /// and other bytes that are not hex digits skipped, an odd last digit followed by 0.
    @inlinable public func decodeHex(_ start: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((end - start) / 2)
        var high: UInt8? = nil
        var p = start + 1
        while p < end {
            let c = bytes[p]
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
}
