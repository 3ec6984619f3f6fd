import CZlib

/// A fast PNG encoder for Cairo ARGB32 images.
///
/// - Pixels: premultiplied native-endian ARGB32 become RGB (when every alpha is 255) or RGBA
///   (un-premultiplied with Cairo's own rounding, `(c * 255 + a / 2) / a`, so both writers decode to
///   the same premultiplied pixels).
/// - Filters: per row, Up or Sub, whichever has the smaller sum of absolute residuals over a sample of
///   every 8th byte (the first row uses Sub).
/// - Compression: zlib at a low level (default 2) with the default strategy, fed in chunks of rows.
/// - Chunks: IHDR, one IDAT per compressed chunk, IEND; CRCs with zlib's `crc32`.
enum PNGEncoder {
    static func encode(_ image: RenderedImage, level: Int32 = 2, strategy: Int32 = Z_DEFAULT_STRATEGY) throws -> [UInt8] {
        try image.withPixels { data, stride in
            try encode(data: data, width: image.width, height: image.height, stride: stride, level: level, strategy: strategy)
        }
    }

    static func isOpaque(_ data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) -> Bool {
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            var acc: UInt32 = 0xFF00_0000
            for x in 0..<width { acc &= row[x] }
            if acc & 0xFF00_0000 != 0xFF00_0000 { return false }
        }
        return true
    }

    static func encode(data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int, level: Int32, strategy: Int32) throws -> [UInt8] {
        let opaque = isOpaque(data, width: width, height: height, stride: stride)
        let bpp = opaque ? 3 : 4
        let rowBytes = width * bpp
        var out: [UInt8] = []
        out.reserveCapacity(width * height + 1024)
        out.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var ihdr: [UInt8] = []
        appendBE(&ihdr, UInt32(width))
        appendBE(&ihdr, UInt32(height))
        ihdr.append(contentsOf: [8, opaque ? 2 : 6, 0, 0, 0])
        appendChunk(&out, "IHDR", ihdr)

        var stream = z_stream()
        let initStatus = deflateInit2_(&stream, level, Z_DEFLATED, 15, 8, strategy, zlibVersion(),
                                       Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw RenderError.encoding("deflateInit2 failed (\(initStatus))") }
        defer { deflateEnd(&stream) }

        // Rows are converted and filtered into a chunk buffer, then deflated.
        let rowsPerChunk = max(1, (1 << 20) / (rowBytes + 1))
        let chunkCapacity = rowsPerChunk * (rowBytes + 1)
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkCapacity)
        defer { chunk.deallocate() }
        var prev = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        var cur = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
        defer { prev.deallocate(); cur.deallocate() }
        prev.initialize(repeating: 0, count: rowBytes)
        let outCapacity = Int(deflateBound(&stream, UInt(chunkCapacity))) + 1024
        let zout = UnsafeMutablePointer<UInt8>.allocate(capacity: outCapacity)
        defer { zout.deallocate() }
        var idat: [UInt8] = []
        idat.reserveCapacity(width * height / 2)

        var y = 0
        while y < height {
            let rows = min(rowsPerChunk, height - y)
            var w = chunk
            for r in 0..<rows {
                convertRow(data + (y + r) * stride, into: cur, width: width, opaque: opaque)
                filterRow(cur, prev: prev, into: w, rowBytes: rowBytes, bpp: bpp, first: y + r == 0)
                w += rowBytes + 1
                swap(&prev, &cur)
            }
            y += rows
            stream.next_in = chunk
            stream.avail_in = UInt32(rows * (rowBytes + 1))
            let flush = y >= height ? Z_FINISH : Z_NO_FLUSH
            repeat {
                stream.next_out = zout
                stream.avail_out = UInt32(outCapacity)
                let st = deflate(&stream, flush)
                guard st == Z_OK || st == Z_STREAM_END || st == Z_BUF_ERROR else {
                    throw RenderError.encoding("deflate failed (\(st))")
                }
                let produced = outCapacity - Int(stream.avail_out)
                idat.append(contentsOf: UnsafeBufferPointer(start: zout, count: produced))
                if st == Z_STREAM_END { break }
            } while stream.avail_out == 0 || (flush == Z_FINISH)
        }
        appendChunk(&out, "IDAT", idat)
        appendChunk(&out, "IEND", [])
        return out
    }

    @inline(__always)
    static func convertRow(_ src: UnsafeMutablePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, width: Int, opaque: Bool) {
        let px = UnsafeRawPointer(src).assumingMemoryBound(to: UInt32.self)
        if opaque {
            var d = dst
            for x in 0..<width {
                let v = px[x]
                d[0] = UInt8(truncatingIfNeeded: v >> 16)
                d[1] = UInt8(truncatingIfNeeded: v >> 8)
                d[2] = UInt8(truncatingIfNeeded: v)
                d += 3
            }
        } else {
            var d = dst
            for x in 0..<width {
                let v = px[x]
                let a = Int(v >> 24)
                if a == 0 {
                    d[0] = 0; d[1] = 0; d[2] = 0; d[3] = 0
                } else if a == 255 {
                    d[0] = UInt8(truncatingIfNeeded: v >> 16)
                    d[1] = UInt8(truncatingIfNeeded: v >> 8)
                    d[2] = UInt8(truncatingIfNeeded: v)
                    d[3] = 255
                } else {
                    let half = a / 2
                    d[0] = UInt8(truncatingIfNeeded: (Int((v >> 16) & 0xFF) * 255 + half) / a)
                    d[1] = UInt8(truncatingIfNeeded: (Int((v >> 8) & 0xFF) * 255 + half) / a)
                    d[2] = UInt8(truncatingIfNeeded: (Int(v & 0xFF) * 255 + half) / a)
                    d[3] = UInt8(a)
                }
                d += 4
            }
        }
    }

    @inline(__always)
    static func filterRow(_ cur: UnsafeMutablePointer<UInt8>, prev: UnsafeMutablePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                          rowBytes: Int, bpp: Int, first: Bool) {
        // Estimate: sum of |residual| (as signed bytes) on every 8th byte.
        var up = false
        if !first {
            var sumUp = 0, sumSub = 0
            var i = bpp
            while i < rowBytes {
                let u = Int(Int8(bitPattern: cur[i] &- prev[i]))
                let s = Int(Int8(bitPattern: cur[i] &- cur[i - bpp]))
                sumUp &+= u < 0 ? 0 &- u : u
                sumSub &+= s < 0 ? 0 &- s : s
                i &+= 8
            }
            up = sumUp <= sumSub
        }
        let o = out + 1
        if up {
            out[0] = 2
            difference(cur, prev, into: o, count: rowBytes)
        } else {
            out[0] = 1
            let head = min(bpp, rowBytes)
            o.update(from: cur, count: head)
            if rowBytes > bpp { difference(cur + bpp, cur, into: o + bpp, count: rowBytes - bpp) }
        }
    }

    /// out[i] = a[i] - b[i] (mod 256); one loop shape for both filters so that it vectorises.
    @inline(__always)
    static func difference(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        // Eight bytes at a time without carries between bytes (SWAR subtraction).
        let hi: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= count {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self)
            let d = ((x | hi) &- (y & ~hi)) ^ ((x ^ ~y) & hi)
            UnsafeMutableRawPointer(out + i).storeBytes(of: d, as: UInt64.self)
            i &+= 8
        }
        while i < count {
            out[i] = a[i] &- b[i]
            i &+= 1
        }
    }

    static func appendBE(_ a: inout [UInt8], _ v: UInt32) {
        a.append(UInt8(v >> 24)); a.append(UInt8((v >> 16) & 0xFF)); a.append(UInt8((v >> 8) & 0xFF)); a.append(UInt8(v & 0xFF))
    }

    static func appendChunk(_ out: inout [UInt8], _ type: String, _ body: [UInt8]) {
        appendBE(&out, UInt32(body.count))
        let typeBytes = Array(type.utf8)
        out.append(contentsOf: typeBytes)
        out.append(contentsOf: body)
        var crc = crc32(0, typeBytes, 4)
        if !body.isEmpty {  // crc32 with a null buffer returns the initial value, not the running CRC
            crc = body.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        }
        appendBE(&out, UInt32(crc))
    }
}
