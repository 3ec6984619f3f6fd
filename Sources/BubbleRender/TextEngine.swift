import BubbleDashboard
import BubbleSupport
import CCairo
import CPango
import Foundation

/// A font at one size: the style's family (with the pinned fallbacks), regular or bold.
struct FontKey: Hashable {
    var bold: Bool
    var size: Double
}

/// How a paragraph is broken into lines and shortened.
struct LayoutKey: Hashable {
    enum Wrap: UInt8 { case word, wordChar }
    enum Ellipsis: UInt8 { case none, end, middle, start }
    enum Align: UInt8 { case start, centre }

    var text: String
    var font: FontKey
    /// The line width in points; nil lays the text out on one line of its natural width.
    var width: Double?
    var wrap: Wrap = .word
    var ellipsis: Ellipsis = .none
    /// With an ellipsis: at most this many lines (the last one is shortened).
    var maxLines = 1
    var align: Align = .start
    /// Parts of `text` set in bold and in `emphasisColour`, in Unicode scalar offsets (end exclusive).
    var emphasis: [Range<Int>] = []
    /// The emphasised parts' colour as 0xRRGGBB; nil keeps the context's colour.
    var emphasisColour: UInt32? = nil
}

/// One line of a laid-out paragraph, in the paragraph's coordinates (points, origin at the layout's
/// top left).
struct LaidLine: Hashable {
    /// The line as drawn, in logical order: the text's characters on it, with "…" where an ellipsis
    /// stands for removed text and "-" where a word was broken with a hyphen.
    var text: String
    /// The horizontal extent of everything the line draws (advance and ink).
    var left: Double
    var right: Double
    /// The line's box (ascent to descent of its fonts) and baseline.
    var top: Double
    var bottom: Double
    var baseline: Double
    /// The leading edge of the line's first character in logical order: its left side in
    /// left-to-right text, its right side in right-to-left text.
    var start: Double
}

/// A paragraph laid out by Pango: shaped (HarfBuzz), ordered by the bidirectional algorithm
/// (FriBidi), broken into lines by Unicode's rules, with glyphs from the pinned fonts. Immutable;
/// owned by the `TextEngine` that made it, and drawn only on that engine's thread.
final class TextLayout {
    let layout: OpaquePointer
    let key: LayoutKey
    let lines: [LaidLine]
    /// The logical size of the whole paragraph.
    let width: Double
    let height: Double
    /// Extent of everything drawn, advance and ink, horizontally.
    let left: Double
    let right: Double
    /// The first line's baseline from the top.
    let baseline: Double
    /// Some text was removed and replaced by an ellipsis.
    let isEllipsized: Bool
    /// A word was broken across lines (with a hyphen).
    let breaksWords: Bool
    /// A word was broken next to a digit ("INV-2016-0" / "0001", "010" / "00"): a number or an
    /// identifier was cut.
    let breaksNumbers: Bool
    /// Code points that no pinned font has (drawn as boxes), in order of first appearance.
    let missingCodePoints: [UInt32]
    /// The paragraph's base direction is right to left.
    let isRightToLeft: Bool

    init(layout: OpaquePointer, key: LayoutKey) {
        self.layout = layout
        self.key = key
        let scale = Double(PANGO_SCALE)
        let bytes = Array(key.text.utf8)
        var attrCount: Int32 = 0
        let attrs = pango_layout_get_log_attrs_readonly(layout, &attrCount)
        var lines: [LaidLine] = []
        var missing: [UInt32] = []
        var ellipsized = false
        var broken = false, brokenNumber = false
        var left = Double.infinity, right = -Double.infinity
        let iter = pango_layout_get_iter(layout)!
        repeat {
            var ink = PangoRectangle(), logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, &ink, &logical)
            let line = pango_layout_iter_get_line_readonly(iter)!
            let baseline = Double(pango_layout_iter_get_baseline(iter)) / scale
            // The runs in logical order; an ellipsis run covers the text it replaces.
            var runs: [(offset: Int, length: Int, ellipsis: Bool)] = []
            var node = line.pointee.runs
            while let n = node {
                if let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self), let item = run.pointee.item {
                    let isEllipsis = item.pointee.analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) != 0
                    runs.append((Int(item.pointee.offset), Int(item.pointee.length), isEllipsis))
                    if isEllipsis { ellipsized = true }
                    if let glyphs = run.pointee.glyphs {
                        for g in 0..<Int(glyphs.pointee.num_glyphs) {
                            let glyph = glyphs.pointee.glyphs[g].glyph
                            // PANGO_GLYPH_UNKNOWN_FLAG set: a box for this code point (EMPTY and
                            // INVALID_INPUT mark invisible characters and bad input, not boxes).
                            if glyph & 0x1000_0000 != 0 && glyph != 0x0FFF_FFFF && glyph != 0xFFFF_FFFF {
                                let cp = glyph & ~UInt32(0x1000_0000)
                                if !missing.contains(cp) { missing.append(cp) }
                            }
                        }
                    }
                }
                node = n.pointee.next
            }
            runs.sort { $0.offset < $1.offset }
            // The line's text as UTF-8, decoded once.
            var utf8: [UInt8] = []
            for r in runs {
                if r.ellipsis {
                    utf8 += Self.ellipsisUTF8
                } else if r.offset >= 0, r.offset + r.length <= bytes.count {
                    utf8 += bytes[r.offset ..< r.offset + r.length]
                }
            }
            // A word Pango broke where it did not fit (with a hyphen where the script uses one).
            let end = Int(line.pointee.start_index + line.pointee.length)
            var hyphen = false
            if end < bytes.count, let attrs, !runs.contains(where: { $0.ellipsis }) {
                let charIndex = Self.characterIndex(ofByte: end, in: bytes)
                if charIndex < Int(attrCount), attrs[charIndex].is_line_break == 0 {
                    broken = true
                    if Self.digitNextTo(byte: end, in: bytes) { brokenNumber = true }
                    hyphen = attrs[charIndex].break_inserts_hyphen != 0
                }
            }
            var text = String(decoding: utf8, as: UTF8.self)
            if hyphen {
                text += "-"
            } else {
                // Without the spaces it ends on (cut once, not a scalar at a time).
                let scalars = text.unicodeScalars
                var cut = scalars.endIndex
                while cut > scalars.startIndex, case let before = scalars.index(before: cut), scalars[before].properties.isWhitespace {
                    cut = before
                }
                if cut < scalars.endIndex { text = String(scalars[..<cut]) }
            }
            let l = Double(min(ink.x, logical.x)) / scale
            let r = Double(max(ink.x + ink.width, logical.x + logical.width)) / scale
            left = min(left, l)
            right = max(right, r)
            var pos = PangoRectangle()
            pango_layout_index_to_pos(layout, line.pointee.start_index, &pos)
            lines.append(
                LaidLine(text: text, left: l, right: r, top: Double(logical.y) / scale,
                         bottom: Double(logical.y + logical.height) / scale, baseline: baseline, start: Double(pos.x) / scale))
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        self.lines = lines
        width = Double(logical.width) / scale
        height = Double(logical.height) / scale
        self.left = left.isFinite ? left : 0
        self.right = right.isFinite ? right : 0
        baseline = Double(pango_layout_get_baseline(layout)) / scale
        isEllipsized = ellipsized
        breaksWords = broken
        breaksNumbers = brokenNumber
        missingCodePoints = missing
        isRightToLeft = pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// "…" in UTF-8.
    static let ellipsisUTF8: [UInt8] = Array("…".utf8)

    /// Whether the character that ends before UTF-8 offset `byte`, or the one that starts there,
    /// is a decimal digit.
    static func digitNextTo(byte: Int, in bytes: [UInt8]) -> Bool {
        var start = byte - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        var end = byte
        while end < bytes.count && (end == byte || bytes[end] & 0xC0 == 0x80) { end += 1 }
        func isDigit(_ r: Range<Int>) -> Bool {
            guard r.lowerBound >= 0, r.upperBound <= bytes.count, !r.isEmpty else { return false }
            return String(decoding: bytes[r], as: UTF8.self).unicodeScalars.first?.properties.numericType == .decimal
        }
        return isDigit(max(0, start) ..< byte) || isDigit(byte ..< end)
    }

    /// The extent drawn horizontally (advance and ink).
    var inkWidth: Double { right - left }
    /// The natural advance of the widest line.
    var advance: Double { lines.map { $0.right - $0.left }.max() ?? 0 }

    /// Draws the paragraph with its top left at (x, y) in the context's user space, in the
    /// context's current source colour (colour emoji keep their own colours).
    func draw(_ cr: OpaquePointer, x: Double, y: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    static func characterIndex(ofByte byte: Int, in bytes: [UInt8]) -> Int {
        var count = 0
        for i in 0..<min(byte, bytes.count) where bytes[i] & 0xC0 != 0x80 { count += 1 }
        return count
    }
}

/// Text through Pango on Cairo with the pinned fonts: one font map and context per engine, so
/// engines on different threads share nothing but fontconfig's read-only configuration. Layouts
/// are cached by everything that determines them (text, font, width, wrapping, shortening) in a
/// bounded two-generation cache. Metrics are unhinted, so a layout is the same at every pixel scale
/// and in SVG.
final class TextEngine {
    let family: String
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    private var descriptions: [FontKey: OpaquePointer] = [:]
    private var current: [LayoutKey: TextLayout] = [:]
    private var previous: [LayoutKey: TextLayout] = [:]
    private var vertical: [FontKey: (ascent: Double, descent: Double)] = [:]
    private var measured: [LayoutKey: (width: Double, height: Double, lines: Int)] = [:]
    private var preparedTexts: [String: (text: String, unbreakable: [Range<Int>])] = [:]
    private var breaks: [LayoutKey: LineBreaks?] = [:]
    /// Layouts kept per generation (the cache holds up to twice this).
    static let cacheGeneration = 4096
    /// Set when the pinned fonts could not be loaded and the system's fonts are used instead.
    let fontProblem: RenderError?
    /// Layouts made (cache misses), for the benchmark.
    private(set) var layoutsMade = 0
    /// Entries in the layout, size, break and prepared-text caches.
    var cachedEntries: Int { current.count + previous.count + measured.count + breaks.count + preparedTexts.count }
    /// The most bytes the layout cache may hold, by `estimatedBytes` (both generations together;
    /// default unbounded: then the entry bound alone applies).
    var layoutBudgetBytes = Int.max
    private var currentBytes = 0, previousBytes = 0
    /// The layout cache's size by `estimatedBytes`.
    var layoutCacheBytes: Int { currentBytes + previousBytes }

    /// What a cached layout costs, estimated: the Pango layout with its lines, runs and glyph
    /// strings (about 2 KB, and 64 bytes per byte of text) and the laid lines kept beside it.
    static func estimatedBytes(_ key: LayoutKey) -> Int { 2048 + 64 * key.text.utf8.count }

    init(family: String) {
        self.family = family
        fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        switch PinnedFonts.shared {
        case .success(let handle):
            pango_fc_font_map_set_config(OpaquePointer(fontMap), handle.config)
            fontProblem = nil
        case .failure(let error):
            fontProblem = error
        }
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()!
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, pango_language_from_string("en"))
    }

    deinit {
        current.removeAll()
        previous.removeAll()
        for (_, d) in descriptions { pango_font_description_free(d) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    func description(_ font: FontKey) -> OpaquePointer {
        if let d = descriptions[font] { return d }
        let d = TextEngine.newDescription(families: ([family] + PinnedFonts.fallbackFamilies).joined(separator: ","), font)
        descriptions[font] = d
        return d
    }

    /// A new Pango font description of `families` (comma-separated) at `font`'s weight and size.
    static func newDescription(families: String, _ font: FontKey) -> OpaquePointer {
        let d = pango_font_description_new()!
        pango_font_description_set_family(d, families)
        pango_font_description_set_weight(d, font.bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_font_description_set_absolute_size(d, font.size * Double(PANGO_SCALE))
        return d
    }

    /// The laid-out paragraph for `key` (cached).
    func layout(_ key: LayoutKey) -> TextLayout {
        if let l = current[key] { return l }
        let bytes = Self.estimatedBytes(key)
        if current.count >= Self.cacheGeneration || layoutBudgetBytes != .max && currentBytes + bytes > layoutBudgetBytes / 2 {
            previous = current
            previousBytes = currentBytes
            current = [:]
            currentBytes = 0
        }
        if let l = previous[key] {
            current[key] = l
            currentBytes += bytes
            return l
        }
        let made = makeLayout(key)
        current[key] = made
        currentBytes += bytes
        return made
    }

    /// The size of the paragraph for `key` without keeping its layout: the logical width of its
    /// widest line, its height and its line count (cached; for the dashboard's measurer).
    func measure(_ key: LayoutKey) -> (width: Double, height: Double, lines: Int) {
        if let m = measured[key] { return m }
        let layout = configuredLayout(key)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let m = (Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE), Int(pango_layout_get_line_count(layout)))
        g_object_unref(UnsafeMutableRawPointer(layout))
        if measured.count >= 2 * Self.cacheGeneration { measured.removeAll(keepingCapacity: true) }
        measured[key] = m
        return m
    }

    /// The break opportunities of the one-line paragraph for `key` (cached, and its size cached as
    /// `measure(key)`'s): nil unless the paragraph is one left-to-right line in one font, where
    /// wrapping it at a width breaks at these and only these.
    func lineBreaks(_ key: LayoutKey) -> LineBreaks? {
        if let b = breaks[key] { return b }
        let layout = configuredLayout(key)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        let lineCount = Int(pango_layout_get_line_count(layout))
        if measured.count >= 2 * Self.cacheGeneration { measured.removeAll(keepingCapacity: true) }
        measured[key] = (Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE), lineCount)
        let made = lineCount == 1 ? Self.breaks(of: layout, lineHeight: Int(logical.height), width: Int(logical.width)) : nil
        if breaks.count >= Self.cacheGeneration { breaks.removeAll(keepingCapacity: true) }
        breaks[key] = .some(made)  // nil too: such a title is not laid out again
        return made
    }

    private static func breaks(of layout: OpaquePointer, lineHeight: Int, width: Int) -> LineBreaks? {
        guard let line = pango_layout_get_line_readonly(layout, 0) else { return nil }
        // One font, left to right.
        var font: UnsafeMutablePointer<PangoFont>? = nil
        var node = line.pointee.runs
        while let n = node {
            if let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self), let item = run.pointee.item {
                if item.pointee.analysis.level % 2 != 0 { return nil }
                if font == nil { font = item.pointee.analysis.font } else if font != item.pointee.analysis.font { return nil }
            }
            node = n.pointee.next
        }
        var attrCount: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &attrCount), let text = pango_layout_get_text(layout) else { return nil }
        let characters = Int(attrCount) - 1
        // The byte offset of every character.
        var offsets: [Int32] = []
        offsets.reserveCapacity(characters + 1)
        var byte = 0
        while offsets.count < characters {
            offsets.append(Int32(byte))
            byte += 1
            while text[byte] != 0 && UInt8(bitPattern: text[byte]) & 0xC0 == 0x80 { byte += 1 }
        }
        offsets.append(Int32(byte))
        func x(_ character: Int) -> Int {
            if character >= characters { return width }
            var x: Int32 = 0
            pango_layout_line_index_to_x(line, offsets[character], 0, &x)
            return Int(x)
        }
        // Pango fits and measures runs of spaces, and spaces at either end, in ways of their own:
        // only single spaces between words are modelled.
        for k in 0..<characters where attrs[k].is_white != 0 {
            if k == 0 || k == characters - 1 || attrs[k - 1].is_white != 0 { return nil }
        }
        var ends: [Int] = [], starts: [Int] = []
        for k in 1..<max(1, characters) where attrs[k].is_line_break != 0 {
            if attrs[k].is_mandatory_break != 0 { return nil }
            var j = k
            while j > 0 && attrs[j - 1].is_white != 0 { j -= 1 }
            ends.append(x(j))
            starts.append(x(k))
        }
        return LineBreaks(unitsPerPoint: Int(PANGO_SCALE), width: width, lineHeight: lineHeight, ends: ends, starts: starts)
    }

    /// The code points of `text` no pinned font has, laid out once and not kept.
    func measureMissing(_ text: String) -> [UInt32] {
        TextLayout(layout: configuredLayout(LayoutKey(text: text, font: FontKey(bold: false, size: 12))),
                   key: LayoutKey(text: TextEngine.sanitised(text), font: FontKey(bold: false, size: 12))).missingCodePoints
    }

    /// One line of `text` at its natural width.
    func line(_ text: String, _ font: FontKey) -> TextLayout { layout(LayoutKey(text: text, font: font)) }

    private func makeLayout(_ key: LayoutKey) -> TextLayout {
        var k = key
        k.text = TextEngine.sanitised(key.text)
        return TextLayout(layout: configuredLayout(key), key: k)
    }

    /// `text` sanitised, with the ranges that must not break across lines: worked out once per
    /// text, as a title is laid out at several widths while it is fitted.
    private func prepared(_ text: String) -> (text: String, unbreakable: [Range<Int>]) {
        if let p = preparedTexts[text] { return p }
        let clean = TextEngine.sanitised(text)
        let p = (clean, TextEngine.unbreakableRanges(clean))
        if preparedTexts.count >= Self.cacheGeneration { preparedTexts.removeAll(keepingCapacity: true) }
        preparedTexts[text] = p
        return p
    }

    /// A new Pango layout set up for `key`.
    private func configuredLayout(_ key: LayoutKey) -> OpaquePointer {
        layoutsMade += 1
        let layout = pango_layout_new(context)!
        let (text, unbreakable) = prepared(key.text)
        pango_layout_set_font_description(layout, description(key.font))
        pango_layout_set_auto_dir(layout, 1)
        text.withCString { pango_layout_set_text(layout, $0, -1) }
        let attrs = pango_attr_list_new()!
        for range in unbreakable {
            let a = pango_attr_allow_breaks_new(0)!
            a.pointee.start_index = UInt32(range.lowerBound)
            a.pointee.end_index = UInt32(range.upperBound)
            pango_attr_list_insert(attrs, a)
        }
        if !key.emphasis.isEmpty {
            let offsets = TextEngine.sanitisedByteOffsets(key.text)
            let last = offsets.count - 1
            for span in key.emphasis {
                let lo = offsets[max(0, min(last, span.lowerBound))], hi = offsets[max(0, min(last, span.upperBound))]
                guard hi > lo else { continue }
                let weight = pango_attr_weight_new(PANGO_WEIGHT_BOLD)!
                weight.pointee.start_index = UInt32(lo)
                weight.pointee.end_index = UInt32(hi)
                pango_attr_list_insert(attrs, weight)
                if let c = key.emphasisColour {
                    func channel(_ shift: UInt32) -> UInt16 { UInt16((c >> shift) & 0xFF) * 257 }
                    let colour = pango_attr_foreground_new(channel(16), channel(8), channel(0))!
                    colour.pointee.start_index = UInt32(lo)
                    colour.pointee.end_index = UInt32(hi)
                    pango_attr_list_insert(attrs, colour)
                }
            }
        }
        pango_layout_set_attributes(layout, attrs)
        pango_attr_list_unref(attrs)
        if let w = key.width {
            pango_layout_set_width(layout, Int32(max(0, w) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, key.wrap == .word ? PANGO_WRAP_WORD : PANGO_WRAP_WORD_CHAR)
            switch key.ellipsis {
            case .none: break
            case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
            case .start: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
            }
            if key.ellipsis != .none { pango_layout_set_height(layout, Int32(-max(1, key.maxLines))) }
        } else {
            pango_layout_set_single_paragraph_mode(layout, 1)
        }
        pango_layout_set_alignment(layout, key.align == .centre ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
        return layout
    }

    /// Ascent and descent of the style's own font (the line box of Latin text), in points.
    func verticalMetrics(_ font: FontKey) -> (ascent: Double, descent: Double) {
        if let v = vertical[font] { return v }
        // The style's own face alone (a fontset's metrics would take the tallest fallback's).
        let d = TextEngine.newDescription(families: family, font)
        defer { pango_font_description_free(d) }
        let m = pango_context_get_metrics(context, d, pango_language_from_string("en"))!
        let v = (Double(pango_font_metrics_get_ascent(m)) / Double(PANGO_SCALE),
                 Double(pango_font_metrics_get_descent(m)) / Double(PANGO_SCALE))
        pango_font_metrics_unref(m)
        vertical[font] = v
        return v
    }

    /// Text as it may be laid out: tabs and line breaks become spaces (a label is one paragraph)
    /// and other control characters (C0, DEL, C1) are dropped. Format characters (joiners,
    /// direction marks, isolates and overrides) stay: they belong to the text, and a label is laid
    /// out on its own, so an override inside it reorders nothing outside it.
    static func sanitised(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            switch s.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
            case 0x00..<0x20, 0x7F...0x9F: continue
            default: out.append(s)
            }
        }
        return String(out)
    }

    /// For each Unicode scalar offset of `text` (and its end), the UTF-8 offset of the same place
    /// in `sanitised(text)`: scalar ranges of the text become Pango's byte ranges.
    static func sanitisedByteOffsets(_ text: String) -> [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(text.unicodeScalars.count + 1)
        var byte = 0
        for s in text.unicodeScalars {
            offsets.append(byte)
            switch s.value {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: byte += 1
            case 0x00..<0x20, 0x7F...0x9F: break
            default: byte += UTF8.width(s)
            }
        }
        offsets.append(byte)
        return offsets
    }

    /// UTF-8 ranges that must not be broken across lines: a short token with a digit and the
    /// number after it ("Q1 2016", "H2 2017", "No. 12"), a month and its year ("March 2017"), a
    /// number and a short unit after it ("12 pp", "3 kg"), and a range ("101 – 150", "Jan – Jun").
    static func unbreakableRanges(_ text: String) -> [Range<Int>] {
        var tokens: [(range: Range<Int>, text: Substring)] = []
        var offset = 0
        var start: Int? = nil
        var startIndex = text.startIndex
        for i in text.indices {
            let c = text[i]
            let len = c.utf8.count
            if c == " " {
                if let s = start { tokens.append((s ..< offset, text[startIndex ..< i])) }
                start = nil
            } else if start == nil {
                start = offset
                startIndex = i
            }
            offset += len
        }
        if let s = start { tokens.append((s ..< offset, text[startIndex...])) }
        var ranges: [Range<Int>] = []
        for i in tokens.indices.dropLast() {
            let a = tokens[i], b = tokens[i + 1]
            guard b.range.lowerBound == a.range.upperBound + 1 else { continue }  // one space between
            let aHasDigit = a.text.contains(where: \.isNumber)
            let bStartsDigit = b.text.first?.isNumber ?? false
            let aNumeric = !a.text.isEmpty && a.text.allSatisfy { $0.isNumber || $0 == "." || $0 == "," }
            let glue = (aHasDigit && a.text.count <= 4 && bStartsDigit)
                || (bStartsDigit && b.text.count <= 4 && (isMonth(a.text) || a.text.hasSuffix(".") && a.text.count <= 4))
                || (aNumeric && b.text.count <= 3 && b.text.allSatisfy(\.isLetter))
            if glue { ranges.append(a.range.lowerBound ..< b.range.upperBound) }
            // A range: "101 – 150", "Jan – Jun".
            if i + 2 < tokens.count, b.text == "–" || b.text == "-", tokens[i + 2].range.lowerBound == b.range.upperBound + 1 {
                ranges.append(a.range.lowerBound ..< tokens[i + 2].range.upperBound)
            }
        }
        return ranges
    }

    /// Whether `word` names a month (`MonthNames.month(named:)`), a trailing `.` or `,` aside.
    static func isMonth(_ word: Substring) -> Bool {
        MonthNames.month(named: word.trimmingCharacters(in: CharacterSet(charactersIn: ".,"))) != nil
    }
}
