import CCairo
import PDFCore

/// Annotations: appearance streams, and for annotations without one, what viewers draw from the
/// dictionary (markup shapes, form fields' values, free text).
extension PDFPageDocument {
    func drawAnnotations(_ e: PageEntry, ctx: RenderContext, device: CairoDevice, base: PDFMatrix) {
        for a in reader.array(e.dict["Annots"]) ?? [] {
            guard let ad = reader.dict(a) else { continue }
            let flags = reader.int(ad["F"]) ?? 0
            if flags & 2 != 0 || flags & 32 != 0 { continue } // Hidden, NoView
            if ad["OC"] != nil && !optionalContent.isVisible(ad["OC"], reader) { continue }
            guard let rect = reader.rect(ad["Rect"]) else { continue }
            guard let ap = reader.dict(ad["AP"]) else {
                switch reader.name(ad["Subtype"]) {
                case "Widget", "FreeText": drawFieldWithoutAppearance(ad, rect: rect, ctx: ctx, device: device, base: base)
                default: drawWithoutAppearance(ad, rect: rect, device: device, base: base)
                }
                continue
            }
            var normal = reader.resolve(ap["N"])
            if case .dict(let states) = normal {
                guard let state = reader.name(ad["AS"]), let s = states[state] else { continue }
                normal = reader.resolve(s)
            }
            guard case .stream(let form) = normal else { continue }
            let bbox = reader.rect(form.dict["BBox"]) ?? rect
            let fm = reader.matrix(form.dict["Matrix"]) ?? .identity
            let tb = bbox.transformed(fm)
            guard tb.width > 0, tb.height > 0 else { continue }
            // Algorithm 8.1: the form's transformed box is mapped onto the annotation's rectangle.
            let a = PDFMatrix.translation(-tb.x0, -tb.y0)
                .concatenating(.scaling(rect.width / tb.width, rect.height / tb.height))
                .concatenating(.translation(rect.x0, rect.y0))
            let interp = Interpreter(ctx: ctx, device: device, resources: nil, ctm: base)
            interp.drawForm(form, object: form.id?.num, extraMatrix: a)
        }
    }

    /// The colour of an annotation's `/C` or `/IC` array (gray, RGB or CMYK by its length).
    func annotationColor(_ o: PDFObject?) -> RGB? {
        guard let c = reader.numbers(o) else { return nil }
        switch c.count {
        case 1: return ColorSpace.gray.toRGB(c)
        case 3: return ColorSpace.rgb.toRGB(c)
        case 4: return ColorSpace.cmyk.toRGB(c)
        default: return nil
        }
    }

    /// Draws the markup annotations that come without an appearance stream (squares, circles,
    /// lines, polygons, ink, highlights and text decorations) from their dictionaries, as viewers do.
    func drawWithoutAppearance(_ ad: PDFDict, rect: PDFRect, device: CairoDevice, base: PDFMatrix) {
        let subtype = reader.name(ad["Subtype"]) ?? ""
        let stroke = annotationColor(ad["C"])
        let interior = annotationColor(ad["IC"])
        let alpha = clip(reader.number(ad["CA"]) ?? 1, 0, 1)
        var width = 1.0
        if let bs = reader.dict(ad["BS"]), let w = reader.number(bs["W"]) { width = w }
        else if let border = reader.numbers(ad["Border"]), border.count >= 3 { width = border[2] }
        var style = StrokeStyle()
        style.width = width
        if let bs = reader.dict(ad["BS"]), reader.name(bs["S"]) == "D" { style.dash = reader.numbers(bs["D"]) ?? [3] }
        func paint(_ c: RGB, blend: BlendMode = .normal) -> PaintState { PaintState(paint: .color(c), alpha: alpha, blend: blend, softMask: nil) }
        func draw(_ path: PDFPath, fill: RGB?, strokes: Bool) {
            if let fill { device.fill(path, ctm: base, rule: .nonZero, state: paint(fill)) }
            if strokes, let stroke, width > 0 { device.stroke(path, ctm: base, style: style, state: paint(stroke)) }
        }
        let quads = reader.numbers(ad["QuadPoints"]) ?? []
        var path = PDFPath()
        switch subtype {
        case "Square":
            let i = width / 2
            path.rectangle(rect.x0 + i, rect.y0 + i, rect.width - width, rect.height - width)
            draw(path, fill: interior, strokes: true)
        case "Circle":
            let i = width / 2
            let cx = (rect.x0 + rect.x1) / 2, cy = (rect.y0 + rect.y1) / 2
            let rx = max(0, rect.width / 2 - i), ry = max(0, rect.height / 2 - i), k = 0.5523
            path.move(cx + rx, cy)
            path.curve(cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry)
            path.curve(cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy)
            path.curve(cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry)
            path.curve(cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy)
            path.close()
            draw(path, fill: interior, strokes: true)
        case "Line":
            guard let l = reader.numbers(ad["L"]), l.count >= 4 else { return }
            path.move(l[0], l[1]); path.line(l[2], l[3])
            draw(path, fill: nil, strokes: true)
        case "Polygon", "PolyLine":
            guard let v = reader.numbers(ad["Vertices"]), v.count >= 4 else { return }
            path.move(v[0], v[1])
            var k = 2
            while k + 1 < v.count { path.line(v[k], v[k + 1]); k += 2 }
            if subtype == "Polygon" { path.close() }
            draw(path, fill: subtype == "Polygon" ? interior : nil, strokes: true)
        case "Ink":
            for stroke in reader.array(ad["InkList"]) ?? [] {
                guard let v = reader.numbers(stroke), v.count >= 2 else { continue }
                path.move(v[0], v[1])
                var k = 2
                while k + 1 < v.count { path.line(v[k], v[k + 1]); k += 2 }
            }
            style.cap = 1; style.join = 1
            draw(path, fill: nil, strokes: true)
        case "Highlight", "Underline", "StrikeOut", "Squiggly":
            guard let c = stroke else { return }
            var k = 0
            while k + 7 < quads.count {
                let q = Array(quads[k ..< k + 8])
                // Points: upper left, upper right, lower left, lower right.
                var p = PDFPath()
                if subtype == "Highlight" {
                    p.move(q[0], q[1]); p.line(q[2], q[3]); p.line(q[6], q[7]); p.line(q[4], q[5]); p.close()
                    device.fill(p, ctm: base, rule: .nonZero, state: paint(c, blend: .multiply))
                } else {
                    let h = abs(q[1] - q[5])
                    let t = subtype == "StrikeOut" ? 0.5 : 0.1
                    let y0 = q[5] + (q[1] - q[5]) * t, y1 = q[7] + (q[3] - q[7]) * t
                    p.move(q[4], y0); p.line(q[6], y1)
                    var s = StrokeStyle()
                    s.width = max(0.5, h / 14)
                    device.stroke(p, ctm: base, style: s, state: paint(c))
                }
                k += 8
            }
        default:
            break
        }
    }

    /// A form field's inheritable entry (`/FT`, `/V`, `/DA`, `/Q`, `/Ff`): the widget's own, else
    /// its nearest ancestor's through `/Parent` (at most 32 levels).
    func inheritedFieldEntry(_ ad: PDFDict, _ key: String) -> PDFObject? {
        var node: PDFDict? = ad
        var depth = 0
        while let d = node, depth < 32 {
            if let v = d[key] {
                let r = reader.resolve(v)
                if case .null = r {} else { return r }
            }
            node = reader.dict(d["Parent"])
            depth += 1
        }
        return nil
    }

    /// Draws a widget or free-text annotation that has no appearance stream as viewers do: a text
    /// field's or choice field's value (or a free-text annotation's `/Contents`) in the font and
    /// colour of its `/DA` with the form's `/DR` resources, a checked box or radio button as a
    /// check mark. The text is left-aligned and not wrapped (the page renderer has no text layout);
    /// a font size of 0 fits one line to the field's height.
    func drawFieldWithoutAppearance(_ ad: PDFDict, rect: PDFRect, ctx: RenderContext, device: CairoDevice, base: PDFMatrix) {
        let acroForm = reader.dict(catalog?["AcroForm"])
        let isFreeText = reader.name(ad["Subtype"]) == "FreeText"
        let flags = reader.int(inheritedFieldEntry(ad, "Ff")) ?? 0
        var text: [UInt8]? = nil
        switch isFreeText ? "FreeText" : reader.name(inheritedFieldEntry(ad, "FT")) {
        case "FreeText":
            if case .string(let b) = reader.resolve(ad["Contents"]) { text = b }
        case "Tx":
            guard flags & 8192 == 0 else { return } // a password field shows nothing readable
            if case .string(let b) = inheritedFieldEntry(ad, "V") { text = b }
        case "Ch":
            switch inheritedFieldEntry(ad, "V") {
            case .string(let b)?: text = b
            case .array(let a)?: if case .string(let b)? = a.first.map({ reader.resolve($0) }) { text = b }
            default: break
            }
        case "Btn":
            guard flags & 65536 == 0 else { return } // push buttons have no value to show
            let state = reader.name(ad["AS"]) ?? reader.name(inheritedFieldEntry(ad, "V"))
            guard let state, state != "Off" else { return }
            drawCheckMark(rect: rect, device: device, base: base)
            return
        default:
            return
        }
        guard let text, !text.isEmpty else { return }
        let da: [UInt8]
        if case .string(let b) = inheritedFieldEntry(ad, "DA") ?? ad["DA"].map({ reader.resolve($0) }) { da = b }
        else if case .string(let b) = reader.resolve(acroForm?["DA"]) { da = b }
        else { da = Array("/Helv 0 Tf 0 g".utf8) }
        let multiline = isFreeText || flags & 4096 != 0
        // A comb field (flag 25 with `/MaxLen`) spaces its characters into that many cells.
        let combCells = !multiline && flags & (1 << 24) != 0 ? reader.int(inheritedFieldEntry(ad, "MaxLen")) : nil
        let content = Self.fieldContent(text: text, appearance: da, width: rect.width, height: rect.height,
                                        multiline: multiline, combCells: combCells.flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil })
        var resources = reader.dict(acroForm?["DR"]) ?? [:]
        if reader.dict(resources["Font"]) == nil || reader.dict(reader.dict(resources["Font"])?["Helv"]) == nil {
            // `/Helv`, the usual default, named even when the form does not define it.
            var fonts = reader.dict(resources["Font"]) ?? [:]
            if reader.dict(fonts["Helv"]) == nil {
                fonts.append("Helv", .dict(["Type": .name("Font"), "Subtype": .name("Type1"), "BaseFont": .name("Helvetica"),
                                            "Encoding": .name("WinAnsiEncoding")]))
            }
            resources.append("Font", .dict(fonts))
        }
        let interp = Interpreter(ctx: ctx, device: device, resources: resources,
                                 ctm: PDFMatrix.translation(rect.x0, rect.y0).concatenating(base))
        interp.run(content, object: nil)
    }

    /// The content stream that shows `text` in a field of `width` × `height` points with the
    /// default appearance `appearance` (`/DA`): clipped to the field less a 1-point border, a
    /// 2-point padding, lines split at line breaks.
    static func fieldContent(text: [UInt8], appearance: [UInt8], width: Double, height: Double, multiline: Bool,
                             combCells: Int? = nil) -> [UInt8] {
        // The font size is the number before `Tf`; 0 asks for one line fitted to the height.
        var tokens = appearance.split(whereSeparator: { isPDFWhite($0) }).map { Array($0) }
        var size = 12.0
        if let tf = tokens.lastIndex(of: Array("Tf".utf8)), tf >= 1 {
            let given = Parser.number(tokens[tf - 1][...]).flatMap { o -> Double? in
                switch o {
                case .int(let i): return Double(i)
                case .real(let r): return r
                default: return nil
                }
            } ?? 0
            size = given > 0 ? given : (multiline ? 12 : max(1, min(100, ((height - 4) / 1.35).rounded(.down))))
            tokens[tf - 1] = Array(Self.pdfNumber(size).utf8)
        }
        guard let lines = Self.textLines(text) else { return [] }
        var out: [UInt8] = Array("/Tx BMC q 1 1 \(Self.pdfNumber(max(0, width - 2))) \(Self.pdfNumber(max(0, height - 2))) re W n BT ".utf8)
        out += Array(tokens.joined(separator: [UInt8(0x20)]))
        let leading = size * 1.15
        let firstBaseline = multiline ? height - 2 - size : (height - size) / 2 + size * 0.22
        if let cells = combCells {
            // Each character centred in its cell, its width taken as half the font size.
            let cell = width / Double(cells)
            var x = 0.0
            for (i, c) in (lines.first ?? []).prefix(cells).enumerated() {
                let left = Double(i) * cell + (cell - size * 0.5) / 2
                out += Array(" \(Self.pdfNumber(left - x)) \(Self.pdfNumber(i == 0 ? firstBaseline : 0)) Td".utf8)
                Self.appendShow([c], to: &out)
                x = left
            }
            out += Array(" ET Q EMC".utf8)
            return out
        }
        out += Array(" 2 \(Self.pdfNumber(firstBaseline)) Td".utf8)
        for (i, line) in lines.enumerated() where multiline || i == 0 {
            if i > 0 { out += Array(" 0 \(Self.pdfNumber(-leading)) Td".utf8) }
            Self.appendShow(line, to: &out)
        }
        out += Array(" ET Q EMC".utf8)
        return out
    }

    /// Appends ` (text) Tj`, the text's parentheses and backslashes escaped.
    static func appendShow(_ text: [UInt8], to out: inout [UInt8]) {
        out += Array(" (".utf8)
        for c in text {
            if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
            out.append(c)
        }
        out += Array(") Tj".utf8)
    }

    /// `v` as a PDF number with at most three decimals (no exponent), the same text everywhere.
    static func pdfNumber(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let m = Int((abs(v) * 1000).rounded())
        let whole = m / 1000, frac = m % 1000
        var s = (v < 0 && m != 0 ? "-" : "") + String(whole)
        if frac != 0 {
            var f = String(frac)
            f = String(repeating: "0", count: 3 - f.count) + f
            while f.last == "0" { f.removeLast() }
            s += "." + f
        }
        return s
    }

    /// A text string's lines as single-byte text for a simple font: UTF-16 and UTF-8 decoded to
    /// Latin-1, split at CR, LF and CRLF. Nil when a character has no Latin-1 form: such text is
    /// not drawn (as poppler does) rather than drawn as question marks.
    static func textLines(_ text: [UInt8]) -> [[UInt8]]? {
        var bytes = text
        if text.count >= 2 && ((text[0] == 0xFE && text[1] == 0xFF) || (text[0] == 0xFF && text[1] == 0xFE)
                                || (text.count >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF)) {
            let scalars = PDFTextString(bytes: text).text.unicodeScalars
            guard scalars.allSatisfy({ $0.value < 256 }) else { return nil }
            bytes = scalars.map { UInt8($0.value) }
        }
        var lines: [[UInt8]] = [[]]
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0D || c == 0x0A {
                if c == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                lines.append([])
            } else {
                lines[lines.count - 1].append(c)
            }
            i += 1
        }
        return lines
    }

    /// A check mark filling the middle of a check box or radio button.
    func drawCheckMark(rect: PDFRect, device: CairoDevice, base: PDFMatrix) {
        let s = min(rect.width, rect.height)
        guard s > 0 else { return }
        let x = rect.x0 + (rect.width - s) / 2, y = rect.y0 + (rect.height - s) / 2
        var p = PDFPath()
        p.move(x + 0.2 * s, y + 0.5 * s)
        p.line(x + 0.42 * s, y + 0.25 * s)
        p.line(x + 0.8 * s, y + 0.78 * s)
        var style = StrokeStyle()
        style.width = max(0.5, s * 0.12)
        style.cap = 1
        style.join = 1
        device.stroke(p, ctm: base, style: style, state: PaintState(paint: .color(RGB(r: 0, g: 0, b: 0)), alpha: 1, blend: .normal, softMask: nil))
    }
}
