import BubbleDashboard
import CCairo

/// Search (the magnifier) and the keyword filter (#30): the search bar and its results, the filter
/// sheet, the tokens in the breadcrumb strip, the empty filtered level, bubble badges and the
/// found report's ring, and the notice toast. Every control is drawn into the frame the dashboard
/// computed for it (the frames are its hit areas).
extension SceneRenderer {
    var fieldFill: RenderColour { RenderColour(hex: 0xE9EDF2) }
    var lightControlFill: RenderColour { RenderColour(hex: 0xEEF2F7) }
    var tintHex: UInt32 {
        let c = style.tintColour.sceneColour
        return UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
    }

    /// One line of `text` with `spans` (Unicode scalar offsets) in bold tint, shortened at the end
    /// (at a grapheme boundary) to `width`.
    func emphasisedLine(_ text: String, spans: [Range<Int>], width: Double, font: FontKey) -> TextLayout {
        let spans = spans.filter { !$0.isEmpty }
        guard !spans.isEmpty else { return fitter.singleLine(text, width: width, font: font) }
        var key = LayoutKey(text: text, font: font, emphasis: spans, emphasisColour: tintHex)
        let natural = engine.layout(key)
        if natural.inkWidth <= width + 1e-9 && natural.lines.count == 1 { return natural }
        key.width = max(0, width)
        key.wrap = .wordChar
        key.ellipsis = .end
        key.maxLines = 1
        return engine.layout(key)
    }

    /// A rounded text field: a magnifier, the text (or a grey placeholder) shortened at its start so
    /// the end stays in view, and a caret after it.
    func drawField(_ f: Frame, _ r: SceneRect, text: String, placeholder: String, fontSize: Double, owner: String) {
        let cr = f.cr
        roundedRectPath(cr, r.x, r.y, r.width, r.height, min(10, r.height / 2))
        setColour(cr, fieldFill)
        cairo_fill(cr)
        let iconSize = min(16, r.height * 0.45)
        let secondary = RenderColour(style.secondaryTextColour)
        if iconSize > 4 {
            Icon.search.draw(cr, x: r.x + 10 + iconSize / 2, y: r.y + r.height / 2, size: iconSize, colour: secondary, lineWidth: 1.6)
        }
        let textX = r.x + 16 + iconSize
        let room = r.x + r.width - 12 - textX
        guard room > 24 else { return }
        let font = FontKey(bold: false, size: min(fontSize, r.height * 0.5))
        let (a, d) = engine.verticalMetrics(font)
        let baseline = r.y + r.height / 2 + (a - d) / 2
        let container = LabelLayout.Container.roundedRect(x: r.x, y: r.y, width: r.width, height: r.height,
                                                          cornerRadius: min(10, r.height / 2))
        let empty = text.isEmpty
        let shown = empty ? placeholder : text
        var line = engine.line(shown, font)
        if line.inkWidth > room - 4 {
            line = engine.layout(LayoutKey(text: shown, font: font, width: room - 4, wrap: .wordChar,
                                           ellipsis: empty ? .end : .start, maxLines: 1))
        }
        textRun(f, line, x: textX, baseline: baseline, colour: empty ? style.secondaryTextColour : style.darkTextColour,
                background: fieldFill.sceneColour, owner: owner, role: .overlayText, container: container, label: shown)
        // The caret: after the text (before it in right-to-left text), at the start when empty.
        let caretX = empty ? textX - 1 : (line.isRightToLeft ? textX + line.left - 2 : textX + line.right + 1.5)
        cairo_rectangle(cr, caretX, baseline - a * 0.95, 2, a * 0.95 + d * 0.9)
        setColour(cr, style.tintColour)
        cairo_fill(cr)
    }

    /// A capsule button with centred text.
    func drawButton(_ f: Frame, _ r: SceneRect, title: String, bold: Bool, filled: Bool, owner: String) {
        let cr = f.cr
        let fill = filled ? style.tintColour : lightControlFill
        roundedRectPath(cr, r.x, r.y, r.width, r.height, r.height / 2)
        setColour(cr, fill)
        cairo_fill(cr)
        let font = FontKey(bold: bold, size: min(15, r.height * 0.45))
        let (a, d) = engine.verticalMetrics(font)
        let line = fitter.singleLine(title, width: max(0, r.width - 16), font: font)
        textRun(f, line, x: r.x + (r.width - line.width) / 2, baseline: r.y + r.height / 2 + (a - d) / 2,
                colour: filled ? SceneColour(red: 255, green: 255, blue: 255) : style.tintColour.sceneColour,
                background: fill.sceneColour, owner: owner, role: .overlayText,
                container: .roundedRect(x: r.x, y: r.y, width: r.width, height: r.height, cornerRadius: r.height / 2), label: title)
    }

    // MARK: Search overlay

    /// The bar with the field and Cancel over the breadcrumb strip, and the results card: the total
    /// line, then rows (dot, title with the matches emphasised, category path, pages) scrolled by
    /// `scroll.offset` and clipped to their viewport, or the message in one row.
    /// Where a search row's text starts, from the card's padding: the colour dot, the thumbnail
    /// and a gap (pt).
    static let searchTextInset = 16 + thumbnailColumn + 4 + 10

    func drawSearch(_ s: SceneSearch, scene: Scene, _ f: Frame) {
        let cr = f.cr
        let W = scene.canvasWidth
        let g = SearchPanelGeometry(canvasWidth: W, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                    rows: s.message == nil ? s.results.count : 0)
        // The bar.
        let bar = g.bar
        cairo_rectangle(cr, bar.x, bar.y, bar.width, bar.height)
        setColour(cr, style.barColour)
        cairo_fill(cr)
        cairo_rectangle(cr, bar.x, bar.y + bar.height - 0.5, bar.width, 0.5)
        setColour(cr, style.separatorColour)
        cairo_fill(cr)
        drawField(f, g.field, text: s.text, placeholder: "Search reports", fontSize: style.searchFieldFontSize, owner: "search-field")
        let cf = FontKey(bold: false, size: 16)
        let (ca, cd) = engine.verticalMetrics(cf)
        let cancel = fitter.singleLine("Cancel", width: g.cancel.width, font: cf)
        if g.cancel.x >= 0 { textRun(f, cancel, x: g.cancel.x + (g.cancel.width - cancel.width) / 2, baseline: g.cancel.y + g.cancel.height / 2 + (ca - cd) / 2,
                colour: style.tintColour.sceneColour, background: style.barColour.sceneColour, owner: "search-cancel",
                role: .overlayText, container: .rect(x: g.cancel.x, y: g.cancel.y, width: g.cancel.width, height: g.cancel.height),
                label: "Cancel") }

        // Nothing typed yet: the bar alone over the dimmed level.
        guard let c = searchCard(s, g) else { return }
        let rows = g.rowsArea
        let radius = Self.searchCardRadius, pad = 20.0
        let white = style.cardColour.sceneColour
        drawCard(cr, x: c.x, y: c.y, w: c.width, h: c.height, radius: radius)
        let card = LabelLayout.Container.roundedRect(x: c.x, y: c.y, width: c.width, height: c.height, cornerRadius: radius)
        let tf = FontKey(bold: true, size: 13)
        let (ta, td) = engine.verticalMetrics(tf)
        let totalText = s.total == 0 ? "No results" : s.totalLine
        let total = fitter.singleLine(totalText, width: c.width - 2 * pad, font: tf)
        textRun(f, total, x: c.x + pad, baseline: c.y + SearchPanelGeometry.totalHeight / 2 + (ta - td) / 2,
                colour: style.secondaryTextColour, background: white, owner: "search-total", role: .overlayText,
                container: card, label: totalText)
        cairo_rectangle(cr, c.x, rows.viewportTop - 0.5, c.width, 0.5)
        setColour(cr, style.separatorColour)
        cairo_fill(cr)

        cairo_save(cr)
        roundedRectPath(cr, c.x, c.y, c.width, c.height, radius)
        cairo_clip(cr)
        cairo_rectangle(cr, c.x, rows.viewportTop, c.width, rows.viewportHeight)
        cairo_clip(cr)
        let rowH = SearchPanelGeometry.rowHeight
        if let message = s.message {
            let mf = FontKey(bold: false, size: 14)
            let (ma, md) = engine.verticalMetrics(mf)
            let m = fitter.singleLine(message, width: c.width - 2 * pad, font: mf)
            textRun(f, m, x: c.x + (c.width - m.width) / 2, baseline: rows.viewportTop + rowH / 2 + (ma - md) / 2,
                    colour: style.secondaryTextColour, background: white, owner: "search-message", role: .overlayText,
                    container: .rect(x: c.x, y: rows.viewportTop, width: c.width, height: rowH), label: message)
        } else {
            for i in rows.visibleRows(scroll: s.scroll.offset).map(Array.init) ?? [] where i < s.results.count {
                drawSearchRow(i, s.results[i], rows, card: c, scroll: s.scroll.offset, f)
            }
            if s.scroll.indicatorOpacity > 0, let ind = rows.indicator(scroll: s.scroll.offset) {
                roundedRectPath(cr, ind.x, ind.y, ind.width, ind.height, ind.width / 2)
                setColour(cr, RenderColour(hex: 0x000000, alpha: 0.35 * min(1, s.scroll.indicatorOpacity)))
                cairo_fill(cr)
            }
        }
        cairo_restore(cr)
    }

    /// Row `i` of the search results (result `r`) in the card `c`: the colour dot, the thumbnail,
    /// the title with its matches in bold, the category path and the page count.
    func drawSearchRow(_ i: Int, _ r: SceneSearchResult, _ rows: ScrollingRows, card c: SceneRect, scroll: Double, _ f: Frame) {
        let cr = f.cr
        let pad = 20.0, white = style.cardColour.sceneColour
        let rowH = SearchPanelGeometry.rowHeight
        let titleFont = FontKey(bold: false, size: style.searchResultFontSize)
        let pathFont = FontKey(bold: false, size: 12)
        let pagesFont = FontKey(bold: false, size: 13)
        let (ra, rd) = engine.verticalMetrics(titleFont)
        let (pa, pd) = engine.verticalMetrics(pathFont)
        let (ga, gd) = engine.verticalMetrics(pagesFont)
        let blockH = ra + rd + 3 + pa + pd
        let vTop = rows.viewportTop, vBottom = rows.viewportTop + rows.viewportHeight
        let ry = rows.rowTop(i, scroll: scroll)
        if i > 0 {
            cairo_rectangle(cr, c.x + pad + Self.searchTextInset, ry, c.width - 2 * pad - Self.searchTextInset, 0.5)
            setColour(cr, style.separatorColour.withAlpha(0.8))
            cairo_fill(cr)
        }
        let top = ry + (rowH - blockH) / 2
        let titleBaseline = top + ra
        let pathBaseline = top + ra + rd + 3 + pa
        circlePath(cr, c.x + pad + 5, titleBaseline - ra * 0.36, 5)
        setColour(cr, r.colour ?? style.neutralBubbleColour)
        cairo_fill(cr)
        let thumbBox = SceneRect(x: c.x + pad + 16, y: ry + 5, width: Self.thumbnailColumn + 4, height: rowH - 10)
        drawThumbnail(report: r.id, in: thumbBox, owner: "search-row:\(r.id):thumbnail",
                      thumbBox.y < vTop || thumbBox.y + thumbBox.height > vBottom ? Frame(cr: cr, raster: f.raster, records: false) : f)
        let textX = c.x + pad + Self.searchTextInset
        let pages = r.pageCount.map { $0 == 1 ? "1 p" : "\($0) pp" }
        let pagesLine = pages.map { engine.line($0, pagesFont) }
        let pagesW = pagesLine.map { $0.width + 14 } ?? 0
        let textW = max(0, c.x + c.width - pad - pagesW - textX)
        // Lines cut by the viewport's edge are drawn clipped but not recorded.
        func frame(_ lineTop: Double, _ lineBottom: Double) -> Frame {
            lineTop < vTop || lineBottom > vBottom ? Frame(cr: cr, raster: f.raster, records: false) : f
        }
        let cell = LabelLayout.Container.rect(x: textX, y: max(ry, vTop), width: textW,
                                              height: max(0, min(ry + rowH, vBottom) - max(ry, vTop)))
        let title = emphasisedLine(r.title, spans: r.spans, width: textW, font: titleFont)
        textRun(frame(titleBaseline - title.baseline, titleBaseline - title.baseline + title.height), title,
                x: textX, baseline: titleBaseline, colour: style.darkTextColour, background: white,
                owner: "search-row:\(r.id)", role: .tableCell, container: cell, label: r.title)
        if !r.path.isEmpty {
            let path = r.path.joined(separator: " › ")
            let pl = fitter.singleLine(path, width: textW, font: pathFont)
            textRun(frame(pathBaseline - pl.baseline, pathBaseline - pl.baseline + pl.height), pl,
                    x: textX, baseline: pathBaseline, colour: style.secondaryTextColour, background: white,
                    owner: "search-row:\(r.id):path", role: .tableCell, container: cell, label: path)
        }
        if let pagesLine {
            let b = ry + rowH / 2 + (ga - gd) / 2
            let px = c.x + c.width - pad - pagesLine.width
            textRun(frame(b - pagesLine.baseline, b - pagesLine.baseline + pagesLine.height), pagesLine,
                    x: px, baseline: b, colour: style.secondaryTextColour, background: white,
                    owner: "search-row:\(r.id):pages", role: .tableCell,
                    container: .rect(x: px - 2, y: max(ry, vTop), width: pagesLine.width + 4,
                                     height: max(0, min(ry + rowH, vBottom) - max(ry, vTop))))
        }
        }

    // MARK: Filter sheet

    /// The sheet: title, summary, the field that narrows the chips, the chips in their frames
    /// (selected: tint with a check mark), the "+N more" note, and Clear and Done.
    func drawFilterSheet(_ sheet: SceneFilterSheet, scene: Scene, _ f: Frame) {
        let cr = f.cr
        let g = sheet.geometry
        let c = g.card, pad = FilterSheetGeometry.padding, radius = Self.filterSheetCardRadius
        guard Self.filterSheetShowsCard(c) else { return }
        let white = style.cardColour.sceneColour
        drawCard(cr, x: c.x, y: c.y, w: c.width, h: c.height, radius: radius)
        let card = LabelLayout.Container.roundedRect(x: c.x, y: c.y, width: c.width, height: c.height, cornerRadius: radius)
        let tf = FontKey(bold: true, size: 19)
        let (ta, _) = engine.verticalMetrics(tf)
        let heading = "Filter by keyword"
        let t = fitter.singleLine(heading, width: c.width - 2 * pad, font: tf)
        let titleBaseline = c.y + 16 + ta
        textRun(f, t, x: c.x + pad, baseline: titleBaseline, colour: style.darkTextColour, background: white,
                owner: "filter-title", role: .overlayTitle, container: card, label: heading)
        let sf = FontKey(bold: false, size: 13)
        let summary = fitter.singleLine(sheet.summary, width: c.width - 2 * pad, font: sf)
        textRun(f, summary, x: c.x + pad, baseline: titleBaseline + 22, colour: style.secondaryTextColour, background: white,
                owner: "filter-summary", role: .overlayText, container: card, label: sheet.summary)
        drawField(f, g.field, text: sheet.query, placeholder: "Find a keyword", fontSize: 15, owner: "filter-field")

        let font = FontKey(bold: false, size: style.filterChipFontSize)
        let (a, d) = engine.verticalMetrics(font)
        let gapW = engine.line("  ", font).width
        let countOnTint = SceneColour(red: 0xDC, green: 0xE8, blue: 0xFA)
        let whiteText = SceneColour(red: 255, green: 255, blue: 255)
        for chip in sheet.chips {
            let r = chip.frame
            let rr = r.height / 2
            let fill = chip.selected ? style.tintColour : lightControlFill
            roundedRectPath(cr, r.x, r.y, r.width, r.height, rr)
            setColour(cr, fill)
            if chip.selected {
                cairo_fill(cr)
            } else {
                cairo_fill_preserve(cr)
                setColour(cr, RenderColour(hex: 0xD3DAE4))
                cairo_set_line_width(cr, 1)
                cairo_stroke(cr)
            }
            let container = LabelLayout.Container.roundedRect(x: r.x, y: r.y, width: r.width, height: r.height, cornerRadius: rr)
            let baseline = r.y + r.height / 2 + (a - d) / 2
            // A selected chip's check mark takes 4 pt of the left padding and 4 of the text's.
            let shift = chip.selected ? 4.0 : 0
            if chip.selected {
                let x0 = r.x + 6.5, cy = r.y + r.height / 2
                cairo_move_to(cr, x0, cy + 0.2)
                cairo_line_to(cr, x0 + 2.6, cy + 3)
                cairo_line_to(cr, x0 + 7.5, cy - 3.2)
                setColour(cr, RenderColour.white)
                cairo_set_line_width(cr, 1.8)
                cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                cairo_stroke(cr)
            }
            let count = engine.line(String(chip.count), font)
            // (The check mark's 4 pt come out of the gap before the count.)
            let kwRoom = max(0, r.width - 28 - gapW - count.width + 1)
            let kw = fitter.singleLine(chip.keyword, width: kwRoom, font: font)
            let x0 = r.x + 14 + shift
            textRun(f, kw, x: x0, baseline: baseline, colour: chip.selected ? whiteText : style.darkTextColour,
                    background: fill.sceneColour, owner: "filter-chip:\(chip.keyword)", role: .keywordChip,
                    container: container, label: chip.keyword)
            let countX = min(x0 + kw.width + gapW, r.x + r.width - 14 - count.width)
            textRun(f, count, x: countX, baseline: baseline,
                    colour: chip.selected ? countOnTint : style.secondaryTextColour, background: fill.sceneColour,
                    owner: "filter-chip:\(chip.keyword):count", role: .keywordChip, container: container)
        }
        if sheet.chips.isEmpty {
            let nf = FontKey(bold: false, size: 14)
            let (na, nd) = engine.verticalMetrics(nf)
            let text = sheet.query.isEmpty ? "No keywords at this level" : "No keywords match"
            textRun(f, text, font: nf, x: g.chipsArea.x, baseline: g.chipsArea.y + FilterSheetGeometry.chipHeight / 2 + (na - nd) / 2,
                    colour: style.secondaryTextColour, background: white, owner: "filter-no-chips", role: .overlayText,
                    container: card)
        }

        // Footer: a hairline, Clear, the "+N more" note, Done.
        let footerTop = c.y + c.height - FilterSheetGeometry.footerHeight
        cairo_rectangle(cr, c.x, footerTop, c.width, 0.5)
        setColour(cr, style.separatorColour)
        cairo_fill(cr)
        drawButton(f, g.clear, title: "Clear", bold: false, filled: false, owner: "filter-clear")
        drawButton(f, g.done, title: "Done", bold: true, filled: true, owner: "filter-done")
        if sheet.hiddenChips > 0 {
            let note = "+\(sheet.hiddenChips) more — type to narrow"
            let nf = FontKey(bold: false, size: 12)
            let (na, nd) = engine.verticalMetrics(nf)
            let room = g.done.x - (g.clear.x + g.clear.width) - 16
            if room > 30 {
                let l = fitter.singleLine(note, width: room, font: nf)
                textRun(f, l, x: c.x + (c.width - l.width) / 2, baseline: g.clear.y + g.clear.height / 2 + (na - nd) / 2,
                        colour: style.secondaryTextColour, background: white, owner: "filter-more", role: .overlayText,
                        container: card, label: note)
            }
        }
    }

    // MARK: Filter in effect

    /// The tokens at the right of the breadcrumb strip: a tint pill with the keyword and its ×.
    func drawTokens(_ tokens: [SceneToken], _ f: Frame) {
        let cr = f.cr
        let font = FontKey(bold: false, size: style.filterChipFontSize)
        let (a, d) = engine.verticalMetrics(font)
        for t in tokens {
            let r = t.frame, rr = r.height / 2
            roundedRectPath(cr, r.x, r.y, r.width, r.height, rr)
            setColour(cr, style.tintColour)
            cairo_fill(cr)
            // The keyword was measured into the 12 pt before and the 24 pt after it (the × overlaps
            // the last 2 pt of its 26 pt hit area).
            let room = max(0, r.width - 36 + 1)
            let kw = fitter.singleLine(t.keyword, width: room, font: font)
            textRun(f, kw, x: r.x + 12, baseline: r.y + r.height / 2 + (a - d) / 2, colour: SceneColour(red: 255, green: 255, blue: 255),
                    background: style.tintColour.sceneColour, owner: "filter-token:\(t.keyword)", role: .keywordChip,
                    container: .roundedRect(x: r.x, y: r.y, width: r.width, height: r.height, cornerRadius: rr), label: t.keyword)
            // The ×: a light disc with a cross, centred in its hit area.
            let cx = t.closeFrame.x + t.closeFrame.width / 2 - 1, cy = t.closeFrame.y + t.closeFrame.height / 2
            let s = min(8.0, t.closeFrame.height * 0.34)
            circlePath(cr, cx, cy, s)
            setColour(cr, RenderColour.white.withAlpha(0.25))
            cairo_fill(cr)
            let h = s * 0.45
            cairo_move_to(cr, cx - h, cy - h)
            cairo_line_to(cr, cx + h, cy + h)
            cairo_move_to(cr, cx + h, cy - h)
            cairo_line_to(cr, cx - h, cy + h)
            setColour(cr, RenderColour.white)
            cairo_set_line_width(cr, 1.6)
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
            cairo_stroke(cr)
        }
    }

    /// The filtered level without a matching report: the message in the middle of the content area
    /// and the Clear button in its frame.
    func drawFilterEmpty(_ filter: SceneFilter, scene: Scene, _ f: Frame) {
        guard let message = filter.emptyMessage else { return }
        let content = scene.chrome.contentRect(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        guard content.width > 40, content.height > 40 else { return }
        let font = FontKey(bold: true, size: 17)
        let (a, d) = engine.verticalMetrics(font)
        let cy = content.y + content.height / 2
        Icon.filter.draw(f.cr, x: content.x + content.width / 2, y: cy - 44, size: 30, colour: RenderColour(style.secondaryTextColour).withAlpha(0.6),
                         lineWidth: 2)
        let l = fitter.singleLine(message, width: content.width - 48, font: font)
        let bg = style.backgroundTop.mixed(with: style.backgroundBottom, 0.6).sceneColour
        textRun(f, l, x: content.x + (content.width - l.width) / 2, baseline: cy + (a - d) / 2, colour: style.darkTextColour,
                background: bg, owner: "filter-empty", role: .overlayText,
                container: .rect(x: content.x, y: content.y, width: content.width, height: content.height), label: message)
        if let clear = filter.clearFrame {
            drawButton(f, clear, title: "Clear filter", bold: true, filled: true, owner: "filter-empty-clear")
        }
    }

    /// Over a bubble: its match badge (a tint capsule with the count at the top right) under a
    /// filter, and the ring of a report found by a search (alpha = `marked`).
    func drawBubbleMarks(_ b: SceneBubble, _ f: Frame) {
        guard b.scale > 0.001, b.opacity > 0.001, b.matchCount != nil || b.marked > 0.001 else { return }
        let cr = f.cr
        let s = b.scale, opacity = min(1, b.opacity)
        if b.marked > 0.001, case .roundedRect(let w, let h, let r) = b.shape {
            let o = 4.0
            roundedRectPath(cr, b.centre.x - w * s / 2 - o, b.centre.y - h * s / 2 - o, w * s + 2 * o, h * s + 2 * o, r * s + o)
            setColour(cr, style.tintColour.withAlpha(min(1, b.marked) * opacity))
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
        }
        guard let count = b.matchCount else { return }
        let (px, py): (Double, Double)
        switch b.shape {
        case .circle(let r): (px, py) = (b.centre.x + r * s * 0.7071, b.centre.y - r * s * 0.7071)
        case .roundedRect(let w, let h, _): (px, py) = (b.centre.x + w * s / 2 - 6, b.centre.y - h * s / 2 + 6)
        }
        let font = FontKey(bold: true, size: 12)
        let (a, d) = engine.verticalMetrics(font)
        let text = SceneSearch.grouped(count)
        let l = engine.line(text, font)
        let bh = 20.0, bw = max(bh, l.width + 12)
        let x = px - bw / 2, y = py - bh / 2
        let grouped = opacity < 0.999
        if grouped { cairo_push_group(cr) }
        roundedRectPath(cr, x - 2, y - 2, bw + 4, bh + 4, bh / 2 + 2)
        setColour(cr, RenderColour.white)
        cairo_fill(cr)
        roundedRectPath(cr, x, y, bw, bh, bh / 2)
        setColour(cr, style.tintColour)
        cairo_fill(cr)
        textRun(f, l, x: x + (bw - l.width) / 2, baseline: y + bh / 2 + (a - d) / 2, colour: SceneColour(red: 255, green: 255, blue: 255),
                background: style.tintColour.sceneColour, owner: "badge:\(b.id)", role: .overlayText,
                container: .roundedRect(x: x, y: y, width: bw, height: bh, cornerRadius: bh / 2))
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }

    /// The notice: a dark rounded toast centred near the bottom of the content area.
    func drawNotice(_ notice: SceneNotice, scene: Scene, _ f: Frame) {
        let opacity = min(1, notice.opacity)
        guard opacity > 0.001, !notice.text.isEmpty else { return }
        let cr = f.cr
        let content = scene.chrome.contentRect(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        let font = FontKey(bold: false, size: 15)
        let (a, d) = engine.verticalMetrics(font)
        let l = fitter.singleLine(notice.text, width: max(0, min(560, content.width - 80)), font: font)
        let h = a + d + 24, w = l.width + 40
        let x = content.x + (content.width - w) / 2
        let y = content.y + content.height - 32 - h
        let grouped = opacity < 0.999
        if grouped { cairo_push_group(cr) }
        let fill = RenderColour(hex: 0x1F2733, alpha: 0.92)
        roundedRectPath(cr, x, y, w, h, h / 2)
        setColour(cr, fill)
        cairo_fill(cr)
        textRun(f, l, x: x + 20, baseline: y + h / 2 + (a - d) / 2, colour: SceneColour(red: 255, green: 255, blue: 255),
                background: RenderColour(hex: 0x1F2733).mixed(with: style.backgroundTop, 0.08).sceneColour, owner: "notice",
                role: .overlayText, container: .roundedRect(x: x, y: y, width: w, height: h, cornerRadius: h / 2), label: notice.text)
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }
}
