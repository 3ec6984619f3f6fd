/// One fitted line, in the coordinates of the fitting area (points). `x` is where the glyph run
/// starts; `left...right` and `top...bottom` bound everything it draws (advance and ink, ascent and
/// descent).
struct FittedLine: Hashable {
    var text: String
    var x: Double
    var baseline: Double
    var left: Double
    var right: Double
    var top: Double
    var bottom: Double
}

struct FittedText: Hashable {
    var font: FontKey
    var lines: [FittedLine]
    var truncated: Bool
}

/// Word wrap and fitting of titles into circles and rectangles.
///
/// The title is split into words; for each font size from the largest down to the minimum (half a
/// point at a time) and each line count that fits vertically, the words are wrapped greedily into
/// lines whose measured width fits the chord of the circle at that line's box (the farther of its
/// top and bottom edges), or the rectangle's width. The first arrangement that holds every word
/// wins. At the minimum size the text is wrapped as far as it goes (breaking words longer than a
/// line) and the last line ends in an ellipsis; a card title instead loses words from its middle
/// (`fitRect`), so that its last words stay readable.
struct TextFitter {
    let fonts: FontBook
    let lineSpacing: Double

    static let ellipsis = "…"

    private func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
    }

    /// Line boxes for `n` lines centred on y = 0 (circles) or starting at `top` (rectangles).
    private func lineBoxes(n: Int, font: FontKey, top: Double?) -> [(baseline: Double, top: Double, bottom: Double)] {
        let (asc, desc) = fonts.verticalMetrics(font)
        let lh = max(font.size * lineSpacing, asc + desc)
        let start = top ?? (-Double(n) * lh / 2)
        return (0..<n).map { i in
            let boxTop = start + Double(i) * lh
            let baseline = boxTop + (lh - (asc + desc)) / 2 + asc
            return (baseline, baseline - asc, baseline + desc)
        }
    }

    /// Greedy wrap into the given widths. Returns nil if the words do not fit, unless `force`: then a
    /// word wider than its line is cut with an ellipsis there, and words left over after the last line
    /// are folded into it with an ellipsis.
    private func wrap(_ words: [String], widths: [Double], font: FontKey, force: Bool) -> (lines: [String], truncated: Bool)? {
        var lines: [String] = []
        var i = 0
        for w in widths {
            if i >= words.count { break }
            var line = ""
            while i < words.count {
                let candidate = line.isEmpty ? words[i] : line + " " + words[i]
                if fonts.measure(candidate, font).width <= w {
                    line = candidate
                    i += 1
                } else {
                    break
                }
            }
            if line.isEmpty {
                guard force else { return nil }
                if let cut = ellipsised(words[i...].joined(separator: " "), width: w, font) { lines.append(cut) }
                return lines.isEmpty ? nil : (lines, true)
            }
            lines.append(line)
        }
        if i >= words.count { return (lines, false) }
        guard force, !lines.isEmpty else { return nil }
        let last = lines.count - 1
        guard let cut = ellipsised(lines[last] + " " + words[i...].joined(separator: " "), width: widths[last], font) else { return nil }
        lines[last] = cut
        return (lines, true)
    }

    /// The longest prefix of `text` followed by an ellipsis that fits `width`.
    private func ellipsised(_ text: String, width: Double, _ font: FontKey) -> String? {
        var chars = Array(text)
        while !chars.isEmpty {
            chars.removeLast()
            let t = String(chars).trimmingTrailingSpaces() + TextFitter.ellipsis
            if fonts.measure(t, font).width <= width { return t }
        }
        return nil
    }

    private func place(_ lines: [String], font: FontKey, boxes: [(baseline: Double, top: Double, bottom: Double)],
                       align: (TextMetrics) -> Double) -> [FittedLine] {
        zip(lines, boxes).map { text, box in
            let m = fonts.measure(text, font)
            let x = align(m)
            return FittedLine(text: text, x: x, baseline: box.baseline, left: x + m.left, right: x + m.right, top: box.top, bottom: box.bottom)
        }
    }

    /// Fits `text` inside a circle of radius `radius` centred on (0, 0), lines centred.
    func fitCircle(_ text: String, radius: Double, maxSize: Double, minSize: Double, bold: Bool, maxLines: Int = 6) -> FittedText {
        let ws = words(text)
        if ws.isEmpty || radius <= 0 { return FittedText(font: FontKey(bold: bold, size: minSize), lines: [], truncated: !ws.isEmpty) }
        func widths(_ boxes: [(baseline: Double, top: Double, bottom: Double)]) -> [Double] {
            boxes.map { b in
                let far = max(abs(b.top), abs(b.bottom))
                return far >= radius ? 0 : 2 * (radius * radius - far * far).squareRoot() - 0.5
            }
        }
        var size = maxSize
        while size >= minSize - 1e-9 {
            let font = FontKey(bold: bold, size: size)
            for n in 1...maxLines {
                let boxes = lineBoxes(n: n, font: font, top: nil)
                let ww = widths(boxes)
                if ww.contains(where: { $0 <= 0 }) { break }
                if let r = wrap(ws, widths: ww, font: font, force: false) {
                    let used = lineBoxes(n: r.lines.count, font: font, top: nil)
                    return FittedText(font: font, lines: place(r.lines, font: font, boxes: used) { -($0.left + $0.right) / 2 }, truncated: false)
                }
            }
            size -= 0.5
        }
        // Truncate at the minimum size with as many lines as fit.
        let font = FontKey(bold: bold, size: minSize)
        var best: FittedText? = nil
        var bestScore = -1
        for n in 1...maxLines {
            let boxes = lineBoxes(n: n, font: font, top: nil)
            let ww = widths(boxes)
            if ww.contains(where: { $0 <= 0 }) { break }
            guard let r = wrap(ws, widths: ww, font: font, force: true), !r.lines.isEmpty else { continue }
            let score = r.lines.reduce(0) { $0 + $1.count - ($1.hasSuffix(TextFitter.ellipsis) ? 1 : 0) }
            if score <= bestScore { continue }
            // Re-centre vertically on the lines actually used when they still fit.
            let used = lineBoxes(n: r.lines.count, font: font, top: nil)
            let fits = zip(r.lines, widths(used)).allSatisfy { fonts.measure($0, font).width <= $1 }
            let chosen = fits ? used : Array(boxes.prefix(r.lines.count))
            best = FittedText(font: font, lines: place(r.lines, font: font, boxes: chosen) { -($0.left + $0.right) / 2 }, truncated: true)
            bestScore = score
        }
        return best ?? FittedText(font: font, lines: [], truncated: true)
    }

    /// Fits `text` into the rectangle x 0...width, y 0...height, lines left-aligned from the top.
    func fitRect(_ text: String, width: Double, height: Double, maxSize: Double, minSize: Double, bold: Bool,
                 maxLines: Int = 5, centred: Bool = false) -> FittedText {
        let ws = words(text)
        if ws.isEmpty || width <= 0 { return FittedText(font: FontKey(bold: bold, size: minSize), lines: [], truncated: !ws.isEmpty) }
        func linesThatFit(_ font: FontKey) -> Int {
            var n = 0
            while n < maxLines {
                let boxes = lineBoxes(n: n + 1, font: font, top: 0)
                if boxes.last!.bottom > height { break }
                n += 1
            }
            return n
        }
        func align(_ m: TextMetrics) -> Double { centred ? (width - (m.left + m.right)) / 2 : -m.left }
        var size = maxSize
        while size >= minSize - 1e-9 {
            let font = FontKey(bold: bold, size: size)
            let n = linesThatFit(font)
            if n > 0, let r = wrap(ws, widths: Array(repeating: width, count: n), font: font, force: false) {
                let boxes = lineBoxes(n: r.lines.count, font: font, top: 0)
                return FittedText(font: font, lines: place(r.lines, font: font, boxes: boxes, align: align), truncated: false)
            }
            size -= 0.5
        }
        let font = FontKey(bold: bold, size: minSize)
        let n = linesThatFit(font)
        // Too long even at the minimum size: the ellipsis goes into the middle, keeping the last
        // words, which tell apart titles that share a beginning ("Month-End Close … March 2017",
        // not "Month-End Close Pack — March 2…"); words are dropped from before the kept tail.
        let tail = min(2, ws.count - 1)
        if n > 0 && tail >= 1 && ws.count >= 3 {
            let headEnd = ws.count - tail
            var drop = 1
            while drop < headEnd {
                let shortened = Array(ws[0 ..< headEnd - drop]) + [TextFitter.ellipsis] + Array(ws[headEnd...])
                if let r = wrap(shortened, widths: Array(repeating: width, count: n), font: font, force: false) {
                    let boxes = lineBoxes(n: r.lines.count, font: font, top: 0)
                    return FittedText(font: font, lines: place(r.lines, font: font, boxes: boxes, align: align), truncated: true)
                }
                drop += 1
            }
        }
        if n > 0, let r = wrap(ws, widths: Array(repeating: width, count: n), font: font, force: true) {
            let boxes = lineBoxes(n: r.lines.count, font: font, top: 0)
            return FittedText(font: font, lines: place(r.lines, font: font, boxes: boxes, align: align), truncated: true)
        }
        return FittedText(font: font, lines: [], truncated: true)
    }

    /// One line of `text` at a fixed size, ellipsised at the end to fit `width`.
    func singleLine(_ text: String, width: Double, font: FontKey) -> (text: String, metrics: TextMetrics, truncated: Bool) {
        let m = fonts.measure(text, font)
        if m.width <= width { return (text, m, false) }
        var chars = Array(text)
        while !chars.isEmpty {
            chars.removeLast()
            let t = String(chars).trimmingTrailingSpaces() + TextFitter.ellipsis
            let tm = fonts.measure(t, font)
            if tm.width <= width { return (t, tm, true) }
        }
        let e = TextFitter.ellipsis
        return (e, fonts.measure(e, font), true)
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
