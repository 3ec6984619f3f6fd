import PDFCore

/// One token of a content stream: an operand, or an operator with its name packed into an integer.
enum ContentToken {
    /// An operand (number, name, string, array, dictionary, boolean, null).
    case operand(PDFObject)
    /// An operator, its bytes packed big-endian into the low bytes (`BT` is 0x4254); see ``Op``.
    case op(UInt32, offset: Int)
    /// An inline image: its dictionary (abbreviations as written) and its data.
    case inlineImage(PDFDict, [UInt8], offset: Int)
    /// A keyword longer than four bytes (no content operator is; CMaps use them).
    case longOp(String, offset: Int)
}

/// Tokenises a content stream with the same parser that reads the file's objects, so both read
/// one syntax. Damaged syntax is skipped byte by byte with a warning, never an error.
struct ContentLexer {
    private var parser: Parser
    /// Offsets (in the stream) of the syntax that was skipped, for warnings.
    private(set) var skipped: [Int] = []

    init(_ data: [UInt8], maxDepth: Int = 32) {
        parser = Parser(data, base: 0, atEOF: true, maxDepth: maxDepth)
    }

    var offset: Int { parser.pos }

    mutating func next() -> ContentToken? {
        while true {
            do {
                try parser.skipWhitespace()
            } catch {
                return nil
            }
            let buf = parser.buf
            guard parser.pos < buf.count else { return nil }
            let start = parser.pos
            let b = buf[start]
            do {
                switch b {
                case UInt8(ascii: "/"), UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "["):
                    return .operand(try parser.parseObject(depth: 0))
                case UInt8(ascii: "]"), UInt8(ascii: ")"), UInt8(ascii: ">"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                    parser.pos += 1
                    skipped.append(start)
                    continue
                default:
                    let tok = try parser.regularToken()
                    if tok.isEmpty { parser.pos += 1; skipped.append(start); continue }
                    if let n = Parser.number(tok) { return .operand(n) }
                    // A sign or point with no digit (`.`, `-`) is 0, as pdf.js and poppler read it
                    // in content: operators never start with these characters.
                    if tok.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }) {
                        return .operand(.int(0))
                    }
                    if tok.count > 4 {
                        if tok.elementsEqual("false".utf8) { return .operand(.bool(false)) }
                        return .longOp(String(decoding: tok, as: UTF8.self), offset: start)
                    }
                    var key: UInt32 = 0
                    for c in tok { key = key << 8 | UInt32(c) }
                    switch key {
                    case Op.true_: return .operand(.bool(true))
                    case Op.null_: return .operand(.null)
                    case Op.BI: return inlineImage(at: start)
                    default: return .op(key, offset: start)
                    }
                }
            } catch {
                // A broken string, name or nesting: skip one byte and go on (as pdf.js does).
                parser.pos = start + 1
                skipped.append(start)
            }
        }
    }

    /// Reads `BI … ID data EI` after the `BI`.
    private mutating func inlineImage(at start: Int) -> ContentToken? {
        var dict = PDFDict()
        let buf = parser.buf
        while true {
            do { try parser.skipWhitespace() } catch { return nil }
            guard parser.pos < buf.count else { return nil }
            if parser.matches("ID") { parser.pos += 2; break }
            // A damaged inline-image dictionary: the image is skipped (the caller warns at `start`).
            guard let key = try? parser.parseObject(depth: 0), case .name(let k) = key,
                  let value = try? parser.parseObject(depth: 0) else {
                skipped.append(start)
                return nil
            }
            dict.append(k, value)
        }
        // One white-space byte after ID, then the data up to `EI` between white space.
        if parser.pos < buf.count && isPDFWhite(buf[parser.pos]) { parser.pos += 1 }
        let dataStart = parser.pos
        var end = dataStart
        if let n = Self.unfilteredLength(dict), dataStart + n <= buf.count {
            end = dataStart + n
            var i = end
            while i < buf.count && isPDFWhite(buf[i]) { i += 1 }
            if i + 1 < buf.count && buf[i] == UInt8(ascii: "E") && buf[i + 1] == UInt8(ascii: "I") {
                parser.pos = i + 2
                return .inlineImage(dict, Array(buf[dataStart ..< end]), offset: start)
            }
        }
        var i = dataStart
        while i + 1 < buf.count {
            if buf[i] == UInt8(ascii: "E") && buf[i + 1] == UInt8(ascii: "I")
                && (i == dataStart || isPDFWhite(buf[i - 1]))
                && (i + 2 >= buf.count || isPDFWhite(buf[i + 2]) || isPDFDelimiter(buf[i + 2]))
                && Self.looksLikeOperators(buf, from: i + 2) {
                end = i > dataStart && isPDFWhite(buf[i - 1]) ? i - 1 : i
                parser.pos = i + 2
                return .inlineImage(dict, Array(buf[dataStart ..< end]), offset: start)
            }
            i += 1
        }
        parser.pos = buf.count
        return .inlineImage(dict, Array(buf[dataStart...]), offset: start)
    }

    /// The data length of an inline image without filters, when its dictionary says enough.
    static func unfilteredLength(_ d: PDFDict) -> Int? {
        if (d["F"] ?? d["Filter"]) != nil { return nil }
        guard let w = (d["W"] ?? d["Width"])?.intValue, let h = (d["H"] ?? d["Height"])?.intValue,
              w > 0, h > 0, w < 1 << 16, h < 1 << 16 else { return nil }
        let mask = (d["IM"] ?? d["ImageMask"]).flatMap { if case .bool(let b) = $0 { return b } else { return nil } } ?? false
        let bpc = mask ? 1 : ((d["BPC"] ?? d["BitsPerComponent"])?.intValue ?? 8)
        guard [1, 2, 4, 8, 16].contains(bpc) else { return nil }
        var comps = 1
        if !mask {
            switch (d["CS"] ?? d["ColorSpace"])?.nameValue {
            case "RGB", "DeviceRGB", "CalRGB": comps = 3
            case "CMYK", "DeviceCMYK": comps = 4
            case "G", "DeviceGray", "CalGray", nil: comps = 1
            default:
                if case .array? = d["CS"] ?? d["ColorSpace"] { return nil }
                return nil
            }
        }
        return ((w * comps * bpc + 7) / 8) * h
    }

    /// Whether the bytes after a candidate `EI` read as text (operators), not as image data.
    static func looksLikeOperators(_ buf: [UInt8], from: Int) -> Bool {
        var i = from
        let end = min(buf.count, from + 32)
        while i < end {
            let c = buf[i]
            if c > 0x7E || (c < 0x20 && !isPDFWhite(c)) { return false }
            i += 1
        }
        return true
    }
}

/// The operators of content streams, packed as ``ContentToken/op(_:offset:)`` packs them.
enum Op {
    static func k(_ s: StaticString) -> UInt32 {
        var v: UInt32 = 0
        s.withUTF8Buffer { for c in $0 { v = v << 8 | UInt32(c) } }
        return v
    }
    static let true_ = k("true"), null_ = k("null"), BI = k("BI")
    static let q = k("q"), Q = k("Q"), cm = k("cm"), w = k("w"), J = k("J"), j = k("j"), M = k("M"), d = k("d")
    static let ri = k("ri"), i = k("i"), gs = k("gs")
    static let m = k("m"), l = k("l"), c = k("c"), v = k("v"), y = k("y"), h = k("h"), re = k("re")
    static let S = k("S"), s = k("s"), f = k("f"), F = k("F"), fStar = k("f*"), B = k("B"), BStar = k("B*")
    static let b = k("b"), bStar = k("b*"), n = k("n"), W = k("W"), WStar = k("W*")
    static let BT = k("BT"), ET = k("ET"), Tc = k("Tc"), Tw = k("Tw"), Tz = k("Tz"), TL = k("TL"), Tf = k("Tf")
    static let Tr = k("Tr"), Ts = k("Ts"), Td = k("Td"), TD = k("TD"), Tm = k("Tm"), TStar = k("T*")
    static let Tj = k("Tj"), TJ = k("TJ"), quote = k("'"), dquote = k("\"")
    static let d0 = k("d0"), d1 = k("d1")
    static let CS = k("CS"), cs = k("cs"), SC = k("SC"), SCN = k("SCN"), sc = k("sc"), scn = k("scn")
    static let G = k("G"), g = k("g"), RG = k("RG"), rg = k("rg"), K = k("K"), kk = k("k")
    static let sh = k("sh"), Do = k("Do"), MP = k("MP"), DP = k("DP"), BMC = k("BMC"), BDC = k("BDC"), EMC = k("EMC")
    static let BX = k("BX"), EX = k("EX")
}
