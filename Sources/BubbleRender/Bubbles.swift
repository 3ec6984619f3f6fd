import BubbleDashboard
import CCairo

struct BubbleTextKey: Hashable {
    var label: String
    var shape: SceneShape
    var kind: SceneBubbleKind
    var pageCount: Int?
    var titleScale: Double?
    var titleFloor: Double?
}

/// A bubble's text, laid out once per (label, shape, kind) in unscaled coordinates relative to the
/// bubble's centre.
struct BubbleText {
    var title: FittedText
    var titleOrigin: (x: Double, y: Double)
    /// The page count ("12 pp") on report cards: its layout and where its top left goes.
    var footer: (layout: TextLayout, x: Double, top: Double)?
    var glyphCentre: (x: Double, y: Double)
}

/// Colours of a bubble: gradient stops, stroke and a text colour that reaches the minimum contrast
/// against both stops.
struct BubblePaint {
    var top: SceneColour
    var bottom: SceneColour
    var stroke: RenderColour
    var text: SceneColour
    /// The stop with the lower contrast against `text`.
    var worst: SceneColour
}

package struct Sprite {
    var image: RenderedImage
    /// Where the shape's centre lies in the sprite, in pixels.
    var originX: Double
    var originY: Double
}

struct BodyKey: Hashable {
    var label: String
    var shape: SceneShape
    var labelRadius: Double?
    var titleScale: Double?
    var titleFloor: Double?
    var kind: SceneBubbleKind
    var colour: SceneColour?
    var pageCount: Int?
}

struct FocusKey: Hashable {
    var shape: SceneShape
    var scale: Double
    var colour: SceneColour?
    var label: String
    var blur: Double
    var pixelScale: Double
}

struct FocusImage {
    var key: FocusKey
    var sprite: Sprite
}

extension SceneRenderer {
    func paint(for colour: SceneColour?) -> BubblePaint {
        let c = colour ?? style.neutralBubbleColour
        if let p = paints[c] { return p }
        let white = SceneColour(red: 255, green: 255, blue: 255)
        var base = RenderColour(c)
        var result: BubblePaint? = nil
        for _ in 0..<60 {
            let top = base.mixed(with: .white, 0.14).sceneColour
            let bottom = base.mixed(with: .black, 0.06).sceneColour
            // White text on saturated fills reads best: keep it whenever a slight darkening gets there.
            let text = Contrast.ratio(white, c) >= style.preferLightTextAbove
                ? white : Contrast.textColour(on: base.sceneColour, dark: style.darkTextColour)
            let worst = text == white ? top : bottom
            let stroke = base.mixed(with: .black, 0.18).withAlpha(0.9)
            if Contrast.ratio(text, worst) >= style.minimumContrast {
                result = BubblePaint(top: top, bottom: bottom, stroke: stroke, text: text, worst: worst)
                break
            }
            base = text == white ? base.mixed(with: .black, 0.04) : base.mixed(with: .white, 0.04)
        }
        let p = result ?? BubblePaint(top: style.darkTextColour, bottom: style.darkTextColour, stroke: .black, text: white, worst: style.darkTextColour)
        paints[c] = p
        return p
    }

    func cardFill(for colour: SceneColour?) -> SceneColour {
        guard let colour else { return style.cardColour.sceneColour }
        return style.cardColour.mixed(with: RenderColour(colour), 0.07).sceneColour
    }

    /// The bubble as it lands (a circle changing size at its landing radius, `labelRadius` cleared)
    /// and the factor that draws that one at this frame's size (scale included).
    func landingSize(_ b: SceneBubble) -> (SceneBubble, Double) {
        var landing = b
        var size = b.scale
        if case .circle(let r) = b.shape, let target = b.labelRadius, target > 0 {
            landing.shape = .circle(radius: target)
            landing.labelRadius = nil
            size *= r / target
        }
        return (landing, size)
    }

    /// Composites a raster sprite centred on `centre` (pt), scaled by `size`, with smooth filtering.
    func drawScaled(_ sprite: Sprite, at centre: ScenePoint, size: Double, opacity: Double, _ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_translate(cr, centre.x * pixelScale, centre.y * pixelScale)
        cairo_scale(cr, size, size)
        cairo_set_source_surface(cr, sprite.image.surface, -sprite.originX, -sprite.originY)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_rectangle(cr, -sprite.originX, -sprite.originY, Double(sprite.image.width), Double(sprite.image.height))
        cairo_clip(cr)
        cairo_paint_with_alpha(cr, opacity)
        cairo_restore(cr)
    }

    /// How much a circle's title is scaled: its radius over the radius it is laid out for
    /// (`SceneBubble.labelRadius`), 1 for everything else.
    func titleScale(_ b: SceneBubble) -> Double {
        guard case .circle(let r) = b.shape, let target = b.labelRadius, target > 0 else { return 1 }
        return r / target
    }

    /// A circle's title (a group's with its count below), laid out for `radius`.
    func circleText(_ b: SceneBubble, radius: Double) -> BubbleText {
        let t: BubbleText
        let inset = max(5, radius * 0.12)
        let focus = b.kind == .focus
        // A child circle's title at the size its level was laid out for, never under the floor
        // (one rule with the layout: `TitleSize`); without that scale, from the radius.
        var maxSize = focus ? style.focusTitleFontSize : min(style.circleTitleFontSize, max(style.minimumCircleTitleFontSize, radius * 0.32))
        var minSize = style.minimumCircleTitleFontSize
        if !focus, let k = b.titleScale, k > 0 {
            let floor = b.titleFloor ?? style.minimumCircleTitleFontSize
            minSize = max(style.minimumCircleTitleFontSize, TitleSize.halfPointUp(floor))
            // Never under the renderer's own least size (on a small canvas the level's scale
            // may ask for less).
            maxSize = max(minSize, TitleSize.drawn(
                measured: style.measuredCircleTitleFontSize, scale: k, largest: style.circleTitleFontSize, floor: floor))
        }
        if b.kind == .group, let cut = b.label.firstIndex(of: "\n") {
            // A group: its name or range on its own lines, the count below in a smaller,
            // lighter (regular) style.
            let name = String(b.label[..<cut])
            let count = String(b.label[b.label.index(after: cut)...])
            func lineHeight(_ size: Double) -> Double {
                let (asc, desc) = engine.verticalMetrics(FontKey(bold: false, size: size))
                return asc + desc
            }
            // The name is fitted with room for the count at its largest size; the count is then
            // never larger than the name (a long range that had to shrink keeps its count below
            // it in size too).
            let largestCount = max(minSize, (maxSize * 0.72 * 2).rounded() / 2)
            let gap = 2.0
            let fitted = fitter.fitCircle(
                name, radius: max(1, radius - inset - (lineHeight(largestCount) + gap) / 2), maxSize: maxSize,
                minSize: minSize, bold: true, maxLines: 4)
            let countFont = FontKey(
                bold: false,
                size: min(largestCount, max(minSize, (fitted.font.size * 0.85 * 2).rounded(.down) / 2)))
            let countH = lineHeight(countFont.size)
            let nameH = fitted.layout?.height ?? 0
            let blockH = nameH + gap + countH
            let nameTop = -blockH / 2
            let chord = 2 * max(0, (radius - inset) * (radius - inset) - (blockH / 2) * (blockH / 2)).squareRoot()
            let line = fitter.singleLine(count, width: max(countFont.size * 2, chord), font: countFont)
            let countTop = nameTop + nameH + gap
            t = BubbleText(
                title: fitted, titleOrigin: (0, nameTop - fitted.y), footer: (line, -(line.left + line.right) / 2, countTop),
                glyphCentre: (0, 0))
        } else {
            let fitted = fitter.fitCircle(
                b.label, radius: radius - inset, maxSize: maxSize,
                minSize: minSize, bold: true, maxLines: focus ? 4 : 5)
            t = BubbleText(title: fitted, titleOrigin: (0, 0), footer: nil, glyphCentre: (0, 0))
        }
        return t
    }

    /// A card's title, with a report's page count in the footer.
    func cardText(_ b: SceneBubble, w: Double, h: Double, r: Double) -> BubbleText {
        let t: BubbleText
        let padX = max(10, r * 0.3 + 4) + 4  // + the accent bar
        let padRight = max(10, r * 0.3 + 4)
        let padY = max(9, r * 0.3 + 2)
        var footerHeight = 0.0
        var footer: (layout: TextLayout, x: Double, top: Double)? = nil
        var glyph = (x: 0.0, y: 0.0)
        if b.kind == .report, let pages = b.pageCount {
            let font = FontKey(bold: false, size: style.pageCountFontSize)
            let (asc, desc) = engine.verticalMetrics(font)
            footerHeight = asc + desc + 4
            let glyphSize = style.pageCountFontSize * 1.15
            let available = w - padX - padRight - glyphSize - 5
            let line = fitter.singleLine("\(pages) pp", width: available, font: font)
            let baseline = h / 2 - padY - desc
            footer = (line, -w / 2 + padX + glyphSize + 5 - line.left, baseline - line.baseline)
            glyph = (-w / 2 + padX + glyphSize * 0.36, baseline - asc * 0.4)
        }
        let areaW = w - padX - padRight
        let areaH = h - 2 * padY - footerHeight
        // A card's title at most at the size its level was laid out for (one size per level).
        var maxSize = style.cardTitleFontSize
        var minSize = style.minimumCardTitleFontSize
        if b.kind == .report, let k = b.titleScale, k > 0 {
            let floor = b.titleFloor ?? style.minimumCardTitleFontSize
            minSize = max(minSize, TitleSize.halfPointUp(floor))
            maxSize = max(minSize, TitleSize.drawn(measured: style.cardTitleFontSize, scale: k, largest: style.cardTitleFontSize, floor: floor))
        }
        let fitted = fitter.fitRect(b.label, width: areaW, height: areaH, maxSize: maxSize,
                                    minSize: minSize, bold: true)
        // Without a footer the title block is centred vertically.
        let blockHeight = fitted.layout?.height ?? 0
        let top = footer == nil ? max(0, (areaH - blockHeight) / 2) : 0
        t = BubbleText(title: fitted, titleOrigin: (-w / 2 + padX, -h / 2 + padY + top), footer: footer, glyphCentre: glyph)
        return t
    }

    func bubbleText(_ b: SceneBubble) -> BubbleText {
        // A circle changing size is laid out once, for the radius it lands at.
        var layoutShape = b.shape
        if case .circle = b.shape, let target = b.labelRadius, target > 0 { layoutShape = .circle(radius: target) }
        let key = BubbleTextKey(
            label: b.label, shape: layoutShape, kind: b.kind, pageCount: b.kind == .report ? b.pageCount : nil,
            titleScale: b.kind == .focus ? nil : b.titleScale, titleFloor: b.kind == .focus ? nil : b.titleFloor)
        if let t = bubbleTexts[key] { return t }
        let t: BubbleText
        switch layoutShape {
        case .circle(let radius): t = circleText(b, radius: radius)
        case .roundedRect(let w, let h, let r): t = cardText(b, w: w, h: h, r: r)
        }
        // A fitted label keeps its layouts alive: counted like them (TextEngine.estimatedBytes).
        let bytes = 4096 + 128 * b.label.utf8.count
        if bubbleTexts.count > 4096 || textBudgetBytes != .max && bubbleTextBytes + bytes > textBudgetBytes / 2 {
            bubbleTexts.removeAll(keepingCapacity: true)
            bubbleTextBytes = 0
        }
        bubbleTextBytes += bytes
        bubbleTexts[key] = t
        return t
    }

    /// Half the drawn extent of the shape (unscaled), for bounding boxes.
    func halfExtent(_ shape: SceneShape) -> (Double, Double) {
        switch shape {
        case .circle(let r): return (r, r)
        case .roundedRect(let w, let h, _): return (w / 2, h / 2)
        }
    }

    /// Whether everything `drawBubble` and `drawBubbleMarks` paint for `b` (shadow, blur, mark
    /// ring and match badge included) lies inside `rect` (pt).
    func isHidden(_ b: SceneBubble, under rect: SceneRect) -> Bool {
        let (hx, hy) = halfExtent(b.shape)
        let grow = max(1, b.scale) * 1.2
        // Shadow (or the focus' blur) around the shape, then the marks' ring and badge.
        var m = b.kind == .focus && b.blur > 0.001
            ? 3 * (b.blur * style.focusBlurRadius + 1) + 4 + style.shadowOffset
            : 3 * (style.shadowBlur + 1) + style.shadowOffset
        if b.marked > 0 || b.matchCount != nil { m += 80 }
        let ex = hx * b.scale + m * grow + 2, ey = hy * b.scale + m * grow + 2
        return b.centre.x - ex >= rect.x && b.centre.x + ex <= rect.x + rect.width
            && b.centre.y - ey >= rect.y && b.centre.y + ey <= rect.y + rect.height
    }

    func drawBubble(_ b: SceneBubble, _ f: Frame) {
        guard b.scale > 0.001, b.opacity > 0.001 else { return }
        let cr = f.cr
        if f.records { recordBubbleLabels(b, f) }
        if b.kind == .focus && b.blur > 0.001 {
            drawBlurredFocus(b, f)
            return
        }
        let opacity = min(1, b.opacity)
        if f.raster && abs(b.scale - 1) < 1e-9 && b.labelRadius == nil {
            // Settled bubbles: a cached sprite (shadow and body) composited at whole device pixels.
            let sprite = bodySprite(b)
            let cr = f.cr
            cairo_save(cr)
            cairo_identity_matrix(cr)
            let x = (b.centre.x * pixelScale - sprite.originX).rounded()
            let y = (b.centre.y * pixelScale - sprite.originY).rounded()
            cairo_set_source_surface(cr, sprite.image.surface, x, y)
            cairo_rectangle(cr, x, y, Double(sprite.image.width), Double(sprite.image.height))
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, opacity)
            cairo_restore(cr)
            return
        }
        // Growing, shrinking or changing size: the sprite of the size it lands at (or has), drawn
        // smaller. Laid out once, so a title keeps its lines, and no text is shaped per frame.
        let (landing, size) = landingSize(b)
        // (Up to 1.1: a bubble popping in, or swelling as it fades out, is not sharpened by more.)
        if f.raster && size <= 1.1 && size > 0.02 {
            drawScaled(bodySprite(landing), at: b.centre, size: size, opacity: opacity, f.cr)
            return
        }
        let (hx, hy) = halfExtent(b.shape)
        let grouped = opacity < 0.999
        cairo_save(cr)
        if grouped {
            let m = style.shadowBlur * 3 + style.shadowOffset + 2
            cairo_rectangle(cr, b.centre.x - hx * b.scale - m, b.centre.y - hy * b.scale - m,
                            2 * hx * b.scale + 2 * m, 2 * hy * b.scale + 2 * m)
            cairo_clip(cr)
            cairo_push_group(cr)
        }
        drawShadow(b, f)
        cairo_save(cr)
        cairo_translate(cr, b.centre.x, b.centre.y)
        cairo_scale(cr, b.scale, b.scale)
        drawBubbleBody(b, cr)
        cairo_restore(cr)
        if grouped {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
        cairo_restore(cr)
    }

    /// Shape, fill, stroke and text of a bubble, centred on (0, 0), unscaled.
    func drawBubbleBody(_ b: SceneBubble, _ cr: OpaquePointer) {
        let text = bubbleText(b)
        switch b.shape {
        case .circle(let r):
            let p = paint(for: b.colour)
            circlePath(cr, 0, 0, r)
            fillVerticalGradient(cr, y0: -r, y1: r, top: RenderColour(p.top), bottom: RenderColour(p.bottom), preserve: true)
            setColour(cr, p.stroke)
            cairo_set_line_width(cr, b.kind == .focus ? 2 : 1.5)
            cairo_stroke(cr)
            // A soft inner highlight ring.
            circlePath(cr, 0, 0, r - (b.kind == .focus ? 5 : 3))
            setColour(cr, RenderColour.white.withAlpha(b.kind == .focus ? 0.35 : 0.22))
            cairo_set_line_width(cr, b.kind == .focus ? 2 : 1)
            cairo_stroke(cr)
            if b.kind == .group {
                // A group: a dashed ring inside, as if several bubbles were stacked.
                circlePath(cr, 0, 0, r - 7)
                setColour(cr, RenderColour.white.withAlpha(0.45))
                cairo_set_line_width(cr, 1.2)
                let dashes = [4.0, 3.0]
                cairo_set_dash(cr, dashes, 2, 0)
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
            }
            setColour(cr, p.text)
            let k = titleScale(b)
            cairo_save(cr)
            cairo_scale(cr, k, k)
            text.title.draw(cr, dx: text.titleOrigin.x, dy: text.titleOrigin.y)
            if let footer = text.footer { footer.layout.draw(cr, x: footer.x, y: footer.top) }
            cairo_restore(cr)
        case .roundedRect(let w, let h, let radius):
            let fill = cardFill(for: b.colour)
            roundedRectPath(cr, -w / 2, -h / 2, w, h, radius)
            setColour(cr, fill)
            cairo_fill_preserve(cr)
            // Accent bar along the left edge, clipped to the card.
            cairo_save(cr)
            cairo_clip(cr)
            cairo_rectangle(cr, -w / 2, -h / 2, 5, h)
            setColour(cr, b.colour ?? style.neutralBubbleColour)
            cairo_fill(cr)
            cairo_restore(cr)
            roundedRectPath(cr, -w / 2 + 0.5, -h / 2 + 0.5, w - 1, h - 1, max(0, radius - 0.5))
            setColour(cr, RenderColour(hex: 0x9AA6B6, alpha: 0.45))
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            setColour(cr, style.darkTextColour)
            text.title.draw(cr, dx: text.titleOrigin.x, dy: text.titleOrigin.y)
            if let footer = text.footer {
                Icon.document.draw(cr, x: text.glyphCentre.x, y: text.glyphCentre.y, size: style.pageCountFontSize * 1.15,
                                   colour: RenderColour(style.secondaryTextColour), lineWidth: 1)
                setColour(cr, style.secondaryTextColour)
                footer.layout.draw(cr, x: footer.x, y: footer.top)
            }
        }
    }

    func recordBubbleLabels(_ b: SceneBubble, _ f: Frame) {
        let t = bubbleText(b)
        let s = b.scale, cx = b.centre.x, cy = b.centre.y
        let k = titleScale(b)
        let container: LabelLayout.Container
        let textColour: SceneColour, background: SceneColour
        switch b.shape {
        case .circle(let r):
            container = .circle(centre: b.centre, radius: r * s)
            let p = paint(for: b.colour)
            textColour = p.text
            background = p.worst
        case .roundedRect(let w, let h, let r):
            container = .roundedRect(x: cx - w * s / 2, y: cy - h * s / 2, width: w * s, height: h * s, cornerRadius: r * s)
            textColour = style.darkTextColour
            background = cardFill(for: b.colour)
        }
        let lines = t.title.lines.map { $0.labelLine(dx: cx + t.titleOrigin.x * s * k, dy: cy + t.titleOrigin.y * s * k, scale: s * k) }
        f.labels.append(LabelLayout(owner: b.id, role: .bubbleTitle, label: b.label, fontSize: t.title.font.size * s * k, lines: lines,
                                    isTruncated: t.title.truncated, container: container, textColour: textColour,
                                    backgroundColour: background, missingCodePoints: t.title.missingCodePoints,
                                    designFontSize: t.title.font.size))
        if let footer = t.footer {
            let l = footer.layout
            let isCard: Bool
            if case .roundedRect = b.shape { isCard = true } else { isCard = false }
            let lines = FittedText(l, x: footer.x, y: footer.top).lines.map { $0.labelLine(dx: cx, dy: cy, scale: s * k) }
            f.labels.append(LabelLayout(owner: (isCard ? "page-count:" : "group-count:") + b.id, role: .pageCount, label: l.key.text,
                                        fontSize: l.key.font.size * s * k, lines: lines, isTruncated: l.isEllipsized, container: container,
                                        textColour: isCard ? style.secondaryTextColour : textColour, backgroundColour: background,
                                        missingCodePoints: l.missingCodePoints, designFontSize: l.key.font.size))
        }
    }

    // MARK: Sprites

    /// The bubble at scale 1 with its shadow, drawn once into an image at the pixel scale.
    func bodySprite(_ b: SceneBubble) -> Sprite {
        let key = BodyKey(label: b.label, shape: b.shape, labelRadius: b.labelRadius, titleScale: b.kind == .focus ? nil : b.titleScale,
                          titleFloor: b.kind == .focus ? nil : b.titleFloor, kind: b.kind, colour: b.colour,
                          pageCount: b.kind == .report ? b.pageCount : nil)
        if let s = bodySprites[key] { return s }
        let shadow = shadowSprite(b.shape)
        let (hx, hy) = halfExtent(b.shape)
        let offset = style.shadowOffset * pixelScale
        // Room for the shadow on every side, with the centre on a whole pixel.
        let padX = max(shadow.originX - hx * pixelScale, 1).rounded(.up) + 1
        let padY = max(shadow.originY - hy * pixelScale, 1).rounded(.up) + 1
        let ox = (hx * pixelScale).rounded(.up) + padX
        let oy = (hy * pixelScale).rounded(.up) + padY
        let w = Int(2 * ox), h = Int(2 * oy + offset.rounded(.up))
        let image = (try? RenderedImage(width: max(1, w), height: max(1, h)))!  // bounded by the canvas: failing is running out of memory
        let c = cairo_create(image.surface)!
        setColour(c, style.shadowColour)
        cairo_mask_surface(c, shadow.image.surface, (ox - shadow.originX).rounded(), (oy + offset - shadow.originY).rounded())
        cairo_translate(c, ox, oy)
        cairo_scale(c, pixelScale, pixelScale)
        drawBubbleBody(b, c)
        cairo_destroy(c)
        let sprite = Sprite(image: image, originX: ox, originY: oy)
        if spriteBytes + shadowBytes + shownBytes + w * h * 4 > spriteBudgetBytes {
            bodySprites.removeAll()
            spriteBytes = 0
        }
        spriteBytes += w * h * 4
        bodySprites[key] = sprite
        return sprite
    }

    // MARK: Shadows

    func drawShadow(_ b: SceneBubble, _ f: Frame) {
        let cr = f.cr
        let off = style.shadowOffset * b.scale
        if f.raster {
            let sprite = shadowSprite(b.shape)
            cairo_save(cr)
            let dx = b.centre.x * pixelScale, dy = (b.centre.y + off) * pixelScale
            cairo_identity_matrix(cr)
            setColour(cr, style.shadowColour)
            if abs(b.scale - 1) < 1e-6 {
                cairo_mask_surface(cr, sprite.image.surface, (dx - sprite.originX).rounded(), (dy - sprite.originY).rounded())
            } else {
                cairo_translate(cr, dx, dy)
                cairo_scale(cr, b.scale, b.scale)
                cairo_mask_surface(cr, sprite.image.surface, -sprite.originX, -sprite.originY)
            }
            cairo_restore(cr)
            return
        }
        // Vector: three expanding translucent outlines.
        cairo_save(cr)
        cairo_translate(cr, b.centre.x, b.centre.y + off)
        cairo_scale(cr, b.scale, b.scale)
        for i in 0..<3 {
            let grow = Double(i) * style.shadowBlur * 0.45
            switch b.shape {
            case .circle(let r): circlePath(cr, 0, 0, r + grow - 1)
            case .roundedRect(let w, let h, let rr): roundedRectPath(cr, -w / 2 - grow + 1, -h / 2 - grow + 1, w + 2 * grow - 2, h + 2 * grow - 2, rr + grow)
            }
            setColour(cr, style.shadowColour.withAlpha(style.shadowColour.alpha * 0.42))
            cairo_fill(cr)
        }
        cairo_restore(cr)
    }

    func shadowSprite(_ shape: SceneShape) -> Sprite {
        if let s = shadowSprites[shape] { return s }
        let (hx, hy) = halfExtent(shape)
        let radius = BoxBlur.radius(forSigma: style.shadowBlur * pixelScale)
        let pad = Double(3 * radius + 2)
        let w = Int((2 * hx * pixelScale + 2 * pad).rounded(.up)), h = Int((2 * hy * pixelScale + 2 * pad).rounded(.up))
        let image = (try? RenderedImage(width: max(1, w), height: max(1, h), format: CAIRO_FORMAT_A8))!  // bounded by the canvas: failing is running out of memory
        let ox = Double(w) / 2, oy = Double(h) / 2
        let c = cairo_create(image.surface)!
        cairo_translate(c, ox, oy)
        cairo_scale(c, pixelScale, pixelScale)
        switch shape {
        case .circle(let r): circlePath(c, 0, 0, r - 1)
        case .roundedRect(let rw, let rh, let rr): roundedRectPath(c, -rw / 2 + 1, -rh / 2 + 1, rw - 2, rh - 2, rr)
        }
        cairo_set_source_rgba(c, 0, 0, 0, 1)
        cairo_fill(c)
        cairo_destroy(c)
        image.withPixels { p, stride in
            BoxBlur.blur(p, width: w, height: h, stride: stride, channels: 1, radius: radius)
        }
        let s = Sprite(image: image, originX: ox, originY: oy)
        if shadowSprites.count > 512 || shadowBytes + w * h > spriteBudgetBytes / 4 {
            shadowSprites.removeAll()
            shadowBytes = 0
        }
        shadowBytes += w * h
        shadowSprites[shape] = s
        return s
    }

    // MARK: Blurred focus

    func focusKey(_ b: SceneBubble, pixelScale ps: Double) -> FocusKey {
        FocusKey(shape: b.shape, scale: b.scale, colour: b.colour, label: b.label, blur: b.blur, pixelScale: ps)
    }

    /// The focus bubble drawn at its scale into an offscreen image and blurred with three box passes.
    /// Cached: recomputed only when shape, scale, colour, label, blur or pixel scale change.
    func blurredFocus(_ b: SceneBubble, pixelScale ps: Double) -> Sprite {
        let key = focusKey(b, pixelScale: ps)
        var list = focusCache[ps] ?? []
        if let i = list.firstIndex(where: { $0.key == key }) {
            blurCacheHits += 1
            let hit = list.remove(at: i)
            list.append(hit)
            focusCache[ps] = list
            return hit.sprite
        }
        let sprite = makeBlurredFocus(b, pixelScale: ps)
        blurComputations += 1
        list.append(FocusImage(key: key, sprite: sprite))
        if list.count > Self.keptFoci { list.removeFirst(list.count - Self.keptFoci) }
        focusCache[ps] = list
        return sprite
    }

    /// Draws the focus sharply into a padded offscreen image and blurs it (uncached).
    package func makeBlurredFocus(_ b: SceneBubble, pixelScale ps: Double) -> Sprite {
        let (image, radius, ox, oy) = focusOffscreen(b, pixelScale: ps)
        image.withPixels { p, stride in
            BoxBlur.blur(p, width: image.width, height: image.height, stride: stride, channels: 4, radius: radius)
        }
        return Sprite(image: image, originX: ox, originY: oy)
    }

    func focusOffscreen(_ b: SceneBubble, pixelScale: Double) -> (RenderedImage, Int, Double, Double) {
        let (hx, hy) = halfExtent(b.shape)
        let radius = BoxBlur.radius(forSigma: b.blur * style.focusBlurRadius * pixelScale)
        let pad = Double(3 * radius + 4) + style.shadowOffset * pixelScale
        let w = Int((2 * hx * b.scale * pixelScale + 2 * pad).rounded(.up))
        let h = Int((2 * hy * b.scale * pixelScale + 2 * pad).rounded(.up))
        let image = (try? RenderedImage(width: max(1, w), height: max(1, h)))!  // bounded by the canvas: failing is running out of memory
        let ox = Double(w) / 2, oy = Double(h) / 2
        let c = cairo_create(image.surface)!
        cairo_translate(c, ox, oy)
        cairo_scale(c, pixelScale * b.scale, pixelScale * b.scale)
        drawBubbleBody(b, c)
        cairo_destroy(c)
        return (image, radius, ox, oy)
    }

    func drawBlurredFocus(_ b: SceneBubble, _ f: Frame) {
        if f.records { return }
        let cr = f.cr
        // In vectors the blurred raster is embedded at 1 px per point: a blurred image loses nothing
        // at that resolution and the SVG stays a quarter of the size.
        let ps = f.raster ? pixelScale : 1
        let opacity = min(1, b.opacity)
        let (landed, size) = landingSize(b)
        var landing = landed
        if f.raster && (landing.shape != b.shape || abs(b.scale - 1) > 1e-9) && size > 0.02 && size <= 1.1 {
            // Changing size or scale (a focus swelling as it fades, shrinking into a child): the
            // blurred picture of the size it lands at, at scale 1, drawn at this size, instead of
            // blurring again every frame.
            landing.scale = 1
            drawScaled(blurredFocus(landing, pixelScale: ps), at: b.centre, size: size, opacity: opacity, cr)
            return
        }
        let sprite = blurredFocus(b, pixelScale: ps)
        cairo_save(cr)
        if f.raster {
            cairo_identity_matrix(cr)
            let x = (b.centre.x * pixelScale - sprite.originX).rounded()
            let y = (b.centre.y * pixelScale - sprite.originY).rounded()
            cairo_set_source_surface(cr, sprite.image.surface, x, y)
            cairo_rectangle(cr, x, y, Double(sprite.image.width), Double(sprite.image.height))
            cairo_clip(cr)
        } else {
            cairo_translate(cr, b.centre.x, b.centre.y)
            cairo_scale(cr, 1 / ps, 1 / ps)
            cairo_set_source_surface(cr, sprite.image.surface, -sprite.originX, -sprite.originY)
        }
        cairo_paint_with_alpha(cr, opacity)
        cairo_restore(cr)
    }
}
