import CCairo
import CFreeType

/// Draws pages with Cairo onto any Cairo surface (an image surface for PNG, an SVG surface).
final class CairoDevice: PageDevice {
    let cr: OpaquePointer
    /// The target's size in pixels (soft masks are drawn at this size).
    let width: Int
    let height: Int
    weak var warnings: ResourceReader?
    private var textClip: [UnsafeMutablePointer<cairo_path_t>] = []
    /// Images that Cairo patterns made by this device read from (kept alive as long as the device).
    private var retainedImages: [DecodedImage] = []
    private var retainedSurfaces: [OpaquePointer] = []

    /// The context's matrix when the device was made: from the page's pixels (`width` ×
    /// `height`) to the target's device space. The identity for an image of the whole page; a
    /// translation for a tile of it, a scale for a target in other units.
    var base = cairo_matrix_t()

    /// Sets the context's matrix to `m` (user space to page pixels) followed by `base`.
    func setMatrix(_ m: cairo_matrix_t) {
        var m = m, r = cairo_matrix_t()
        cairo_matrix_multiply(&r, &m, &base)
        cairo_set_matrix(cr, &r)
    }

    init(cr: OpaquePointer, width: Int, height: Int) {
        self.cr = cr
        self.width = width
        self.height = height
        cairo_get_matrix(cr, &base)
        let opts = cairo_font_options_create()
        cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(cr, opts)
        cairo_font_options_destroy(opts)
    }

    deinit {
        for p in textClip { cairo_path_destroy(p) }
        // A recording target (SVG) may still hold snapshots of these surfaces: finishing them makes
        // the snapshots take their own copies before the pixels go.
        for s in retainedSurfaces { cairo_surface_finish(s); cairo_surface_destroy(s) }
    }

    // MARK: Helpers

    static func cm(_ m: PDFMatrix) -> cairo_matrix_t { cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.e, y0: m.f) }

    static func invertible(_ m: PDFMatrix) -> Bool {
        let det = m.a * m.d - m.b * m.c
        return det.isFinite && abs(det) > 1e-12 && m.isFinite
    }

    /// Adds a path to Cairo's current path, its points mapped by `m` (identity matrix in force).
    func addPath(_ p: PDFPath, _ m: PDFMatrix) {
        cairo_new_path(cr)
        for e in p.elements {
            switch e {
            case .move(let x, let y): let q = m.apply(x, y); cairo_move_to(cr, q.x, q.y)
            case .line(let x, let y): let q = m.apply(x, y); cairo_line_to(cr, q.x, q.y)
            case .curve(let x1, let y1, let x2, let y2, let x3, let y3):
                let a = m.apply(x1, y1), b = m.apply(x2, y2), c = m.apply(x3, y3)
                cairo_curve_to(cr, a.x, a.y, b.x, b.y, c.x, c.y)
            case .close: cairo_close_path(cr)
            }
        }
    }

    static func blendOperator(_ b: BlendMode) -> cairo_operator_t {
        switch b {
        case .normal: return CAIRO_OPERATOR_OVER
        case .multiply: return CAIRO_OPERATOR_MULTIPLY
        case .screen: return CAIRO_OPERATOR_SCREEN
        case .overlay: return CAIRO_OPERATOR_OVERLAY
        case .darken: return CAIRO_OPERATOR_DARKEN
        case .lighten: return CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: return CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: return CAIRO_OPERATOR_COLOR_BURN
        case .hardLight: return CAIRO_OPERATOR_HARD_LIGHT
        case .softLight: return CAIRO_OPERATOR_SOFT_LIGHT
        case .difference: return CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: return CAIRO_OPERATOR_EXCLUSION
        case .hue: return CAIRO_OPERATOR_HSL_HUE
        case .saturation: return CAIRO_OPERATOR_HSL_SATURATION
        case .color: return CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: return CAIRO_OPERATOR_HSL_LUMINOSITY
        }
    }

    /// Sets the source for a paint (with the identity matrix in force: patterns lock to device space).
    /// Returns whether the alpha still has to be applied (non-colour sources).
    func setSource(_ paint: DevicePaint, alpha: Double, ctm: PDFMatrix?) -> Bool {
        switch paint {
        case .color(let c):
            cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha)
            return false
        case .gradient(let g):
            guard let pat = gradientPattern(g, toDevice: ctm.map { g.matrix.concatenating($0) } ?? g.matrix) else {
                cairo_set_source_rgba(cr, 0, 0, 0, 0)
                return false
            }
            cairo_set_source(cr, pat)
            cairo_pattern_destroy(pat)
            return alpha < 1
        case .tiling(let t):
            guard let pat = tilingPattern(t) else {
                cairo_set_source_rgba(cr, 0, 0, 0, 0)
                return false
            }
            cairo_set_source(cr, pat)
            cairo_pattern_destroy(pat)
            return alpha < 1
        }
    }

    func gradientPattern(_ g: ShadingSpec, toDevice m: PDFMatrix) -> OpaquePointer? {
        guard let inv = m.inverted else { return nil }
        var stops = g.stops
        var isAxial = false
        let pat: OpaquePointer?
        switch g.geometry {
        case .axial(var x0, var y0, var x1, var y1):
            // One-sided extension: lengthen the axis on that side and pad it with the end colour.
            let k = 64.0
            if g.extendStart != g.extendEnd, let first = stops.first, let last = stops.last {
                let dx = x1 - x0, dy = y1 - y0
                if g.extendStart {
                    x0 -= dx * k; y0 -= dy * k
                    stops = [(0, first.1)] + stops.map { ((k + $0.0) / (k + 1), $0.1) }
                } else {
                    x1 += dx * k; y1 += dy * k
                    stops = stops.map { ($0.0 / (k + 1), $0.1) } + [(1, last.1)]
                }
            }
            pat = cairo_pattern_create_linear(x0, y0, x1, y1)
            isAxial = true
        case .radial(let x0, let y0, let r0, let x1, let y1, let r1):
            pat = cairo_pattern_create_radial(x0, y0, max(0, r0), x1, y1, max(0, r1))
            if g.extendStart != g.extendEnd { warnings?.warn(.shading, "radial shading extended on one side only is drawn extended on both") }
        case .mesh(let patches):
            guard let mesh = cairo_pattern_create_mesh() else { return nil }
            for p in patches {
                cairo_mesh_pattern_begin_patch(mesh)
                let q = p.points
                cairo_mesh_pattern_move_to(mesh, q[0].0, q[0].1)
                if q.count == 3 {
                    cairo_mesh_pattern_line_to(mesh, q[1].0, q[1].1)
                    cairo_mesh_pattern_line_to(mesh, q[2].0, q[2].1)
                } else {
                    for k in stride(from: 1, to: 12, by: 3) {
                        let a = q[k], b = q[k + 1], c = q[(k + 2) % 12]
                        cairo_mesh_pattern_curve_to(mesh, a.0, a.1, b.0, b.1, c.0, c.1)
                    }
                }
                // Cairo's patches are tensor-product patches: a Coons patch's interior points are
                // implied by its edges; a type 7 patch gives its own.
                for (i, c) in (p.interior ?? []).enumerated() { cairo_mesh_pattern_set_control_point(mesh, UInt32(i), c.0, c.1) }
                for (i, c) in p.colors.enumerated() { cairo_mesh_pattern_set_corner_color_rgb(mesh, UInt32(i), c.r, c.g, c.b) }
                cairo_mesh_pattern_end_patch(mesh)
            }
            var cmx = Self.cm(inv)
            cairo_pattern_set_matrix(mesh, &cmx)
            return mesh
        case .sampled(let img, let unitToShading):
            guard let surface = cairo_image_surface_create_for_data(img.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                    Int32(img.width), Int32(img.height), Int32(img.stride)),
                  let full = unitToShading.concatenating(m).inverted, let sp = cairo_pattern_create_for_surface(surface) else { return nil }
            // The image and its surface live as long as the device (see deinit).
            retainedSurfaces.append(surface)
            var cmx = Self.cm(full.concatenating(PDFMatrix(Double(img.width), 0, 0, -Double(img.height), 0, Double(img.height))))
            cairo_pattern_set_matrix(sp, &cmx)
            cairo_pattern_set_filter(sp, CAIRO_FILTER_BILINEAR)
            retainedImages.append(img)
            return sp
        }
        guard let pat else { return nil }
        for (t, c) in stops { cairo_pattern_add_color_stop_rgb(pat, t, c.r, c.g, c.b) }
        // Both extended: pad. One side: the axis was lengthened on that side, and nothing pads.
        cairo_pattern_set_extend(pat, g.extendStart && g.extendEnd ? CAIRO_EXTEND_PAD
            : (g.extendStart || g.extendEnd) && !isAxial ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
        var cmx = Self.cm(inv)
        cairo_pattern_set_matrix(pat, &cmx)
        return pat
    }

    func tilingPattern(_ t: TilingSpec) -> OpaquePointer? {
        let m = t.matrix
        let sx = (m.a * m.a + m.b * m.b).squareRoot(), sy = (m.c * m.c + m.d * m.d).squareRoot()
        let cw = max(1, min(2048, Int((t.xStep * sx).rounded(.up))))
        let ch = max(1, min(2048, Int((t.yStep * sy).rounded(.up))))
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(cw), Int32(ch)) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let sub = cairo_create(surface) else { return nil }
        let cell = PDFMatrix.translation(-t.bbox.x0, -t.bbox.y0).concatenating(.scaling(Double(cw) / t.xStep, Double(ch) / t.yStep))
        let dev = CairoDevice(cr: sub, width: cw, height: ch)
        dev.warnings = warnings
        var clipPath = PDFPath()
        clipPath.rectangle(t.bbox.x0, t.bbox.y0, t.bbox.width, t.bbox.height)
        dev.clip(clipPath, ctm: cell, rule: .nonZero)
        t.drawCell(TileDevice(inner: dev, cell: cell))
        cairo_destroy(sub)
        guard let inv = m.inverted, let pat = cairo_pattern_create_for_surface(surface) else { return nil }
        var cmx = Self.cm(inv.concatenating(cell))
        cairo_pattern_set_matrix(pat, &cmx)
        cairo_pattern_set_extend(pat, CAIRO_EXTEND_REPEAT)
        return pat
    }

    /// Runs a painting operation under the state's blend mode and soft mask.
    func composite(_ state: PaintState, _ body: () -> Void) {
        let op = Self.blendOperator(state.blend)
        if let sm = state.softMask, let mask = maskSurface(sm) {
            cairo_push_group(cr)
            body()
            cairo_pop_group_to_source(cr)
            cairo_save(cr)
            cairo_set_matrix(cr, &base)
            cairo_set_operator(cr, op)
            cairo_mask_surface(cr, mask, 0, 0)
            cairo_restore(cr)
        } else {
            if op != CAIRO_OPERATOR_OVER { cairo_set_operator(cr, op) }
            body()
            if op != CAIRO_OPERATOR_OVER { cairo_set_operator(cr, CAIRO_OPERATOR_OVER) }
        }
    }

    /// Draws a soft mask's group once and keeps it as an A8 surface of the target's size.
    func maskSurface(_ sm: SoftMaskSpec) -> OpaquePointer? {
        if let box = sm.cached as? SurfaceBox { return box.surface }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
              let sub = cairo_create(surface) else { return nil }
        if sm.luminosity {
            cairo_set_source_rgb(sub, sm.backdrop.r, sm.backdrop.g, sm.backdrop.b)
            cairo_paint(sub)
        }
        let dev = CairoDevice(cr: sub, width: width, height: height)
        dev.warnings = warnings
        sm.drawGroup(dev)
        cairo_destroy(sub)
        cairo_surface_flush(surface)
        guard let a8 = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_surface_flush(a8)
        let src = cairo_image_surface_get_data(surface)!, dst = cairo_image_surface_get_data(a8)!
        let ss = Int(cairo_image_surface_get_stride(surface)), ds = Int(cairo_image_surface_get_stride(a8))
        for y in 0 ..< height {
            for x in 0 ..< width {
                let px = (src + y * ss + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
                let v: UInt32
                if sm.luminosity {
                    let r = (px >> 16) & 0xFF, g = (px >> 8) & 0xFF, b = px & 0xFF
                    v = (r * 77 + g * 151 + b * 28) >> 8
                } else {
                    v = px >> 24
                }
                dst[y * ds + x] = sm.transfer.map { $0[Int(v)] } ?? UInt8(v)
            }
        }
        cairo_surface_mark_dirty(a8)
        cairo_surface_destroy(surface)
        let box = SurfaceBox(a8)
        sm.cached = box
        return a8
    }

    // MARK: PageDevice

    func save() { cairo_save(cr) }
    func restore() { cairo_restore(cr) }

    func clip(_ path: PDFPath, ctm: PDFMatrix, rule: PDFFillRule) {
        cairo_set_matrix(cr, &base)
        addPath(path, ctm)
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
    }

    func fill(_ path: PDFPath, ctm: PDFMatrix, rule: PDFFillRule, state: PaintState) {
        guard ctm.isFinite else { return }
        composite(state) {
            cairo_set_matrix(cr, &base)
            let needsAlpha = setSource(state.paint, alpha: state.alpha, ctm: nil)
            addPath(path, ctm)
            cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            if needsAlpha {
                cairo_save(cr); cairo_clip(cr); cairo_paint_with_alpha(cr, state.alpha); cairo_restore(cr)
            } else {
                cairo_fill(cr)
            }
        }
    }

    func applyStroke(_ style: StrokeStyle, ctm: PDFMatrix) {
        cairo_set_line_cap(cr, [CAIRO_LINE_CAP_BUTT, CAIRO_LINE_CAP_ROUND, CAIRO_LINE_CAP_SQUARE][style.cap])
        cairo_set_line_join(cr, [CAIRO_LINE_JOIN_MITER, CAIRO_LINE_JOIN_ROUND, CAIRO_LINE_JOIN_BEVEL][style.join])
        cairo_set_miter_limit(cr, style.miterLimit)
    }

    func stroke(_ path: PDFPath, ctm: PDFMatrix, style: StrokeStyle, state: PaintState) {
        guard ctm.isFinite else { return }
        composite(state) {
            cairo_set_matrix(cr, &base)
            let needsAlpha = setSource(state.paint, alpha: state.alpha, ctm: nil)
            applyStroke(style, ctm: ctm)
            let scale = ctm.scale
            if style.width * scale < 1 || !Self.invertible(ctm) {
                // Thin lines are drawn one device pixel wide (as every viewer does for width 0).
                addPath(path, ctm)
                cairo_set_line_width(cr, 1)
                if !style.dash.isEmpty {
                    let d = style.dash.map { $0 * scale }
                    cairo_set_dash(cr, d, Int32(d.count), style.dashPhase * scale)
                }
            } else {
                let m = Self.cm(ctm)
                setMatrix(m)
                cairo_new_path(cr)
                for e in path.elements {
                    switch e {
                    case .move(let x, let y): cairo_move_to(cr, x, y)
                    case .line(let x, let y): cairo_line_to(cr, x, y)
                    case .curve(let a, let b, let c, let d, let e, let f): cairo_curve_to(cr, a, b, c, d, e, f)
                    case .close: cairo_close_path(cr)
                    }
                }
                cairo_set_line_width(cr, style.width)
                if !style.dash.isEmpty { cairo_set_dash(cr, style.dash, Int32(style.dash.count), style.dashPhase) }
            }
            if needsAlpha {
                cairo_set_matrix(cr, &base)
                cairo_push_group(cr)
                cairo_stroke(cr)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, state.alpha)
            } else {
                cairo_stroke(cr)
            }
            cairo_set_dash(cr, nil, 0, 0)
            cairo_set_matrix(cr, &base)
        }
    }

    func glyphs(_ run: GlyphRun, fill: PaintState?, stroke: (StrokeStyle, PaintState, PDFMatrix)?, addToClip: Bool) {
        guard let face = run.font.face, Self.invertible(run.matrix), run.sizeX != 0, run.sizeY != 0 else { return }
        let m = Self.cm(run.matrix)
        // Glyphs in runs of one horizontal scale (substitute fonts fit each glyph to its width).
        var start = 0
        while start < run.glyphs.count {
            var end = start + 1
            while end < run.glyphs.count && run.glyphs[end].scale == run.glyphs[start].scale { end += 1 }
            var cg = run.glyphs[start ..< end].map { cairo_glyph_t(index: UInt($0.id), x: $0.x, y: $0.y) }
            let scale = run.glyphs[start].scale
            func setUp() {
                setMatrix(m)
                cairo_set_font_face(cr, face.cairoFace)
                var fm = cairo_matrix_t(xx: run.sizeX * scale, yx: 0, xy: 0, yy: -run.sizeY, x0: 0, y0: 0)
                cairo_set_font_matrix(cr, &fm)
            }
            if let fill {
                composite(fill) {
                    cairo_set_matrix(cr, &base)
                    let needsAlpha = setSource(fill.paint, alpha: fill.alpha, ctm: nil)
                    setUp()
                    if needsAlpha {
                        cairo_push_group(cr)
                        cairo_show_glyphs(cr, &cg, Int32(cg.count))
                        cairo_pop_group_to_source(cr)
                        cairo_paint_with_alpha(cr, fill.alpha)
                    } else {
                        cairo_show_glyphs(cr, &cg, Int32(cg.count))
                    }
                    cairo_set_matrix(cr, &base)
                }
            }
            if let (style, state, ctm) = stroke {
                composite(state) {
                    cairo_set_matrix(cr, &base)
                    _ = setSource(state.paint, alpha: state.alpha, ctm: nil)
                    setUp()
                    cairo_new_path(cr)
                    cairo_glyph_path(cr, &cg, Int32(cg.count))
                    applyStroke(style, ctm: ctm)
                    if Self.invertible(ctm) && style.width * ctm.scale >= 1 {
                        let c = Self.cm(ctm)
                        setMatrix(c)
                        cairo_set_line_width(cr, style.width)
                    } else {
                        cairo_set_matrix(cr, &base)
                        cairo_set_line_width(cr, 1)
                    }
                    cairo_stroke(cr)
                    cairo_set_matrix(cr, &base)
                }
            }
            if addToClip {
                setUp()
                cairo_new_path(cr)
                cairo_glyph_path(cr, &cg, Int32(cg.count))
                cairo_set_matrix(cr, &base)
                if let p = cairo_copy_path(cr) { textClip.append(p) }
                cairo_new_path(cr)
            }
            start = end
        }
        cairo_set_matrix(cr, &base)
    }

    func applyTextClip() {
        cairo_set_matrix(cr, &base)
        cairo_new_path(cr)
        for p in textClip { cairo_append_path(cr, p); cairo_path_destroy(p) }
        textClip.removeAll()
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        cairo_clip(cr)
    }

    /// A Cairo pattern over an image's pixels, mapped onto the unit square of `ctm`.
    func imagePattern(_ img: DecodedImage, ctm: PDFMatrix, interpolate: Bool) -> (OpaquePointer, OpaquePointer)? {
        guard let inv = ctm.inverted,
              let surface = cairo_image_surface_create_for_data(img.pixels.assumingMemoryBound(to: UInt8.self),
                                                                img.isMask ? CAIRO_FORMAT_A8 : CAIRO_FORMAT_ARGB32,
                                                                Int32(img.width), Int32(img.height), Int32(img.stride)),
              let pat = cairo_pattern_create_for_surface(surface) else { return nil }
        var m = Self.cm(inv.concatenating(PDFMatrix(Double(img.width), 0, 0, -Double(img.height), 0, Double(img.height))))
        cairo_pattern_set_matrix(pat, &m)
        cairo_pattern_set_extend(pat, CAIRO_EXTEND_PAD)
        // Pixels per device pixel: above 1 the image is reduced (a box filter), below it enlarged.
        let drawn = ctm.scale
        let native = (Double(img.width) * Double(img.height)).squareRoot()
        let filter: cairo_filter_t = native > drawn * 1.5 ? CAIRO_FILTER_GOOD
            : (!interpolate && drawn > native * 4 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_filter(pat, filter)
        return (pat, surface)
    }

    /// An upright image narrower or lower than one device pixel widened to one pixel about its
    /// centre, as poppler and PDFium draw it: TeX and dvips draw rules as 1×1 image masks
    /// stretched over a rectangle, and a rule thinner than a pixel must not vanish into grey.
    static func atLeastOnePixel(_ m: PDFMatrix) -> PDFMatrix {
        guard m.b == 0 && m.c == 0 else { return m }
        var r = m
        if abs(m.a) < 1 {
            let sign: Double = m.a < 0 ? -1 : 1
            r.a = sign
            r.e = m.e + m.a / 2 - sign / 2
        }
        if abs(m.d) < 1 {
            let sign: Double = m.d < 0 ? -1 : 1
            r.d = sign
            r.f = m.f + m.d / 2 - sign / 2
        }
        return r
    }

    func unitSquare(_ ctm: PDFMatrix) {
        var p = PDFPath()
        p.rectangle(0, 0, 1, 1)
        addPath(p, ctm)
    }

    /// Runs `body` with the pattern of an image's pixels, clipped to the unit square of `ctm`,
    /// under the state's blend mode and soft mask; the surface is finished afterwards (see deinit).
    func paintClippedToImage(_ img: DecodedImage, ctm imageCTM: PDFMatrix, interpolate: Bool, state: PaintState,
                             _ body: (OpaquePointer) -> Void) {
        let ctm = Self.atLeastOnePixel(imageCTM)
        guard let (pat, surface) = imagePattern(img, ctm: ctm, interpolate: interpolate) else { return }
        defer { cairo_pattern_destroy(pat); cairo_surface_finish(surface); cairo_surface_destroy(surface) }
        composite(state) {
            cairo_save(cr)
            cairo_set_matrix(cr, &base)
            unitSquare(ctm)
            cairo_clip(cr)
            body(pat)
            cairo_restore(cr)
        }
    }

    func image(_ img: DecodedImage, ctm: PDFMatrix, state: PaintState, interpolate: Bool) {
        paintClippedToImage(img, ctm: ctm, interpolate: interpolate, state: state) { pat in
            cairo_set_source(cr, pat)
            cairo_paint_with_alpha(cr, state.alpha)
        }
    }

    func stencil(_ mask: DecodedImage, ctm: PDFMatrix, state: PaintState) {
        paintClippedToImage(mask, ctm: ctm, interpolate: false, state: state) { pat in
            let needsAlpha = setSource(state.paint, alpha: state.alpha, ctm: nil)
            if needsAlpha {
                cairo_push_group(cr)
                cairo_mask(cr, pat)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, state.alpha)
            } else {
                cairo_mask(cr, pat)
            }
        }
    }

    func paintGradient(_ g: ShadingSpec, ctm: PDFMatrix, state: PaintState) {
        guard let pat = gradientPattern(g, toDevice: g.matrix.concatenating(ctm)) else { return }
        defer { cairo_pattern_destroy(pat) }
        composite(state) {
            cairo_set_matrix(cr, &base)
            cairo_set_source(cr, pat)
            cairo_paint_with_alpha(cr, state.alpha)
        }
    }

    func beginGroup() { cairo_push_group(cr) }

    func endGroup(state: PaintState) {
        cairo_pop_group_to_source(cr)
        composite(state) {
            cairo_set_matrix(cr, &base)
            cairo_paint_with_alpha(cr, state.alpha)
        }
    }
}

/// Keeps a Cairo surface alive while a soft mask is cached.
final class SurfaceBox {
    let surface: OpaquePointer
    init(_ s: OpaquePointer) { surface = s }
    deinit { cairo_surface_destroy(surface) }
}

/// A device for a tiling pattern's cell: the interpreter's CTM is pattern space, the cell
/// device's is pixels, so every call's matrix gets the cell transform appended.
final class TileDevice: PageDevice {
    let inner: CairoDevice
    let cell: PDFMatrix
    init(inner: CairoDevice, cell: PDFMatrix) {
        self.inner = inner
        self.cell = cell
    }
    func save() { inner.save() }
    func restore() { inner.restore() }
    func clip(_ path: PDFPath, ctm: PDFMatrix, rule: PDFFillRule) { inner.clip(path, ctm: ctm.concatenating(cell), rule: rule) }
    func fill(_ path: PDFPath, ctm: PDFMatrix, rule: PDFFillRule, state: PaintState) { inner.fill(path, ctm: ctm.concatenating(cell), rule: rule, state: state) }
    func stroke(_ path: PDFPath, ctm: PDFMatrix, style: StrokeStyle, state: PaintState) { inner.stroke(path, ctm: ctm.concatenating(cell), style: style, state: state) }
    func glyphs(_ run: GlyphRun, fill: PaintState?, stroke: (StrokeStyle, PaintState, PDFMatrix)?, addToClip: Bool) {
        var r = run
        r.matrix = run.matrix.concatenating(cell)
        inner.glyphs(r, fill: fill, stroke: stroke.map { ($0.0, $0.1, $0.2.concatenating(cell)) }, addToClip: addToClip)
    }
    func applyTextClip() { inner.applyTextClip() }
    func image(_ image: DecodedImage, ctm: PDFMatrix, state: PaintState, interpolate: Bool) { inner.image(image, ctm: ctm.concatenating(cell), state: state, interpolate: interpolate) }
    func stencil(_ mask: DecodedImage, ctm: PDFMatrix, state: PaintState) { inner.stencil(mask, ctm: ctm.concatenating(cell), state: state) }
    func paintGradient(_ g: ShadingSpec, ctm: PDFMatrix, state: PaintState) { inner.paintGradient(g, ctm: ctm.concatenating(cell), state: state) }
    func beginGroup() { inner.beginGroup() }
    func endGroup(state: PaintState) { inner.endGroup(state: state) }
}
