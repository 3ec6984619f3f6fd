import BubbleDashboard

/// The dashboard's `TextMeasurer` through this renderer's own text layout (Pango, the pinned fonts,
/// the style's title sizes), so that a card sized from its measured title holds it at the design
/// size when drawn. Not thread-safe: one per dashboard (or per thread).
public final class PangoTextMeasurer: TextMeasurer {
    public let style: RenderStyle
    let engine: TextEngine

    public init(style: RenderStyle = RenderStyle()) {
        self.style = style
        engine = TextEngine(family: style.fontFamily)
    }

    public func fontSize(for role: BubbleLabelRole) -> Double {
        role == .cardTitle ? style.cardTitleFontSize : style.measuredCircleTitleFontSize
    }

    public func measure(_ text: String, role: BubbleLabelRole, width: Double) -> MeasuredText {
        let m = engine.measure(key(text, role, width))
        return MeasuredText(width: m.width, height: m.height, lineCount: m.lines)
    }

    /// From the same layout as `measure` at `LineBreaks.unwrappedWidth` (which it caches),
    /// for start-aligned text; a centred label's lines are placed by Pango's rounding, so none.
    public func lineBreaks(_ text: String, role: BubbleLabelRole) -> LineBreaks? {
        role == .cardTitle ? engine.lineBreaks(key(text, role, LineBreaks.unwrappedWidth)) : nil
    }

    private func key(_ text: String, _ role: BubbleLabelRole, _ width: Double) -> LayoutKey {
        LayoutKey(text: text, font: FontKey(bold: true, size: fontSize(for: role)), width: max(1, width), wrap: .word,
                  align: role == .cardTitle ? .start : .centre)
    }
}
