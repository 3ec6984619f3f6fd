/// One drawn line of a fitted title, in the coordinates of the fitting area (points): its text as
/// drawn (logical order) and the box that bounds everything it draws (advance and ink, ascent and
/// descent).
struct FittedLine: Hashable {
    var text: String
    var baseline: Double
    var left: Double
    var right: Double
    var top: Double
    var bottom: Double
    /// The leading edge of the first character in logical order (see `LaidLine.start`).
    var start: Double

    /// The line in canvas points, for the labels of a frame: the fitting area's origin at (dx, dy),
    /// drawn at `scale`.
    func labelLine(dx: Double, dy: Double, scale: Double = 1) -> LabelLayout.Line {
        LabelLayout.Line(text: text, x: dx + left * scale, y: dy + top * scale, width: (right - left) * scale,
                         height: (bottom - top) * scale, leadingEdge: dx + start * scale)
    }
}

/// A title laid out inside a shape: the Pango paragraph, where its top left goes in the fitting
/// area, and its lines.
struct FittedText {
    var font: FontKey
    var layout: TextLayout?
    var x: Double
    var y: Double
    var lines: [FittedLine]
    /// Text was removed (an ellipsis stands for it).
    var truncated: Bool
    /// Code points drawn as boxes.
    var missingCodePoints: [UInt32] { layout?.missingCodePoints ?? [] }

    static func empty(_ font: FontKey, truncated: Bool) -> FittedText {
        FittedText(font: font, layout: nil, x: 0, y: 0, lines: [], truncated: truncated)
    }

    init(font: FontKey, layout: TextLayout?, x: Double, y: Double, lines: [FittedLine], truncated: Bool) {
        self.font = font
        self.layout = layout
        self.x = x
        self.y = y
        self.lines = lines
        self.truncated = truncated
    }

    /// `layout` placed with its top left at (x, y).
    init(_ layout: TextLayout, x: Double, y: Double) {
        self.init(
            font: layout.key.font, layout: layout, x: x, y: y,
            lines: layout.lines.map {
                FittedLine(text: $0.text, baseline: y + $0.baseline, left: x + $0.left, right: x + $0.right,
                           top: y + $0.top, bottom: y + $0.bottom, start: x + $0.start)
            },
            truncated: layout.isEllipsized)
    }

    /// Draws the paragraph, offset by (dx, dy), in the context's current colour.
    func draw(_ cr: OpaquePointer, dx: Double, dy: Double) {
        layout?.draw(cr, x: dx + x, y: dy + y)
    }
}

/// Fits titles into circles and rectangles with Pango's line breaking.
///
/// For each font size from the largest down to the minimum (half a point at a time), the title is
/// wrapped at word boundaries (Unicode's line-breaking rules: CJK may break between ideographs,
/// "Q1 2016" never breaks) into a width; in a circle, several widths are tried, and every line
/// must fit the chord at its box's farther edge. The first arrangement that fits wins. From 85 %
/// of the largest size down, a word too long for its line is broken with a hyphen (in a circle only
/// when the title cannot fit with whole words even at the minimum size: a short name such as
/// "Copenhagen" shrinks instead), but next to a digit only at the minimum size (a number or an
/// identifier such as "INV-2016-00001" shrinks rather than break); only when the title still does
/// not fit is it shortened, with Pango's ellipsis at grapheme boundaries: at the end in circles,
/// in the middle on cards (so the words that tell apart titles that share a beginning stay
/// readable: "Month-End Close … March 2017").
struct TextFitter {
    let engine: TextEngine

    static let ellipsis = "…"

    /// Whether a word of the paragraph is longer than its line width.
    static func hasOverlongWord(_ l: TextLayout) -> Bool {
        l.breaksWords || (l.key.width.map { l.right - l.left > $0 + 0.5 } ?? false)
    }

    /// The size from which a word too long for its line is broken with a hyphen rather than the
    /// whole title shrunk further: 85 % of the largest size (a slightly long word still gets its
    /// line by shrinking a little; a very long one does not make the title unreadable).
    static func hyphenationSize(maxSize: Double, minSize: Double) -> Double {
        max(minSize, (maxSize * 0.85 * 2).rounded(.down) / 2)
    }

    /// Fits `text` inside a circle of radius `radius` centred on (0, 0), lines centred.
    func fitCircle(_ text: String, radius: Double, maxSize: Double, minSize: Double, bold: Bool, maxLines: Int = 6) -> FittedText {
        let blank = text.allSatisfy { $0.isWhitespace }
        if blank || radius <= 0 { return .empty(FontKey(bold: bold, size: minSize), truncated: !blank) }
        var size = maxSize
        // A title whose words all fit whole at the minimum size shrinks rather than break a word
        // ("Copenhag-en"); only a word too long for the circle at any size is hyphenated, at
        // `hyphenationSize` or below.
        var wholeAtMinimum: Bool? = nil
        func fitsWholeAtMinimum() -> Bool {
            if let known = wholeAtMinimum { return known }
            let fits = circleFit(text, radius: radius, font: FontKey(bold: bold, size: minSize), wrap: .word, maxLines: maxLines) != nil
            wholeAtMinimum = fits
            return fits
        }
        while size >= minSize - 1e-9 {
            let font = FontKey(bold: bold, size: size)
            if let f = circleFit(text, radius: radius, font: font, wrap: .word, maxLines: maxLines) { return f }
            if size <= TextFitter.hyphenationSize(maxSize: maxSize, minSize: minSize), !fitsWholeAtMinimum(),
               TextFitter.hasOverlongWord(engine.layout(LayoutKey(text: text, font: font, width: 2 * radius - 1, wrap: .word, align: .centre))),
               let f = circleFit(text, radius: radius, font: font, wrap: .wordChar, maxLines: maxLines, cutsNumbers: size <= minSize + 1e-9) {
                return f
            }
            size -= 0.5
        }
        let font = FontKey(bold: bold, size: minSize)
        // Shortened at the minimum size: as many lines as fit, each within the narrowest chord.
        var best: FittedText? = nil
        var bestShown = -1
        // One line's height, from the title shortened to one line.
        let lineH = engine.layout(LayoutKey(text: text, font: font, width: radius, wrap: .wordChar, ellipsis: .end, maxLines: 1)).height
        for n in 1...maxLines {
            let blockH = lineH * Double(n)
            let far = blockH / 2
            guard far < radius else { break }
            let chord = 2 * (radius * radius - far * far).squareRoot() - 0.5
            guard chord > font.size else { break }
            let l = engine.layout(LayoutKey(text: text, font: font, width: chord, wrap: .wordChar, ellipsis: .end, maxLines: n, align: .centre))
            let f = FittedText(l, x: -chord / 2, y: -l.height / 2)
            guard fitsCircle(f, radius: radius) else { continue }
            let shown = l.lines.reduce(0) { $0 + $1.text.count }
            if shown > bestShown {
                best = f
                bestShown = shown
            }
        }
        return best ?? .empty(font, truncated: true)
    }

    /// The widest arrangement of `text` at `font` whose lines all fit the circle, or nil. Unless
    /// `cutsNumbers`, no arrangement breaks a word next to a digit.
    private func circleFit(_ text: String, radius: Double, font: FontKey, wrap: LayoutKey.Wrap, maxLines: Int, cutsNumbers: Bool = false) -> FittedText? {
        var width = 2 * radius - 1
        while width >= font.size * 1.5 {
            let l = engine.layout(LayoutKey(text: text, font: font, width: width, wrap: wrap, align: .centre))
            if l.lines.count > maxLines || l.height > 2 * radius { return nil }
            if wrap == .word && l.breaksWords { return nil }
            let f = FittedText(l, x: -width / 2, y: -l.height / 2)
            if fitsCircle(f, radius: radius) && (cutsNumbers || !l.breaksNumbers) { return f }
            // Narrower lines are shorter but more of them: try until the block is too tall.
            width *= 0.9
        }
        return nil
    }

    private func fitsCircle(_ f: FittedText, radius: Double) -> Bool {
        for line in f.lines {
            let far = max(abs(line.top), abs(line.bottom))
            if far >= radius { return false }
            let half = (radius * radius - far * far).squareRoot() - 0.25
            if line.left < -half || line.right > half { return false }
        }
        return true
    }

    /// Fits `text` into the rectangle x 0...width, y 0...height, lines from the top, at the start
    /// edge of the text's direction (left for Latin, right for Arabic and Hebrew) or centred.
    func fitRect(_ text: String, width: Double, height: Double, maxSize: Double, minSize: Double, bold: Bool,
                 maxLines: Int = 5, centred: Bool = false) -> FittedText {
        let blank = text.allSatisfy { $0.isWhitespace }
        if blank || width <= 0 { return .empty(FontKey(bold: bold, size: minSize), truncated: !blank) }
        let align: LayoutKey.Align = centred ? .centre : .start
        func fits(_ l: TextLayout) -> Bool {
            l.lines.count <= maxLines && l.height <= height + 1e-9 && l.right - l.left <= width + 0.5
        }
        // Ink that overhangs an edge (a "J" below the line start, an italic end) moves inside.
        func placed(_ l: TextLayout) -> FittedText {
            let dx = l.left < 0 ? -l.left : (l.right > width ? max(-l.left, width - l.right) : 0)
            return FittedText(l, x: dx, y: 0)
        }
        var size = maxSize
        var hyphenated: TextLayout? = nil
        while size >= minSize - 1e-9 {
            let font = FontKey(bold: bold, size: size)
            let l = engine.layout(LayoutKey(text: text, font: font, width: width, wrap: .word, align: align))
            if !l.breaksWords && fits(l) { return placed(l) }
            // A word longer than the line (Pango broke it, or left it sticking out).
            if TextFitter.hasOverlongWord(l) && size <= TextFitter.hyphenationSize(maxSize: maxSize, minSize: minSize) {
                let h = engine.layout(LayoutKey(text: text, font: font, width: width, wrap: .wordChar, align: align))
                if fits(h) && (!h.breaksNumbers || size <= minSize + 1e-9) { return placed(h) }
                hyphenated = h
            }
            size -= 0.5
        }
        let font = FontKey(bold: bold, size: minSize)
        // Too long even so. Whole words go from before the last two (which tell apart titles that
        // share a beginning: "Month-End Close … September 2017"), one at a time.
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        if words.count >= 3 {
            let tail = words.suffix(2).joined(separator: " ")
            var head = words.count - 2
            while head > 1 {
                head -= 1
                let shortened = words.prefix(head).joined(separator: " ") + " " + TextFitter.ellipsis + " " + tail
                let l = engine.layout(LayoutKey(text: shortened, font: font, width: width, wrap: .word, align: align))
                if !l.breaksWords && fits(l) {
                    var f = placed(l)
                    f.truncated = true
                    return f
                }
            }
        }
        // Otherwise as many lines as the height holds, Pango's ellipsis in the middle of the last.
        var n = min(maxLines, max(1, hyphenated?.lines.count ?? maxLines))
        while n >= 1 {
            let l = engine.layout(LayoutKey(text: text, font: font, width: width, wrap: .wordChar, ellipsis: .middle, maxLines: n, align: align))
            if l.height <= height + 1e-9 || n == 1 {
                return l.height <= height + 1e-9 ? placed(l) : .empty(font, truncated: true)
            }
            n -= 1
        }
        return .empty(font, truncated: true)
    }

    /// One line of `text` at a fixed size, ellipsised at the end to fit `width`.
    func singleLine(_ text: String, width: Double, font: FontKey) -> TextLayout {
        let natural = engine.line(text, font)
        if natural.inkWidth <= width + 1e-9 && natural.lines.count == 1 { return natural }
        return engine.layout(LayoutKey(text: text, font: font, width: max(0, width), wrap: .wordChar, ellipsis: .end, maxLines: 1))
    }
}
