/// The one rule for the size a child's title is drawn at, shared by the level layout, which sizes
/// bubbles for titles measured at a measurer's size (`TextMeasurer.fontSize(for:)`) and scales
/// them with the level, and a renderer, which draws them (`SceneBubble.titleScale`,
/// `SceneBubble.titleFloor`).
public enum TitleSize {
    /// The size (pt) of a title measured at `measured` pt on a level laid out at `scale`: `measured`
    /// times `scale`, at most `largest`, rounded down to a half point, and never under `floor`
    /// (the legibility floor, rounded up to a half point), so that no rounding crosses the floor.
    public static func drawn(measured: Double, scale: Double, largest: Double, floor: Double) -> Double {
        max(halfPointUp(floor), min(largest, halfPointDown(measured * scale)))
    }

    /// `size` rounded up to a half point (a size within a billionth of a point above a half
    /// point counts as on it).
    public static func halfPointUp(_ size: Double) -> Double { (size * 2 - 1e-9).rounded(.up) / 2 }

    /// `size` rounded down to a half point (a size within a billionth of a point below a half
    /// point counts as on it: 14 × 11/14 is 11, not 10.5).
    public static func halfPointDown(_ size: Double) -> Double { (size * 2 + 1e-9).rounded(.down) / 2 }
}
