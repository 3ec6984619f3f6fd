import PDFCore

/// A PDF function (types 0, 2, 3 and 4) mapping m inputs to n outputs, as used by shadings and
/// the tint transforms of Separation and DeviceN colour spaces.
indirect enum PDFFunction {
    case sampled(domain: [Double], range: [Double], size: [Int], bps: Int, encode: [Double], decode: [Double], samples: [UInt8])
    case exponential(domain: [Double], c0: [Double], c1: [Double], n: Double)
    case stitching(domain: [Double], functions: [PDFFunction], bounds: [Double], encode: [Double])
    case postScript(domain: [Double], range: [Double], program: [PSOp])
    /// Several one-output functions side by side (a shading's `/Function` array).
    case array([PDFFunction])

    /// The most samples a type 0 function may hold.
    static let maxSamples = 1 << 22

    /// Reads a function object; nil (with a warning) when it is malformed or unsupported.
    static func read(_ obj: PDFObject, _ r: ResourceReader, depth: Int = 0) -> PDFFunction? {
        guard depth < 8 else { return nil }
        let o = r.resolve(obj)
        if case .array(let items) = o {
            let fs = items.compactMap { read($0, r, depth: depth + 1) }
            return fs.count == items.count && !fs.isEmpty ? .array(fs) : nil
        }
        guard let d = o.dict else { return nil }
        let domain = r.numbers(d["Domain"]) ?? [0, 1]
        guard domain.count >= 2 else { return nil }
        switch r.int(d["FunctionType"]) {
        case 0:
            guard case .stream(let s) = o, let range = r.numbers(d["Range"]), let sizeD = r.numbers(d["Size"]) else { return nil }
            let size = sizeD.map { Int(clip($0, 0, 1e6)) }
            guard
                  size.count * 2 == domain.count, size.allSatisfy({ $0 > 0 }), range.count >= 2 else { return nil }
            let bps = r.int(d["BitsPerSample"]) ?? 8
            guard [1, 2, 4, 8, 12, 16, 24, 32].contains(bps) else { return nil }
            var total = range.count / 2
            for s in size { total = total.multipliedReportingOverflow(by: s).partialValue; if total > maxSamples { return nil } }
            guard let data = r.streamData(s) else { return nil }
            let encode: [Double] = r.numbers(d["Encode"]) ?? size.flatMap { s -> [Double] in [0, Double(s - 1)] }
            let decode = r.numbers(d["Decode"]) ?? range
            guard encode.count >= 2 * size.count, decode.count >= range.count else { return nil }
            return .sampled(domain: domain, range: range, size: size, bps: bps, encode: encode, decode: decode, samples: data)
        case 2:
            let c0 = r.numbers(d["C0"]) ?? [0]
            let c1 = r.numbers(d["C1"]) ?? [1]
            guard c0.count == c1.count else { return nil }
            return .exponential(domain: domain, c0: c0, c1: c1, n: r.number(d["N"]) ?? 1)
        case 3:
            guard case .array(let fl)? = r.resolveOpt(d["Functions"]) else { return nil }
            let fs = fl.compactMap { read($0, r, depth: depth + 1) }
            guard fs.count == fl.count, !fs.isEmpty else { return nil }
            let bounds = r.numbers(d["Bounds"]) ?? []
            let encode = r.numbers(d["Encode"]) ?? Array(repeating: [0.0, 1.0], count: fs.count).flatMap { $0 }
            guard bounds.count == fs.count - 1, encode.count >= fs.count * 2 else { return nil }
            return .stitching(domain: domain, functions: fs, bounds: bounds, encode: encode)
        case 4:
            guard case .stream(let s) = o, let range = r.numbers(d["Range"]), let data = r.streamData(s),
                  let program = PSCalculator.parse(data) else { return nil }
            return .postScript(domain: domain, range: range, program: program)
        default:
            return nil
        }
    }

    /// Evaluates the function (inputs clipped to the domain, outputs to the range).
    func callAsFunction(_ input: [Double]) -> [Double] {
        switch self {
        case .array(let fs):
            return fs.map { $0(input).first ?? 0 }
        case .exponential(let domain, let c0, let c1, let n):
            let x = clip(input.first ?? 0, domain[0], domain[1])
            let xn = n == 1 ? x : pow(x, n)
            return zip(c0, c1).map { $0 + xn * ($1 - $0) }
        case .stitching(let domain, let fs, let bounds, let encode):
            let x = clip(input.first ?? 0, domain[0], domain[1])
            var k = 0
            while k < bounds.count && x >= bounds[k] { k += 1 }
            let lo = k == 0 ? domain[0] : bounds[k - 1]
            let hi = k == bounds.count ? domain[1] : bounds[k]
            let e0 = encode[2 * k], e1 = encode[2 * k + 1]
            let t = hi == lo ? e0 : e0 + (x - lo) * (e1 - e0) / (hi - lo)
            return fs[k]([t])
        case .sampled(let domain, let range, let size, let bps, let encode, let decode, let samples):
            let m = size.count
            let n = range.count / 2
            // Multilinear interpolation would be exact; the nearest sample along all but the first
            // input, linear along the first, serves every real (one-input) use.
            var index = 0
            var stride = 1
            var frac = 0.0
            var firstIdx = 0
            for i in 0 ..< m {
                let x = clip(i < input.count ? input[i] : 0, domain[2 * i], domain[2 * i + 1])
                let d0 = domain[2 * i], d1 = domain[2 * i + 1]
                var e = d1 == d0 ? encode[2 * i] : encode[2 * i] + (x - d0) * (encode[2 * i + 1] - encode[2 * i]) / (d1 - d0)
                e = clip(e, 0, Double(size[i] - 1))
                if i == 0 {
                    firstIdx = toInt(e)
                    frac = e - Double(firstIdx)
                    index += firstIdx * stride
                } else {
                    index += toInt(e.rounded()) * stride
                }
                stride *= size[i]
            }
            let maxv = bps >= 32 ? 4294967295.0 : Double((1 << bps) - 1)
            func sample(_ s: Int, _ j: Int) -> Double {
                let bit = (s * n + j) * bps
                var v: UInt64 = 0
                var got = 0
                var p = bit
                while got < bps {
                    let byte = p >> 3
                    guard byte < samples.count else { return 0 }
                    let inByte = 8 - (p & 7)
                    let take = min(inByte, bps - got)
                    let bits = (UInt64(samples[byte]) >> UInt64(inByte - take)) & ((1 << UInt64(take)) - 1)
                    v = v << UInt64(take) | bits
                    got += take; p += take
                }
                return Double(v)
            }
            var out: [Double] = []
            out.reserveCapacity(n)
            let next = firstIdx + 1 < size[0] ? index + 1 : index
            for j in 0 ..< n {
                let s0 = sample(index, j), s1 = frac > 0 ? sample(next, j) : s0
                let s = s0 + (s1 - s0) * frac
                let v = decode[2 * j] + s * (decode[2 * j + 1] - decode[2 * j]) / maxv
                out.append(clip(v, range[2 * j], range[2 * j + 1]))
            }
            return out
        case .postScript(let domain, let range, let program):
            var stack: [Double] = []
            for (i, x) in input.enumerated() where 2 * i + 1 < domain.count { stack.append(clip(x, domain[2 * i], domain[2 * i + 1])) }
            var calc = PSCalculator(stack: stack)
            calc.run(program, depth: 0)
            let n = range.count / 2
            var out = Array(calc.stack.suffix(n))
            while out.count < n { out.insert(0, at: 0) }
            return (0 ..< n).map { clip(out[$0], range[2 * $0], range[2 * $0 + 1]) }
        }
    }
}

/// A number from a file as an integer, clamped to ±2⁵³ (NaN reads as 0): never a trap.
@inline(__always) func toInt(_ x: Double) -> Int {
    guard x.isFinite else { return x.isNaN ? 0 : (x > 0 ? 1 << 53 : -(1 << 53)) }
    return Int(max(-9.007199254740992e15, min(9.007199254740992e15, x)))
}

@inline(__always) func clip(_ x: Double, _ lo: Double, _ hi: Double) -> Double {
    x.isNaN ? lo : min(max(x, min(lo, hi)), max(lo, hi))
}

/// `x` to the power `y` for the function evaluator, through exp and log of the C library.
func pow(_ x: Double, _ y: Double) -> Double {
    if y == 1 { return x }
    if y == 2 { return x * x }
    if x <= 0 { return x == 0 ? (y > 0 ? 0 : 1) : 0 }
    return cExp(y * cLog(x))
}

#if canImport(Glibc)
import Glibc
@inline(__always) func cExp(_ x: Double) -> Double { Glibc.exp(x) }
@inline(__always) func cLog(_ x: Double) -> Double { Glibc.log(x) }
#else
import Darwin
@inline(__always) func cExp(_ x: Double) -> Double { Darwin.exp(x) }
@inline(__always) func cLog(_ x: Double) -> Double { Darwin.log(x) }
#endif

/// One operation of a type 4 (PostScript calculator) function.
indirect enum PSOp {
    case number(Double)
    case op(PSOperator)
    case ifElse([PSOp], [PSOp]?)
}

/// The operators of the PostScript calculator, by name; `unknown` for any other word (it does
/// nothing, as in viewers).
enum PSOperator: String {
    case add, sub, mul, div, idiv, mod, neg, abs, ceiling, floor, round, truncate, sqrt, sin, cos, atan, exp, ln, log
    case cvi, cvr, eq, ne, gt, ge, lt, le, and, or, xor, not, bitshift, `true`, `false`, pop, exch, dup, `copy`, `index`, roll
    case unknown
}

/// The PostScript calculator of type 4 functions, with a bounded stack and a bounded step count.
struct PSCalculator {
    var stack: [Double]
    var steps = 0
    static let maxStack = 100
    static let maxSteps = 100_000

    static func parse(_ data: [UInt8]) -> [PSOp]? {
        var i = 0
        func skip() { while i < data.count, isPDFWhite(data[i]) { i += 1 } }
        func block(_ depth: Int) -> [PSOp]? {
            guard depth < 16 else { return nil }
            var ops: [PSOp] = []
            while true {
                skip()
                guard i < data.count else { return nil }
                let c = data[i]
                if c == UInt8(ascii: "}") { i += 1; return ops }
                if c == UInt8(ascii: "{") {
                    i += 1
                    guard let a = block(depth + 1) else { return nil }
                    skip()
                    var b: [PSOp]? = nil
                    if i < data.count, data[i] == UInt8(ascii: "{") {
                        i += 1
                        guard let bb = block(depth + 1) else { return nil }
                        b = bb
                        skip()
                    }
                    let start = i
                    while i < data.count, !isPDFWhite(data[i]), data[i] != UInt8(ascii: "{"), data[i] != UInt8(ascii: "}") { i += 1 }
                    let word = String(decoding: data[start ..< i], as: UTF8.self)
                    guard word == (b == nil ? "if" : "ifelse") else { return nil }
                    ops.append(.ifElse(a, b))
                    continue
                }
                let start = i
                while i < data.count, !isPDFWhite(data[i]), data[i] != UInt8(ascii: "{"), data[i] != UInt8(ascii: "}") { i += 1 }
                let tok = data[start ..< i]
                if let n = Parser.number(tok) {
                    switch n {
                    case .int(let v): ops.append(.number(Double(v)))
                    case .real(let v): ops.append(.number(v))
                    default: return nil
                    }
                } else {
                    ops.append(.op(PSOperator(rawValue: String(decoding: tok, as: UTF8.self)) ?? .unknown))
                }
            }
        }
        skip()
        guard i < data.count, data[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        return block(0)
    }

    mutating func pop() -> Double { stack.popLast() ?? 0 }
    mutating func push(_ v: Double) { if stack.count < Self.maxStack { stack.append(v.isFinite ? v : 0) } }

    mutating func run(_ ops: [PSOp], depth: Int) {
        guard depth < 16 else { return }
        for op in ops {
            steps += 1
            if steps > Self.maxSteps { return }
            switch op {
            case .number(let v): push(v)
            case .ifElse(let a, let b):
                let cond = pop()
                if cond != 0 { run(a, depth: depth + 1) } else if let b { run(b, depth: depth + 1) }
            case .op(let op): apply(op)
            }
        }
    }

    mutating func apply(_ op: PSOperator) {
        switch op {
        case .add: let b = pop(), a = pop(); push(a + b)
        case .sub: let b = pop(), a = pop(); push(a - b)
        case .mul: let b = pop(), a = pop(); push(a * b)
        case .div: let b = pop(), a = pop(); push(b == 0 ? 0 : a / b)
        case .idiv: let b = toInt(pop()), a = toInt(pop()); push(b == 0 ? 0 : Double(a / b))
        case .mod: let b = toInt(pop()), a = toInt(pop()); push(b == 0 ? 0 : Double(a % b))
        case .neg: push(-pop())
        case .abs: push(abs(pop()))
        case .ceiling: push(pop().rounded(.up))
        case .floor: push(pop().rounded(.down))
        case .round: push((pop() + 0.5).rounded(.down))
        case .truncate: push(pop().rounded(.towardZero))
        case .sqrt: push(max(0, pop()).squareRoot())
        case .sin: push(sinDeg(pop()))
        case .cos: push(sinDeg(pop() + 90))
        case .atan:
            let b = pop(), a = pop()
            var deg = atan2Deg(a, b)
            if deg < 0 { deg += 360 }
            push(deg)
        case .exp: let b = pop(), a = pop(); push(pow(a, b))
        case .ln: let a = pop(); push(a > 0 ? cLog(a) : 0)
        case .log: let a = pop(); push(a > 0 ? cLog(a) / cLog(10) : 0)
        case .cvi: push(pop().rounded(.towardZero))
        case .cvr: break
        case .eq: let b = pop(), a = pop(); push(a == b ? 1 : 0)
        case .ne: let b = pop(), a = pop(); push(a != b ? 1 : 0)
        case .gt: let b = pop(), a = pop(); push(a > b ? 1 : 0)
        case .ge: let b = pop(), a = pop(); push(a >= b ? 1 : 0)
        case .lt: let b = pop(), a = pop(); push(a < b ? 1 : 0)
        case .le: let b = pop(), a = pop(); push(a <= b ? 1 : 0)
        case .and: let b = toInt(pop()), a = toInt(pop()); push(Double(a & b))
        case .or: let b = toInt(pop()), a = toInt(pop()); push(Double(a | b))
        case .xor: let b = toInt(pop()), a = toInt(pop()); push(Double(a ^ b))
        case .not: let a = pop(); push(a == 0 ? 1 : (a == 1 ? 0 : Double(~toInt(a))))
        case .bitshift:
            let s = toInt(pop()), a = toInt(pop())
            push(Double(s >= 0 ? (s < 63 ? a << s : 0) : (s > -63 ? a >> -s : 0)))
        case .`true`: push(1)
        case .`false`: push(0)
        case .pop: _ = pop()
        case .exch: let b = pop(), a = pop(); push(b); push(a)
        case .dup: let a = pop(); push(a); push(a)
        case .`copy`:
            let n = toInt(pop())
            if n > 0, n <= stack.count { for v in stack.suffix(n) { push(v) } }
        case .`index`:
            let n = toInt(pop())
            if n >= 0, n < stack.count { push(stack[stack.count - 1 - n]) } else { push(0) }
        case .roll:
            let j = toInt(pop()), n = toInt(pop())
            if n > 0, n <= stack.count {
                var part = Array(stack.suffix(n))
                stack.removeLast(n)
                let s = ((j % n) + n) % n
                part = Array(part[(n - s)...] + part[..<(n - s)])
                stack += part
            }
        case .unknown: break
        }
    }
}

/// Sine of an angle in degrees, by a Taylor series after range reduction (deterministic).
func sinDeg(_ deg: Double) -> Double {
    var d = deg.truncatingRemainder(dividingBy: 360)
    if d < 0 { d += 360 }
    var sign = 1.0
    if d > 180 { d -= 180; sign = -1 }
    if d > 90 { d = 180 - d }
    let x = d * Double.pi / 180
    let x2 = x * x
    var term = x, sum = x
    for k in 1 ... 10 {
        term *= -x2 / Double((2 * k) * (2 * k + 1))
        sum += term
    }
    return sign * sum
}

/// atan2 in degrees.
func atan2Deg(_ y: Double, _ x: Double) -> Double {
    #if canImport(Glibc)
    return Glibc.atan2(y, x) * 180 / Double.pi
    #else
    return Darwin.atan2(y, x) * 180 / Double.pi
    #endif
}
