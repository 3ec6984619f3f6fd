import BubbleDashboard
import CCairo

extension SceneRenderer {
    /// The overlay. It stays opaque and above the bubbles until it is gone: only the dimming
    /// follows `overlayOpacity`. A card (preview, reports table, filter sheet) slides up from the
    /// bottom edge as it opens and back down as it closes; the search slides down from under the
    /// navigation bar and back up under it. So no bubble's title ever shows through an overlay's
    /// text while the level behind it changes.
    func drawOverlay(_ overlay: SceneOverlay, opacity dim: Double, scene: Scene, _ f: Frame) {
        let cr = f.cr
        let hidden = f.records ? 0 : 1 - min(1, max(0, dim))
        cairo_save(cr)
        if case .search = overlay, hidden > 0 {
            // Slides under the navigation bar: clipped below it.
            let top = scene.chrome.navigationBarHeight
            cairo_rectangle(cr, 0, top, scene.canvasWidth, max(0, scene.canvasHeight - top))
            cairo_clip(cr)
        }
        cairo_translate(cr, 0, overlaySlide(overlay, hidden: hidden, scene: scene))
        // While recording, coordinates are reported in place (the slide is 0 at full opacity).
        switch overlay {
        case .reportPreview(let report):
            if let p = scene.preview { drawViewer(report, p, scene: scene, f) } else { drawPreview(report, scene: scene, f) }
        case .reportsTable(let title, let reports, let scroll): drawTable(title: title, reports: reports, scroll: scroll, scene: scene, f)
        case .search(let search): drawSearch(search, scene: scene, f)
        case .filterSheet(let sheet): drawFilterSheet(sheet, scene: scene, f)
        }
        cairo_restore(cr)
    }

    /// How far (pt, down) the overlay is drawn from its place when `hidden` (0–1) of its slide is
    /// left: the search slides up under the navigation bar, the cards down off the bottom edge.
    func overlaySlide(_ overlay: SceneOverlay, hidden: Double, scene: Scene) -> Double {
        guard hidden > 0 else { return 0 }
        // A sheet swiped away leaves sideways, with the finger, not down.
        if case .reportPreview = overlay, let p = scene.preview, p.swipe > 0 { return 0 }
        guard case .search(let search) = overlay else { return hidden * scene.canvasHeight }
        let g = SearchPanelGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                    rows: search.message == nil ? search.results.count : 0)
        let top = scene.chrome.navigationBarHeight
        let reach = (search.results.isEmpty && search.message == nil ? g.bar.y + g.bar.height : g.card.y + g.card.height + 12) - top
        return -hidden * reach
    }

    /// The corner radius of the search results' card (pt).
    static let searchCardRadius = 14.0
    /// The corner radius of the filter sheet's card (pt).
    static let filterSheetCardRadius = 18.0

    /// The search results' card (pt, in place): nil while nothing is typed (the bar alone) or
    /// when the canvas leaves the rows no room.
    func searchCard(_ s: SceneSearch, _ g: SearchPanelGeometry) -> SceneRect? {
        !(s.results.isEmpty && s.message == nil) && g.rowsArea.isDrawable ? g.card : nil
    }

    /// Whether the filter sheet's card `c` is wide enough to be drawn.
    static func filterSheetShowsCard(_ c: SceneRect) -> Bool {
        c.width > 2 * FilterSheetGeometry.padding + 40
    }

    /// A rectangle (pt) that the open overlay's card paints with opaque pixels in this frame, so
    /// whatever is drawn before it there is never seen; nil when there is none. Only the card's
    /// inside, clear of its rounded corners and its edge pixels, and only for cards of an opaque
    /// colour: the search results, the reports table and the filter sheet (drawn under the same
    /// conditions as `drawSearch`, `drawTable` and `drawFilterSheet` draw them).
    func overlayCover(_ scene: Scene) -> SceneRect? {
        guard let overlay = scene.overlay, scene.overlayOpacity > 0, style.cardColour.alpha >= 1 else { return nil }
        let card: SceneRect, radius: Double
        switch overlay {
        case .search(let search):
            let g = SearchPanelGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                        rows: search.message == nil ? search.results.count : 0)
            guard let c = searchCard(search, g) else { return nil }
            (card, radius) = (c, Self.searchCardRadius)
        case .reportsTable(_, let reports, _):
            let g = ReportsTableGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                         rows: reports.count)
            guard g.isDrawable else { return nil }
            (card, radius) = (SceneRect(x: g.x, y: g.y, width: g.width, height: g.height), ReportsTableGeometry.cornerRadius)
        case .filterSheet(let sheet):
            guard Self.filterSheetShowsCard(sheet.geometry.card) else { return nil }
            (card, radius) = (sheet.geometry.card, Self.filterSheetCardRadius)
        case .reportPreview:
            return nil
        }
        let hidden = 1 - min(1, max(0, scene.overlayOpacity))
        let slide = overlaySlide(overlay, hidden: hidden, scene: scene)
        var y = card.y + slide + radius + 1
        let bottom = min(card.y + card.height + slide - radius - 1, scene.canvasHeight)
        if case .search = overlay, hidden > 0 { y = max(y, scene.chrome.navigationBarHeight + 1) }
        let inset = radius + 1
        guard bottom > y, card.width > 2 * inset else { return nil }
        return SceneRect(x: card.x + inset, y: y, width: card.width - 2 * inset, height: bottom - y)
    }

    /// A card with a soft shadow.
    func drawCard(_ cr: OpaquePointer, x: Double, y: Double, w: Double, h: Double, radius: Double) {
        cairo_save(cr)
        let inset = radius + 1
        if skipsWorkUnderCards && style.cardColour.alpha >= 1 && w > 2 * inset && h > 2 * inset {
            // The shadow's layers only around the card's inside, which the card paints over.
            cairo_rectangle(cr, x - 40, y - 40, w + 80, h + 80)
            cairo_rectangle(cr, x + inset, y + inset, w - 2 * inset, h - 2 * inset)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            cairo_clip(cr)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        }
        for i in 0..<4 {
            let g = Double(i) * 3
            roundedRectPath(cr, x - g, y - g + 8, w + 2 * g, h + 2 * g, radius + g)
            setColour(cr, RenderColour(hex: 0x0B1220, alpha: 0.07))
            cairo_fill(cr)
        }
        cairo_restore(cr)
        roundedRectPath(cr, x, y, w, h, radius)
        setColour(cr, style.cardColour)
        cairo_fill(cr)
    }

    // MARK: Report preview

    func drawPreview(_ report: SceneReport, scene: Scene, _ f: Frame) {
        let cr = f.cr
        let W = scene.canvasWidth, H = scene.canvasHeight
        let pad = 24.0, radius = 18.0
        let cw = min(520, W - 48)
        guard cw > 2 * pad + 20 else { return }
        let inner = cw - 2 * pad
        let colour = report.colour ?? style.neutralBubbleColour
        let white = style.cardColour.sceneColour

        let title = fitter.fitRect(report.title, width: inner, height: style.overlayTitleFontSize * style.lineSpacing * 3 + 2,
                                   maxSize: style.overlayTitleFontSize, minSize: 14, bold: true, maxLines: 3)
        let titleH = title.layout?.height ?? 0
        let metaFont = FontKey(bold: false, size: style.overlayBodyFontSize)
        let (ma, md) = engine.verticalMetrics(metaFont)
        var metaParts: [String] = []
        if let a = report.author, !a.isEmpty { metaParts.append("by " + a) }
        if let p = report.pageCount { metaParts.append(p == 1 ? "1 page" : "\(p) pages") }
        let meta = metaParts.isEmpty ? "Author and pages unknown" : metaParts.joined(separator: " · ")
        let chips = layoutChips(report.keywords, width: inner)
        let chipsH = chips.rows > 0 ? Double(chips.rows) * 30 - 6 : 18
        let headFont = FontKey(bold: true, size: 11)
        let (ha, hd) = engine.verticalMetrics(headFont)
        let fixed = 8 + pad + titleH + 8 + ma + md + 18 + 32 + 18 + ha + hd + 10 + chipsH + pad
        let maxCard = H - 80
        let pageH = max(90, min(330, maxCard - fixed))
        let ch = fixed + pageH
        let x = (W - cw) / 2
        let y = max(20, (H - ch) / 2)

        drawCard(cr, x: x, y: y, w: cw, h: ch, radius: radius)
        let card = LabelLayout.Container.roundedRect(x: x, y: y, width: cw, height: ch, cornerRadius: radius)
        // Accent band along the top.
        cairo_save(cr)
        roundedRectPath(cr, x, y, cw, ch, radius)
        cairo_clip(cr)
        cairo_rectangle(cr, x, y, cw, 8)
        setColour(cr, colour)
        cairo_fill(cr)
        cairo_restore(cr)

        var cy = y + 8 + pad
        textBlock(f, title, dx: x + pad, dy: cy, colour: style.darkTextColour, background: white, owner: "preview-title",
                  role: .overlayTitle, container: card, label: report.title)
        cy += titleH + 8
        let metaLine = fitter.singleLine(meta, width: inner, font: metaFont)
        textRun(f, metaLine, x: x + pad, baseline: cy + ma,
                colour: style.secondaryTextColour, background: white, owner: "preview-meta", role: .overlayText,
                container: card, label: meta)
        cy += ma + md + 18

        // The page placeholder on a light stage.
        let stageH = pageH + 32
        roundedRectPath(cr, x + pad, cy, inner, stageH, 12)
        setColour(cr, RenderColour(hex: 0xF0F3F7))
        cairo_fill(cr)
        drawPagePlaceholder(cr, centreX: x + cw / 2, top: cy + 16, height: pageH, colour: RenderColour(colour))
        cy += stageH + 18

        let head = "KEYWORDS"
        textRun(f, head, font: headFont, x: x + pad, baseline: cy + ha, colour: style.secondaryTextColour, background: white,
                owner: "preview-keywords-heading", role: .overlayText, container: card)
        cy += ha + hd + 10
        drawKeywordChips(chips, report: report, left: x + pad, top: cy, colour: colour, container: card, f)
    }

    struct Chip {
        var layout: TextLayout
        var label: String
        var x: Double
        var width: Double
        var row: Int
        var isMore: Bool
    }

    /// Keyword chips wrapped into at most three rows; the last chip says "+N more" when some do not fit.
    func layoutChips(_ keywords: [String], width: Double, maxRows: Int = 3) -> (chips: [Chip], rows: Int) {
        let font = FontKey(bold: false, size: style.chipFontSize)
        let gap = 6.0, padX = 11.0
        func chip(_ text: String, label: String) -> Chip {
            let line = fitter.singleLine(text, width: width - 2 * padX, font: font)
            return Chip(layout: line, label: label, x: 0, width: line.width + 2 * padX, row: 0, isMore: false)
        }
        var placed: [Chip] = []
        var x = 0.0, row = 0
        var overflowAt: Int? = nil
        for (i, k) in keywords.enumerated() {
            var c = chip(k, label: k)
            if x > 0 && x + c.width > width {
                row += 1
                x = 0
            }
            if row >= maxRows { overflowAt = i; break }
            c.x = x
            c.row = row
            placed.append(c)
            x += c.width + gap
        }
        if let start = overflowAt {
            var hidden = keywords.count - start
            while true {
                var more = chip("+\(hidden) more", label: "+\(hidden) more")
                more.isMore = true
                let lastRow = maxRows - 1
                let rowEnd = placed.filter { $0.row == lastRow }.map { $0.x + $0.width + gap }.max() ?? 0
                if rowEnd + more.width <= width || placed.isEmpty {
                    more.x = rowEnd
                    more.row = lastRow
                    placed.append(more)
                    break
                }
                placed.removeLast()
                hidden += 1
            }
        }
        return (placed, placed.isEmpty ? 0 : (placed.map(\.row).max()! + 1))
    }

    /// A page with a folded top-right corner, a coloured title bar and faint text lines.
    func drawPagePlaceholder(_ cr: OpaquePointer, centreX: Double, top: Double, height: Double, colour: RenderColour) {
        let h = height, w = h / 1.4142
        let x = centreX - w / 2, y = top
        let fold = w * 0.16
        func pagePath() {
            cairo_move_to(cr, x, y)
            cairo_line_to(cr, x + w - fold, y)
            cairo_line_to(cr, x + w, y + fold)
            cairo_line_to(cr, x + w, y + h)
            cairo_line_to(cr, x, y + h)
            cairo_close_path(cr)
        }
        // Shadow.
        cairo_save(cr)
        cairo_translate(cr, 0, 3)
        pagePath()
        setColour(cr, RenderColour(hex: 0x1A2B44, alpha: 0.12))
        cairo_fill(cr)
        cairo_restore(cr)
        pagePath()
        setColour(cr, RenderColour.white)
        cairo_fill_preserve(cr)
        setColour(cr, RenderColour(hex: 0xCED6E0))
        cairo_set_line_width(cr, 0.8)
        cairo_stroke(cr)
        // The fold.
        cairo_move_to(cr, x + w - fold, y)
        cairo_line_to(cr, x + w - fold, y + fold * 0.85)
        cairo_curve_to(cr, x + w - fold, y + fold, x + w - fold, y + fold, x + w - fold * 0.85, y + fold)
        cairo_line_to(cr, x + w, y + fold)
        cairo_close_path(cr)
        setColour(cr, RenderColour(hex: 0xE3E8EF))
        cairo_fill_preserve(cr)
        setColour(cr, RenderColour(hex: 0xCED6E0))
        cairo_stroke(cr)
        // Title bar and text lines.
        let m = w * 0.12
        let lineH = max(1.5, h * 0.012)
        roundedRectPath(cr, x + m, y + h * 0.09, (w - 2 * m) * 0.6, lineH * 2.4, lineH)
        setColour(cr, colour.withAlpha(0.75))
        cairo_fill(cr)
        roundedRectPath(cr, x + m, y + h * 0.155, (w - 2 * m) * 0.38, lineH * 1.2, lineH * 0.6)
        setColour(cr, RenderColour(hex: 0xB5BFCC))
        cairo_fill(cr)
        // A chart block.
        let by = y + h * 0.22, bh = h * 0.2
        roundedRectPath(cr, x + m, by, w - 2 * m, bh, 3)
        setColour(cr, colour.withAlpha(0.08))
        cairo_fill(cr)
        let bars = [0.45, 0.7, 0.55, 0.9, 0.65, 0.8]
        let bw = (w - 2 * m) / Double(bars.count * 2 + 1)
        for (i, v) in bars.enumerated() {
            let bx = x + m + bw * Double(2 * i + 1)
            cairo_rectangle(cr, bx, by + bh * (1 - v * 0.8) - 3, bw, bh * v * 0.8)
        }
        setColour(cr, colour.withAlpha(0.45))
        cairo_fill(cr)
        let lengths = [1.0, 0.94, 0.97, 0.62, 0.0, 1.0, 0.9, 0.96, 0.88, 0.5, 0.0, 0.97, 0.92, 0.7]
        var ly = by + bh + h * 0.05
        for len in lengths {
            if ly + lineH > y + h - m * 0.8 { break }
            if len > 0 {
                roundedRectPath(cr, x + m, ly, (w - 2 * m) * len, lineH, lineH / 2)
            }
            ly += lineH * 2.6
        }
        setColour(cr, RenderColour(hex: 0xD5DCE5))
        cairo_fill(cr)
    }

    // MARK: Reports table

    /// The width of the thumbnail column in list rows (pt).
    static let thumbnailColumn = 26.0
    /// Where a table row's title starts, from the card's padding: the colour dot, the thumbnail
    /// and a gap (pt).
    static let tableTitleInset = 14 + thumbnailColumn + 8

    /// The table card (laid out by `ReportsTableGeometry`): a title block and column headings that
    /// stay, and rows that scroll under them by `scroll.offset`, clipped to their viewport. Only
    /// rows at least partly in view are drawn and recorded; the scroll indicator is drawn over the
    /// rows' right edge at `scroll.indicatorOpacity`.
    func drawTable(title: String, reports: [SceneReport], scroll: SceneTableScroll, scene: Scene, _ f: Frame) {
        let cr = f.cr
        let g = ReportsTableGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                     rows: reports.count)
        guard g.isDrawable else { return }
        let pad = ReportsTableGeometry.padding, radius = ReportsTableGeometry.cornerRadius
        let rowH = ReportsTableGeometry.rowHeight, columnsH = ReportsTableGeometry.columnsHeight
        let x = g.x, y = g.y, tw = g.width, th = g.height
        let white = style.cardColour.sceneColour
        drawCard(cr, x: x, y: y, w: tw, h: th, radius: radius)
        let card = LabelLayout.Container.roundedRect(x: x, y: y, width: tw, height: th, cornerRadius: radius)

        // Header.
        let tf = FontKey(bold: true, size: 19)
        let sf = FontKey(bold: false, size: 13)
        let (ta, _) = engine.verticalMetrics(tf)
        let heading = "Reports in " + title
        let t = fitter.singleLine(heading, width: tw - 2 * pad, font: tf)
        textRun(f, t, x: x + pad, baseline: y + 16 + ta, colour: style.darkTextColour,
                background: white, owner: "table-title", role: .overlayTitle, container: card, label: heading)
        var count = reports.count == 1 ? "1 report" : "\(reports.count) reports"
        if let keywords = scene.filter?.keywords, !keywords.isEmpty { count += " · filtered: " + keywords.joined(separator: ", ") }
        let cl = fitter.singleLine(count, width: tw - 2 * pad, font: sf)
        textRun(f, cl, x: x + pad, baseline: y + 16 + ta + 22, colour: style.secondaryTextColour, background: white,
                owner: "table-count", role: .overlayText, container: card, label: count)

        // Columns.
        let inner = tw - 2 * pad
        let titleW = inner * 0.5, pagesW = 56.0
        let kwX = x + pad + titleW + pagesW + 16
        let kwW = x + tw - pad - kwX
        let hy = y + ReportsTableGeometry.headerHeight
        let headerFill = RenderColour(hex: 0xEEF2F7)
        cairo_rectangle(cr, x, hy, tw, columnsH)
        setColour(cr, headerFill)
        cairo_fill(cr)
        let hf = FontKey(bold: true, size: 11.5)
        let (ha, hd) = engine.verticalMetrics(hf)
        let hb = hy + columnsH / 2 + (ha - hd) / 2
        let headerContainer = LabelLayout.Container.rect(x: x, y: hy, width: tw, height: columnsH)
        textRun(f, "TITLE", font: hf, x: x + pad + Self.tableTitleInset, baseline: hb, colour: style.secondaryTextColour, background: headerFill.sceneColour,
                owner: "table-header:title", role: .tableHeader, container: headerContainer)
        let pm = engine.line("PAGES", hf)
        textRun(f, pm, x: x + pad + titleW + pagesW - pm.width, baseline: hb, colour: style.secondaryTextColour,
                background: headerFill.sceneColour, owner: "table-header:pages", role: .tableHeader, container: headerContainer)
        textRun(f, "KEYWORDS", font: hf, x: kwX, baseline: hb, colour: style.secondaryTextColour, background: headerFill.sceneColour,
                owner: "table-header:keywords", role: .tableHeader, container: headerContainer)

        // Rows, clipped to their viewport (and the card's rounded corners).
        let cellFont = FontKey(bold: false, size: style.tableFontSize)
        let (ca, cd) = engine.verticalMetrics(cellFont)
        cairo_save(cr)
        roundedRectPath(cr, x, y, tw, th, radius)
        cairo_clip(cr)
        cairo_rectangle(cr, x, g.viewportTop, tw, g.viewportHeight)
        cairo_clip(cr)
        if reports.isEmpty {
            let ry = g.viewportTop
            let m = "No reports at this level"
            let mm = engine.line(m, cellFont)
            textRun(f, mm, x: x + (tw - mm.width) / 2, baseline: ry + rowH / 2 + (ca - cd) / 2,
                    colour: style.secondaryTextColour, background: white, owner: "table-empty", role: .tableCell,
                    container: .rect(x: x, y: ry, width: tw, height: rowH))
        }
        let columns = TableColumns(x: x, width: tw, pad: pad, titleW: titleW, pagesW: pagesW, kwX: kwX, kwW: kwW)
        for i in g.visibleRows(scroll: scroll.offset).map(Array.init) ?? [] {
            drawTableRow(i, reports[i], g, columns, scroll: scroll, f)
        }
        if scroll.indicatorOpacity > 0, let bar = g.indicator(scroll: scroll.offset) {
            roundedRectPath(cr, bar.x, bar.y, bar.width, bar.height, bar.width / 2)
            setColour(cr, RenderColour(hex: 0x000000, alpha: 0.35 * min(1, scroll.indicatorOpacity)))
            cairo_fill(cr)
        }
        cairo_restore(cr)
        setColour(cr, RenderColour(hex: 0x000000, alpha: 0))
    }

    /// The table's columns (pt): the card's left edge and width, its padding, the title and pages
    /// columns' widths, and the keywords column's left edge and width.
    struct TableColumns {
        var x, width, pad, titleW, pagesW, kwX, kwW: Double
    }

    /// Row `i` of the table (report `r`): its zebra fill, the colour dot, the thumbnail, and the
    /// title, pages and keywords cells.
    func drawTableRow(_ i: Int, _ r: SceneReport, _ g: ReportsTableGeometry, _ c: TableColumns, scroll: SceneTableScroll, _ f: Frame) {
        let cr = f.cr
        let x = c.x, tw = c.width, pad = c.pad, titleW = c.titleW, pagesW = c.pagesW, kwX = c.kwX, kwW = c.kwW
        let rowH = ReportsTableGeometry.rowHeight
        let cellFont = FontKey(bold: false, size: style.tableFontSize)
        let kwFont = FontKey(bold: false, size: style.tableFontSize - 1)
        let (ca, cd) = engine.verticalMetrics(cellFont)
        let zebra = RenderColour(hex: 0xF6F8FB)
        let ry = g.rowTop(i, scroll: scroll.offset)
        let fill = i % 2 == 1 ? zebra : style.cardColour
        cairo_rectangle(cr, x, ry, tw, rowH)
        setColour(cr, fill)
        cairo_fill(cr)
        if i > 0 {
            cairo_rectangle(cr, x + pad, ry, tw - 2 * pad, 0.5)
            setColour(cr, style.separatorColour.withAlpha(0.7))
            cairo_fill(cr)
        }
        let bg = fill.sceneColour
        let baseline = ry + rowH / 2 + (ca - cd) / 2
        // A row cut by the viewport's edge is drawn clipped; a line of it is recorded only when
        // it is wholly in view, with the visible part of its cell as its container.
        let vTop = g.viewportTop, vBottom = g.viewportTop + g.viewportHeight
        let cut = ry < vTop || ry + rowH > vBottom
        func cell(_ cx: Double, _ cw: Double) -> LabelLayout.Container {
            let top = max(ry, vTop)
            return .rect(x: cx, y: top, width: cw, height: max(0, min(ry + rowH, vBottom) - top))
        }
        circlePath(cr, x + pad + 4, ry + rowH / 2, 4)
        setColour(cr, r.colour ?? style.neutralBubbleColour)
        cairo_fill(cr)
        let thumbBox = SceneRect(x: x + pad + 14, y: ry + 4, width: Self.thumbnailColumn, height: rowH - 8)
        if !cut || (thumbBox.y >= vTop && thumbBox.y + thumbBox.height <= vBottom) {
            drawThumbnail(report: r.id, in: thumbBox, owner: "table-row:\(r.id):thumbnail", f)
        } else {
            drawThumbnail(report: r.id, in: thumbBox, owner: "table-row:\(r.id):thumbnail", Frame(cr: cr, raster: f.raster, records: false))
        }
        let inset = Self.tableTitleInset
        let tl = fitter.singleLine(r.title, width: titleW - inset, font: cellFont)
        let lineTop = baseline - tl.baseline, lineBottom = lineTop + tl.height
        let rf = cut && (lineTop < vTop || lineBottom > vBottom) ? Frame(cr: cr, raster: f.raster, records: false) : f
        textRun(rf, tl, x: x + pad + inset, baseline: baseline, colour: style.darkTextColour,
                background: bg, owner: "table-row:\(r.id)", role: .tableCell,
                container: cell(x + pad + inset, titleW - inset), label: r.title)
        let pages = r.pageCount.map(String.init) ?? "—"
        let pmm = engine.line(pages, cellFont)
        textRun(rf, pmm, x: x + pad + titleW + pagesW - pmm.width, baseline: baseline,
                colour: style.secondaryTextColour, background: bg, owner: "table-row:\(r.id):pages", role: .tableCell,
                container: cell(x + pad + titleW, pagesW))
        let kw = r.keywords.isEmpty ? "—" : r.keywords.joined(separator: ", ")
        let kl = fitter.singleLine(kw, width: max(0, kwW), font: kwFont)
        textRun(rf, kl, x: kwX, baseline: baseline, colour: style.secondaryTextColour,
                background: bg, owner: "table-row:\(r.id):keywords", role: .tableCell,
                container: cell(kwX, max(0, kwW)), label: kw)
        }
}

extension SceneRenderer {
    /// The scroll indicators of a level that pans: a thin bar along the bubble area's right edge
    /// (vertical pan) and one along its bottom edge (horizontal pan), each as long as the share of
    /// the level in view and where that share lies, as UIScrollView draws them.
    func drawPanIndicators(_ pan: ScenePan, _ f: Frame) {
        let opacity = min(1, pan.indicatorOpacity)
        guard opacity > 0.001 else { return }
        let cr = f.cr
        let v = pan.viewport, e = pan.extent
        let thickness = 3.0, inset = 3.0, minLength = 24.0
        /// Start and length of the bar along a track of `track` pt for a view of `start...start+size`
        /// onto an extent of `eStart...eStart+eSize`.
        func bar(track: Double, start: Double, size: Double, eStart: Double, eSize: Double) -> (Double, Double)? {
            guard eSize > size + 0.5, track > minLength else { return nil }
            let a = max(start, eStart), b = min(start + size, eStart + eSize)
            let length = min(track, max(minLength, track * max(0, b - a) / eSize))
            let at = min(max(0, track * (a - eStart) / eSize), track - length)
            return (at, length)
        }
        setColour(cr, RenderColour(hex: 0x000000, alpha: 0.35 * opacity))
        let vTrack = v.height - 2 * inset - thickness - inset
        if let (at, length) = bar(track: vTrack, start: v.y, size: v.height, eStart: e.y, eSize: e.height) {
            roundedRectPath(cr, v.x + v.width - inset - thickness, v.y + inset + at, thickness, length, thickness / 2)
            cairo_fill(cr)
        }
        let hTrack = v.width - 2 * inset - thickness - inset
        if let (at, length) = bar(track: hTrack, start: v.x, size: v.width, eStart: e.x, eSize: e.width) {
            roundedRectPath(cr, v.x + inset + at, v.y + v.height - inset - thickness, length, thickness, thickness / 2)
            cairo_fill(cr)
        }
        setColour(cr, RenderColour(hex: 0x000000, alpha: 0))
    }
}
