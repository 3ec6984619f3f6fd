// Written with `+ - * /` (and `rounded()`, which is exact) only, so the same inputs give the same
// bits on every platform and in every build configuration: no libm, whose results may differ in
// the last bit between systems. The pinned determinism hashes rest on these functions; do not
// change an operation or a constant without moving the pins on purpose.

/// Sine, cosine, e^x and ln x, deterministic to the bit, and the constants π, π/2 and 2π.
public enum DeterministicMath {
    /// π, the IEEE double nearest to 3.14159265358979323846….
    public static let pi = 3.141592653589793
    /// π/2.
    public static let halfPi = 1.5707963267948966
    /// 2π, the IEEE double nearest to 6.283185307179586476925….
    public static let twoPi = 6.283185307179586

    /// (sin x, cos x) for `x` in radians: range reduction to r in [-π/4, π/4] with x = r + k·π/2,
    /// then Taylor polynomials to r¹³ and r¹². The error stays below 4e-13 (the first omitted term
    /// of the cosine at π/4; the sine's is 2e-14): ample for placing bubbles on rings, which is what
    /// it is for. Meant for angles of a few turns; the reduction loses bits as |x| grows.
    public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        // Reduce to r in [-π/4, π/4] with x = r + k·π/2.
        let k = (x / halfPi).rounded()
        let r = x - k * halfPi
        let r2 = r * r
        let s = r * (1 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362_880 + r2 * (-1.0 / 39_916_800 + r2 / 6_227_020_800))))))
        let c = 1 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40_320 + r2 * (-1.0 / 3_628_800 + r2 / 479_001_600)))))
        var quadrant = Int(k) % 4
        if quadrant < 0 { quadrant += 4 }
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// ln x for finite x > 0 (a precondition): x = m·2^e with m in [√½, √2), then
    /// 2·atanh((m − 1)/(m + 1)) as a series summed until a term no longer changes the sum.
    public static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite)
        var m = x
        var e = 0.0
        while m > 1.4142135623730951 { m /= 2; e += 1 }
        while m < 0.7071067811865476 { m *= 2; e -= 1 }
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        var term = z
        var sum = 0.0
        var k = 1.0
        while true {
            let add = term / k
            if sum + add == sum { break }
            sum += add
            term *= z2
            k += 2
        }
        return 2 * sum + e * 0.6931471805599453
    }

    /// e^y for finite |y| < 700 (a precondition): y = n·ln 2 + r with |r| ≤ ln 2 / 2 (ln 2 split
    /// in two parts, as fdlibm does), a Taylor series for e^r, scaled by 2^n exactly.
    public static func exp(_ y: Double) -> Double {
        precondition(y.isFinite && abs(y) < 700)
        let ln2Hi = 6.93147180369123816490e-01, ln2Lo = 1.90821492927058770002e-10
        let n = (y / 0.6931471805599453).rounded()
        let r = (y - n * ln2Hi) - n * ln2Lo
        var sum = 1.0
        var term = 1.0
        var k = 1.0
        while true {
            term *= r / k
            if sum + term == sum { break }
            sum += term
            k += 1
        }
        return sum * Double(sign: .plus, exponent: Int(n), significand: 1)
    }

    /// base^exponent for finite base > 0, as e^(exponent · ln base).
    public static func power(_ base: Double, _ exponent: Double) -> Double { exp(exponent * log(base)) }
}
