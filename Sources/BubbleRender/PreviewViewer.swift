import BubbleDashboard
import CCairo

extension SceneRenderer {
    /// The preview's sheet as a viewer (laid out by `PreviewGeometry`): the header with the back
    /// arrow, the title, the author and pages line and "Open PDF"; the pages in their viewport,
    /// with the page indicator; the keyword chips at the bottom. Moved right by the swipe.
    func drawViewer(_ report: SceneReport, _ p: ScenePreview, scene: Scene, _ f: Frame) {
        let cr = f.cr
        let g = p.geometry
        guard g.isDrawable else { return }
        let card = g.card
        let colour = report.colour ?? style.neutralBubbleColour
        let white = style.cardColour.sceneColour
        cairo_save(cr)
        cairo_translate(cr, p.swipe, 0)
        drawCard(cr, x: card.x, y: card.y, w: card.width, h: card.height, radius: PreviewGeometry.cornerRadius)
        let container = LabelLayout.Container.roundedRect(x: card.x + p.swipe, y: card.y, width: card.width, height: card.height,
                                                           cornerRadius: PreviewGeometry.cornerRadius)
        cairo_save(cr)
        roundedRectPath(cr, card.x, card.y, card.width, card.height, PreviewGeometry.cornerRadius)
        cairo_clip(cr)
        cairo_rectangle(cr, card.x, card.y, card.width, PreviewGeometry.accentHeight)
        setColour(cr, colour)
        cairo_fill(cr)
        cairo_restore(cr)
        // Labels are recorded where they are drawn: with the swipe.
        let shifted = f.records && p.swipe != 0
        if shifted { cairo_restore(cr); cairo_save(cr) }
        let dx = shifted ? p.swipe : 0
        drawViewerHeader(report, p, dx: dx, container: container, colour: RenderColour(colour), white: white, f)
        drawViewerPages(report, p, dx: dx, colour: RenderColour(colour), f)
        drawViewerKeywords(report, g.keywords, dx: dx, colour: colour, white: white, container: container, f)
        cairo_restore(cr)
    }

    func drawViewerHeader(_ report: SceneReport, _ p: ScenePreview, dx: Double, container: LabelLayout.Container,
                          colour: RenderColour, white: SceneColour, _ f: Frame) {
        let cr = f.cr
        let g = p.geometry
        // The back arrow: a chevron in the accent colour.
        let b = g.backButton
        let cx = b.x + dx + b.width / 2, cy = b.y + b.height / 2
        cairo_move_to(cr, cx + 4, cy - 9)
        cairo_line_to(cr, cx - 5, cy)
        cairo_line_to(cr, cx + 4, cy + 9)
        setColour(cr, colour.mixed(with: RenderColour(hex: 0x1A2433), 0.35))
        cairo_set_line_width(cr, 2.6)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_stroke(cr)
        recordPicture(f, owner: "preview-back", label: "Back", frame: SceneRect(x: b.x + dx, y: b.y, width: b.width, height: b.height))

        let t = g.titleArea
        let metaFont = FontKey(bold: false, size: style.overlayBodyFontSize)
        let (ma, md) = engine.verticalMetrics(metaFont)
        let titleRoom = max(20, t.height - ma - md - 4)
        let title = fitter.fitRect(report.title, width: t.width, height: titleRoom, maxSize: 19, minSize: 14, bold: true, maxLines: 2)
        let titleH = title.layout?.height ?? 0
        let top = t.y + max(0, (t.height - titleH - 4 - ma - md) / 2)
        textBlock(f, title, dx: t.x + dx, dy: top, colour: style.darkTextColour, background: white, owner: "preview-title",
                  role: .overlayTitle, container: container, label: report.title)
        var parts: [String] = []
        if let a = report.author, !a.isEmpty { parts.append("by " + a) }
        let pages = p.pageCount > 0 ? p.pageCount : report.pageCount
        if let n = pages { parts.append(n == 1 ? "1 page" : "\(n) pages") }
        let meta = parts.isEmpty ? "Author and pages unknown" : parts.joined(separator: " · ")
        textRun(f, fitter.singleLine(meta, width: t.width, font: metaFont), x: t.x + dx, baseline: top + titleH + 4 + ma,
                colour: style.secondaryTextColour, background: white, owner: "preview-meta", role: .overlayText,
                container: container, label: meta)

        // "Open PDF": enabled when there is a document to open.
        let o = g.openButton
        let enabled = !p.standIn && p.unavailable == nil
        roundedRectPath(cr, o.x + dx, o.y, o.width, o.height, o.height / 2)
        let fill = enabled ? colour.mixed(with: RenderColour(hex: 0x1A2433), 0.25) : RenderColour(hex: 0xE3E7EC)
        setColour(cr, fill)
        cairo_fill(cr)
        let bf = FontKey(bold: true, size: 13)
        let line = fitter.singleLine("Open PDF", width: o.width - 16, font: bf)
        let (ba, bd) = engine.verticalMetrics(bf)
        textRun(f, line, x: o.x + dx + (o.width - line.width) / 2, baseline: o.y + o.height / 2 + (ba - bd) / 2,
                colour: enabled ? SceneColour(red: 255, green: 255, blue: 255) : style.secondaryTextColour, background: fill.sceneColour,
                owner: "preview-open-pdf", role: .overlayText,
                container: .roundedRect(x: o.x + dx, y: o.y, width: o.width, height: o.height, cornerRadius: o.height / 2),
                label: "Open PDF")
    }

    func drawViewerPages(_ report: SceneReport, _ p: ScenePreview, dx: Double, colour: RenderColour, _ f: Frame) {
        let cr = f.cr
        let v = p.geometry.pages
        let radius = Self.viewportRadius
        cairo_save(cr)
        roundedRectPath(cr, v.x + dx, v.y, v.width, v.height, radius)
        if f.raster {
            // In a raster the pages are clipped to the viewport's rectangle (pixels composited
            // without a mask) and its rounded corners are painted back over them afterwards.
            setColour(cr, RenderColour(hex: 0xE6EAF0))
            cairo_fill(cr)
            // On whole device pixels (inwards): the clip is the same set of pixels however
            // much of the picture a frame draws.
            var x0 = v.x + dx, y0 = v.y, x1 = v.x + dx + v.width, y1 = v.y + v.height
            cairo_user_to_device(cr, &x0, &y0)
            cairo_user_to_device(cr, &x1, &y1)
            x0 = x0.rounded(.up); y0 = y0.rounded(.up); x1 = x1.rounded(.down); y1 = y1.rounded(.down)
            cairo_device_to_user(cr, &x0, &y0)
            cairo_device_to_user(cr, &x1, &y1)
            cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
            cairo_clip(cr)
        } else {
            cairo_clip_preserve(cr)
            setColour(cr, RenderColour(hex: 0xE6EAF0))
            cairo_fill(cr)
        }
        if p.standIn {
            let h = min(v.height - 32, (v.width - 32) * 1.4142)
            drawPagePlaceholder(cr, centreX: v.x + dx + v.width / 2, top: v.y + (v.height - h) / 2, height: h, colour: colour)
        } else if let why = p.unavailable {
            drawUnavailable(why, in: SceneRect(x: v.x + dx, y: v.y, width: v.width, height: v.height), f)
        }
        // In a raster, each page starts on a whole device pixel and the pages move by whole
        // device pixels as they scroll (see `ScenePreview.scrollY`), so that a page drawn again
        // lower or higher has exactly the pixels it had.
        let snaps = f.raster && pixelScale > 0
        let scrolled = (p.scrollY * pixelScale).rounded()
        for page in p.pages {
            var r = SceneRect(x: page.frame.x + dx, y: page.frame.y, width: page.frame.width, height: page.frame.height)
            if snaps {
                r.x = (r.x * pixelScale).rounded() / pixelScale
                r.y = (((page.frame.y + p.scrollY) * pixelScale).rounded() - scrolled) / pixelScale
                r.width = (page.frame.width * pixelScale).rounded() / pixelScale
                r.height = (page.frame.height * pixelScale).rounded() / pixelScale
            }
            let clipped = intersection(r, SceneRect(x: v.x + dx, y: v.y, width: v.width, height: v.height))
            if !f.records { drawPage(report.id, page.page, in: r, visible: clipped, fitWidth: p.zoom == 1, f) }
            recordPicture(f, owner: "preview-page:\(page.page)", label: "page \(page.page)", frame: clipped)
        }
        cairo_restore(cr)
        if f.raster && !p.pages.isEmpty {
            // The card's colour outside the viewport's rounded corners.
            let x0 = v.x + dx, y0 = v.y, x1 = v.x + dx + v.width, y1 = v.y + v.height, r = radius
            let corners: [(Double, Double, Double, Double, Double)] = [
                (x0, y0, x0 + r, y0 + r, Double.pi), (x1, y0, x1 - r, y0 + r, 1.5 * Double.pi),
                (x1, y1, x1 - r, y1 - r, 0), (x0, y1, x0 + r, y1 - r, 0.5 * Double.pi),
            ]
            for (px, py, cx, cy, start) in corners {
                cairo_move_to(cr, px, py)
                cairo_arc(cr, cx, cy, r, start, start + Double.pi / 2)
                cairo_close_path(cr)
            }
            setColour(cr, style.cardColour)
            cairo_fill(cr)
        }
        if p.indicatorOpacity > 0, p.pageCount > 0 { drawPageIndicator(p, dx: dx, f) }
    }

    func intersection(_ a: SceneRect, _ b: SceneRect) -> SceneRect {
        let x0 = max(a.x, b.x), y0 = max(a.y, b.y)
        let x1 = min(a.x + a.width, b.x + b.width), y1 = min(a.y + a.height, b.y + b.height)
        return SceneRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// One page: a white sheet with a soft shadow, and the page's picture in it (vectors in a
    /// vector frame; otherwise the sharp raster, or while it is drawn the nearest one ready, the
    /// thumbnail or faint lines). At fit width the raster has exactly the pixels the page covers.
    func drawPage(_ report: String, _ page: Int, in r: SceneRect, visible: SceneRect, fitWidth: Bool, _ f: Frame) {
        let cr = f.cr
        // A 1 pt shadow, on whole device pixels in a raster (as the page is).
        let o = f.raster && pixelScale > 0 ? max(1, pixelScale.rounded()) / pixelScale : 1
        cairo_rectangle(cr, r.x - o, r.y + o, r.width + 2 * o, r.height + 2 * o)
        setColour(cr, RenderColour(hex: 0x1A2B44, alpha: 0.10))
        cairo_fill(cr)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        setColour(cr, RenderColour.white)
        cairo_fill(cr)
        guard let pictures else { return }
        if !f.raster {
            cairo_save(cr)
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            cairo_clip(cr)
            cairo_translate(cr, r.x, r.y)
            _ = pictures.drawVector(report: report, page: page, into: cr, width: r.width, height: r.height)
            cairo_restore(cr)
            return
        }
        let raster: PageRaster?
        if fitWidth, let (_, _, w, h) = devicePixels(r, cr), w <= pictures.maxPageWidth {
            raster = pictures.page(report: report, page: page, width: w, height: h, wait: waitsForPages)
        } else {
            let pixelWidth = Int((r.width * pixelScale).rounded(.up))
            let step = pictures.step(for: pixelWidth)
            if step > pictures.maxPageWidth, drawTiles(report, page, width: step, in: r, visible: visible, pictures, f) { return }
            raster = pictures.page(report: report, page: page, pixelWidth: pixelWidth, wait: waitsForPages)
        }
        if let raster {
            paintShownPage(raster, report: report, page: page, into: r, f)
        } else if page == 1, case .picture(let thumb) = pictures.thumbnail(report: report) {
            paintShownPage(thumb, report: report, page: 0, into: r, f)
        } else {
            setColour(cr, RenderColour(hex: 0xE4E8EE))
            for k in 0..<6 {
                cairo_rectangle(cr, r.x + r.width * 0.12, r.y + r.height * (0.1 + 0.06 * Double(k)), r.width * (k == 0 ? 0.5 : 0.76),
                                max(1, r.height * 0.012))
            }
            cairo_fill(cr)
        }
    }

    /// A deeply zoomed page: the tiles in view of its picture `width` pixels wide. False when
    /// nothing could be drawn (no tile and no whole picture ready, in a live frame): the caller
    /// draws a stand-in.
    func drawTiles(_ report: String, _ page: Int, width: Int, in r: SceneRect, visible: SceneRect,
                   _ pictures: any PagePictures, _ f: Frame) -> Bool {
        guard visible.width > 0, visible.height > 0 else { return true }
        let k = Double(width) / r.width
        let height = Int((r.height * k).rounded())
        let t = pictures.tileSize
        let c0 = max(0, Int(((visible.x - r.x) * k) / Double(t))), c1 = min((width - 1) / t, Int(((visible.x + visible.width - r.x) * k) / Double(t)))
        let r0 = max(0, Int(((visible.y - r.y) * k) / Double(t))), r1 = min((height - 1) / t, Int(((visible.y + visible.height - r.y) * k) / Double(t)))
        guard c0 <= c1, r0 <= r1 else { return true }
        var tiles: [(SceneRect, PageRaster?)] = []
        for row in r0...r1 {
            for column in c0...c1 {
                let tile = pictures.tile(report: report, page: page, width: width, column: column, row: row, wait: waitsForPages)
                let w = Double(min(t, width - column * t)) / k, h = Double(min(t, height - row * t)) / k
                tiles.append((SceneRect(x: r.x + Double(column * t) / k, y: r.y + Double(row * t) / k, width: w, height: h), tile))
            }
        }
        // While tiles are drawn (a live frame), the whole page's largest picture stands in under them.
        var drawn = tiles.allSatisfy { $0.1 != nil }
        if !drawn, let whole = pictures.page(report: report, page: page, pixelWidth: pictures.maxPageWidth, wait: false) {
            paint(whole, into: r, f)
            drawn = true
        }
        for (rect, tile) in tiles { if let tile { paint(tile, into: rect, f) } }
        return drawn
    }

    /// Why the document cannot be drawn, in the page's place.
    func drawUnavailable(_ why: String, in v: SceneRect, _ f: Frame) {
        let cr = f.cr
        let w = min(v.width - 48, 360.0), h = 150.0
        guard w > 60 else { return }
        let x = v.x + (v.width - w) / 2, y = v.y + max(16, (v.height - h) / 2)
        roundedRectPath(cr, x, y, w, h, 12)
        setColour(cr, RenderColour.white)
        cairo_fill_preserve(cr)
        setColour(cr, RenderColour(hex: 0xCBD3DD))
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        // A page with a slash through it.
        let px = x + w / 2 - 13, py = y + 18
        cairo_rectangle(cr, px, py, 26, 34)
        cairo_move_to(cr, px - 4, py + 38)
        cairo_line_to(cr, px + 30, py - 4)
        setColour(cr, RenderColour(hex: 0x8A96A6))
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
        let white = SceneColour(red: 255, green: 255, blue: 255)
        let box = LabelLayout.Container.roundedRect(x: x, y: y, width: w, height: h, cornerRadius: 12)
        let head = FontKey(bold: true, size: 15)
        let line = fitter.singleLine("This report cannot be shown", width: w - 24, font: head)
        textRun(f, line, x: x + (w - line.width) / 2, baseline: y + 76, colour: style.darkTextColour, background: white,
                owner: "preview-unavailable", role: .overlayText, container: box, label: "This report cannot be shown")
        let reason = fitter.fitRect(why, width: w - 32, height: 40, maxSize: 13, minSize: 11, bold: false, maxLines: 2)
        let rw = reason.layout?.width ?? 0
        textBlock(f, reason, dx: x + (w - rw) / 2, dy: y + 88, colour: style.secondaryTextColour, background: white,
                  owner: "preview-unavailable-reason", role: .overlayText, container: box, label: why)
    }

    /// "3 / 12" (or the page label) in a dark pill at the viewport's top, fading with the scroll.
    /// The page indicator's pill (pt, before the swipe): centred 10 pt below the viewport's top,
    /// 28 pt high, as wide as its text and 24 pt.
    public func pageIndicatorRect(_ p: ScenePreview) -> SceneRect {
        let v = p.geometry.pages
        let line = fitter.singleLine(p.indicatorText, width: v.width - 40, font: Self.indicatorFont)
        let w = line.width + 24
        return SceneRect(x: v.x + (v.width - w) / 2, y: v.y + 10, width: w, height: 28)
    }

    static let indicatorFont = FontKey(bold: true, size: 13)

    func drawPageIndicator(_ p: ScenePreview, dx: Double, _ f: Frame) {
        let cr = f.cr
        let font = Self.indicatorFont
        let text = p.indicatorText
        let line = fitter.singleLine(text, width: p.geometry.pages.width - 40, font: font)
        let (a, d) = engine.verticalMetrics(font)
        let pill = pageIndicatorRect(p)
        let x = pill.x + dx, y = pill.y, w = pill.width, h = pill.height
        let fill = RenderColour(hex: 0x1F2937, alpha: 0.82 * p.indicatorOpacity)
        roundedRectPath(cr, x, y, w, h, h / 2)
        setColour(cr, fill)
        cairo_fill(cr)
        let textColour = SceneColour(red: 255, green: 255, blue: 255)
        // The text faded as one: a group no larger than the pill (and a point around it).
        cairo_save(cr)
        cairo_rectangle(cr, x - 1, y - 1, w + 2, h + 2)
        cairo_clip(cr)
        cairo_push_group(cr)
        textRun(f, line, x: x + 12, baseline: y + h / 2 + (a - d) / 2, colour: textColour,
                background: SceneColour(red: 0x1F, green: 0x29, blue: 0x37), owner: "preview-page-indicator", role: .overlayText,
                container: .roundedRect(x: x, y: y, width: w, height: h, cornerRadius: h / 2), label: text)
        cairo_pop_group_to_source(cr)
        cairo_paint_with_alpha(cr, p.indicatorOpacity)
        cairo_restore(cr)
    }

    /// The pixels of the preview's page viewport that only the viewport's own drawing reaches
    /// (its fill is opaque there): its rectangle on whole pixels (inwards, as its clip) less a
    /// square of `corner` pixels at each rounded corner. Nil when anything may be drawn over
    /// the viewport or show through it (no preview, the sheet fading, a notice, a vector frame).
    public func viewportInterior(_ scene: Scene) -> (rect: PixelRect, corner: Int)? {
        guard skipsWorkUnderCards, case .reportPreview = scene.overlay, scene.overlayOpacity >= 1, scene.notice == nil,
              let p = scene.preview, p.geometry.isDrawable, pixelScale > 0 else { return nil }
        let v = p.geometry.pages
        let x0 = Int(((v.x + p.swipe) * pixelScale).rounded(.up)), x1 = Int(((v.x + p.swipe + v.width) * pixelScale).rounded(.down))
        let y0 = Int((v.y * pixelScale).rounded(.up)), y1 = Int(((v.y + v.height) * pixelScale).rounded(.down))
        guard x1 > x0, y1 > y0 else { return nil }
        let corner = Int(((Self.viewportRadius + 1) * pixelScale).rounded(.up))
        return (PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), corner)
    }

    /// The page viewport's corner radius (pt).
    static let viewportRadius = 10.0

    /// Draws only the preview's page viewport (in a frame clipped to its interior, see
    /// `viewportInterior(_:)`, where nothing else shows), as `drawScene` would.
    func drawViewportOnly(_ scene: Scene, _ f: Frame) {
        guard case .reportPreview(let report) = scene.overlay, let p = scene.preview else { return }
        let cr = f.cr
        cairo_save(cr)
        cairo_translate(cr, p.swipe, 0)
        drawViewerPages(report, p, dx: 0, colour: RenderColour(report.colour ?? style.neutralBubbleColour), f)
        cairo_restore(cr)
    }

    func drawViewerKeywords(_ report: SceneReport, _ area: SceneRect, dx: Double, colour: SceneColour, white: SceneColour,
                            container: LabelLayout.Container, _ f: Frame) {
        let headFont = FontKey(bold: true, size: 11)
        let (ha, hd) = engine.verticalMetrics(headFont)
        let x = area.x + dx
        var cy = area.y
        textRun(f, "KEYWORDS", font: headFont, x: x, baseline: cy + ha, colour: style.secondaryTextColour, background: white,
                owner: "preview-keywords-heading", role: .overlayText, container: container)
        cy += ha + hd + 8
        let chips = layoutChips(report.keywords, width: area.width, maxRows: 2)
        drawKeywordChips(chips, report: report, left: x, top: cy, colour: colour, container: container, f)
    }
}

extension SceneRenderer {
    /// A report's keyword chips laid out by `layoutChips`, from (`left`, `top`), rows 30 pt apart
    /// ("No keywords" when there are none), tinted with the report's `colour`.
    func drawKeywordChips(_ chips: (chips: [Chip], rows: Int), report: SceneReport, left x: Double, top cy: Double, colour: SceneColour,
                          container: LabelLayout.Container, _ f: Frame) {
        let cr = f.cr
        let white = style.cardColour.sceneColour
        if chips.rows == 0 {
            let nf = FontKey(bold: false, size: 13)
            textRun(f, "No keywords", font: nf, x: x, baseline: cy + engine.verticalMetrics(nf).ascent,
                    colour: style.secondaryTextColour, background: white, owner: "preview-no-keywords", role: .overlayText,
                    container: container)
        }
        let chipFont = FontKey(bold: false, size: style.chipFontSize)
        let (ca, cd) = engine.verticalMetrics(chipFont)
        let chipFill = RenderColour.white.mixed(with: RenderColour(colour), 0.14)
        let moreFill = RenderColour(hex: 0xEDF0F4)
        for (n, chip) in chips.chips.enumerated() {
            let cx0 = x + chip.x, cy0 = cy + Double(chip.row) * 30
            let fill = chip.isMore ? moreFill : chipFill
            roundedRectPath(cr, cx0, cy0, chip.width, 24, 12)
            setColour(cr, fill)
            cairo_fill_preserve(cr)
            setColour(cr, chip.isMore ? RenderColour(hex: 0xC9D1DC) : RenderColour(colour, alpha: 0.35))
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            textRun(f, chip.layout, x: cx0 + 11, baseline: cy0 + 12 + (ca - cd) / 2,
                    colour: chip.isMore ? style.secondaryTextColour : style.darkTextColour, background: fill.sceneColour,
                    owner: chip.isMore ? "keyword-more:\(report.id)" : "keyword:\(report.id):\(n)", role: .keywordChip,
                    container: .roundedRect(x: cx0, y: cy0, width: chip.width, height: 24, cornerRadius: 12), label: chip.label)
        }
    }
}
