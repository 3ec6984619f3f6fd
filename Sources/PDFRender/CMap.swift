import PDFCore

/// A CMap: byte codes to CIDs (a Type 0 font's `/Encoding`) or to Unicode text (`/ToUnicode`).
/// Reads embedded CMap streams: code-space ranges, `cidchar`/`cidrange`, `bfchar`/`bfrange`.
struct CMap {
    /// Code-space ranges by byte length: (length, low, high).
    var codespace: [(n: Int, lo: UInt32, hi: UInt32)] = []
    /// Single mappings, code → value (a CID, or the first Unicode scalar).
    var single: [UInt32: UInt32] = [:]
    /// Range mappings: (lo, hi, start value).
    var ranges: [(lo: UInt32, hi: UInt32, start: UInt32)] = []
    /// Multi-scalar Unicode values (ligatures in ToUnicode).
    var strings: [UInt32: [UInt32]] = [:]
    /// Whether the CMap writes vertically (`/WMode 1`).
    var vertical = false
    /// The CMap named by `usecmap`, whose mappings this one extends.
    var useCMap: String? = nil
    /// `ranges` as sorted, disjoint pieces, each naming the range that gives its values (the
    /// last one defined, as a reversed search of `ranges` finds it): a binary search a code.
    private var rangeIndex: [(lo: UInt32, hi: UInt32, index: Int)] = []

    static let identityH: CMap = {
        var c = CMap()
        c.codespace = [(2, 0, 0xFFFF)]
        c.ranges = [(0, 0xFFFF, 0)]
        c.indexRanges()
        return c
    }()

    /// Builds the lookup index of `ranges`; call after changing them.
    mutating func indexRanges() {
        let pieces = DisjointRanges.make(ranges.reversed().map { ($0.lo, $0.hi) })
        rangeIndex = pieces.map { ($0.lo, $0.hi, ranges.count - 1 - $0.index) }
    }

    /// This CMap over `base` (the CMap it names by `usecmap`): its own mappings win.
    func over(_ base: CMap) -> CMap {
        var c = base
        c.codespace += codespace
        for (k, v) in single { c.single[k] = v }
        for (k, v) in strings { c.strings[k] = v }
        c.ranges += ranges
        c.vertical = vertical || base.vertical
        c.useCMap = nil
        c.indexRanges()
        return c
    }

    /// Splits a string into codes by the code-space ranges (two bytes per code when none are known).
    func codes(_ bytes: [UInt8]) -> [(code: UInt32, length: Int)] {
        var out: [(UInt32, Int)] = []
        out.reserveCapacity(bytes.count / 2 + 1)
        var i = 0
        let spaces = codespace.isEmpty ? [(n: 2, lo: UInt32(0), hi: UInt32(0xFFFF))] : codespace
        while i < bytes.count {
            var matched = false
            var code: UInt32 = 0
            for n in 1 ... 4 where i + n <= bytes.count {
                code = code << 8 | UInt32(bytes[i + n - 1])
                if spaces.contains(where: { $0.n == n && code >= $0.lo && code <= $0.hi }) {
                    out.append((code, n)); i += n; matched = true
                    break
                }
            }
            if !matched {
                // Not in any range: take the shortest range's length (as pdf.js does).
                let n = min(spaces.map(\.n).min() ?? 1, bytes.count - i)
                var c: UInt32 = 0
                for k in 0 ..< n { c = c << 8 | UInt32(bytes[i + k]) }
                out.append((c, n)); i += n
            }
        }
        return out
    }

    /// The value of a code, nil when unmapped.
    func lookup(_ code: UInt32) -> UInt32? {
        if let v = single[code] { return v }
        guard rangeIndex.count > 0 || ranges.isEmpty else {
            for r in ranges.reversed() where code >= r.lo && code <= r.hi { return r.start &+ (code - r.lo) }
            return nil
        }
        guard let k = DisjointRanges.find(code, in: rangeIndex) else { return nil }
        let r = ranges[rangeIndex[k].index]
        return r.start &+ (code - r.lo)
    }

    /// The Unicode text of a code (ToUnicode CMaps).
    func unicode(_ code: UInt32) -> [UInt32]? {
        if let s = strings[code] { return s }
        return lookup(code).map { [$0] }
    }

    /// Parses a CMap stream's text; `usecmap` of a predefined CMap is left to the caller.
    static func parse(_ data: [UInt8], maxEntries: Int = 1 << 20) -> CMap {
        var c = CMap()
        var lex = ContentLexer(data)
        var operands: [PDFObject] = []
        var mode = ""
        var entries = 0
        while let t = lex.next(), entries < maxEntries {
            switch t {
            case .operand(let o):
                operands.append(o)
            case .inlineImage:
                operands.removeAll()
            case .op, .longOp:
                let name: String
                switch t {
                case .op(let k, _): name = opName(k)
                case .longOp(let s, _): name = s
                default: name = ""
                }
                switch name {
                case "begincodespacerange", "begincidchar", "begincidrange", "beginbfchar", "beginbfrange":
                    mode = name; operands.removeAll()
                case "endcodespacerange":
                    var i = 0
                    while i + 1 < operands.count {
                        if case .string(let lo) = operands[i], case .string(let hi) = operands[i + 1], !lo.isEmpty, lo.count <= 4 {
                            c.codespace.append((lo.count, bytesValue(operands[i]) ?? 0, bytesValue(.string(hi)) ?? 0))
                        }
                        i += 2
                    }
                    operands.removeAll(); mode = ""
                case "endcidchar":
                    var i = 0
                    while i + 1 < operands.count {
                        if let code = bytesValue(operands[i]), let cid = operands[i + 1].intValue { c.single[code] = UInt32(clamping: cid); entries += 1 }
                        i += 2
                    }
                    operands.removeAll(); mode = ""
                case "endcidrange":
                    var i = 0
                    while i + 2 < operands.count {
                        if let lo = bytesValue(operands[i]), let hi = bytesValue(operands[i + 1]), let cid = operands[i + 2].intValue, hi >= lo {
                            c.ranges.append((lo, hi, UInt32(clamping: cid))); entries += 1
                        }
                        i += 3
                    }
                    operands.removeAll(); mode = ""
                case "endbfchar":
                    entries += c.addBFChars(operands)
                    operands.removeAll(); mode = ""
                case "endbfrange":
                    entries += c.addBFRanges(operands)
                    operands.removeAll(); mode = ""
                case "def":
                    if operands.count >= 2, case .name("WMode") = operands[operands.count - 2], operands.last?.intValue == 1 {
                        c.vertical = true
                    }
                    operands.removeAll()
                case "usecmap":
                    if case .name(let n)? = operands.last { c.useCMap = n }
                    operands.removeAll()
                default:
                    if mode.isEmpty { operands.removeAll() }
                }
            }
        }
        c.indexRanges()
        return c
    }

    /// The code a string of one to four bytes spells (big-endian); nil for any other operand.
    static func bytesValue(_ o: PDFObject) -> UInt32? {
        guard case .string(let b) = o, !b.isEmpty, b.count <= 4 else { return nil }
        return b.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// UTF-16BE bytes as Unicode scalars (a single byte: its own value).
    static func utf16Scalars(_ b: [UInt8]) -> [UInt32] {
        var units: [UInt16] = []
        var i = 0
        while i + 1 < b.count { units.append(UInt16(b[i]) << 8 | UInt16(b[i + 1])); i += 2 }
        if b.count == 1 { return [UInt32(b[0])] }
        return String(decoding: units, as: UTF16.self).unicodeScalars.map(\.value)
    }

    /// A `bfchar` block's pairs (a code, then a UTF-16 string or a glyph name); returns how many
    /// codes it read.
    mutating func addBFChars(_ operands: [PDFObject]) -> Int {
        var entries = 0
        var i = 0
        while i + 1 < operands.count {
            if let code = Self.bytesValue(operands[i]) {
                switch operands[i + 1] {
                case .string(let dst):
                    let u = Self.utf16Scalars(dst)
                    if u.count == 1 { single[code] = u[0] } else if !u.isEmpty { strings[code] = u }
                case .name(let n):
                    if let u = GlyphTables.unicode(forGlyphName: n) { strings[code] = u }
                default: break
                }
                entries += 1
            }
            i += 2
        }
        return entries
    }

    /// A `bfrange` block's triples (low code, high code, then a UTF-16 string whose last unit
    /// counts up, or an array of strings); returns how many ranges it read.
    mutating func addBFRanges(_ operands: [PDFObject]) -> Int {
        var entries = 0
        var i = 0
        while i + 2 < operands.count {
            if let lo = Self.bytesValue(operands[i]), let hi = Self.bytesValue(operands[i + 1]), hi >= lo, hi - lo < 1 << 16 {
                switch operands[i + 2] {
                case .string(let dst):
                    let u = Self.utf16Scalars(dst)
                    if u.count == 1 { ranges.append((lo, hi, u[0])) } else if !u.isEmpty {
                        for (k, code) in (lo ... hi).enumerated() {
                            var v = u; v[v.count - 1] &+= UInt32(k)
                            strings[code] = v
                        }
                    }
                case .array(let items):
                    for (k, item) in items.enumerated() where UInt32(k) <= hi - lo {
                        if case .string(let dst) = item { strings[lo &+ UInt32(k)] = Self.utf16Scalars(dst) }
                    }
                default: break
                }
                entries += 1
            }
            i += 3
        }
        return entries
    }

    static func opName(_ k: UInt32) -> String {
        var bytes: [UInt8] = []
        var v = k
        while v != 0 { bytes.insert(UInt8(v & 0xFF), at: 0); v >>= 8 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
