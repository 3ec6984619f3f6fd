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

    public func measure(_ text: String, role: BubbleLabelRole, width: Double) -> MeasuredText {
        let size = role == .cardTitle ? style.cardTitleFontSize : style.measuredCircleTitleFontSize
        let align: LayoutKey.Align = role == .cardTitle ? .start : .centre
        let l = engine.layout(LayoutKey(text: text, font: FontKey(bold: true, size: size), width: max(1, width), wrap: .word, align: align))
        let lineWidth = l.lines.map { $0.right - $0.left }.max() ?? 0
        return MeasuredText(width: lineWidth, height: l.height, lineCount: l.lines.count)
    }
}
