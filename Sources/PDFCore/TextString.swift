/// A PDF text string: the raw bytes as stored (after decryption) and the text they decode to.
///
/// All text decoding happens here, in one place, in this order: a UTF-16BE byte-order mark
/// (`FE FF`), a UTF-16LE one (`FF FE`, written by some producers though the standard does not
/// allow it), a UTF-8 one (`EF BB BF`, PDF 2.0); without a mark, bytes that are valid UTF-8 *and*
/// contain a multi-byte sequence are read as UTF-8 (a common producer bug that PDFDocEncoding
/// would turn into mojibake such as `Ã©`), and everything else is PDFDocEncoding.
/// UTF-16 language-tag escapes (`U+001B … U+001B`) are dropped from the text.
public struct PDFTextString: Sendable, Hashable, CustomStringConvertible {
    /// How the bytes were interpreted.
    public enum Encoding: String, Sendable, Hashable {
        /// PDFDocEncoding (which includes plain ASCII).
        case pdfDoc
        /// UTF-16 big-endian with a byte-order mark.
        case utf16BE
        /// UTF-16 little-endian with a byte-order mark.
        case utf16LE
        /// UTF-8 with a byte-order mark.
        case utf8
        /// UTF-8 recognised without a byte-order mark (a heuristic; see the type's comment).
        case utf8WithoutBOM
    }

    /// The bytes of the string as stored in the file (escapes resolved, decrypted).
    public let bytes: [UInt8]
    /// The decoded text.
    public let text: String
    /// The interpretation that produced ``text``.
    public let encoding: Encoding

    /// Decodes raw string bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
        (self.text, self.encoding) = PDFTextString.decode(bytes)
    }

    /// Parses one string token in PDF syntax, a literal `(…)` or a hex `<…>` string, and decodes
    /// it; nil when the source is not a complete string token.
    public init?(syntax: some Sequence<UInt8>) {
        var p = Parser(Array(syntax), base: 0, atEOF: true)
        guard p.lexer.skipWhitespace() else { return nil }
        let raw: [UInt8]
        switch p.buf[p.pos] {
        // An unterminated string is no text string: nil, as the initializer promises.
        case UInt8(ascii: "("): guard let r = try? p.parseLiteralString() else { return nil }; raw = r
        case UInt8(ascii: "<"): guard let r = try? p.parseHexString() else { return nil }; raw = r
        default: return nil
        }
        self.init(bytes: raw)
    }

    /// The decoded text.
    public var description: String { text }

    package static func decode(_ b: [UInt8]) -> (String, Encoding) {
        b.withUnsafeBufferPointer { decode($0) }
    }

    package static func decode(_ b: UnsafeBufferPointer<UInt8>) -> (String, Encoding) {
        if b.count >= 2 && b[0] == 0xFE && b[1] == 0xFF {
            return (utf16(b, from: 2, bigEndian: true), .utf16BE)
        }
        if b.count >= 2 && b[0] == 0xFF && b[1] == 0xFE {
            return (utf16(b, from: 2, bigEndian: false), .utf16LE)
        }
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
            return (String(decoding: UnsafeBufferPointer(rebasing: b[3...]), as: UTF8.self), .utf8)
        }
        // One pass tells the common case: every byte below 0x80.
        var high = false
        var special = false
        for byte in b {
            if byte >= 0x80 { high = true; break }
            if byte >= 0x18 && byte <= 0x1F { special = true }
        }
        if high, let s = String(validatingUTF8Bytes: b) {
            return (s, .utf8WithoutBOM)
        }
        // PDFDocEncoding: bytes below 0x80, apart from 0x18–0x1F, are their own code points, so
        // such a string (the common case) is decoded in one go; otherwise the UTF-8 of each code
        // point is collected in one buffer and decoded once.
        if !high && !special {
            return (String(decoding: b, as: UTF8.self), .pdfDoc)
        }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(b.count * 3)
        for byte in b { UTF8.encode(pdfDocScalar(byte)) { utf8.append($0) } }
        return (String(decoding: utf8, as: UTF8.self), .pdfDoc)
    }

    package static func utf16(_ b: UnsafeBufferPointer<UInt8>, from start: Int, bigEndian: Bool) -> String {
        // Transcoded to UTF-8 here rather than through `String(decoding:as: UTF16.self)`, whose
        // general path is several times slower; the repair rule is the same: every unpaired
        // surrogate becomes one U+FFFD. Language escapes (ESC, a language code, ESC) are dropped.
        var out: [UInt8] = []
        out.reserveCapacity(b.count - start + 8)
        var inEscape = false
        var pendingHigh: UInt32? = nil
        func scalar(_ v: UInt32) {
            if v < 0x80 {
                out.append(UInt8(v))
            } else if v < 0x800 {
                out.append(UInt8(0xC0 | v >> 6)); out.append(UInt8(0x80 | v & 0x3F))
            } else if v < 0x10000 {
                out.append(UInt8(0xE0 | v >> 12)); out.append(UInt8(0x80 | v >> 6 & 0x3F))
                out.append(UInt8(0x80 | v & 0x3F))
            } else {
                out.append(UInt8(0xF0 | v >> 18)); out.append(UInt8(0x80 | v >> 12 & 0x3F))
                out.append(UInt8(0x80 | v >> 6 & 0x3F)); out.append(UInt8(0x80 | v & 0x3F))
            }
        }
        var i = start
        while i + 1 < b.count {
            let u = bigEndian ? UInt32(b[i]) << 8 | UInt32(b[i + 1]) : UInt32(b[i + 1]) << 8 | UInt32(b[i])
            i += 2
            if u == 0x1B { inEscape.toggle(); continue }
            if inEscape { continue }
            if u >= 0xDC00 && u <= 0xDFFF {
                if let h = pendingHigh {
                    scalar(0x10000 + ((h - 0xD800) << 10) + (u - 0xDC00))
                    pendingHigh = nil
                } else {
                    scalar(0xFFFD)
                }
                continue
            }
            if pendingHigh != nil { scalar(0xFFFD); pendingHigh = nil }
            if u >= 0xD800 && u <= 0xDBFF { pendingHigh = u; continue }
            scalar(u)
        }
        if pendingHigh != nil { scalar(0xFFFD) }
        return String(decoding: out, as: UTF8.self)
    }

    /// PDFDocEncoding (ISO 32000-2, Annex D). Undefined codes map to the same Latin-1 code point.
    package static func pdfDocScalar(_ byte: UInt8) -> Unicode.Scalar {
        let v: UInt32
        switch byte {
        case 0x18 ... 0x1F: v = pdfDoc18[Int(byte - 0x18)]
        case 0x80 ... 0xA0: v = pdfDoc80[Int(byte - 0x80)]
        default: v = UInt32(byte)
        }
        return Unicode.Scalar(v) ?? Unicode.Scalar(UInt8(byte))
    }

    package static let pdfDoc18: [UInt32] = [0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC]
    package static let pdfDoc80: [UInt32] = [
        0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044,
        0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C, 0x201D, 0x2018,
        0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160,
        0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0x009F,
        0x20AC,
    ]
}

extension String {
    /// Strict UTF-8 validation (the standard library's `String(validating:as:)` needs macOS 15).
    package init?(validatingUTF8Bytes b: UnsafeBufferPointer<UInt8>) {
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let len: Int
            var minScalar: UInt32
            var v: UInt32
            if c & 0xE0 == 0xC0 { len = 2; v = UInt32(c & 0x1F); minScalar = 0x80 }
            else if c & 0xF0 == 0xE0 { len = 3; v = UInt32(c & 0x0F); minScalar = 0x800 }
            else if c & 0xF8 == 0xF0 { len = 4; v = UInt32(c & 0x07); minScalar = 0x10000 }
            else { return nil }
            guard i + len <= n else { return nil }
            for k in 1 ..< len {
                let cc = b[i + k]
                guard cc & 0xC0 == 0x80 else { return nil }
                v = v << 6 | UInt32(cc & 0x3F)
            }
            guard v >= minScalar, v <= 0x10FFFF, !(0xD800 ... 0xDFFF).contains(v) else { return nil }
            i += len
            minScalar = 0
        }
        self = String(decoding: b, as: UTF8.self)
    }
}
