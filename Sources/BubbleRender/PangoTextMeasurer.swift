import BubbleDashboard

/// The dashboard's `TextMeasurer` through this renderer's own text layout (Pango, the pinned fonts,
/// the style's title sizes), so that a card sized from its measured title holds it at the design
/// size when drawn. Not thread-safe: one per dashboard (or per thread).
public final class PangoTextMeasurer: TextMeasurer {
    /// The style whose fonts and sizes the measurements use.
    public let style: RenderStyle
    let engine: TextEngine

    /// A measurer for `style` (default: the default style).
    public init(style: RenderStyle = RenderStyle()) {
        self.style = style
        engine = TextEngine(family: style.fontFamily)
    }

    /// The size a role's text is measured at (pt): the card title's, the measured circle title's,
    /// or the filter chip's (`RenderStyle.filterChipFontSize`).
    public func fontSize(for role: BubbleLabelRole) -> Double {
        switch role {
        case .cardTitle: style.cardTitleFontSize
        case .categoryTitle: style.measuredCircleTitleFontSize
        case .chip: style.filterChipFontSize
        }
    }

    /// The size of `text` wrapped at `width` (pt) in the role's font: bold for titles, regular
    /// for chips.
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
        LayoutKey(text: text, font: FontKey(bold: role != .chip, size: fontSize(for: role)), width: max(1, width), wrap: .word,
                  align: role == .categoryTitle ? .centre : .start)
    }
}
