import CZlib

/// Stream filters the metadata reader needs: FlateDecode with PNG and TIFF predictors,
/// ASCIIHexDecode and ASCII85Decode. Every decoder stops at a caller-given output cap, so a
/// small stream that inflates to gigabytes (a "decompression bomb") ends in a typed error.
public enum PDFStreamDecoder {
    /// Predictor parameters from a stream's `/DecodeParms`.
    public struct PredictorParameters: Sendable, Equatable {
        /// 1 = none, 2 = TIFF, 10–15 = PNG (the per-row tag decides the filter).
        public var predictor: Int
        /// Colour components per sample.
        public var colors: Int
        /// Bits per component (1, 2, 4, 8 or 16).
        public var bitsPerComponent: Int
        /// Samples per row.
        public var columns: Int

        /// Creates predictor parameters; the defaults are the PDF defaults.
        public init(predictor: Int = 1, colors: Int = 1, bitsPerComponent: Int = 8, columns: Int = 1) {
            self.predictor = predictor
            self.colors = colors
            self.bitsPerComponent = bitsPerComponent
            self.columns = columns
        }
    }

    /// The outcome of inflating: the bytes, and whether the compressed data ended early.
    public struct Inflated: Sendable {
        /// The inflated bytes.
        public var bytes: [UInt8]
        /// True when the zlib stream was cut short or damaged; `bytes` holds what came out.
        public var truncated: Bool
        /// True when inflating stopped at the cap with more to come (only with
        /// `keepPrefix: true`): `bytes` holds the first `limit` bytes.
        public var capped: Bool = false
    }

    /// Output size from which `maxRatio` is enforced: below it any ratio is accepted.
    public static let ratioCheckThreshold = 32 << 10

    /// Inflates zlib (or, failing the header check, raw deflate) data, stopping at `limit`.
    ///
    /// With `maxRatio`, inflating also stops (with ``PDFError/Kind/decompressionLimit``) once the
    /// output passes ``ratioCheckThreshold`` bytes and more than `maxRatio` bytes have come out per
    /// compressed byte consumed: a bomb of zeros (about 1 000 : 1) is then refused after ~32 KiB of
    /// output instead of being inflated up to `limit`.
    ///
    /// With `keepPrefix`, output past `limit` is not an error: the first `limit` bytes come back
    /// with ``Inflated/capped`` set (object streams, whose first objects are usable on their own).
    public static func inflate(_ input: [UInt8], limit: Int, maxRatio: Int? = nil, keepPrefix: Bool = false) throws(PDFError) -> Inflated {
        do {
            return try inflate(input, limit: limit, maxRatio: maxRatio, windowBits: 15, keepPrefix: keepPrefix)
        } catch let e where e.kind == .syntax {
            // Some writers omit the zlib header: try raw deflate before giving up.
            // The raw attempt's own error is dropped: the zlib attempt's error is the one reported.
            if let raw = try? inflate(input, limit: limit, maxRatio: maxRatio, windowBits: -15, keepPrefix: keepPrefix),
               !raw.bytes.isEmpty, !raw.truncated {
                return raw
            }
            throw e
        }
    }

    private static func inflate(_ input: [UInt8], limit: Int, maxRatio: Int?, windowBits: Int32,
                                keepPrefix: Bool) throws(PDFError) -> Inflated {
        var strm = z_stream()
        var rc = inflateInit2_(&strm, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw PDFError(.syntax, "zlib could not be initialised") }
        defer { inflateEnd(&strm) }
        // Inflate straight into the output buffer, growing it geometrically up to the cap.
        // With a ratio check, the first buffer ends at the threshold so that a bomb is caught there.
        let first = maxRatio == nil ? max(4096, input.count &* 4) : ratioCheckThreshold &+ 1
        var out = [UInt8](repeating: 0, count: min(limit &+ 1, first))
        var used = 0
        var truncated = false
        var exceeded = false
        var tooDense = false
        var bad = false
        input.withUnsafeBufferPointer { inBuf in
            strm.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
            strm.avail_in = uInt(inBuf.count)
            while true {
                if used == out.count {
                    if out.count > limit { exceeded = true; return }
                    // Grown from an array (one copy), not from `repeatElement` (element by element
                    // in a debug build: most of a debug test's time on a 9 MiB object stream).
                    out.append(contentsOf: [UInt8](repeating: 0, count: min(out.count, limit &+ 1 &- out.count)))
                }
                let produced: Int = out.withUnsafeMutableBufferPointer { ob in
                    guard let base = ob.baseAddress else { return 0 }
                    let room = ob.count - used
                    strm.next_out = base + used
                    strm.avail_out = uInt(room)
                    rc = CZlib.inflate(&strm, Z_NO_FLUSH)
                    return room - Int(strm.avail_out)
                }
                used += produced
                if used > limit { exceeded = true; return }
                if let maxRatio, used > ratioCheckThreshold, used / maxRatio > Int(strm.total_in) {
                    tooDense = true
                    return
                }
                if rc == Z_STREAM_END { return }
                if rc == Z_OK { continue }
                if rc == Z_BUF_ERROR {
                    if used == out.count { continue } // output full: grow and go on
                    truncated = true // no progress possible: the input ended early
                    return
                }
                // Z_DATA_ERROR and friends: keep what we have, if anything.
                if used == 0 { bad = true } else { truncated = true }
                return
            }
        }
        out.removeLast(out.count - min(used, out.count))
        if exceeded && keepPrefix {
            out.removeLast(max(0, out.count - limit))
            return Inflated(bytes: out, truncated: false, capped: true)
        }
        if exceeded {
            throw PDFError(.decompressionLimit, "stream inflates past the \(limit)-byte cap")
        }
        if tooDense, let maxRatio {
            throw PDFError(.decompressionLimit,
                           "stream inflates more than \(maxRatio):1 past \(ratioCheckThreshold) bytes (a decompression bomb)")
        }
        if bad { throw PDFError(.syntax, "corrupt Flate data") }
        return Inflated(bytes: out, truncated: truncated)
    }

    /// Undoes a TIFF (2) or PNG (10–15) predictor. Predictor 1 (or anything below 2) returns the
    /// input unchanged. A short last row is decoded as far as it goes.
    public static func unpredict(_ data: [UInt8], _ p: PredictorParameters) throws(PDFError) -> [UInt8] {
        if p.predictor < 2 { return data }
        guard (1 ... 32).contains(p.colors), [1, 2, 4, 8, 16].contains(p.bitsPerComponent),
              p.columns >= 1, p.columns <= 1 << 24 else {
            throw PDFError(.syntax, "bad predictor parameters (Colors \(p.colors), BitsPerComponent \(p.bitsPerComponent), Columns \(p.columns))")
        }
        let bitsPerPixel = p.colors * p.bitsPerComponent
        let bpp = max(1, (bitsPerPixel + 7) / 8)
        let rowLength = (p.columns * bitsPerPixel + 7) / 8
        if p.predictor == 2 {
            return tiff(data, rowLength: rowLength, colors: p.colors, bpc: p.bitsPerComponent)
        }
        guard p.predictor >= 10 else {
            throw PDFError(.unsupportedFilter, "unknown predictor \(p.predictor)")
        }
        // Rows are decoded in place in the output: the row above is the output's previous row
        // (zeros above the first). A short last row is decoded as far as it goes.
        let rows = data.count / (rowLength + 1)
        let rest = data.count % (rowLength + 1)
        var out = [UInt8](repeating: 0, count: rows * rowLength + max(0, rest - 1))
        var badTag: UInt8?
        out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { d in
                var i = 0
                var w = 0
                var above = -1 // where the previous row starts in the output
                while i < d.count {
                    let tag = d[i]
                    i += 1
                    let n = min(rowLength, d.count - i)
                    if tag == 2 && above >= 0 {
                        // Up, the predictor of nearly every cross-reference stream: one pass.
                        for k in 0 ..< n { o[w + k] = d[i + k] &+ o[above + k] }
                        i += n
                        above = w
                        w += n
                        continue
                    }
                    for k in 0 ..< n { o[w + k] = d[i + k] }
                    i += n
                    switch tag {
                    case 0:
                        break
                    case 1:
                        var k = bpp
                        while k < n { o[w + k] = o[w + k] &+ o[w + k - bpp]; k += 1 }
                    case 2:
                        break // the first row: nothing above
                    case 3:
                        for k in 0 ..< n {
                            let left = k >= bpp ? Int(o[w + k - bpp]) : 0
                            let up = above >= 0 ? Int(o[above + k]) : 0
                            o[w + k] = o[w + k] &+ UInt8((left + up) / 2)
                        }
                    case 4:
                        for k in 0 ..< n {
                            let a = k >= bpp ? Int(o[w + k - bpp]) : 0
                            let b = above >= 0 ? Int(o[above + k]) : 0
                            let c = k >= bpp && above >= 0 ? Int(o[above + k - bpp]) : 0
                            let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                            let pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                            o[w + k] = o[w + k] &+ UInt8(pred)
                        }
                    default:
                        badTag = tag
                        return
                    }
                    above = w
                    w += n
                }
            }
        }
        if let tag = badTag { throw PDFError(.syntax, "bad PNG predictor tag \(tag)") }
        return out
    }

    private static func tiff(_ data: [UInt8], rowLength: Int, colors: Int, bpc: Int) -> [UInt8] {
        var out = data
        var start = 0
        while start < out.count {
            let end = min(out.count, start + rowLength)
            switch bpc {
            case 8:
                var k = start + colors
                while k < end { out[k] = out[k] &+ out[k - colors]; k += 1 }
            case 16:
                var k = start + 2 * colors
                while k + 1 < end {
                    let prev = UInt16(out[k - 2 * colors]) << 8 | UInt16(out[k - 2 * colors + 1])
                    let cur = UInt16(out[k]) << 8 | UInt16(out[k + 1])
                    let v = cur &+ prev
                    out[k] = UInt8(v >> 8)
                    out[k + 1] = UInt8(v & 0xFF)
                    k += 2
                }
            default:
                // Sub-byte samples: work on the bit stream of the row.
                let samples = (end - start) * 8 / bpc
                let mask = (1 << bpc) - 1
                func get(_ s: Int) -> Int {
                    let bit = s * bpc
                    let byte = out[start + bit / 8]
                    return (Int(byte) >> (8 - bpc - bit % 8)) & mask
                }
                func set(_ s: Int, _ v: Int) {
                    let bit = s * bpc
                    let shift = 8 - bpc - bit % 8
                    let idx = start + bit / 8
                    out[idx] = UInt8((Int(out[idx]) & ~(mask << shift)) | ((v & mask) << shift))
                }
                if samples > colors {
                    for s in colors ..< samples { set(s, get(s) + get(s - colors)) }
                }
            }
            start = end
        }
        return out
    }

    /// Decodes ASCIIHexDecode data (whitespace ignored, `>` ends it, an odd digit is padded).
    public static func asciiHex(_ data: [UInt8]) -> [UInt8] {
        let bytes = [UInt8(ascii: "<")] + data + [UInt8(ascii: ">")]
        return PDFLexer(bytes, base: 0, atEOF: true).decodeHex(0, bytes.count)
    }

    /// Decodes ASCII85Decode data (`z` for four zeros, `~>` ends it).
    public static func ascii85(_ data: [UInt8]) throws(PDFError) -> [UInt8] {
        var out: [UInt8] = []
        var group: [UInt32] = []
        var i = 0
        if data.count >= 2 && data[0] == UInt8(ascii: "<") && data[1] == UInt8(ascii: "~") { i = 2 }
        func flush(_ g: [UInt32]) {
            var padded = g
            while padded.count < 5 { padded.append(84) }
            var v: UInt32 = 0
            for d in padded { v = v &* 85 &+ d }
            let bytes = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
            out.append(contentsOf: bytes[0 ..< g.count - 1])
        }
        while i < data.count {
            let c = data[i]
            i += 1
            if isPDFWhite(c) { continue }
            if c == UInt8(ascii: "~") { break }
            if c == UInt8(ascii: "z") && group.isEmpty {
                out.append(contentsOf: [0, 0, 0, 0])
                continue
            }
            guard c >= 33 && c <= 117 else {
                throw PDFError(.syntax, "bad ASCII85 character 0x\(String(c, radix: 16))")
            }
            group.append(UInt32(c - 33))
            if group.count == 5 {
                flush(group)
                group.removeAll(keepingCapacity: true)
            }
        }
        if group.count > 1 { flush(group) }
        return out
    }

    /// Decodes LZW data (TIFF/PDF variant, 9- to 12-bit codes), stopping at `limit` output bytes.
    /// `earlyChange` is the PDF default: the code width grows one code early.
    public static func lzw(_ input: [UInt8], earlyChange: Bool = true, limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        var prefix = [Int32](repeating: -1, count: 4096)
        var suffix = [UInt8](repeating: 0, count: 4096)
        var length = [Int32](repeating: 0, count: 4096)
        for i in 0 ..< 256 { suffix[i] = UInt8(i); length[i] = 1 }
        var next = 258
        var width = 9
        var bitBuf: UInt32 = 0
        var bits = 0
        var prev = -1
        var scratch = [UInt8](repeating: 0, count: 4096)
        var pos = 0
        let early = earlyChange ? 1 : 0
        while true {
            while bits < width {
                guard pos < input.count else { return out }
                bitBuf = bitBuf << 8 | UInt32(input[pos]); pos += 1; bits += 8
            }
            let code = Int((bitBuf >> UInt32(bits - width)) & ((1 << UInt32(width)) - 1))
            bits -= width
            if code == 256 { next = 258; width = 9; prev = -1; continue }
            if code == 257 { return out }
            var entry: Int
            var first: UInt8
            if code < next {
                entry = code
            } else if code == next && prev >= 0 {
                entry = prev
            } else {
                return out // damaged data: what came out so far
            }
            // Write the entry's string (reversed through the prefix chain).
            var n = Int(length[entry])
            var c = entry
            var k = n - 1
            while c >= 0 && k >= 0 { scratch[k] = suffix[c]; c = Int(prefix[c]); k -= 1 }
            first = scratch[0]
            out.append(contentsOf: scratch[0 ..< n])
            if code == next { out.append(first); n += 1 }
            if out.count >= limit { return Array(out.prefix(limit)) }
            if prev >= 0 && next < 4096 {
                prefix[next] = Int32(prev)
                suffix[next] = first
                length[next] = length[prev] + 1
                next += 1
            }
            prev = code
            if next + early >= 1 << width && width < 12 { width += 1 }
        }
    }

    /// Decodes RunLengthDecode data, stopping at `limit` output bytes.
    public static func runLength(_ input: [UInt8], limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < input.count && out.count < limit {
            let n = Int(input[i]); i += 1
            if n == 128 { break }
            if n < 128 {
                let end = min(input.count, i + n + 1)
                out.append(contentsOf: input[i ..< end]); i = end
            } else if i < input.count {
                out.append(contentsOf: repeatElement(input[i], count: 257 - n)); i += 1
            }
        }
        return out.count > limit ? Array(out.prefix(limit)) : out
    }
}
