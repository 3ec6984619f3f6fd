import COpenJPEG

/// JPEG 2000 images (JPXDecode) through OpenJPEG, decoded at a reduced resolution when the page
/// needs fewer pixels.
enum JPXDecoder {
    /// The bytes an OpenJPEG memory stream reads from.
    private final class Source {
        let data: [UInt8]
        var pos = 0
        init(_ d: [UInt8]) { data = d }
    }

    /// Decoded 8-bit samples, interleaved, top row first.
    struct Decoded {
        var bytes: [UInt8]
        var width: Int
        var height: Int
        var components: Int
    }

    static func decode(_ data: [UInt8], targetScale: Double, target: ImageTarget? = nil, maxPixels: Int) -> Decoded? {
        let isJP2 = data.count > 12 && data[4] == 0x6A && data[5] == 0x50 && data[6] == 0x20 && data[7] == 0x20
        let isJ2K = data.count > 4 && data[0] == 0xFF && data[1] == 0x4F && data[2] == 0xFF && data[3] == 0x51
        guard isJP2 || isJ2K else { return nil }
        for reduce in [-1, 0] {
            if let d = attempt(data, format: isJP2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K, targetScale: targetScale, target: target,
                               maxPixels: maxPixels, reduceOverride: reduce == 0 ? 0 : nil) {
                return d
            }
        }
        return nil
    }

    private static func attempt(_ data: [UInt8], format: OPJ_CODEC_FORMAT, targetScale: Double, target: ImageTarget?, maxPixels: Int,
                                reduceOverride: Int?) -> Decoded? {
        guard let codec = opj_create_decompress(format) else { return nil }
        defer { opj_destroy_codec(codec) }
        let quiet: opj_msg_callback = { _, _ in }
        opj_set_error_handler(codec, quiet, nil)
        opj_set_warning_handler(codec, quiet, nil)
        opj_set_info_handler(codec, quiet, nil)
        var params = opj_dparameters_t()
        opj_set_default_decoder_parameters(&params)
        guard opj_setup_decoder(codec, &params) != 0 else { return nil }
        guard let stream = opj_stream_create(1 << 16, 1) else { return nil }
        defer { opj_stream_destroy(stream) }
        let source = Unmanaged.passRetained(Source(data))
        defer { source.release() }
        opj_stream_set_user_data(stream, source.toOpaque(), nil)
        opj_stream_set_user_data_length(stream, UInt64(data.count))
        opj_stream_set_read_function(stream) { buffer, n, user in
            let s = Unmanaged<Source>.fromOpaque(user!).takeUnretainedValue()
            let left = s.data.count - s.pos
            if left <= 0 { return OPJ_SIZE_T.max }
            let k = min(Int(n), left)
            s.data.withUnsafeBytes { buffer!.copyMemory(from: $0.baseAddress! + s.pos, byteCount: k) }
            s.pos += k
            return OPJ_SIZE_T(k)
        }
        opj_stream_set_skip_function(stream) { n, user in
            let s = Unmanaged<Source>.fromOpaque(user!).takeUnretainedValue()
            let target = max(0, min(s.data.count, s.pos + Int(n)))
            let moved = target - s.pos
            s.pos = target
            return OPJ_OFF_T(moved)
        }
        opj_stream_set_seek_function(stream) { n, user in
            let s = Unmanaged<Source>.fromOpaque(user!).takeUnretainedValue()
            guard n >= 0, Int(n) <= s.data.count else { return 0 }
            s.pos = Int(n)
            return 1
        }
        var imagePtr: UnsafeMutablePointer<opj_image_t>? = nil
        guard opj_read_header(stream, codec, &imagePtr) != 0, let image = imagePtr else { return nil }
        defer { opj_image_destroy(image) }
        let fullW = Int(image.pointee.x1) - Int(image.pointee.x0), fullH = Int(image.pointee.y1) - Int(image.pointee.y0)
        guard fullW > 0, fullH > 0, image.pointee.numcomps > 0 else { return nil }
        var reduce = reduceOverride ?? 0
        if reduceOverride == nil {
            while reduce < 5 && ImageTarget.keepsPixels(width: fullW, height: fullH, dividedBy: 1 << (reduce + 1), target: target, scale: targetScale) {
                reduce += 1
            }
            if reduce == 0 { return nil } // the full-resolution attempt follows
        }
        if reduce > 0 && opj_set_decoded_resolution_factor(codec, OPJ_UINT32(reduce)) == 0 { return nil }
        guard opj_decode(codec, stream, image) != 0 else { return nil }
        let n = Int(image.pointee.numcomps)
        guard let comps = image.pointee.comps else { return nil }
        let w = Int(comps[0].w), h = Int(comps[0].h)
        guard w > 0, h > 0, w * h <= maxPixels else { return nil }
        let used = n >= 3 ? (n >= 4 && image.pointee.color_space == OPJ_CLRSPC_CMYK ? 4 : 3) : 1
        var out = [UInt8](repeating: 0, count: w * h * used)
        for c in 0 ..< used {
            let comp = comps[c]
            guard let samples = comp.data else { return nil }
            let cw = Int(comp.w), ch = Int(comp.h)
            guard cw > 0, ch > 0 else { return nil }
            let prec = Int(comp.prec)
            let offset = comp.sgnd != 0 ? Int32(1) << Int32(max(0, prec - 1)) : 0
            for y in 0 ..< h {
                let sy = min(ch - 1, y * ch / h)
                for x in 0 ..< w {
                    let sx = min(cw - 1, x * cw / w)
                    var v = Int(samples[sy * cw + sx] &+ offset)
                    if prec > 8 { v >>= (prec - 8) } else if prec < 8 && prec > 0 { v = v * 255 / ((1 << prec) - 1) }
                    out[(y * w + x) * used + c] = UInt8(clamping: v)
                }
            }
        }
        if used == 3 && image.pointee.color_space == OPJ_CLRSPC_SYCC {
            for i in stride(from: 0, to: out.count, by: 3) {
                let yv = Double(out[i]), cb = Double(out[i + 1]) - 128, cr = Double(out[i + 2]) - 128
                out[i] = UInt8(clamping: Int((yv + 1.402 * cr).rounded()))
                out[i + 1] = UInt8(clamping: Int((yv - 0.344136 * cb - 0.714136 * cr).rounded()))
                out[i + 2] = UInt8(clamping: Int((yv + 1.772 * cb).rounded()))
            }
        }
        return Decoded(bytes: out, width: w, height: h, components: used)
    }
}
