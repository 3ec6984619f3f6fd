/// Thrown by the parser when it runs off the end of its window before the end of the file; the
/// caller reads a larger window and tries again.
package struct NeedMoreData: Error {}

@inline(__always) package func isPDFWhite(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0C || b == 0x00
}

@inline(__always) package func isPDFDelimiter(_ b: UInt8) -> Bool {
    switch b {
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
         UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
         UInt8(ascii: "/"), UInt8(ascii: "%"):
        return true
    default:
        return false
    }
}

@inline(__always) package func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

@inline(__always) package func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30 ... 0x39: return b - 0x30
    case 0x41 ... 0x46: return b - 0x41 + 10
    case 0x61 ... 0x66: return b - 0x61 + 10
    default: return nil
    }
}

/// A recursive-descent parser for PDF objects over a window of the file.
///
/// Positions inside the window are indices into `buf`; `base` is the window's absolute offset,
/// so errors carry file offsets. Nesting is capped by `maxDepth`.
package struct Parser {
    package let buf: [UInt8]
    package let base: Int
    /// True when the window ends where the file ends (running off it is truncation, not a
    /// reason to read more).
    package let atEOF: Bool
    package let maxDepth: Int
    package var pos: Int = 0
    /// Where a dictionary or array that `endobj` cut short was taken as closed (poppler, pdf.js
    /// and pypdf read such objects up to the damage), if one was: the caller records a warning.
    package var closedAtEndobj: Int? = nil
    /// Where a stray token was first tolerated, if one was: a closing delimiter skipped where a
    /// dictionary key or an array item belongs, or a brace read as `null` (qpdf reads such
    /// tokens so; pdf.js keeps them as commands). The caller records a warning.
    package var strayAt: Int? = nil

    package init(_ buf: [UInt8], base: Int, atEOF: Bool, maxDepth: Int = 64, pos: Int = 0) {
        self.buf = buf
        self.base = base
        self.atEOF = atEOF
        self.maxDepth = maxDepth
        self.pos = pos
    }

    package var offset: Int { base &+ pos }

    package func fail(_ kind: PDFError.Kind, _ message: String) -> PDFError {
        PDFError(kind, message, offset: offset)
    }

    /// Called when the window is exhausted.
    package func endOfData(_ what: String) -> any Error {
        if atEOF { return PDFError(.truncated, "file ends inside \(what)", offset: offset) }
        return NeedMoreData()
    }

    package mutating func skipWhitespace() throws {
        // One pass over the buffer's storage (long runs of white space, such as a hole of NUL
        // bytes, are common in damaged files).
        let end = buf.withUnsafeBufferPointer { b -> Int in
            var p = pos
            while p < b.count {
                switch b[p] {
                case 0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x00:
                    p += 1
                case UInt8(ascii: "%"):
                    while p < b.count && b[p] != 0x0A && b[p] != 0x0D { p += 1 }
                default:
                    return p
                }
            }
            return p
        }
        pos = end
        if pos < buf.count { return }
        if !atEOF { throw NeedMoreData() }
    }

    /// Reads a run of regular characters (a keyword or number) without consuming delimiters.
    package mutating func regularToken() throws -> ArraySlice<UInt8> {
        let start = pos
        while pos < buf.count && !isPDFWhite(buf[pos]) && !isPDFDelimiter(buf[pos]) { pos += 1 }
        if pos == buf.count && !atEOF { throw NeedMoreData() }
        return buf[start ..< pos]
    }

    /// Peeks whether the bytes at the current position spell `word` followed by a delimiter.
    package func matches(_ word: String) -> Bool {
        var i = pos
        for c in word.utf8 {
            guard i < buf.count, buf[i] == c else { return false }
            i += 1
        }
        return i >= buf.count || isPDFWhite(buf[i]) || isPDFDelimiter(buf[i])
    }

    /// Parses an unsigned integer token at the current position, if there is one.
    package mutating func unsignedInt() -> Int? {
        var i = pos
        var v = 0
        while i < buf.count, isDigit(buf[i]) {
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(buf[i] - 0x30))
            if o1 || o2 { return nil }
            v = a
            i += 1
        }
        if i == pos { return nil }
        if i < buf.count && !isPDFWhite(buf[i]) && !isPDFDelimiter(buf[i]) { return nil }
        pos = i
        return v
    }

    /// Parses `N G obj` and returns the object id, leaving the position after `obj`.
    package mutating func indirectHeader() throws -> ObjectID? {
        try skipWhitespace()
        guard let num = unsignedInt() else { return nil }
        try skipWhitespace()
        guard let gen = unsignedInt() else { return nil }
        try skipWhitespace()
        guard matches("obj") || (pos + 3 <= buf.count && buf[pos] == UInt8(ascii: "o")
            && buf[pos + 1] == UInt8(ascii: "b") && buf[pos + 2] == UInt8(ascii: "j")) else { return nil }
        pos += 3
        return ObjectID(num: num, gen: gen)
    }

    /// Parses one object. Inside an indirect object, a dictionary followed by `stream` becomes a
    /// stream whose data offset is recorded (the data itself is not read).
    package mutating func parseObject(depth: Int = 0, allowStream: Bool = false) throws -> PDFObject {
        if depth > maxDepth {
            throw fail(.limitExceeded, "objects nested deeper than \(maxDepth) levels")
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
            pos += 1
            var items: [PDFObject] = []
            while true {
                try skipWhitespace()
                guard pos < buf.count else { throw endOfData("an array") }
                if buf[pos] == UInt8(ascii: "]") { pos += 1; break }
                if buf[pos] == UInt8(ascii: ")") || buf[pos] == UInt8(ascii: ">") || buf[pos] == UInt8(ascii: "}") {
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
            return .array(items)
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

    package func isStructuralKeyword() -> Bool {
        // Every keyword below starts with e, s, o, x or t: check that byte before spelling them.
        guard pos < buf.count else { return false }
        switch buf[pos] {
        case UInt8(ascii: "e"), UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "x"), UInt8(ascii: "t"): break
        default: return false
        }
        return matches("endobj") || matches("stream") || matches("endstream") || matches("obj")
            || matches("xref") || matches("trailer") || matches("startxref")
    }

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

    package mutating func streamAfter(_ d: PDFDict) throws -> PDFObject {
        let save = pos
        do {
            try skipWhitespace()
        } catch is NeedMoreData {
            throw NeedMoreData()
        }
        guard matches("stream") else {
            pos = save
            return .dict(d)
        }
        pos += 6
        // The keyword is followed by CRLF or LF (a lone CR is tolerated).
        if pos < buf.count && buf[pos] == 0x0D { pos += 1 }
        if pos < buf.count && buf[pos] == 0x0A { pos += 1 }
        if pos >= buf.count && !atEOF { throw NeedMoreData() }
        return .stream(PDFStream(dict: d, dataOffset: base &+ pos, id: nil))
    }

    package mutating func parseName() throws -> String {
        pos += 1
        // Fast path: a name without `#` escapes is decoded straight from the buffer.
        let start = pos
        while pos < buf.count {
            let c = buf[pos]
            if isPDFWhite(c) || isPDFDelimiter(c) || c == UInt8(ascii: "#") { break }
            pos += 1
        }
        if pos < buf.count && buf[pos] != UInt8(ascii: "#") {
            return String(decoding: buf[start ..< pos], as: UTF8.self)
        }
        pos = start
        var bytes: [UInt8] = []
        while pos < buf.count {
            let c = buf[pos]
            if isPDFWhite(c) || isPDFDelimiter(c) { break }
            if c == UInt8(ascii: "#"), pos + 2 < buf.count, let h = hexValue(buf[pos + 1]), let l = hexValue(buf[pos + 2]) {
                bytes.append(h << 4 | l)
                pos += 3
                continue
            }
            bytes.append(c)
            pos += 1
        }
        if pos >= buf.count && !atEOF { throw NeedMoreData() }
        return String(decoding: bytes, as: UTF8.self)
    }

    package mutating func parseLiteralString() throws -> [UInt8] {
        let start = offset
        pos += 1
        var out: [UInt8] = []
        var level = 1
        while true {
            guard pos < buf.count else {
                if atEOF { throw PDFError(.truncated, "unterminated string", offset: start) }
                throw NeedMoreData()
            }
            let c = buf[pos]
            pos += 1
            switch c {
            case UInt8(ascii: "("):
                level += 1
                out.append(c)
            case UInt8(ascii: ")"):
                level -= 1
                if level == 0 { return out }
                out.append(c)
            case 0x0D:
                // An unescaped end of line (CR or CRLF) reads as a single LF.
                if pos < buf.count && buf[pos] == 0x0A { pos += 1 }
                out.append(0x0A)
            case UInt8(ascii: "\\"):
                guard pos < buf.count else {
                    if atEOF { throw PDFError(.truncated, "unterminated string", offset: start) }
                    throw NeedMoreData()
                }
                let e = buf[pos]
                pos += 1
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case 0x0D:
                    // Line continuation: backslash + EOL produces nothing.
                    if pos < buf.count && buf[pos] == 0x0A { pos += 1 }
                case 0x0A:
                    break
                case 0x30 ... 0x37:
                    var v = Int(e - 0x30)
                    var n = 1
                    while n < 3, pos < buf.count, buf[pos] >= 0x30, buf[pos] <= 0x37 {
                        v = v * 8 + Int(buf[pos] - 0x30)
                        pos += 1
                        n += 1
                    }
                    out.append(UInt8(truncatingIfNeeded: v)) // high-order overflow is ignored
                default:
                    out.append(e) // \( \) \\ and unknown escapes: the character itself
                }
            default:
                out.append(c)
            }
        }
    }

    package mutating func parseHexString() throws -> [UInt8] {
        let start = offset
        pos += 1
        var out: [UInt8] = []
        var high: UInt8? = nil
        while true {
            guard pos < buf.count else {
                if atEOF { throw PDFError(.truncated, "unterminated hex string", offset: start) }
                throw NeedMoreData()
            }
            let c = buf[pos]
            pos += 1
            if c == UInt8(ascii: ">") { break }
            guard let v = hexValue(c) else { continue } // whitespace and junk are ignored
            if let h = high {
                out.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        if let h = high { out.append(h << 4) } // odd digit count: a trailing 0 is assumed
        return out
    }

    package mutating func parseNumberOrKeyword() throws -> PDFObject {
        let tokStart = pos
        let tok = try regularToken()
        if tok.isEmpty {
            pos += 1
            throw PDFError(.syntax, "unexpected byte 0x\(String(buf[tokStart], radix: 16))", offset: base &+ tokStart)
        }
        if let n = Parser.number(tok) {
            if case .int(let num) = n, num >= 0 {
                // Lookahead for `num gen R`.
                let save = pos
                do {
                    try skipWhitespace()
                    if let gen = unsignedInt() {
                        try skipWhitespace()
                        if pos < buf.count && buf[pos] == UInt8(ascii: "R")
                            && (pos + 1 >= buf.count || isPDFWhite(buf[pos + 1]) || isPDFDelimiter(buf[pos + 1])) {
                            if pos + 1 >= buf.count && !atEOF { throw NeedMoreData() }
                            pos += 1
                            return .ref(ObjectID(num: num, gen: gen))
                        }
                    }
                } catch is NeedMoreData {
                    throw NeedMoreData()
                } catch {
                    // fall through: it is just a number
                }
                pos = save
            }
            return n
        }
        switch String(decoding: tok, as: UTF8.self) {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            pos = tokStart
            if isStructuralKeyword() { throw fail(.syntax, "unexpected keyword") }
            pos = tokStart + tok.count
            return .null // unknown keyword: tolerated as null
        }
    }

    /// Parses a numeric token leniently (`+5`, `-.5`, `--5`, `5.`); nil when it is not a number.
    package static func number(_ tok: ArraySlice<UInt8>) -> PDFObject? {
        var i = tok.startIndex
        var negative = false
        while i < tok.endIndex, tok[i] == UInt8(ascii: "-") || tok[i] == UInt8(ascii: "+") {
            if tok[i] == UInt8(ascii: "-") { negative.toggle() }
            i += 1
        }
        var intPart = 0
        var overflow = false
        var digits = 0
        var dot = false
        var frac = 0.0
        var scale = 0.1
        var dbl = 0.0
        while i < tok.endIndex {
            let c = tok[i]
            if isDigit(c) {
                digits += 1
                let d = Int(c - 0x30)
                if dot {
                    frac += Double(d) * scale
                    scale /= 10
                } else {
                    dbl = dbl * 10 + Double(d)
                    let (m, o1) = intPart.multipliedReportingOverflow(by: 10)
                    let (a, o2) = m.addingReportingOverflow(d)
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
        if dot || overflow {
            let v = dbl + frac
            return .real(negative ? -v : v)
        }
        return .int(negative ? -intPart : intPart)
    }
}
