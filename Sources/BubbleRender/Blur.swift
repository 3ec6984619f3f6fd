#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Box blur over 8-bit pixel buffers (premultiplied ARGB32 or A8), in place.
///
/// Each pass is a running sum over a window of `2r + 1` pixels with transparent (zero) edges, so
/// images need `3 * r` pixels of transparent margin to blur without clipping. Every pass runs down
/// the columns, keeping one running sum per byte of a row and walking memory row by row, 16 bytes
/// at a time; the horizontal passes run that way over a transposed copy. Because the same weights
/// apply to every channel, premultiplied colour never exceeds alpha.
public enum BoxBlur {
    /// The box radius whose three passes approximate a Gaussian of standard deviation `sigma` (pixels).
    public static func radius(forSigma sigma: Double) -> Int {
        guard sigma > 0 else { return 0 }
        // Three boxes of width w have variance 3 (w² - 1) / 12 = sigma².
        let w = (4 * sigma * sigma + 1).squareRoot()
        return max(1, Int(((w - 1) / 2).rounded()))
    }

    /// Blurs `passes` times horizontally and `passes` times vertically with box radius `radius`.
    /// `channels` is 4 for ARGB32, 1 for A8; `stride` is in bytes.
    public static func blur(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int,
        radius: Int, passes: Int = 3
    ) {
        blur(data, width: width, height: height, stride: stride, channels: channels, radius: radius, passes: passes, vectorised: vectorised)
    }

    /// Whether the passes run 16 bytes at a time through `SIMD16` (release builds) or a byte at a
    /// time (debug builds, where each generic SIMD operation is a call: several times slower than
    /// the plain loop). Both give the same bytes; the tests check each against the definition.
    #if DEBUG
    static let vectorised = false
    #else
    static let vectorised = true
    #endif

    /// `blur`, 16 bytes at a time or not (`vectorised`).
    static func blur(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int,
        radius: Int, passes: Int, vectorised: Bool
    ) {
        guard radius > 0, width > 0, height > 0 else { return }
        let rowBytes = width * channels
        let window = 2 * radius + 1
        let mul = (1 << 24) / window
        // A row blurs horizontally to the same row wherever it stands: a row equal to the one above
        // (a shape's straight middle, an empty margin) takes that row's result, and only the
        // distinct rows go through the horizontal passes.
        var distinct: [Int] = []
        var source = [Int](repeating: 0, count: height)
        for y in 0..<height {
            if y > 0, memcmp(data + y * stride, data + (y - 1) * stride, rowBytes) == 0 {
                source[y] = source[y - 1]
            } else {
                source[y] = distinct.count
                distinct.append(y)
            }
        }
        if distinct.count * 4 < height * 3 {
            let k = distinct.count
            let compact = UnsafeMutablePointer<UInt8>.allocate(capacity: k * rowBytes)
            defer { compact.deallocate() }
            for (i, y) in distinct.enumerated() { (compact + i * rowBytes).update(from: data + y * stride, count: rowBytes) }
            horizontal(compact, width: width, height: k, stride: rowBytes, channels: channels, radius: radius, mul: mul, passes: passes, vectorised: vectorised)
            for y in 0..<height { (data + y * stride).update(from: compact + source[y] * rowBytes, count: rowBytes) }
        } else {
            horizontal(data, width: width, height: height, stride: stride, channels: channels, radius: radius, mul: mul, passes: passes, vectorised: vectorised)
        }
        verticalPasses(data, width: width, height: height, stride: stride, channels: channels, radius: radius, mul: mul, passes: passes, vectorised: vectorised)
    }

    /// The horizontal passes of `blur`. They run as vertical passes over the transposed image: a
    /// vertical pass keeps one running sum per byte of a row, so it works on whole rows at once,
    /// where a horizontal pass carries one sum along each row, pixel after pixel. Both round the
    /// same sums the same way, so the result is the same.
    private static func horizontal(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int, radius: Int, mul: Int, passes: Int,
        vectorised: Bool
    ) {
        let columnBytes = height * channels
        let transposed = UnsafeMutablePointer<UInt8>.allocate(capacity: width * columnBytes)
        defer { transposed.deallocate() }
        transpose(data, stride: stride, width: width, height: height, channels: channels, into: transposed, back: false)
        verticalPasses(transposed, width: height, height: width, stride: columnBytes, channels: channels, radius: radius, mul: mul, passes: passes,
                       vectorised: vectorised)
        transpose(data, stride: stride, width: width, height: height, channels: channels, into: transposed, back: true)
    }

    /// `passes` vertical passes, with their running sums, the ring of source rows (rows are
    /// overwritten while still in the window) and a row of zeros (the rows past the edges).
    private static func verticalPasses(
        _ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int, radius: Int, mul: Int, passes: Int,
        vectorised: Bool
    ) {
        let rowBytes = width * channels
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: (2 * radius + 2) * rowBytes)
        defer { ring.deallocate() }
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { zeros.deallocate() }
        zeros.initialize(repeating: 0, count: rowBytes)
        for _ in 0..<passes {
            vertical(data, width: width, height: height, stride: stride, channels: channels, radius: radius,
                     mul: mul, sums: sums, ring: ring, zeros: zeros, vectorised: vectorised)
        }
    }

    /// Copies the image into `t` transposed (`t`'s row x is the image's column x), or back.
    private static func transpose(
        _ data: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, channels: Int,
        into t: UnsafeMutablePointer<UInt8>, back: Bool
    ) {
        if channels == 4 {
            let tp = UnsafeMutableRawPointer(t).assumingMemoryBound(to: UInt32.self)
            transposeBlocks(width: width, height: height) { x, y in
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                if back { row[x] = tp[x * height + y] } else { tp[x * height + y] = row[x] }
            }
        } else {
            transposeBlocks(width: width, height: height) { x, y in
                if back { data[y * stride + x] = t[x * height + y] } else { t[x * height + y] = data[y * stride + x] }
            }
        }
    }

    /// Calls `body(x, y)` for every pixel, in 16 × 16 tiles so both images stay in cache.
    @inline(__always)
    private static func transposeBlocks(width: Int, height: Int, _ body: (Int, Int) -> Void) {
        let tile = 16
        var y0 = 0
        while y0 < height {
            let y1 = min(y0 + tile, height)
            var x0 = 0
            while x0 < width {
                let x1 = min(x0 + tile, width)
                for y in y0..<y1 { for x in x0..<x1 { body(x, y) } }
                x0 = x1
            }
            y0 = y1
        }
    }

    /// One vertical pass. `zeros` holds at least a row of zero bytes: the rows past the edges.
    private static func vertical(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int,
                                 radius: Int, mul: Int, sums: UnsafeMutablePointer<UInt32>, ring: UnsafeMutablePointer<UInt8>,
                                 zeros: UnsafePointer<UInt8>, vectorised: Bool) {
        let rowBytes = width * channels
        let ringRows = 2 * radius + 2
        sums.initialize(repeating: 0, count: rowBytes)
        func ringRow(_ y: Int) -> UnsafeMutablePointer<UInt8> { ring + (y % ringRows) * rowBytes }
        let pre = min(radius, height)
        for y in 0..<pre {
            let src = data + y * stride
            ringRow(y).update(from: src, count: rowBytes)
            for i in 0..<rowBytes { sums[i] &+= UInt32(src[i]) }
        }
        // Sums fit UInt32: at most 255 * window, times mul ≤ 2^24 / window, plus 2^23.
        let half: UInt32 = 1 << 23
        let m = UInt32(mul)
        let vectors = vectorised ? rowBytes / 16 : 0
        let sv = UnsafeMutableRawPointer(sums)
        for y in 0..<height {
            // Add row y + radius (kept in the ring: it is overwritten before it leaves the window),
            // write row y, take row y - radius off; rows past the edges are zero.
            let add = y + radius, sub = y - radius
            if add < height { ringRow(add).update(from: data + add * stride, count: rowBytes) }
            let a = UnsafeRawPointer(add < height ? UnsafePointer(ringRow(add)) : zeros)
            let b = UnsafeRawPointer(sub >= 0 ? UnsafePointer(ringRow(sub)) : zeros)
            let dst = UnsafeMutableRawPointer(data + y * stride)
            for v in 0..<vectors {
                let av = SIMD16<UInt32>(truncatingIfNeeded: a.loadUnaligned(fromByteOffset: v * 16, as: SIMD16<UInt8>.self))
                let bv = SIMD16<UInt32>(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: v * 16, as: SIMD16<UInt8>.self))
                let s = sv.loadUnaligned(fromByteOffset: v * 64, as: SIMD16<UInt32>.self) &+ av
                dst.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: (s &* m &+ half) &>> 24), toByteOffset: v * 16, as: SIMD16<UInt8>.self)
                sv.storeBytes(of: s &- bv, toByteOffset: v * 64, as: SIMD16<UInt32>.self)
            }
            let ap = a.assumingMemoryBound(to: UInt8.self), bp = b.assumingMemoryBound(to: UInt8.self)
            let dp = dst.assumingMemoryBound(to: UInt8.self)
            for i in (vectors * 16)..<rowBytes {
                let s = sums[i] &+ UInt32(ap[i])
                dp[i] = UInt8(truncatingIfNeeded: (s &* m &+ half) >> 24)
                sums[i] = s &- UInt32(bp[i])
            }
        }
    }
}
