/// Thrown by the parser when it runs off the end of its window before the end of the file; the
/// caller reads a larger window and tries again.
package struct NeedMoreData: Error {}

/// A recursive-descent parser for PDF objects over a window of the file, on ``PDFLexer``.
///
/// Positions inside the window are indices into `buf`; `base` is the window's absolute offset,
/// so errors carry file offsets. Nesting is capped by `maxDepth`. It reads leniently, as poppler,
/// pdf.js and qpdf do: stray closing delimiters are skipped, unknown keywords read as `null`, and
/// an object cut short by `endobj` is taken as closed there (each noted for the caller's warning).
package struct Parser {
    /// The token reader over the window.
    package var lexer: PDFLexer<[UInt8]>
    /// The deepest nesting of arrays and dictionaries read.
    package let maxDepth: Int
    /// Where a dictionary or array that `endobj` cut short was taken as closed (poppler, pdf.js
    /// and pypdf read such objects up to the damage), if one was: the caller records a warning.
    package var closedAtEndobj: Int? = nil
    /// Where a stray token was first tolerated, if one was: a closing delimiter skipped where a
    /// dictionary key or an array item belongs, or a brace read as `null` (qpdf reads such
    /// tokens so; pdf.js keeps them as commands). The caller records a warning.
    package var strayAt: Int? = nil

    /// A parser at `pos` of the window `buf`, which starts `base` bytes into the file.
    package init(_ buf: [UInt8], base: Int, atEOF: Bool, maxDepth: Int = 64, pos: Int = 0) {
        lexer = PDFLexer(buf, base: base, atEOF: atEOF, pos: pos)
        self.maxDepth = maxDepth
    }

    /// The window.
    package var buf: [UInt8] { lexer.bytes }
    /// The window's offset in the file.
    package var base: Int { lexer.base }
    /// True when the window ends where the file ends (running off it is truncation, not a
    /// reason to read more).
    package var atEOF: Bool { lexer.atEOF }
    /// The current index into `buf`.
    package var pos: Int {
        get { lexer.pos }
        set { lexer.pos = newValue }
    }

    /// The file offset of the current position.
    package var offset: Int { lexer.offset }

    package func fail(_ kind: PDFError.Kind, _ message: String) -> PDFError {
        PDFError(kind, message, offset: offset)
    }

    /// Called when the window is exhausted.
    package func endOfData(_ what: String) -> any Error {
        if atEOF { return PDFError(.truncated, "file ends inside \(what)", offset: offset) }
        return NeedMoreData()
    }

    /// Skips white space and comments; at the end of a window that is not the file's end, asks
    /// for more (``NeedMoreData``).
    package mutating func skipWhitespace() throws {
        if !lexer.skipWhitespace() && !atEOF { throw NeedMoreData() }
    }

    /// Reads a run of regular characters (a keyword or number) without consuming delimiters.
    package mutating func regularToken() throws -> ArraySlice<UInt8> {
        let start = pos
        let end = lexer.regularTokenEnd()
        if lexer.ranOff { throw NeedMoreData() }
        return buf[start ..< end]
    }

    /// Whether the bytes at the current position spell `word` followed by a delimiter.
    package func matches(_ word: StaticString) -> Bool { lexer.matches(word) }

    /// Parses an unsigned integer token at the current position, if there is one.
    package mutating func unsignedInt() -> Int? { lexer.unsignedInt() }

    /// Parses `N G obj` and returns the object id, leaving the position after `obj`.
    package mutating func indirectHeader() throws -> ObjectID? {
        switch lexer.indirectHeader() {
        case .found(let h): return ObjectID(num: h.num, gen: h.gen)
        case .absent: return nil
        case .runOff: throw NeedMoreData()
        }
    }

    /// Parses one object. Inside an indirect object, a dictionary followed by `stream` becomes a
    /// stream whose data offset is recorded (the data itself is not read).
    package mutating func parseObject(depth: Int = 0, allowStream: Bool = false) throws -> PDFObject {
        if depth > maxDepth {
            throw fail(.limitExceeded, "objects nested deeper than \(maxDepth) levels")
        }
        if let q = lexer.quickIntegerOrReference() {
            if let gen = q.gen { return .ref(ObjectID(num: q.number, gen: gen)) }
            return .int(q.number)
        }
        try skipWhitespace()
        guard pos < buf.count else { throw endOfData("an object") }
        let b = buf[pos]
        switch b {
        case UInt8(ascii: "/"):
            return .name(try parseName())
        case UInt8(ascii: "("):
            return .string(try parseLiteralString())
        case UInt8(ascii: "["):
            return .array(try parseArrayBody(depth: depth))
        case UInt8(ascii: "<"):
            if pos + 1 < buf.count {
                if buf[pos + 1] == UInt8(ascii: "<") {
                    let d = try parseDictBody(depth: depth)
                    if allowStream { return try streamAfter(d) }
                    return .dict(d)
                }
                return .string(try parseHexString())
            }
            throw endOfData("a string or dictionary")
        case UInt8(ascii: "{"), UInt8(ascii: "}"):
            // A brace (PostScript calculator syntax) where a PDF object belongs: null, as qpdf reads it.
            strayAt = strayAt ?? offset
            pos += 1
            return .null
        case UInt8(ascii: "]"), UInt8(ascii: ">"), UInt8(ascii: ")"):
            throw fail(.syntax, "unexpected '\(Character(Unicode.Scalar(b)))'")
        default:
            return try parseNumberOrKeyword()
        }
    }

    /// The items of an array, at its `[`.
    mutating func parseArrayBody(depth: Int) throws -> [PDFObject] {
        pos += 1
        var items: [PDFObject] = []
        while true {
            try skipWhitespace()
            guard pos < buf.count else { throw endOfData("an array") }
            let c = buf[pos]
            if c == UInt8(ascii: "]") { pos += 1; break }
            if c == UInt8(ascii: ")") || c == UInt8(ascii: ">") || c == UInt8(ascii: "}") {
                strayAt = strayAt ?? offset
                pos += 1 // stray closing delimiter: skip it (lenient)
                continue
            }
            if isStructuralKeyword() {
                if matches("endobj") { closedAtEndobj = closedAtEndobj ?? offset; break }
                throw fail(.syntax, "unterminated array")
            }
            items.append(try parseObject(depth: depth + 1))
        }
        return items
    }

    /// Whether a keyword of the file's structure (`endobj`, `stream`, `xref`…) stands here.
    package func isStructuralKeyword() -> Bool { lexer.isStructuralKeyword() }

    /// The entries of a dictionary, at its `<<`.
    package mutating func parseDictBody(depth: Int) throws -> PDFDict {
        pos += 2
        // Most dictionaries have 2–8 entries: one allocation instead of growing the list twice.
        var d = PDFDict(minimumCapacity: 8)
        while true {
            try skipWhitespace()
            guard pos < buf.count else { throw endOfData("a dictionary") }
            let c = buf[pos]
            if c == UInt8(ascii: ">") {
                if pos + 1 < buf.count && buf[pos + 1] == UInt8(ascii: ">") { pos += 2; break }
                if pos + 1 >= buf.count && !atEOF { throw NeedMoreData() }
                pos += 1 // single '>': lenient
                continue
            }
            if c == UInt8(ascii: "/") {
                let key = try parseName()
                try skipWhitespace()
                guard pos < buf.count else { throw endOfData("a dictionary") }
                if buf[pos] == UInt8(ascii: ">") {
                    d.append(key, .null)
                    continue
                }
                if isStructuralKeyword() {
                    if matches("endobj") { closedAtEndobj = closedAtEndobj ?? offset; break }
                    throw fail(.syntax, "unterminated dictionary")
                }
                let value = try parseObject(depth: depth + 1)
                d.append(key, value) // a null value shadows an earlier entry: the key reads as absent
            } else {
                if isStructuralKeyword() {
                    if matches("endobj") { closedAtEndobj = closedAtEndobj ?? offset; break }
                    throw fail(.syntax, "unterminated dictionary")
                }
                if c == UInt8(ascii: "]") || c == UInt8(ascii: ")") || c == UInt8(ascii: "}") {
                    strayAt = strayAt ?? offset
                    pos += 1 // stray closing delimiter: skip it (lenient, as in arrays)
                    continue
                }
                // A key that is not a name: parse and drop it (lenient).
                _ = try parseObject(depth: depth + 1)
            }
        }
        return d
    }

    /// `d` as a stream when the keyword `stream` follows it, else as a dictionary.
    package mutating func streamAfter(_ d: PDFDict) throws -> PDFObject {
        switch lexer.streamDataStart() {
        case .found(let dataOffset): return .stream(PDFStream(dict: d, dataOffset: dataOffset, id: nil))
        case .absent: return .dict(d)
        case .runOff: throw NeedMoreData()
        }
    }

    /// A name, at its `/`, with `#` escapes decoded.
    package mutating func parseName() throws -> String {
        let (start, end, escaped) = lexer.scanName()
        if lexer.ranOff { throw NeedMoreData() }
        if !escaped { return String(decoding: buf[start ..< end], as: UTF8.self) }
        return String(decoding: lexer.decodeName(start, end), as: UTF8.self)
    }

    /// A literal string, at its `(`, decoded.
    package mutating func parseLiteralString() throws -> [UInt8] {
        let start = pos
        guard let plain = lexer.scanLiteral() else {
            if atEOF { throw PDFError(.truncated, "unterminated string", offset: base &+ start) }
            throw NeedMoreData()
        }
        return lexer.decodeLiteral(start, pos, plain: plain)
    }

    /// A hex string, at its `<`, decoded.
    package mutating func parseHexString() throws -> [UInt8] {
        let start = pos
        guard lexer.scanHex() else {
            if atEOF { throw PDFError(.truncated, "unterminated hex string", offset: base &+ start) }
            throw NeedMoreData()
        }
        return lexer.decodeHex(start, pos)
    }

    /// A number, a reference `N G R`, `true`, `false` or `null`; an unknown keyword reads as
    /// `null`, a structural one is an error.
    package mutating func parseNumberOrKeyword() throws -> PDFObject {
        let start = pos
        let end = lexer.regularTokenEnd()
        if lexer.ranOff { throw NeedMoreData() }
        if end == start {
            pos += 1
            throw PDFError(.syntax, "unexpected byte 0x\(String(buf[start], radix: 16))", offset: base &+ start)
        }
        if let n = PDFNumberToken(buf, start, end) {
            if n.isReal { return .real(PDFNumberToken.realValue(buf, start, end)) }
            if n.int >= 0 {
                switch lexer.referenceAfterNumber() {
                case .found(let gen): return .ref(ObjectID(num: n.int, gen: gen))
                case .absent: break
                case .runOff: throw NeedMoreData()
                }
            }
            return .int(n.int)
        }
        if lexer.equals(start, end, "true") { return .bool(true) }
        if lexer.equals(start, end, "false") { return .bool(false) }
        if lexer.equals(start, end, "null") { return .null }
        pos = start
        if isStructuralKeyword() { throw fail(.syntax, "unexpected keyword") }
        pos = end
        return .null // unknown keyword: tolerated as null
    }

    /// Parses a numeric token leniently (`+5`, `-.5`, `--5`, `5.`); nil when it is not a number.
    package static func number(_ tok: ArraySlice<UInt8>) -> PDFObject? {
        guard let n = PDFNumberToken(tok, tok.startIndex, tok.endIndex) else { return nil }
        return n.isReal ? .real(PDFNumberToken.realValue(tok, tok.startIndex, tok.endIndex)) : .int(n.int)
    }
}
