/// Which characters of a text no pinned font has (they would be drawn as boxes). For checking a
/// datasource before anything is drawn (`bubbles validate`, `bubbles export`); a drawn frame's
/// labels carry the same information in `LabelLayout.missingCodePoints`. Not thread-safe.
public final class GlyphCoverage {
    let engine: TextEngine

    /// A checker for the fonts of `style` (default: the renderer's).
    public init(style: RenderStyle = RenderStyle()) {
        engine = TextEngine(family: style.fontFamily)
    }

    /// Whether each code point met so far has a glyph in some pinned font (looked up only).
    private var known: [UInt32: Bool] = [:]

    /// The code points of `text` that no pinned font has, in order of first appearance. Each
    /// distinct code point is laid out once (a datasource of 13 000 titles has a few hundred), so
    /// checking a whole library costs about as much as checking its alphabet.
    public func missingCodePoints(in text: String) -> [UInt32] {
        var missing: [UInt32] = []
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if let has = known[v] {
                if !has && !missing.contains(v) { missing.append(v) }
                continue
            }
            let has = engine.measureMissing(String(scalar)).isEmpty
            known[v] = has
            if !has && !missing.contains(v) { missing.append(v) }
        }
        return missing
    }

    /// Why the pinned fonts could not be used (the system's fonts are used instead), if so.
    public var fontProblem: String? { engine.fontProblem?.description }
}
