import CFreeType
import PDFCore

/// A font as a page uses it: how its string bytes split into codes, which glyph and advance each
/// code has, and the face that draws them (or, for Type 3, the glyph procedures).
final class PDFFont {
    enum Kind { case simple, composite, type3 }

    let kind: Kind
    /// The face that draws the glyphs (nil for Type 3, or when no font program could be loaded).
    var face: LoadedFace?
    /// Whether `face` is a substitute for a font the PDF does not embed.
    var isSubstitute = false
    /// The font's name, for warnings.
    let name: String

    // Simple fonts (and Type 3): per byte code.
    var glyphs = [UInt32](repeating: 0, count: 256)
    /// Advances in text space units per unit of font size (the PDF widths / 1000; Type 3: × FontMatrix).
    var widths = [Double](repeating: 0, count: 256)
    /// Horizontal scale per code that fits a substitute glyph to the PDF's advance (1 elsewhere).
    var glyphScale = [Double](repeating: 1, count: 256)
    /// Type 3: glyph names per code.
    var names = [String?](repeating: nil, count: 256)

    // Composite fonts.
    var cmap = CMap.identityH
    var codesAreUnicode = false
    /// The encoding CMap is a predefined one read from the installed resources: it gives real
    /// CIDs (for `/W` and CID-keyed fonts) even when the codes are Unicode.
    var cmapIsPredefined = false
    /// The character collection's CID-to-Unicode CMap, for a substitute font without `/ToUnicode`.
    var cidToUnicode: CMap? = nil
    var cidToGID: [UInt16]? = nil
    var cidWidths: [UInt32: Double] = [:]
    /// `/W`'s `c1 c2 w` ranges, sorted and disjoint (``DisjointRanges``).
    var cidWidthRanges: [(lo: UInt32, hi: UInt32, w: Double)] = []
    var defaultWidth = 1.0
    var passCIDs = false
    /// Vertical writing (an Identity-V or `/WMode 1` CMap): glyphs stack downwards.
    var vertical = false
    /// Vertical metrics per CID from `/W2`: the advance (negative: down) and the position vector,
    /// in text space units per unit of font size.
    var verticalMetrics: [UInt32: (w1: Double, vx: Double, vy: Double)] = [:]
    /// `/DW2`: the default position vector's y and vertical advance.
    var defaultVertical = (vy: 0.88, w1: -1.0)

    // Type 3.
    var fontMatrix = PDFMatrix(0.001, 0, 0, 0.001, 0, 0)
    var charProcs: PDFDict? = nil
    var resources: PDFDict? = nil

    var toUnicode: CMap? = nil
    /// The font dictionary's object number, for warnings and Type 3 recursion checks.
    let object: Int?
    /// An estimate of the bytes the font holds (for the cache's budget).
    var byteCount: Int { (face?.byteCount ?? 0) + 4096 }

    init(kind: Kind, name: String, object: Int?) {
        self.kind = kind
        self.name = name
        self.object = object
    }

    /// Splits a shown string into codes and their byte lengths.
    func codes(_ s: [UInt8]) -> [(code: UInt32, length: Int)] {
        if kind == .composite { return cmap.codes(s) }
        return s.map { (UInt32($0), 1) }
    }

    /// The glyph index Cairo draws for a code (0 = .notdef).
    func glyph(_ code: UInt32) -> UInt32 {
        switch kind {
        case .simple, .type3: return code < 256 ? glyphs[Int(code)] : 0
        case .composite:
            if codesAreUnicode {
                return face?.glyph(forCode: code) ?? 0
            }
            let cid = cmap.lookup(code) ?? 0
            if passCIDs { return cid }
            if let map = cidToGID { return Int(cid) < map.count ? UInt32(map[Int(cid)]) : 0 }
            if isSubstitute, let f = face {
                if let u = toUnicode?.unicode(code)?.first ?? cidToUnicode?.unicode(cid)?.first { return f.glyph(forCode: u) }
            }
            return cid
        }
    }

    /// The advance of a code in text space units per unit of font size.
    func width(_ code: UInt32) -> Double {
        switch kind {
        case .simple, .type3: return code < 256 ? widths[Int(code)] : 0
        case .composite:
            let cid = codesAreUnicode && !cmapIsPredefined ? code : (cmap.lookup(code) ?? 0)
            if let w = cidWidths[cid] { return w }
            if let k = DisjointRanges.find(cid, in: cidWidthRanges) { return cidWidthRanges[k].w }
            return defaultWidth
        }
    }

    /// The vertical advance and position vector of a code (vertical writing).
    func verticalMetrics(_ code: UInt32) -> (w1: Double, vx: Double, vy: Double) {
        let cid = codesAreUnicode && !cmapIsPredefined ? code : (cmap.lookup(code) ?? 0)
        if let m = verticalMetrics[cid] { return m }
        return (defaultVertical.w1, width(code) / 2, defaultVertical.vy)
    }

    func scale(_ code: UInt32) -> Double { kind == .simple && code < 256 ? glyphScale[Int(code)] : 1 }

    /// Whether a single-byte code 32 is a word space (Tw applies to it).
    func isSpace(_ code: UInt32, length: Int) -> Bool { code == 32 && length == 1 }
}

/// Loads fonts from their dictionaries.
struct FontLoader {
    let r: ResourceReader

    func load(_ fontObj: PDFObject) -> PDFFont? {
        let objNum = fontObj.refValue?.num
        guard let d = r.dict(fontObj) else {
            r.warn(.font, "font is not a dictionary", object: objNum)
            return nil
        }
        let subtype = r.name(d["Subtype"]) ?? "Type1"
        let base = r.name(d["BaseFont"]) ?? ""
        switch subtype {
        case "Type0": return loadComposite(d, base: base, object: objNum)
        case "Type3": return loadType3(d, object: objNum)
        default: return loadSimple(d, subtype: subtype, base: base, object: objNum)
        }
    }

    // MARK: Font programs

    /// The embedded font program of a descriptor, if any, loaded.
    func embeddedFace(_ desc: PDFDict?, object: Int?, name: String) -> LoadedFace? {
        guard let desc else { return nil }
        for key in ["FontFile", "FontFile2", "FontFile3"] {
            guard case .stream(let s) = r.resolve(desc[key]) else { continue }
            guard let data = r.streamData(s), !data.isEmpty else { continue }
            if let f = LoadedFace(bytes: data) { return f }
            r.warn(.font, "embedded font program of \(name) (/\(key)) does not load; a substitute draws it", object: s.id?.num ?? object)
        }
        return nil
    }

    /// The free substitute for a font that is not embedded, by its name and descriptor.
    func substituteFace(base: String, desc: PDFDict?, cjk: Bool = false) -> (LoadedFace, String)? {
        let flags = r.int(desc?["Flags"]) ?? 0
        let n = base.split(separator: "+").last.map(String.init)?.lowercased() ?? base.lowercased()
        let bold = n.contains("bold") || n.contains("black") || n.contains("heavy") || n.contains("semibold")
            || (r.number(desc?["FontWeight"]) ?? 400) >= 600 || flags & (1 << 18) != 0
        let italic = n.contains("italic") || n.contains("oblique") || flags & (1 << 6) != 0
            || (r.number(desc?["ItalicAngle"]) ?? 0) != 0
        var family: String
        if cjk {
            family = (n.contains("mincho") || n.contains("song") || n.contains("ming") || n.contains("batang") || flags & 2 != 0)
                ? "Noto Serif CJK JP" : "Noto Sans CJK JP"
        } else if n.contains("symbol") {
            // Adobe's Symbol is a serif design.
            family = "DejaVu Serif"
        } else if n.contains("dingbat") {
            family = "DejaVu Sans"
        } else if n.contains("courier") || n.contains("mono") || n.contains("consol") || flags & 1 != 0 {
            family = "Liberation Mono"
        } else if n.contains("times") || n.contains("serif") && !n.contains("sans") || n.contains("roman") || n.contains("georgia")
                    || n.contains("garamond") || n.contains("palatino") || n.contains("book") || n.contains("cambria")
                    || (flags & 2 != 0 && !n.contains("arial") && !n.contains("helvetica")) {
            family = "Liberation Serif"
        } else {
            family = "Liberation Sans"
        }
        if let bytes = SubstituteFonts.bytes(family: family, bold: bold, italic: italic)
            ?? SubstituteFonts.bytes(family: family, bold: false, italic: false),
           let f = LoadedFace(bytes: bytes) {
            return (f, family)
        }
        if cjk, let bytes = SubstituteFonts.bytes(family: "Noto Sans CJK JP", bold: false, italic: false), let f = LoadedFace(bytes: bytes) {
            family = "Noto Sans CJK JP"
            return (f, family)
        }
        return nil
    }

    // MARK: Simple fonts

    func loadSimple(_ d: PDFDict, subtype: String, base: String, object: Int?) -> PDFFont? {
        let font = PDFFont(kind: .simple, name: base.isEmpty ? subtype : base, object: object)
        let desc = r.dict(d["FontDescriptor"])
        let flags = r.int(desc?["Flags"]) ?? 0
        let symbolic = flags & 4 != 0 && flags & 32 == 0
        let stripped = base.split(separator: "+").last.map(String.init) ?? base
        let isSymbolFont = stripped.hasPrefix("Symbol") || stripped.hasPrefix("ZapfDingbats") || stripped.hasPrefix("Dingbats")
        if case .stream(let s) = r.resolve(d["ToUnicode"]), let data = r.streamData(s) { font.toUnicode = CMap.parse(data) }

        var face = embeddedFace(desc, object: object, name: font.name)
        if face == nil {
            if let (f, family) = substituteFace(base: base, desc: desc) {
                face = f
                font.isSubstitute = true
                r.warn(.fontSubstituted, "\(font.name) is not embedded; drawn with \(family)", object: object)
            } else {
                r.warn(.font, "\(font.name) is not embedded and no substitute font was found; its text is not drawn", object: object)
                return font
            }
        }
        guard let face else { return font }
        font.face = face
        let isTrueType = subtype == "TrueType" && !font.isSubstitute
            || (font.isSubstitute == false && face.hasCharmap(platform: 3, encoding: 0) && !face.hasGlyphNames)

        // The encoding: a base (named, or the font's own), then /Differences.
        var names = [String?](repeating: nil, count: 256)
        var baseNamed = false
        let encObj = r.resolve(d["Encoding"])
        var baseName: String? = encObj.nameValue
        var diffs: [PDFObject] = []
        if let ed = encObj.dict {
            baseName = r.name(ed["BaseEncoding"])
            diffs = r.array(ed["Differences"]) ?? []
        }
        if let baseName, let table = GlyphTables.encoding(named: baseName) {
            names = table; baseNamed = true
        } else if font.isSubstitute {
            if stripped.hasPrefix("Symbol") { names = GlyphTables.symbolEncoding }
            else if isSymbolFont { names = GlyphTables.zapfDingbatsEncoding }
            else { names = GlyphTables.standardEncoding }
            baseNamed = true
        } else if isTrueType && !symbolic {
            names = GlyphTables.standardEncoding; baseNamed = true
        }
        let hasDiffs = Self.applyDifferences(diffs, to: &names)
        font.names = names

        // Code → glyph.
        if isTrueType {
            mapTrueType(font, face: face, names: names, symbolic: symbolic, encoded: baseNamed || hasDiffs)
        } else if font.isSubstitute {
            _ = face.selectEncoding(FT_ENCODING_UNICODE)
            let dingbats = isSymbolFont && !stripped.hasPrefix("Symbol")
            for c in 0 ..< 256 {
                var u: UInt32? = nil
                if let n = names[c] {
                    u = dingbats ? (GlyphTables.dingbatsUnicode(forGlyphName: n) ?? GlyphTables.unicode(forGlyphName: n)?.first)
                        : GlyphTables.unicode(forGlyphName: n)?.first
                }
                if u == nil { u = font.toUnicode?.unicode(UInt32(c))?.first }
                if let u { font.glyphs[c] = face.glyph(forCode: u) }
            }
        } else {
            // Type 1 and CFF: glyph names, else the font's built-in encoding, else Unicode.
            var builtin = [UInt32](repeating: 0, count: 256)
            if face.selectEncoding(FT_ENCODING_ADOBE_CUSTOM) || face.selectEncoding(FT_ENCODING_ADOBE_EXPERT)
                || face.selectEncoding(FT_ENCODING_ADOBE_STANDARD) {
                for c in 0 ..< 256 { builtin[c] = face.glyph(forCode: UInt32(c)) }
            }
            let hasUnicode = face.selectEncoding(FT_ENCODING_UNICODE)
            for c in 0 ..< 256 {
                var g: UInt32 = 0
                if let n = names[c] {
                    g = face.glyph(named: n)
                    if g == 0, hasUnicode, let u = GlyphTables.unicode(forGlyphName: n)?.first { g = face.glyph(forCode: u) }
                    if g == 0, !baseNamed || n == ".notdef" { g = builtin[c] }
                } else {
                    g = builtin[c]
                }
                if g == 0 && names[c] == nil && !baseNamed, let u = font.toUnicode?.unicode(UInt32(c))?.first, hasUnicode {
                    g = face.glyph(forCode: u)
                }
                font.glyphs[c] = g
            }
        }

        setSimpleWidths(font, d, desc: desc, face: face)
        return font
    }

    /// A simple font's widths: /Widths from /FirstChar, else the font's own advances; a
    /// substitute's glyphs scaled to the widths the PDF gives.
    func setSimpleWidths(_ font: PDFFont, _ d: PDFDict, desc: PDFDict?, face: LoadedFace) {
        let first = max(-1, min(256, r.int(d["FirstChar"]) ?? 0))
        let missing = (r.number(desc?["MissingWidth"]) ?? 0) / 1000
        let ws = r.numbers(d["Widths"])
        for c in 0 ..< 256 {
            var w: Double? = nil
            if let ws, c >= first, c - first < ws.count { w = ws[c - first] / 1000 }
            if w == nil {
                if ws != nil && missing > 0 { w = missing } else if font.glyphs[c] != 0, let a = face.advance(font.glyphs[c]) { w = a / 1000 }
            }
            font.widths[c] = w ?? missing
            if font.isSubstitute, let pdfW = w, font.glyphs[c] != 0, let a = face.advance(font.glyphs[c]), a > 0 {
                let s = pdfW * 1000 / a
                font.glyphScale[c] = s > 0.5 && s < 2 ? s : 1
            }
        }
    }

    /// Applies an encoding's `/Differences` (a code, then the names from that code on) to a table
    /// of glyph names; returns whether it named any glyph.
    @discardableResult
    static func applyDifferences(_ diffs: [PDFObject], to names: inout [String?]) -> Bool {
        var code = 0
        var any = false
        for item in diffs {
            switch item {
            case .int(let c): code = max(-1, min(256, c))
            case .real(let c): code = max(-1, min(256, toInt(c)))
            case .name(let n):
                if code >= 0 && code < 256 { names[code] = n; any = true }
                code = min(256, code + 1)
            default: break
            }
        }
        return any
    }

    /// The glyph index a name like `g1234`, `glyph1234` or `gid1234` stands for in a font without
    /// glyph names (producers that subset by glyph index write such names into /Differences).
    static func glyphIndexName(_ name: String) -> UInt32? {
        for prefix in ["gid", "glyph", "g"] where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count)
            if !digits.isEmpty, digits.count <= 5, digits.allSatisfy(\.isASCII), let v = UInt32(digits) { return v }
        }
        return nil
    }

    /// The cmap choice for TrueType simple fonts, as pdf.js documents it: a Unicode cmap, (3,1)
    /// or else the Unicode platform's (0,*), through glyph names; the symbol cmap (3,0) with the
    /// code at 0xF000; the Macintosh cmap (1,0); then the `post` table's names.
    func mapTrueType(_ font: PDFFont, face: LoadedFace, names: [String?], symbolic: Bool, encoded: Bool) {
        var unicodeMap: (UInt16, UInt16)? = nil
        for candidate: (UInt16, UInt16) in [(3, 1), (0, 3), (0, 4), (0, 1), (0, 0), (0, 2), (0, 6), (3, 10)]
            where face.hasCharmap(platform: candidate.0, encoding: candidate.1) {
            unicodeMap = candidate
            break
        }
        let has30 = face.hasCharmap(platform: 3, encoding: 0)
        let has10 = face.hasCharmap(platform: 1, encoding: 0)
        for c in 0 ..< 256 {
            var g: UInt32 = 0
            let name = names[c]
            if (!symbolic || !has30), let um = unicodeMap {
                face.selectCharmap(platform: um.0, encoding: um.1)
                var u: UInt32? = nil
                if let name { u = GlyphTables.unicode(forGlyphName: name)?.first }
                if u == nil && (!encoded || symbolic) { u = UInt32(c) }
                if let u { g = face.glyph(forCode: u) }
                if g == 0 && symbolic { g = face.glyph(forCode: UInt32(c)) }
                if g == 0, let u = font.toUnicode?.unicode(UInt32(c))?.first { g = face.glyph(forCode: u) }
            }
            if g == 0 && has30 {
                face.selectCharmap(platform: 3, encoding: 0)
                for candidate in [UInt32(c), 0xF000 + UInt32(c), 0xF100 + UInt32(c), 0xF200 + UInt32(c)] {
                    g = face.glyph(forCode: candidate)
                    if g != 0 { break }
                }
            }
            if g == 0 && has10 {
                face.selectCharmap(platform: 1, encoding: 0)
                var code = UInt32(c)
                if let name, !symbolic, let mac = GlyphTables.macRomanEncoding.firstIndex(where: { $0 == name }) { code = UInt32(mac) }
                g = face.glyph(forCode: code)
            }
            if g == 0, let name { g = face.glyph(named: name) }
            if g == 0, let name, !face.hasGlyphNames, let gid = Self.glyphIndexName(name), Int(gid) < face.glyphCount { g = gid }
            if g == 0 && unicodeMap == nil && !has30 && !has10 && c < face.glyphCount { g = UInt32(c) }
            font.glyphs[c] = g
        }
    }

    // MARK: Composite fonts

    func loadComposite(_ d: PDFDict, base: String, object: Int?) -> PDFFont? {
        let font = PDFFont(kind: .composite, name: base.isEmpty ? "Type0" : base, object: object)
        guard let descendants = r.array(d["DescendantFonts"]), let cid = r.dict(descendants.first) else {
            r.warn(.font, "Type0 font \(font.name) has no descendant font", object: object)
            return nil
        }
        if case .stream(let s) = r.resolve(d["ToUnicode"]), let data = r.streamData(s) { font.toUnicode = CMap.parse(data) }
        // The encoding CMap.
        switch r.resolve(d["Encoding"]) {
        case .name(let n):
            if n == "Identity-H" || n == "Identity-V" {
                font.cmap = .identityH
                font.vertical = n == "Identity-V"
            } else if let c = PredefinedCMaps.named(n) {
                font.cmap = c
                font.cmapIsPredefined = true
                font.vertical = c.vertical || n.hasSuffix("-V")
                // Unicode-keyed CMaps: a substitute or a TrueType font can also find glyphs by
                // the codes themselves (chosen below, once the font program is known).
                font.codesAreUnicode = n.hasPrefix("Uni") && (n.contains("UCS2") || n.contains("UTF16"))
            } else if n.hasPrefix("Uni") && (n.contains("UCS2") || n.contains("UTF16")) {
                font.cmap = .identityH
                font.codesAreUnicode = true
                font.vertical = n.hasSuffix("-V")
                r.warn(.font, "predefined CMap /\(n) of \(font.name) is not installed (poppler-data); codes read as Unicode", object: object)
            } else {
                font.cmap = .identityH
                r.warn(.font, "predefined CMap /\(n) of \(font.name) is not installed (poppler-data); codes read as CIDs", object: object)
            }
        case .stream(let s):
            if let data = r.streamData(s) {
                font.cmap = CMap.parse(data)
                // An embedded CMap may extend a predefined one (`usecmap`, or `/UseCMap /Name`).
                if let base = font.cmap.useCMap ?? r.name(s.dict["UseCMap"]) {
                    if let b = PredefinedCMaps.named(base) { font.cmap = font.cmap.over(b) } else {
                        r.warn(.font, "the CMap of \(font.name) extends /\(base), which is not installed; its own mappings only", object: object)
                    }
                }
            }
            font.vertical = font.cmap.vertical || r.int(s.dict["WMode"]) == 1
        default:
            r.warn(.font, "Type0 font \(font.name) has no usable /Encoding; Identity-H assumed", object: object)
        }
        setCIDWidths(font, cid)
        let desc = r.dict(cid["FontDescriptor"])
        let cidSubtype = r.name(cid["Subtype"]) ?? "CIDFontType2"
        if let face = embeddedFace(desc, object: object, name: font.name) {
            font.face = face
            if cidSubtype == "CIDFontType2" || !face.isCIDKeyed {
                switch r.resolve(cid["CIDToGIDMap"]) {
                case .stream(let s):
                    if let data = r.streamData(s) {
                        var map = [UInt16](repeating: 0, count: data.count / 2)
                        for k in 0 ..< map.count { map[k] = UInt16(data[2 * k]) << 8 | UInt16(data[2 * k + 1]) }
                        font.cidToGID = map
                    }
                default: break
                }
                if font.codesAreUnicode { _ = face.selectEncoding(FT_ENCODING_UNICODE) }
            } else {
                font.passCIDs = true
                // A CID-keyed CFF font is indexed by CID: Unicode codes go through the CMap.
                if font.cmapIsPredefined { font.codesAreUnicode = false }
            }
        } else {
            // `/Ordering` is a string, as the specification writes it; some producers write a name.
            let orderingValue = r.resolve(r.dict(cid["CIDSystemInfo"])?["Ordering"])
            let ordering: String
            switch orderingValue {
            case .string(let b): ordering = String(decoding: b, as: UTF8.self)
            case .name(let n): ordering = n
            default: ordering = ""
            }
            let cjk = ["Japan1", "GB1", "CNS1", "Korea1"].contains(where: { ordering.contains($0) }) || font.codesAreUnicode
            if let (face, family) = substituteFace(base: base, desc: desc, cjk: cjk) {
                font.face = face
                font.isSubstitute = true
                _ = face.selectEncoding(FT_ENCODING_UNICODE)
                if !font.codesAreUnicode && font.toUnicode == nil && font.cmapIsPredefined,
                   let u = PredefinedCMaps.unicode(ordering: ordering) {
                    font.cidToUnicode = u
                    r.warn(.fontSubstituted, "\(font.name) is not embedded; drawn with \(family) through the \(ordering) collection's Unicode mapping", object: object)
                } else if !font.codesAreUnicode && font.toUnicode == nil {
                    // Producers that do not embed a TrueType CID font write its glyph indices as
                    // CIDs; the free substitutes keep much of the common fonts' glyph order.
                    r.warn(.font, "\(font.name) is neither embedded nor mapped to Unicode; its CIDs are drawn as glyph indices of \(family), which may be wrong", object: object)
                } else {
                    r.warn(.fontSubstituted, "\(font.name) is not embedded; drawn with \(family) through its Unicode mapping", object: object)
                }
            } else {
                r.warn(.font, "\(font.name) is not embedded and no substitute was found; its text is not drawn", object: object)
            }
        }
        return font
    }

    /// A CID font's horizontal widths (/DW, /W) and, when it is written vertically, its vertical
    /// metrics (/DW2, /W2); at most 2^20 entries each.
    func setCIDWidths(_ font: PDFFont, _ cid: PDFDict) {
        font.defaultWidth = (r.number(cid["DW"]) ?? 1000) / 1000
        if let w = r.array(cid["W"]) {
            var ranges: [(lo: UInt32, hi: UInt32, w: Double)] = []
            defer {
                font.cidWidthRanges = DisjointRanges.make(ranges.map { ($0.lo, $0.hi) }).map { ($0.lo, $0.hi, ranges[$0.index].w) }
            }
            var i = 0
            while i < w.count && font.cidWidths.count < 1 << 20 {
                guard let c1 = r.int(w[i]), c1 >= 0 else { break }
                if i + 1 < w.count, let list = r.numbers(w[i + 1]) {
                    for (k, v) in list.enumerated() { font.cidWidths[UInt32(clamping: c1 &+ k)] = v / 1000 }
                    i += 2
                } else if i + 2 < w.count, let c2 = r.int(w[i + 1]), let v = r.number(w[i + 2]), c2 >= c1 {
                    ranges.append((UInt32(clamping: c1), UInt32(clamping: c2), v / 1000))
                    i += 3
                } else {
                    break
                }
            }
        }
        if font.vertical {
            if let d2 = r.numbers(cid["DW2"]), d2.count >= 2 { font.defaultVertical = (d2[0] / 1000, d2[1] / 1000) }
            if let w2 = r.array(cid["W2"]) {
                var i = 0
                while i < w2.count && font.verticalMetrics.count < 1 << 20 {
                    guard let c1 = r.int(w2[i]), c1 >= 0 else { break }
                    if i + 1 < w2.count, let list = r.numbers(w2[i + 1]) {
                        var k = 0
                        while k + 2 < list.count {
                            font.verticalMetrics[UInt32(clamping: c1 &+ k / 3)] = (list[k] / 1000, list[k + 1] / 1000, list[k + 2] / 1000)
                            k += 3
                        }
                        i += 2
                    } else if i + 4 < w2.count, let c2 = r.int(w2[i + 1]), c2 >= c1, c2 - c1 < 1 << 16,
                              let w1 = r.number(w2[i + 2]), let vx = r.number(w2[i + 3]), let vy = r.number(w2[i + 4]) {
                        for c in c1 ... c2 { font.verticalMetrics[UInt32(clamping: c)] = (w1 / 1000, vx / 1000, vy / 1000) }
                        i += 5
                    } else {
                        break
                    }
                }
            }
        }
    }

    // MARK: Type 3

    func loadType3(_ d: PDFDict, object: Int?) -> PDFFont? {
        let font = PDFFont(kind: .type3, name: "Type3", object: object)
        font.fontMatrix = r.matrix(d["FontMatrix"]) ?? font.fontMatrix
        font.charProcs = r.dict(d["CharProcs"])
        font.resources = r.dict(d["Resources"])
        var names = [String?](repeating: nil, count: 256)
        let enc = r.dict(d["Encoding"])
        if let base = r.name(enc?["BaseEncoding"]), let t = GlyphTables.encoding(named: base) { names = t }
        Self.applyDifferences(r.array(enc?["Differences"]) ?? [], to: &names)
        font.names = names
        let first = max(-1, min(256, r.int(d["FirstChar"]) ?? 0))
        let ws = r.numbers(d["Widths"]) ?? []
        for (k, w) in ws.enumerated() where first + k >= 0 && first + k < 256 {
            // Widths are in glyph space: to text space through the font matrix.
            font.widths[first + k] = w * font.fontMatrix.a
        }
        return font
    }
}
