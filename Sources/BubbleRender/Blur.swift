/// Box blur over 8-bit pixel buffers (premultiplied ARGB32 or A8), in place.
///
/// Each pass is a running sum over a window of `2r + 1` pixels with transparent (zero) edges, so
/// images need `3 * r` pixels of transparent margin to blur without clipping. Horizontal passes walk
/// rows; vertical passes keep one running sum per column and also walk memory row by row. Because the
/// same weights apply to every channel, premultiplied colour never exceeds alpha.
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
        guard radius > 0, width > 0, height > 0 else { return }
        let rowBytes = width * channels
        let tmp = UnsafeMutablePointer<UInt8>.allocate(capacity: max(width, height) * channels)
        defer { tmp.deallocate() }
        let window = 2 * radius + 1
        let mul = (1 << 24) / window
        for _ in 0..<passes {
            for y in 0..<height {
                let row = data + y * stride
                tmp.update(from: row, count: rowBytes)
                horizontal(src: tmp, dst: row, width: width, channels: channels, radius: radius, mul: mul)
            }
        }
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        // A copy of the column window is needed because rows are overwritten: keep a ring of source rows.
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: (window + 1) * rowBytes)
        defer { ring.deallocate() }
        for _ in 0..<passes {
            vertical(data, width: width, height: height, stride: stride, channels: channels, radius: radius,
                     mul: mul, sums: sums, ring: ring)
        }
    }

    @inline(__always)
    private static func horizontal(src: UnsafeMutablePointer<UInt8>, dst: UnsafeMutablePointer<UInt8>, width: Int,
                                   channels: Int, radius: Int, mul: Int) {
        if channels == 4 {
            // Sums fit UInt32: at most 255 * window, times mul ≤ 2^24 / window, plus 2^23.
            let m = UInt32(mul)
            let half: UInt32 = 1 << 23
            let sp = UnsafeRawPointer(src).assumingMemoryBound(to: UInt32.self)
            let dp = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt32.self)
            var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0
            for x in 0..<min(radius, width) {
                let v = sp[x]
                s0 &+= v & 0xFF; s1 &+= (v >> 8) & 0xFF; s2 &+= (v >> 16) & 0xFF; s3 &+= v >> 24
            }
            for x in 0..<width {
                let add = x + radius
                if add < width {
                    let v = sp[add]
                    s0 &+= v & 0xFF; s1 &+= (v >> 8) & 0xFF; s2 &+= (v >> 16) & 0xFF; s3 &+= v >> 24
                }
                dp[x] = ((s0 &* m &+ half) >> 24) | (((s1 &* m &+ half) >> 24) << 8)
                    | (((s2 &* m &+ half) >> 24) << 16) | (((s3 &* m &+ half) >> 24) << 24)
                let sub = x - radius
                if sub >= 0 {
                    let v = sp[sub]
                    s0 &-= v & 0xFF; s1 &-= (v >> 8) & 0xFF; s2 &-= (v >> 16) & 0xFF; s3 &-= v >> 24
                }
            }
        } else {
            var s = 0
            for x in 0..<min(radius, width) { s += Int(src[x]) }
            let half = 1 << 23
            for x in 0..<width {
                if x + radius < width { s += Int(src[x + radius]) }
                dst[x] = UInt8(truncatingIfNeeded: (s &* mul &+ half) >> 24)
                if x - radius >= 0 { s -= Int(src[x - radius]) }
            }
        }
    }

    private static func vertical(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, channels: Int,
                                 radius: Int, mul: Int, sums: UnsafeMutablePointer<UInt32>, ring: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * channels
        let ringRows = 2 * radius + 2
        sums.initialize(repeating: 0, count: rowBytes)
        // Source rows y - radius - 1 ... y + radius are needed while row y is written; keep copies.
        func ringRow(_ y: Int) -> UnsafeMutablePointer<UInt8> { ring + (y % ringRows) * rowBytes }
        let pre = min(radius, height)
        for y in 0..<pre {
            let src = data + y * stride
            ringRow(y).update(from: src, count: rowBytes)
            for i in 0..<rowBytes { sums[i] &+= UInt32(src[i]) }
        }
        let half: UInt32 = 1 << 23
        let m = UInt32(mul)
        for y in 0..<height {
            let add = y + radius
            if add < height {
                let src = data + add * stride
                let r = ringRow(add)
                r.update(from: src, count: rowBytes)
                for i in 0..<rowBytes { sums[i] &+= UInt32(r[i]) }
            }
            let dst = data + y * stride
            for i in 0..<rowBytes { dst[i] = UInt8(truncatingIfNeeded: (sums[i] &* m &+ half) >> 24) }
            let sub = y - radius
            if sub >= 0 {
                let r = ringRow(sub)
                for i in 0..<rowBytes { sums[i] &-= UInt32(r[i]) }
            }
        }
    }
}
