import BubbleDashboard
import CCairo

extension SceneRenderer {
    /// Draws a laid-out line with its origin at x and its first baseline at `baseline`, and records it.
    @discardableResult
    func textRun(_ f: Frame, _ layout: TextLayout, x: Double, baseline: Double, colour: SceneColour,
                 background: SceneColour, owner: String, role: LabelLayout.Role, container: LabelLayout.Container,
                 label: String? = nil) -> TextLayout {
        // Ink that overhangs the start (a slanted or accented first letter) moves in, so nothing is
        // drawn left of x.
        let placed = FittedText(layout, x: x - min(0, layout.left), y: baseline - layout.baseline)
        textBlock(f, placed, dx: 0, dy: 0, colour: colour, background: background, owner: owner, role: role,
                  container: container, label: label ?? layout.key.text)
        return layout
    }

    /// Draws a fitted paragraph offset by (dx, dy) and records it.
    func textBlock(_ f: Frame, _ fitted: FittedText, dx: Double, dy: Double, colour: SceneColour, background: SceneColour,
                   owner: String, role: LabelLayout.Role, container: LabelLayout.Container, label: String) {
        setColour(f.cr, colour)
        fitted.draw(f.cr, dx: dx, dy: dy)
        if f.records {
            let lines = fitted.lines.map { $0.labelLine(dx: dx, dy: dy) }
            f.labels.append(LabelLayout(owner: owner, role: role, label: label, fontSize: fitted.font.size, lines: lines,
                                        isTruncated: fitted.truncated, container: container, textColour: colour,
                                        backgroundColour: background, missingCodePoints: fitted.missingCodePoints))
        }
    }

    /// Draws `text` on one line at its natural width (see `textRun(_:_:x:baseline:...)`).
    @discardableResult
    func textRun(_ f: Frame, _ text: String, font: FontKey, x: Double, baseline: Double, colour: SceneColour,
                 background: SceneColour, owner: String, role: LabelLayout.Role, container: LabelLayout.Container,
                 label: String? = nil) -> TextLayout {
        textRun(f, engine.line(text, font), x: x, baseline: baseline, colour: colour, background: background, owner: owner,
                role: role, container: container, label: label)
    }

    var stripColour: RenderColour { style.barColour.mixed(with: style.backgroundTop, 0.6) }

    // MARK: Top: status bar, navigation bar, breadcrumb trail

    func drawTopBars(_ scene: Scene, _ f: Frame) {
        let cr = f.cr
        let barsHeight = scene.chrome.navigationBarHeight + scene.chrome.breadcrumbHeight
        guard barsHeight > 0 else { return }
        if f.raster {
            let key = TopBarKey(canvas: CanvasKey(width: scene.canvasWidth, height: scene.canvasHeight, chrome: scene.chrome),
                                breadcrumbs: scene.breadcrumbs, caption: scene.caption, tokens: scene.filter?.tokens ?? [])
            if topBarCache?.key != key {
                let w = pixelSize(of: scene).width
                let h = Int((barsHeight * pixelScale).rounded())
                if let img = try? RenderedImage(width: max(1, w), height: max(1, h)) {  // no cache: drawn directly
                    let c = cairo_create(img.surface)!
                    cairo_scale(c, pixelScale, pixelScale)
                    paintTopBars(scene, Frame(cr: c, raster: false, records: false))
                    cairo_destroy(c)
                    topBarCache = (key, img)
                }
            }
            if let img = topBarCache?.image {
                cairo_save(cr)
                cairo_identity_matrix(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_rectangle(cr, 0, 0, Double(img.width), Double(img.height))
                cairo_set_source_surface(cr, img.surface, 0, 0)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        } else {
            paintTopBars(scene, f)
        }
        // Soft shadow below the bars, over the content.
        cairo_rectangle(cr, 0, barsHeight, scene.canvasWidth, 6)
        fillVerticalGradient(cr, y0: barsHeight, y1: barsHeight + 6, top: RenderColour(hex: 0x1A2B44, alpha: 0.07),
                             bottom: RenderColour(hex: 0x1A2B44, alpha: 0))
    }

    func paintTopBars(_ scene: Scene, _ f: Frame) {
        let cr = f.cr
        let W = scene.canvasWidth
        let navH = scene.chrome.navigationBarHeight
        let crumbH = scene.chrome.breadcrumbHeight
        let bar = style.barColour
        let tint = style.tintColour
        let barScene = bar.sceneColour
        let navRect = LabelLayout.Container.rect(x: 0, y: 0, width: W, height: navH)

        cairo_rectangle(cr, 0, 0, W, navH)
        setColour(cr, bar)
        cairo_fill(cr)

        // Status bar (20 pt) when there is room for it.
        let statusH = navH >= 60 ? 20.0 : 0
        if statusH > 0 {
            let sf = FontKey(bold: true, size: 12)
            let time = "9:41"
            let tm = engine.line(time, sf)
            textRun(f, tm, x: (W - tm.width) / 2, baseline: 15, colour: style.darkTextColour,
                    background: barScene, owner: "status-time", role: .navigation, container: navRect)
            textRun(f, "iPad", font: FontKey(bold: false, size: 12), x: 10, baseline: 15, colour: style.darkTextColour,
                    background: barScene, owner: "status-device", role: .navigation, container: navRect)
            // Battery.
            let bx = W - 10 - 25, by = 6.0
            roundedRectPath(cr, bx, by, 22, 10.5, 3)
            setColour(cr, style.darkTextColour, alpha: 0.85)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            roundedRectPath(cr, bx + 2, by + 2, 18, 6.5, 1.5)
            cairo_fill(cr)
            roundedRectPath(cr, bx + 23, by + 3.5, 2, 3.5, 1)
            cairo_fill(cr)
        }

        // Navigation buttons and title.
        let cy = statusH + (navH - statusH) / 2
        let iconSize = min(22, (navH - statusH) * 0.5)
        if iconSize > 4 {
            Icon.hamburger.draw(cr, x: 24, y: cy, size: iconSize, colour: tint)
            let canGoBack = scene.breadcrumbs.count > 1
            Icon.back.draw(cr, x: 62, y: cy, size: iconSize, colour: canGoBack ? tint : tint.withAlpha(0.3))
            Icon.settings.draw(cr, x: W - 24, y: cy, size: iconSize, colour: tint, lineWidth: 1.8)
            Icon.search.draw(cr, x: W - 62, y: cy, size: iconSize, colour: tint)
            let tf = FontKey(bold: true, size: style.navigationTitleFontSize)
            let title = fitter.singleLine(style.appTitle, width: max(0, W - 2 * 96), font: tf)
            let (asc, desc) = engine.verticalMetrics(tf)
            if !style.appTitle.isEmpty {
                textRun(f, title, x: (W - title.width) / 2, baseline: cy + (asc - desc) / 2, colour: style.darkTextColour,
                        background: barScene, owner: "nav-title", role: .navigation, container: navRect,
                        label: style.appTitle)
            }
        }

        // Breadcrumb strip.
        if crumbH > 0 {
            let strip = stripColour
            cairo_rectangle(cr, 0, navH, W, crumbH)
            setColour(cr, strip)
            cairo_fill(cr)
            cairo_rectangle(cr, 0, navH, W, 0.5)
            setColour(cr, style.separatorColour.withAlpha(0.6))
            cairo_fill(cr)
            drawBreadcrumbs(scene, f, y: navH, height: crumbH, background: strip.sceneColour)
            if let tokens = scene.filter?.tokens { drawTokens(tokens, f) }
        }
        cairo_rectangle(cr, 0, navH + crumbH - 0.5, W, 0.5)
        setColour(cr, style.separatorColour)
        cairo_fill(cr)
    }

    /// The trail "Root › A › B › Focus", elided from the left ("… › A › B › Focus") to fit left
    /// of the filter's tokens.
    func drawBreadcrumbs(_ scene: Scene, _ f: Frame, y: Double, height: Double, background: SceneColour) {
        let crumbs = scene.breadcrumbs
        guard !crumbs.isEmpty else { return }
        let margin = 16.0
        // The right end of the room: the canvas's margin, or 12 pt left of the first token.
        let W = min(scene.canvasWidth, (scene.filter?.tokens.map(\.frame.x).min()).map { $0 - 12 + margin } ?? .infinity)
        let available = max(0, W - 2 * margin)
        let regular = FontKey(bold: false, size: min(style.breadcrumbFontSize, height * 0.45))
        let bold = FontKey(bold: true, size: regular.size)
        let sep = "  ›  "
        let sepW = engine.line(sep, regular).width
        let ellipsisW = engine.line(TextFitter.ellipsis, regular).width
        // Each crumb is a paragraph of its own (an Arabic or Hebrew title reads right to left inside
        // its slot; the trail runs from the root on the left).
        let crumbLayouts = crumbs.indices.map { engine.line(crumbs[$0], $0 == crumbs.count - 1 ? bold : regular) }
        func width(from k: Int) -> Double {
            var w = k > 0 ? ellipsisW + sepW : 0
            for i in k..<crumbs.count {
                w += crumbLayouts[i].width
                if i < crumbs.count - 1 { w += sepW }
            }
            return w
        }
        var k = 0
        while k < crumbs.count - 1 && width(from: k) > available { k += 1 }
        let (asc, desc) = engine.verticalMetrics(regular)
        let baseline = y + height / 2 + (asc - desc) / 2
        let container = LabelLayout.Container.rect(x: 0, y: y, width: W, height: height)
        var x = margin
        let link = style.tintColour.sceneColour
        if k > 0 {
            x += textRun(f, TextFitter.ellipsis, font: regular, x: x, baseline: baseline, colour: style.secondaryTextColour,
                         background: background, owner: "breadcrumb-elided", role: .breadcrumb, container: container).width
            x += textRun(f, sep, font: regular, x: x, baseline: baseline, colour: style.secondaryTextColour,
                         background: background, owner: "breadcrumb-separator:elided", role: .breadcrumb, container: container).width
        }
        // The level's caption (what its bubbles' titles share) at the right, when the trail leaves
        // room for it.
        var trailEnd = W - margin
        if let caption = scene.caption {
            let room = W - margin - (x + width(from: k)) - 24
            if room >= 60 {
                let line = fitter.singleLine(caption, width: min(room, W * 0.45), font: regular)
                trailEnd = W - margin - line.width - 24
                textRun(f, line, x: W - margin - line.width, baseline: baseline, colour: style.secondaryTextColour,
                        background: background, owner: "level-caption", role: .breadcrumb, container: container, label: caption)
            }
        }
        for i in k..<crumbs.count {
            let last = i == crumbs.count - 1
            if last {
                let line = fitter.singleLine(crumbs[i], width: max(0, trailEnd - x), font: bold)
                textRun(f, line, x: x, baseline: baseline, colour: style.darkTextColour, background: background,
                        owner: "breadcrumb:\(i)", role: .breadcrumb, container: container, label: crumbs[i])
            } else {
                x += textRun(f, crumbLayouts[i], x: x, baseline: baseline, colour: link, background: background,
                             owner: "breadcrumb:\(i)", role: .breadcrumb, container: container).width
                x += textRun(f, sep, font: regular, x: x, baseline: baseline, colour: style.secondaryTextColour,
                             background: background, owner: "breadcrumb-separator:\(i)", role: .breadcrumb, container: container).width
            }
        }
    }

    // MARK: Bottom: toolbar and static area

    func drawBottomBar(_ scene: Scene, _ f: Frame) {
        let cr = f.cr
        let H = scene.canvasHeight
        let bh = scene.chrome.bottomBarHeight
        guard bh > 0 else { return }
        let top = H - bh
        cairo_rectangle(cr, 0, top - 6, scene.canvasWidth, 6)
        fillVerticalGradient(cr, y0: top - 6, y1: top, top: RenderColour(hex: 0x1A2B44, alpha: 0),
                             bottom: RenderColour(hex: 0x1A2B44, alpha: 0.06))
        if f.raster {
            let key = CanvasKey(width: scene.canvasWidth, height: scene.canvasHeight, chrome: scene.chrome)
            if bottomBarCache?.key != key {
                let w = pixelSize(of: scene).width
                let hp = pixelSize(of: scene).height
                let topPx = Int((top * pixelScale).rounded())
                if let img = try? RenderedImage(width: max(1, w), height: max(1, hp - topPx)) {  // no cache: drawn directly
                    let c = cairo_create(img.surface)!
                    cairo_translate(c, 0, -Double(topPx))
                    cairo_scale(c, pixelScale, pixelScale)
                    paintBottomBar(scene, Frame(cr: c, raster: false, records: false))
                    cairo_destroy(c)
                    bottomBarCache = (key, img)
                }
            }
            if let img = bottomBarCache?.image {
                let topPx = Double(pixelSize(of: scene).height - img.height)
                cairo_save(cr)
                cairo_identity_matrix(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_rectangle(cr, 0, topPx, Double(img.width), Double(img.height))
                cairo_set_source_surface(cr, img.surface, 0, topPx)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        } else {
            paintBottomBar(scene, f)
        }
    }

    func paintBottomBar(_ scene: Scene, _ f: Frame) {
        let cr = f.cr
        let W = scene.canvasWidth, H = scene.canvasHeight
        let bh = scene.chrome.bottomBarHeight
        let top = H - bh
        let th = scene.chrome.toolbarHeight
        let bar = style.barColour
        cairo_rectangle(cr, 0, top, W, th)
        setColour(cr, bar)
        cairo_fill(cr)
        cairo_rectangle(cr, 0, top, W, 0.5)
        setColour(cr, style.separatorColour)
        cairo_fill(cr)

        // Toolbar: top (1), re-centre (2), reports table (3), filter; each centred in the hit area
        // the dashboard gives it.
        let icons: [ToolbarButton: Icon] = [.top: .home, .recentre: .recentre, .reports: .list, .filter: .filter]
        let container = LabelLayout.Container.rect(x: 0, y: top, width: W, height: th)
        let captionFont = FontKey(bold: false, size: style.toolbarCaptionFontSize)
        let (_, desc) = engine.verticalMetrics(captionFont)
        let showCaptions = th >= 40
        let iconSize = min(22, th * 0.42)
        let iconY = showCaptions ? top + 6 + iconSize / 2 + 1 : top + th / 2
        for button in ToolbarButton.allCases {
            let i = button.rawValue
            let frame = scene.chrome.toolbarButtonFrame(button, canvasWidth: W, canvasHeight: H)
            let cx = frame.x + frame.width / 2
            if iconSize > 4, let icon = icons[button] {
                icon.draw(cr, x: cx, y: iconY, size: iconSize, colour: style.tintColour, lineWidth: 1.8)
            }
            if showCaptions {
                let m = engine.line(button.caption, captionFont)
                textRun(f, m, x: cx - m.width / 2, baseline: top + th - 5 - desc,
                        colour: style.tintColour.sceneColour, background: bar.sceneColour, owner: "toolbar:\(i)",
                        role: .toolbar, container: container)
            }
        }

        // The blue static area.
        let sh = bh - th
        guard sh > 0 else { return }
        let sy = top + th
        cairo_rectangle(cr, 0, sy, W, sh)
        let blue = style.staticAreaColour
        fillVerticalGradient(cr, y0: sy, y1: H, top: blue.mixed(with: .white, 0.06), bottom: blue)
        let worstBlue = blue.mixed(with: .white, 0.06).sceneColour
        let sc = LabelLayout.Container.rect(x: 0, y: sy, width: W, height: sh)
        // Logo: three overlapping bubbles.
        let ly = sy + sh / 2
        let logo = min(1, sh / 50)
        if logo > 0.3 {
            for (dx, dy, r, a) in [(0.0, 2.0, 9.0, 0.95), (13.0, -5.0, 6.5, 0.7), (14.0, 9.0, 4.5, 0.5)] {
                circlePath(cr, 30 + dx * logo, ly + dy * logo, r * logo)
                setColour(cr, RenderColour.white.withAlpha(a))
                cairo_fill(cr)
            }
        }
        let textX = 30 + 30 * logo
        let tf = FontKey(bold: true, size: min(style.staticTitleFontSize, sh * 0.3))
        let cf = FontKey(bold: false, size: min(style.staticCaptionFontSize, sh * 0.24))
        let (ta, td) = engine.verticalMetrics(tf)
        let (ca, cd) = engine.verticalMetrics(cf)
        let blockH = ta + td + ca + cd + 1
        let t0 = ly - blockH / 2
        let white = SceneColour(red: 255, green: 255, blue: 255)
        let caption = SceneColour(red: 0xDF, green: 0xE9, blue: 0xF8)
        let title = fitter.singleLine(style.staticAreaTitle, width: max(0, W - textX - 16), font: tf)
        textRun(f, title, x: textX, baseline: t0 + ta, colour: white, background: worstBlue,
                owner: "static-title", role: .staticArea, container: sc, label: style.staticAreaTitle)
        let cap = fitter.singleLine(style.staticAreaCaption, width: max(0, W - textX - 16), font: cf)
        textRun(f, cap, x: textX, baseline: t0 + ta + td + 1 + ca, colour: caption,
                background: worstBlue, owner: "static-caption", role: .staticArea, container: sc, label: style.staticAreaCaption)
    }
}
