import BubbleDashboard

/// WCAG 2 contrast helpers.
public enum Contrast {
    /// WCAG 2 relative luminance of an sRGB colour.
    public static func relativeLuminance(_ c: SceneColour) -> Double {
        func lin(_ v: UInt8) -> Double {
            let s = Double(v) / 255
            return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * lin(c.red) + 0.7152 * lin(c.green) + 0.0722 * lin(c.blue)
    }

    /// WCAG 2 contrast ratio, 1...21.
    public static func ratio(_ a: SceneColour, _ b: SceneColour) -> Double {
        let la = relativeLuminance(a), lb = relativeLuminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// White or `dark`, whichever contrasts more with `fill`.
    public static func textColour(on fill: SceneColour, dark: SceneColour) -> SceneColour {
        let white = SceneColour(red: 255, green: 255, blue: 255)
        return ratio(white, fill) >= ratio(dark, fill) ? white : dark
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
