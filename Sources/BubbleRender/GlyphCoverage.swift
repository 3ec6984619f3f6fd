/// Which characters of a text no pinned font has (they would be drawn as boxes). For checking a
/// datasource before anything is drawn (`bubbles validate`, `bubbles export`); a drawn frame's
/// labels carry the same information in `LabelLayout.missingCodePoints`. Not thread-safe.
public final class GlyphCoverage {
    let engine: TextEngine

    public init(style: RenderStyle = RenderStyle()) {
        engine = TextEngine(family: style.fontFamily)
    }

    /// The code points of `text` that no pinned font has, in order of first appearance.
    public func missingCodePoints(in text: String) -> [UInt32] {
        engine.line(text, FontKey(bold: false, size: 12)).missingCodePoints
    }

    /// Why the pinned fonts could not be used (the system's fonts are used instead), if so.
    public var fontProblem: String? { engine.fontProblem?.description }
}
