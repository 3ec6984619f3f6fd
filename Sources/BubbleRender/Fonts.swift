import CCairo

/// Horizontal measurement of one run of text at one size, in points. `left...right` is the union of
/// the advance box and the ink box, so a line placed by it never draws outside.
struct TextMetrics: Hashable {
    var advance: Double
    var left: Double
    var right: Double
    var width: Double { right - left }
}

struct FontKey: Hashable {
    var bold: Bool
    var size: Double
    /// Draw with the CJK fallback face (DejaVu has no CJK glyphs and Cairo's toy API does no
    /// per-glyph fallback).
    var cjk = false

    /// This key, switched to the CJK face when `text` has a CJK character.
    func fitting(_ text: String) -> FontKey {
        var k = self
        k.cjk = text.unicodeScalars.contains { FontKey.isCJK($0) }
        return k
    }

    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x2FA1F: return true
        default: return false
        }
    }
}

struct MeasureKey: Hashable {
    var text: String
    var font: FontKey
}

/// DejaVu Sans through Cairo's toy font API, measured with hinting of metrics switched off so that
/// extents scale linearly and do not depend on the pixel scale (layouts are identical at 1× and 2×
/// and in SVG). Caches scaled fonts, measurements and glyph runs.
final class FontBook {
    let family: String
    let regular: OpaquePointer
    let bold: OpaquePointer
    /// The face for CJK text: Droid Sans Fallback (Debian's fonts-droid-fallback).
    let cjk: OpaquePointer
    let options: OpaquePointer
    private var scaled: [FontKey: OpaquePointer] = [:]
    private var measures: [MeasureKey: TextMetrics] = [:]
    private var glyphRuns: [MeasureKey: [cairo_glyph_t]] = [:]
    private var vertical: [FontKey: (ascent: Double, descent: Double)] = [:]

    init(family: String) {
        self.family = family
        regular = cairo_toy_font_face_create(family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        bold = cairo_toy_font_face_create(family, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cjk = cairo_toy_font_face_create("Droid Sans Fallback", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    }

    deinit {
        for (_, f) in scaled { cairo_scaled_font_destroy(f) }
        cairo_font_face_destroy(regular)
        cairo_font_face_destroy(bold)
        cairo_font_face_destroy(cjk)
        cairo_font_options_destroy(options)
    }

    func face(_ key: FontKey) -> OpaquePointer { key.cjk ? cjk : (key.bold ? bold : regular) }

    func scaledFont(_ key: FontKey) -> OpaquePointer {
        if let f = scaled[key] { return f }
        var fm = cairo_matrix_t()
        var ctm = cairo_matrix_t()
        cairo_matrix_init_scale(&fm, key.size, key.size)
        cairo_matrix_init_identity(&ctm)
        let f = cairo_scaled_font_create(face(key), &fm, &ctm, options)!
        scaled[key] = f
        return f
    }

    /// Splits text drawn with a CJK key into runs: CJK characters in the CJK face, the rest in
    /// DejaVu (the CJK face has no Latin glyphs). Other keys give one run.
    func segments(_ text: String, _ font: FontKey) -> [(text: String, font: FontKey)] {
        guard font.cjk else { return [(text, font)] }
        var result: [(text: String, font: FontKey)] = []
        var current = String.UnicodeScalarView()
        var currentCJK: Bool? = nil
        for scalar in text.unicodeScalars {
            let isCJK = FontKey.isCJK(scalar)
            if let c = currentCJK, c != isCJK {
                var k = font
                k.cjk = c
                result.append((String(current), k))
                current = String.UnicodeScalarView()
            }
            currentCJK = isCJK
            current.append(scalar)
        }
        if let c = currentCJK {
            var k = font
            k.cjk = c
            result.append((String(current), k))
        }
        return result
    }

    /// Characters of `text` the face has no glyph for.
    func missingGlyphs(_ text: String, _ font: FontKey) -> Int {
        segments(text, font).reduce(0) { sum, seg in
            sum + glyphs(seg.text, seg.font).reduce(0) { $0 + ($1.index == 0 ? 1 : 0) }
        }
    }

    func measure(_ text: String, _ font: FontKey) -> TextMetrics {
        guard font.cjk else { return measureRun(text, font) }
        var advance = 0.0, left = 0.0, right = 0.0
        for (i, seg) in segments(text, font).enumerated() {
            let m = measureRun(seg.text, seg.font)
            left = i == 0 ? m.left : min(left, advance + m.left)
            right = max(right, advance + m.right)
            advance += m.advance
        }
        return TextMetrics(advance: advance, left: left, right: right)
    }

    private func measureRun(_ text: String, _ font: FontKey) -> TextMetrics {
        let key = MeasureKey(text: text, font: font)
        if let m = measures[key] { return m }
        var e = cairo_text_extents_t()
        cairo_scaled_font_text_extents(scaledFont(font), text, &e)
        let m: TextMetrics
        if e.width == 0 {
            m = TextMetrics(advance: e.x_advance, left: 0, right: max(0, e.x_advance))
        } else {
            m = TextMetrics(
                advance: e.x_advance, left: min(0, e.x_bearing), right: max(e.x_advance, e.x_bearing + e.width))
        }
        if measures.count > 20_000 { measures.removeAll(keepingCapacity: true) }
        measures[key] = m
        return m
    }

    /// Ascent and descent of the font (the line box), in points.
    func verticalMetrics(_ font: FontKey) -> (ascent: Double, descent: Double) {
        if let v = vertical[font] { return v }
        var fe = cairo_font_extents_t()
        cairo_scaled_font_extents(scaledFont(font), &fe)
        let v = (fe.ascent, fe.descent)
        vertical[font] = v
        return v
    }

    /// The glyphs of `text` with the origin at (0, 0), cached.
    func glyphs(_ text: String, _ font: FontKey) -> [cairo_glyph_t] {
        let key = MeasureKey(text: text, font: font)
        if let g = glyphRuns[key] { return g }
        var ptr: UnsafeMutablePointer<cairo_glyph_t>? = nil
        var count: Int32 = 0
        let utf8 = Array(text.utf8)
        let status = utf8.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: CChar.self) { cbuf in
                cairo_scaled_font_text_to_glyphs(
                    scaledFont(font), 0, 0, cbuf.baseAddress, Int32(cbuf.count), &ptr, &count, nil, nil, nil)
            }
        }
        var run: [cairo_glyph_t] = []
        if status == CAIRO_STATUS_SUCCESS, let p = ptr {
            run = Array(UnsafeBufferPointer(start: p, count: Int(count)))
        }
        if let p = ptr { cairo_glyph_free(p) }
        if glyphRuns.count > 20_000 { glyphRuns.removeAll(keepingCapacity: true) }
        glyphRuns[key] = run
        return run
    }

    /// Draws `text` with its baseline origin at (x, y) in the context's user space.
    func show(_ text: String, _ font: FontKey, x: Double, y: Double, in cr: OpaquePointer) {
        guard font.cjk else { return showRun(text, font, x: x, y: y, in: cr) }
        var offset = 0.0
        for seg in segments(text, font) {
            showRun(seg.text, seg.font, x: x + offset, y: y, in: cr)
            offset += measureRun(seg.text, seg.font).advance
        }
    }

    private func showRun(_ text: String, _ font: FontKey, x: Double, y: Double, in cr: OpaquePointer) {
        var run = glyphs(text, font)
        guard !run.isEmpty else { return }
        for i in run.indices {
            run[i].x += x
            run[i].y += y
        }
        cairo_set_font_face(cr, face(font))
        cairo_set_font_size(cr, font.size)
        cairo_set_font_options(cr, options)
        cairo_show_glyphs(cr, run, Int32(run.count))
    }
}
