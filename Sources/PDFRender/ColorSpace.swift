import PDFCore

/// An RGB colour with components in 0…1.
struct RGB: Equatable {
    var r: Double, g: Double, b: Double
    static let black = RGB(r: 0, g: 0, b: 0)
    static let white = RGB(r: 1, g: 1, b: 1)
}

/// A colour space as the renderer uses it: how many components it takes and how they become RGB.
indirect enum ColorSpace {
    case gray, rgb, cmyk
    case indexed(base: ColorSpace, hival: Int, lookup: [UInt8])
    /// Separation (one component) and DeviceN (several), through their tint transform.
    case tinted(components: Int, alternate: ColorSpace, function: PDFFunction?, isNone: Bool)
    case lab(whitePoint: [Double], range: [Double])
    /// CalGray (one component) or CalRGB (three): gamma, then a matrix to XYZ under the white point,
    /// adapted to D65 (Bradford) and shown in sRGB.
    case calibrated(components: Int, gamma: [Double], matrix: [Double], whitePoint: [Double])
    /// A pattern colour space, with the space of an uncoloured pattern's colour if any.
    case pattern(underlying: ColorSpace?)

    /// The number of colour components (1 for Pattern: its name operand is counted apart).
    var components: Int {
        switch self {
        case .gray: return 1
        case .rgb: return 3
        case .cmyk: return 4
        case .indexed: return 1
        case .tinted(let n, _, _, _): return n
        case .lab: return 3
        case .calibrated(let n, _, _, _): return n
        case .pattern(let u): return u?.components ?? 0
        }
    }

    /// The initial colour (black, or index 0, or tint 1).
    var initialColor: [Double] {
        switch self {
        case .gray, .indexed: return [0]
        case .rgb: return [0, 0, 0]
        case .cmyk: return [0, 0, 0, 1]
        case .tinted(let n, _, _, _): return Array(repeating: 1, count: n)
        case .lab: return [0, 0, 0]
        case .calibrated(let n, _, _, _): return Array(repeating: 0, count: n)
        case .pattern: return []
        }
    }

    /// The default `/Decode` range of an image in this space at `bpc` bits.
    func defaultDecode(bpc: Int) -> [Double] {
        switch self {
        case .indexed: return [0, Double((1 << bpc) - 1)]
        case .lab(_, let range): return [0, 100] + (range.count >= 4 ? Array(range.prefix(4)) : [-100, 100, -100, 100])
        default: return Array(repeating: [0.0, 1.0], count: components).flatMap { $0 }
        }
    }

    /// The RGB value of `c` (missing components read as 0).
    func toRGB(_ c: [Double]) -> RGB {
        func at(_ i: Int) -> Double { i < c.count ? c[i] : 0 }
        switch self {
        case .gray:
            let v = clip(at(0), 0, 1)
            return RGB(r: v, g: v, b: v)
        case .rgb:
            return RGB(r: clip(at(0), 0, 1), g: clip(at(1), 0, 1), b: clip(at(2), 0, 1))
        case .cmyk:
            return cmykToRGB(clip(at(0), 0, 1), clip(at(1), 0, 1), clip(at(2), 0, 1), clip(at(3), 0, 1))
        case .indexed(let base, let hival, let lookup):
            let i = Int(clip(at(0).rounded(), 0, Double(hival)))
            let n = base.components
            var comps: [Double] = []
            for k in 0 ..< n {
                let p = i * n + k
                comps.append(p < lookup.count ? Double(lookup[p]) / 255 : 0)
            }
            if case .lab(_, let range) = base {
                // Lab lookup bytes span L 0…100 and a/b over their ranges.
                let r = range.count >= 4 ? range : [-100, 100, -100, 100]
                comps = [comps[0] * 100, r[0] + comps[1] * (r[1] - r[0]), r[2] + comps[2] * (r[3] - r[2])]
            }
            return base.toRGB(comps)
        case .tinted(_, let alt, let fn, let isNone):
            if isNone { return .white }
            guard let fn else { return alt.toRGB(alt.initialColor) }
            return alt.toRGB(fn(c))
        case .lab(let wp, _):
            return labToRGB(at(0), at(1), at(2), whitePoint: wp)
        case .calibrated(let n, let gamma, let matrix, let wp):
            return calibratedToRGB(n == 1 ? [at(0)] : [at(0), at(1), at(2)], gamma: gamma, matrix: matrix, whitePoint: wp)
        case .pattern:
            return .black
        }
    }

    /// Whether painting in this space paints nothing (a Separation or DeviceN of /None).
    var paintsNothing: Bool {
        if case .tinted(_, _, _, true) = self { return true }
        return false
    }
}

/// The sRGB appearance of the sixteen combinations of solid process inks on coated paper
/// (white, K, Y, YK, M, MK, MY, MYK, C, CK, CY, CYK, CM, CMK, CMY, CMYK), in 0…255.
private let inkCorners: [(Double, Double, Double)] = [
    (255, 255, 255), (35, 31, 32), (255, 242, 0), (28, 26, 0), (236, 0, 140), (36, 0, 0), (237, 28, 36), (34, 0, 0),
    (0, 173, 239), (0, 15, 36), (0, 166, 80), (0, 19, 0), (46, 49, 146), (0, 0, 2), (54, 54, 57), (0, 0, 0),
]

/// CMYK to RGB by interpolating between the appearance of the solid ink combinations, so that
/// process colours look as printed (plain complements make cyan and black far too bright).
@inline(__always) func cmykToRGB(_ c: Double, _ m: Double, _ y: Double, _ k: Double) -> RGB {
    var r = 0.0, g = 0.0, b = 0.0
    let cw = [1 - c, c], mw = [1 - m, m], yw = [1 - y, y], kw = [1 - k, k]
    for i in 0 ..< 16 {
        let w = cw[i >> 3] * mw[(i >> 2) & 1] * yw[(i >> 1) & 1] * kw[i & 1]
        if w == 0 { continue }
        let corner = inkCorners[i]
        r += w * corner.0; g += w * corner.1; b += w * corner.2
    }
    return RGB(r: r / 255, g: g / 255, b: b / 255)
}

/// CalGray or CalRGB to sRGB: each component clipped to 0…1 and raised to its gamma, then to
/// XYZ (CalRGB through its matrix, CalGray along the white point), adapted from the space's white
/// point to D65 with the Bradford transform, through the sRGB matrix and curve (as pdf.js does,
/// the black point taken as zero). Same white point and identity gamma give sRGB's own curve.
func calibratedToRGB(_ c: [Double], gamma: [Double], matrix: [Double], whitePoint wp: [Double]) -> RGB {
    let xw = wp.count > 0 && wp[0] > 0 ? wp[0] : 0.9505, yw = wp.count > 1 && wp[1] > 0 ? wp[1] : 1
    let zw = wp.count > 2 && wp[2] > 0 ? wp[2] : 1.089
    var x = 0.0, y = 0.0, z = 0.0
    if c.count == 1 {
        let g = gamma.first ?? 1
        let v = pow(clip(c[0], 0, 1), g > 0 ? g : 1)
        (x, y, z) = (xw * v, yw * v, zw * v)
    } else {
        var v = [0.0, 0.0, 0.0]
        for k in 0 ..< 3 {
            let g = k < gamma.count && gamma[k] > 0 ? gamma[k] : 1
            v[k] = pow(clip(c[k], 0, 1), g)
        }
        let m = matrix.count == 9 ? matrix : [1, 0, 0, 0, 1, 0, 0, 0, 1]
        x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2]
        y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2]
        z = m[2] * v[0] + m[5] * v[1] + m[8] * v[2]
    }
    // Bradford: cone responses of the colour and of both white points.
    func cone(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double) {
        (0.8951 * x + 0.2664 * y - 0.1614 * z, -0.7502 * x + 1.7135 * y + 0.0367 * z, 0.0389 * x - 0.0685 * y + 1.0296 * z)
    }
    let (l, mm, s) = cone(x, y, z)
    let (ls, ms, ss) = cone(xw, yw, zw)
    let (ld, md, sd) = cone(0.95047, 1.0, 1.08883)
    let (la, ma, sa) = (l * ld / ls, mm * md / ms, s * sd / ss)
    let xa = 0.9869929 * la - 0.1470543 * ma + 0.1599627 * sa
    let ya = 0.4323053 * la + 0.5183603 * ma + 0.0492912 * sa
    let za = -0.0085287 * la + 0.0400428 * ma + 0.9684867 * sa
    let r = 3.2404542 * xa - 1.5371385 * ya - 0.4985314 * za
    let g = -0.9692660 * xa + 1.8760108 * ya + 0.0415560 * za
    let b = 0.0556434 * xa - 0.2040259 * ya + 1.0572252 * za
    func encode(_ v: Double) -> Double {
        let c = clip(v, 0, 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }
    return RGB(r: encode(r), g: encode(g), b: encode(b))
}

/// CIE L*a*b* to sRGB (through XYZ relative to the white point, then the sRGB matrix and curve).
func labToRGB(_ l: Double, _ a: Double, _ b: Double, whitePoint wp: [Double]) -> RGB {
    let xw = wp.count > 0 ? wp[0] : 0.9505, yw = wp.count > 1 ? wp[1] : 1, zw = wp.count > 2 ? wp[2] : 1.089
    func g(_ x: Double) -> Double { x >= 6.0 / 29 ? x * x * x : 108.0 / 841 * (x - 4.0 / 29) }
    let m = (l + 16) / 116
    let x = xw * g(m + a / 500), y = yw * g(m), z = zw * g(m - b / 200)
    // Bradford-free approximation: D50 and D65 white points are close enough for display.
    let r = 3.2406 * x - 1.5372 * y - 0.4986 * z
    let gg = -0.9689 * x + 1.8758 * y + 0.0415 * z
    let bb = 0.0557 * x - 0.2040 * y + 1.0570 * z
    func gamma(_ v: Double) -> Double {
        let c = clip(v, 0, 1)
        return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }
    return RGB(r: gamma(r), g: gamma(gg), b: gamma(bb))
}

extension ColorSpace {
    /// Reads a colour space from its name or array; nil for an unknown one (a warning names it).
    static func read(_ obj: PDFObject?, resources: PDFDict?, _ r: ResourceReader, depth: Int = 0) -> ColorSpace? {
        guard depth < 8 else { return nil }
        switch r.resolve(obj) {
        case .name(let n): return named(n, resources: resources, r, depth: depth)
        case .array(let a): return family(a, resources: resources, r, depth: depth)
        default: return nil
        }
    }

    /// The device spaces by their names and inline-image abbreviations, the same as a name and as
    /// an array's family.
    static func device(_ name: String) -> ColorSpace? {
        switch name {
        case "DeviceGray", "G": .gray
        case "DeviceRGB", "RGB": .rgb
        case "DeviceCMYK", "CMYK": .cmyk
        default: nil
        }
    }

    /// A colour space given by name: a device space, a calibrated family without its dictionary
    /// (its device space), a pattern without an underlying space, or a name in the resources'
    /// /ColorSpace dictionary.
    static func named(_ n: String, resources: PDFDict?, _ r: ResourceReader, depth: Int) -> ColorSpace? {
        if let space = device(n) { return space }
        switch n {
        case "CalGray": return .gray
        case "CalRGB": return .rgb
        case "Pattern": return .pattern(underlying: nil)
        case "Indexed", "I": return nil
        default:
            if let csd = r.dict(resources?["ColorSpace"]), let entry = csd[n] {
                return read(entry, resources: nil, r, depth: depth + 1)
            }
            r.warn(.colorApproximated, "unknown colour space /\(n); drawn as DeviceGray")
            return nil
        }
    }

    /// A colour space given as an array: its family name, then the family's operands.
    static func family(_ a: [PDFObject], resources: PDFDict?, _ r: ResourceReader, depth: Int) -> ColorSpace? {
        guard let family = r.name(a.first) else { return nil }
        if let space = device(family) { return space }
        switch family {
        case "CalGray", "CalRGB":
            let d = a.count > 1 ? r.dict(a[1]) : nil
            let n = family == "CalGray" ? 1 : 3
            let gamma = n == 1 ? [r.number(d?["Gamma"]) ?? 1] : (r.numbers(d?["Gamma"]) ?? [1, 1, 1])
            return .calibrated(components: n, gamma: gamma, matrix: r.numbers(d?["Matrix"]) ?? [1, 0, 0, 0, 1, 0, 0, 0, 1],
                               whitePoint: r.numbers(d?["WhitePoint"]) ?? [0.9505, 1, 1.089])
        case "ICCBased":
            guard a.count > 1, let s = r.dict(a[1]) else { return nil }
            if let alt = s["Alternate"], let cs = read(alt, resources: nil, r, depth: depth + 1) { return cs }
            switch r.int(s["N"]) {
            case 1: return .gray
            case 4: return .cmyk
            default: return .rgb
            }
        case "Indexed", "I":
            guard a.count >= 4, let base = read(a[1], resources: resources, r, depth: depth + 1) else { return nil }
            let hival = max(0, min(255, r.int(a[2]) ?? 0))
            var lookup: [UInt8] = []
            switch r.resolve(a[3]) {
            case .string(let b): lookup = b
            case .stream(let s): lookup = r.streamData(s) ?? []
            default: break
            }
            return .indexed(base: base, hival: hival, lookup: lookup)
        case "Separation":
            guard a.count >= 4 else { return nil }
            let alt = read(a[2], resources: resources, r, depth: depth + 1) ?? .gray
            let isNone = r.name(a[1]) == "None"
            let fn = PDFFunction.read(a[3], r)
            if fn == nil && !isNone { r.warn(.colorApproximated, "Separation tint transform unreadable; drawn in its alternate space's default") }
            return .tinted(components: 1, alternate: alt, function: fn, isNone: isNone)
        case "DeviceN":
            guard a.count >= 4, let names = r.array(a[1]) else { return nil }
            let alt = read(a[2], resources: resources, r, depth: depth + 1) ?? .gray
            let isNone = names.allSatisfy { r.name($0) == "None" }
            let fn = PDFFunction.read(a[3], r)
            if fn == nil && !isNone { r.warn(.colorApproximated, "DeviceN tint transform unreadable") }
            return .tinted(components: max(1, names.count), alternate: alt, function: fn, isNone: isNone)
        case "Lab":
            let d = a.count > 1 ? r.dict(a[1]) : nil
            return .lab(whitePoint: r.numbers(d?["WhitePoint"]) ?? [0.9505, 1, 1.089], range: r.numbers(d?["Range"]) ?? [-100, 100, -100, 100])
        case "Pattern":
            let u = a.count > 1 ? read(a[1], resources: resources, r, depth: depth + 1) : nil
            return .pattern(underlying: u)
        default:
            r.warn(.colorApproximated, "unknown colour space family /\(family)")
            return nil
        }
    }
}
