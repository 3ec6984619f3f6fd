import BubbleDashboard
import CCairo
import Foundation

@inline(__always)
func setColour(_ cr: OpaquePointer, _ c: RenderColour) {
    if c.alpha >= 1 {
        cairo_set_source_rgb(cr, c.red, c.green, c.blue)
    } else {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }
}

@inline(__always)
func setColour(_ cr: OpaquePointer, _ c: SceneColour, alpha: Double = 1) {
    setColour(cr, RenderColour(c, alpha: alpha))
}

func roundedRectPath(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) {
    let r = max(0, min(r, w / 2, h / 2))
    cairo_new_sub_path(cr)
    cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, 0)
    cairo_arc(cr, x + w - r, y + h - r, r, 0, Double.pi / 2)
    cairo_arc(cr, x + r, y + h - r, r, Double.pi / 2, Double.pi)
    cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
    cairo_close_path(cr)
}

func circlePath(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ r: Double) {
    cairo_new_sub_path(cr)
    cairo_arc(cr, x, y, r, 0, 2 * Double.pi)
    cairo_close_path(cr)
}

/// Fills the current path with a vertical linear gradient from `top` (at y0) to `bottom` (at y1).
func fillVerticalGradient(_ cr: OpaquePointer, y0: Double, y1: Double, top: RenderColour, bottom: RenderColour, preserve: Bool = false) {
    let p = cairo_pattern_create_linear(0, y0, 0, y1)!
    cairo_pattern_add_color_stop_rgba(p, 0, top.red, top.green, top.blue, top.alpha)
    cairo_pattern_add_color_stop_rgba(p, 1, bottom.red, bottom.green, bottom.blue, bottom.alpha)
    cairo_set_source(cr, p)
    if preserve { cairo_fill_preserve(cr) } else { cairo_fill(cr) }
    cairo_pattern_destroy(p)
}

/// Vector icons, drawn as strokes in the current source colour, centred on (x, y), `size` points.
enum Icon {
    case hamburger, back, search, settings, home, recentre, list, filter, document

    func draw(_ cr: OpaquePointer, x: Double, y: Double, size s: Double, colour: RenderColour, lineWidth: Double = 2) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        setColour(cr, colour)
        cairo_set_line_width(cr, lineWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let h = s / 2
        switch self {
        case .hamburger:
            for dy in [-0.32, 0.0, 0.32] {
                cairo_move_to(cr, -h * 0.8, dy * s)
                cairo_line_to(cr, h * 0.8, dy * s)
            }
            cairo_stroke(cr)
        case .back:
            cairo_move_to(cr, h * 0.25, -h * 0.75)
            cairo_line_to(cr, -h * 0.45, 0)
            cairo_line_to(cr, h * 0.25, h * 0.75)
            cairo_stroke(cr)
        case .search:
            circlePath(cr, -h * 0.15, -h * 0.15, h * 0.55)
            cairo_stroke(cr)
            cairo_move_to(cr, h * 0.25, h * 0.25)
            cairo_line_to(cr, h * 0.8, h * 0.8)
            cairo_stroke(cr)
        case .settings:
            Self.drawGear(cr, h)
        case .home:
            Self.drawHouse(cr, h)
        case .recentre:
            circlePath(cr, 0, 0, h * 0.58)
            cairo_stroke(cr)
            for (dx, dy) in [(0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)] {
                cairo_move_to(cr, dx * h * 0.58, dy * h * 0.58)
                cairo_line_to(cr, dx * h * 0.95, dy * h * 0.95)
            }
            cairo_stroke(cr)
            circlePath(cr, 0, 0, h * 0.16)
            cairo_fill(cr)
        case .list:
            for dy in [-0.55, 0.0, 0.55] {
                circlePath(cr, -h * 0.72, dy * h, lineWidth * 0.65)
                cairo_fill(cr)
                cairo_move_to(cr, -h * 0.35, dy * h)
                cairo_line_to(cr, h * 0.85, dy * h)
            }
            cairo_stroke(cr)
        case .filter:
            cairo_move_to(cr, -h * 0.85, -h * 0.7)
            cairo_line_to(cr, h * 0.85, -h * 0.7)
            cairo_line_to(cr, h * 0.15, h * 0.1)
            cairo_line_to(cr, h * 0.15, h * 0.7)
            cairo_line_to(cr, -h * 0.15, h * 0.85)
            cairo_line_to(cr, -h * 0.15, h * 0.1)
            cairo_close_path(cr)
            cairo_stroke(cr)
        case .document:
            Self.drawDocument(cr, s)
        }
        cairo_restore(cr)
    }

    /// A gear of eight teeth round a hole, half-size `h`.
    private static func drawGear(_ cr: OpaquePointer, _ h: Double) {
        let teeth = 8
        let ro = h * 0.85, ri = h * 0.62
        cairo_new_path(cr)
        for i in 0..<(teeth * 4) {
            let a = Double(i) / Double(teeth * 4) * 2 * Double.pi
            let r = (i % 4 == 0 || i % 4 == 1) ? ro : ri
            if i == 0 { cairo_move_to(cr, r * cos(a), r * sin(a)) } else { cairo_line_to(cr, r * cos(a), r * sin(a)) }
        }
        cairo_close_path(cr)
        cairo_stroke(cr)
        circlePath(cr, 0, 0, h * 0.25)
        cairo_stroke(cr)
    }

    /// A house: roof, walls and door, half-size `h`.
    private static func drawHouse(_ cr: OpaquePointer, _ h: Double) {
        cairo_move_to(cr, -h * 0.85, -h * 0.05)
        cairo_line_to(cr, 0, -h * 0.8)
        cairo_line_to(cr, h * 0.85, -h * 0.05)
        cairo_stroke(cr)
        cairo_move_to(cr, -h * 0.6, -h * 0.25)
        cairo_line_to(cr, -h * 0.6, h * 0.8)
        cairo_line_to(cr, h * 0.6, h * 0.8)
        cairo_line_to(cr, h * 0.6, -h * 0.25)
        cairo_stroke(cr)
        cairo_move_to(cr, -h * 0.18, h * 0.8)
        cairo_line_to(cr, -h * 0.18, h * 0.3)
        cairo_line_to(cr, h * 0.18, h * 0.3)
        cairo_line_to(cr, h * 0.18, h * 0.8)
        cairo_stroke(cr)
    }

    /// A page with a folded corner and two lines of text, `s` points tall.
    private static func drawDocument(_ cr: OpaquePointer, _ s: Double) {
        let w = s * 0.72, ht = s, f = s * 0.28
        let x0 = -w / 2, y0 = -ht / 2
        cairo_move_to(cr, x0, y0)
        cairo_line_to(cr, x0 + w - f, y0)
        cairo_line_to(cr, x0 + w, y0 + f)
        cairo_line_to(cr, x0 + w, y0 + ht)
        cairo_line_to(cr, x0, y0 + ht)
        cairo_close_path(cr)
        cairo_stroke(cr)
        cairo_move_to(cr, x0 + w - f, y0)
        cairo_line_to(cr, x0 + w - f, y0 + f)
        cairo_line_to(cr, x0 + w, y0 + f)
        cairo_stroke(cr)
        for i in 0..<2 {
            let ly = y0 + ht * (0.55 + 0.2 * Double(i))
            cairo_move_to(cr, x0 + w * 0.25, ly)
            cairo_line_to(cr, x0 + w * 0.75, ly)
        }
        cairo_stroke(cr)
    }
}
