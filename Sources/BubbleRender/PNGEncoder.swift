import CDeflate

/// A fast PNG encoder for Cairo ARGB32 images.
///
/// - Pixels: premultiplied native-endian ARGB32 become RGB (when every alpha is 255) or RGBA
///   (un-premultiplied with Cairo's own rounding, `(c * 255 + a / 2) / a`, so both writers decode to
///   the same premultiplied pixels).
/// - Filter: None on every row. libdeflate's fastest level finds the repeats of unfiltered pixels
///   (flat fills, repeated rows) as long matches, so it is 35–45 % faster than on Up- or
///   Sub-filtered rows, and the file is about as small (Benchmarks/NOTES.md, "PNG encoder").
/// - Compression: libdeflate's whole-buffer zlib stream, default level 1: faster than zlib at
///   level 1 and 8–10 % smaller than zlib at any level up to 2 on these pictures.
/// - Chunks: IHDR, one IDAT (more past 1 GiB), IEND; CRCs with libdeflate's `crc32`.
///
/// One encoder keeps its buffers and its compressor from frame to frame (no page faults on a fresh
/// 10 MB buffer for every frame); use one per thread. ``RenderedImage/fastPNG(level:)`` makes a
/// new one for a single picture.
public final class PNGEncoder {
    /// libdeflate's levels: 0 (stored) to 12 (slowest, smallest).
    public static let levels: ClosedRange<Int32> = 0...12

    /// The compression level (libdeflate's, within ``levels``).
    public let level: Int32
    private var compressor: OpaquePointer?
    private var raw = Scratch()
    private var compressed = Scratch()

    /// An encoder at libdeflate level 1, the fastest level that compresses.
    public init() {
        level = 1
    }

    /// An encoder at libdeflate `level`.
    public init(level: Int32) throws {
        guard Self.levels.contains(level) else {
            throw RenderError.encoding("PNG compression level \(level) is outside \(Self.levels.lowerBound)...\(Self.levels.upperBound)")
        }
        self.level = level
    }

    deinit {
        if let compressor { libdeflate_free_compressor(compressor) }
        raw.free()
        compressed.free()
    }

    /// The PNG file of `image`.
    public func encode(_ image: RenderedImage) throws -> [UInt8] {
        try image.withPixels { data, stride in
            try encode(argb32: data, width: image.width, height: image.height, stride: stride)
        }
    }

    /// The PNG file of `height` rows of `width` pixels in Cairo's ARGB32 layout (premultiplied,
    /// native-endian 32-bit words), `stride` bytes apart.
    public func encode(argb32 data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) throws -> [UInt8] {
        // Rows are converted into one buffer, each after its filter-type byte (0, None), then
        // deflated in one call. RGB until a pixel that is not opaque; then RGBA from the start.
        var opaque = true
        var rawCount = height * (width * 3 + 1)
        var out = raw.reserve(rawCount)
        var y = 0
        while y < height {
            out[0] = 0
            if !Self.convertOpaqueRow(data + y * stride, into: out + 1, width: width) {
                opaque = false
                break
            }
            out += width * 3 + 1
            y += 1
        }
        if !opaque {
            rawCount = height * (width * 4 + 1)
            out = raw.reserve(rawCount)
            for y in 0..<height {
                out[0] = 0
                Self.convertRow(data + y * stride, into: out + 1, width: width)
                out += width * 4 + 1
            }
        }

        if compressor == nil { compressor = libdeflate_alloc_compressor(level) }
        guard let compressor else {
            throw RenderError.encoding("libdeflate could not allocate a level-\(level) compressor")
        }
        let bound = libdeflate_zlib_compress_bound(compressor, rawCount)
        let zbuf = compressed.reserve(bound)
        let produced = libdeflate_zlib_compress(compressor, raw.pointer, rawCount, zbuf, bound)
        guard produced > 0 else {
            throw RenderError.encoding("libdeflate produced no output for \(rawCount) bytes at level \(level)")
        }

        var ihdr: [UInt8] = []
        Self.appendBE(&ihdr, UInt32(width))
        Self.appendBE(&ihdr, UInt32(height))
        ihdr.append(contentsOf: [8, opaque ? 2 : 6, 0, 0, 0])
        let idatCount = (produced + Self.maxChunk - 1) / Self.maxChunk
        var file: [UInt8] = []
        file.reserveCapacity(8 + 25 + produced + 12 * idatCount + 12)
        file.append(contentsOf: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        ihdr.withUnsafeBufferPointer { Self.appendChunk(&file, "IHDR", $0) }
        // A chunk's length is at most 2^31 - 1 bytes: a larger stream goes into several IDATs.
        var offset = 0
        while offset < produced {
            let n = min(Self.maxChunk, produced - offset)
            Self.appendChunk(&file, "IDAT", UnsafeBufferPointer(start: zbuf + offset, count: n))
            offset += n
        }
        Self.appendChunk(&file, "IEND", UnsafeBufferPointer(start: nil, count: 0))
        return file
    }

    /// A buffer that only grows.
    private struct Scratch {
        var pointer: UnsafeMutablePointer<UInt8>?
        var capacity = 0

        mutating func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
            if let pointer, capacity >= count { return pointer }
            pointer?.deallocate()
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, count))
            pointer = p
            capacity = max(1, count)
            return p
        }

        func free() { pointer?.deallocate() }
    }

    /// Converts a row of opaque pixels to RGB; false (with the row partly written) at the first
    /// pixel that is not opaque.
    @inline(__always)
    static func convertOpaqueRow(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, width: Int) -> Bool {
        let px = UnsafeRawPointer(src)
        let d = UnsafeMutableRawPointer(dst)
        var alpha: UInt32 = 0xFF00_0000
        var x = 0
        // Four pixels (16 bytes) become 12 bytes in three stores: 0xAARRGGBB byte-swapped and
        // shifted is R, G, B in memory order.
        while x + 4 <= width {
            let p0 = px.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
            let p1 = px.loadUnaligned(fromByteOffset: 4 * x + 4, as: UInt32.self)
            let p2 = px.loadUnaligned(fromByteOffset: 4 * x + 8, as: UInt32.self)
            let p3 = px.loadUnaligned(fromByteOffset: 4 * x + 12, as: UInt32.self)
            alpha &= p0 & p1 & p2 & p3
            let t0 = p0.byteSwapped >> 8, t1 = p1.byteSwapped >> 8
            let t2 = p2.byteSwapped >> 8, t3 = p3.byteSwapped >> 8
            d.storeBytes(of: (t0 | t1 << 24).littleEndian, toByteOffset: 3 * x, as: UInt32.self)
            d.storeBytes(of: (t1 >> 8 | t2 << 16).littleEndian, toByteOffset: 3 * x + 4, as: UInt32.self)
            d.storeBytes(of: (t2 >> 16 | t3 << 8).littleEndian, toByteOffset: 3 * x + 8, as: UInt32.self)
            x += 4
        }
        while x < width {
            let v = px.loadUnaligned(fromByteOffset: 4 * x, as: UInt32.self)
            alpha &= v
            dst[3 * x] = UInt8(truncatingIfNeeded: v >> 16)
            dst[3 * x + 1] = UInt8(truncatingIfNeeded: v >> 8)
            dst[3 * x + 2] = UInt8(truncatingIfNeeded: v)
            x += 1
        }
        return alpha & 0xFF00_0000 == 0xFF00_0000
    }

    /// Converts a row of pixels to un-premultiplied RGBA.
    @inline(__always)
    static func convertRow(_ src: UnsafePointer<UInt8>, into dst: UnsafeMutablePointer<UInt8>, width: Int) {
        let px = UnsafeRawPointer(src).assumingMemoryBound(to: UInt32.self)
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

    static func appendBE(_ a: inout [UInt8], _ v: UInt32) {
        a.append(UInt8(v >> 24)); a.append(UInt8((v >> 16) & 0xFF)); a.append(UInt8((v >> 8) & 0xFF)); a.append(UInt8(v & 0xFF))
    }

    /// The largest IDAT this encoder writes.
    static let maxChunk = 1 << 30

    static func appendChunk(_ out: inout [UInt8], _ type: StaticString, _ body: UnsafeBufferPointer<UInt8>) {
        appendBE(&out, UInt32(body.count))
        let start = out.count
        out.append(contentsOf: UnsafeBufferPointer(start: type.utf8Start, count: 4))
        out.append(contentsOf: body)
        let crc = out.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress! + start, 4 + body.count) }
        appendBE(&out, crc)
    }
}
