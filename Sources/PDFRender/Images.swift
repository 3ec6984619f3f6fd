import CTurboJPEG
import PDFCore

/// Decodes image XObjects and inline images into ``DecodedImage`` pixels.
struct ImageDecoder {
    let r: ResourceReader
    let resources: PDFDict?

    /// The full key names of an inline image's dictionary (abbreviations expanded).
    static func expandInline(_ d: PDFDict) -> PDFDict {
        let keys = ["BPC": "BitsPerComponent", "CS": "ColorSpace", "D": "Decode", "DP": "DecodeParms", "F": "Filter",
                    "H": "Height", "W": "Width", "IM": "ImageMask", "I": "Interpolate", "L": "Length"]
        let names = ["G": "DeviceGray", "RGB": "DeviceRGB", "CMYK": "DeviceCMYK", "I": "Indexed", "AHx": "ASCIIHexDecode",
                     "A85": "ASCII85Decode", "LZW": "LZWDecode", "Fl": "FlateDecode", "RL": "RunLengthDecode",
                     "CCF": "CCITTFaxDecode", "DCT": "DCTDecode"]
        var out = PDFDict()
        for (k, v) in d {
            var value = v
            if case .name(let n) = v, let full = names[n] { value = .name(full) }
            if case .array(let a) = v, k == "F" || k == "Filter" || k == "CS" || k == "ColorSpace" {
                value = .array(a.map { if case .name(let n) = $0, let full = names[n] { return .name(full) }; return $0 })
            }
            out.append(keys[k] ?? k, value)
        }
        return out
    }

    /// An image's samples on their way to pixels: the data its filters leave, its size, bits per
    /// component, components, colour space and /Decode array.
    struct Samples {
        var data: [UInt8]
        var width: Int
        var height: Int
        var bpc: Int
        var comps: Int
        var cs: ColorSpace
        var decodeArray: [Double]?

        /// The bytes of one row.
        var rowBytes: Int { (width * comps * bpc + 7) / 8 }

        /// Sample `i` of the row that starts at byte `row`.
        @inline(__always) func sample(_ row: Int, _ i: Int) -> Int {
            switch bpc {
            case 8: return Int(data[row + i])
            case 16: return Int(data[row + 2 * i]) << 8 | Int(data[row + 2 * i + 1])
            default:
                let bit = i * bpc
                return Int(data[row + bit >> 3] >> UInt8(8 - bpc - bit & 7)) & ((1 << bpc) - 1)
            }
        }
    }

    /// Decodes an image; nil (with a warning) when it cannot be drawn.
    func decode(dict d: PDFDict, stream: PDFStream?, inlineData: [UInt8]?, object: Int?, fill: ColorState,
                targetScale: Double, target: ImageTarget? = nil, isSoftMask: Bool = false) -> DecodedImage? {
        guard let w = r.int(d["Width"]), let h = r.int(d["Height"]), w > 0, h > 0, w <= 1 << 16, h <= 1 << 16 else {
            r.warn(.image, "image has no usable /Width and /Height", object: object)
            return nil
        }
        let isMask = r.bool(d["ImageMask"]) ?? false
        let bpc = isMask ? 1 : (r.int(d["BitsPerComponent"]) ?? 8)
        let raw: (data: [UInt8], codec: String?, parms: PDFDict?)?
        if let stream { raw = r.imageStreamData(stream) } else { raw = r.inlineImageData(d, inlineData ?? []) }
        guard let raw else { return nil }
        var cs: ColorSpace = .gray
        if !isMask {
            if let c = d["ColorSpace"], let parsed = ColorSpace.read(c, resources: resources, r) {
                cs = parsed
            } else if raw.codec == nil && !isSoftMask && d["ColorSpace"] != nil {
                r.warn(.image, "image colour space unreadable; drawn as DeviceGray", object: object)
            }
        }
        var s = Samples(data: raw.data, width: w, height: h, bpc: bpc, comps: isMask ? 1 : cs.components, cs: cs,
                        decodeArray: r.numbers(d["Decode"]))
        if let codec = raw.codec {
            guard decodeFilter(codec, &s, dict: d, parms: raw.parms, targetScale: targetScale, target: target, object: object) else { return nil }
        }
        guard [1, 2, 4, 8, 16].contains(s.bpc) else {
            r.warn(.image, "image has \(s.bpc) bits per component", object: object)
            return nil
        }
        // Colour keys compare exact samples and indexed samples are not levels: those are
        // picked, every other image is averaged.
        var averaging = !isIndexed(s.cs)
        if !isMask, case .array? = r.resolveOpt(d["Mask"]) { averaging = false }
        guard reduce(&s, target: target, averaging: averaging, object: object) else { return nil }
        if s.data.count < s.rowBytes * s.height {
            if s.data.isEmpty { r.warn(.image, "image has no data", object: object); return nil }
            r.warn(.image, "image data is short (\(s.data.count) of \(s.rowBytes * s.height) bytes); the rest is blank", object: object)
            s.data += [UInt8](repeating: 0, count: s.rowBytes * s.height - s.data.count)
        }
        if isMask { return stencil(s) }
        return applyTransparency(colourPixels(s), dict: d, samples: s, colourKeyed: raw.codec == nil, fill: fill, targetScale: targetScale,
                                 target: target)
    }

    /// Decodes the data of an image's image filter (DCT, JPX, CCITT fax or JBIG2) into samples;
    /// false (with a warning) when it does not decode.
    func decodeFilter(_ codec: String, _ s: inout Samples, dict d: PDFDict, parms: PDFDict?, targetScale: Double, target: ImageTarget?,
                      object: Int?) -> Bool {
        switch codec {
        case "DCTDecode":
            guard let j = decodeJPEG(s.data, targetScale: targetScale, target: target, object: object) else { return false }
            s.data = j.bytes; s.width = j.width; s.height = j.height; s.bpc = 8
            if j.components != s.comps {
                s.comps = j.components
                s.cs = s.comps == 1 ? .gray : (s.comps == 4 ? .cmyk : .rgb)
            }
            if s.comps == 4 && j.adobeInverted && s.decodeArray == nil { s.decodeArray = [1, 0, 1, 0, 1, 0, 1, 0] }
        case "JPXDecode":
            guard let j = JPXDecoder.decode(s.data, targetScale: targetScale, target: target, maxPixels: RenderContext.maxImagePixels) else {
                r.warn(.image, "JPEG 2000 image does not decode", object: object)
                return false
            }
            s.data = j.bytes; s.width = j.width; s.height = j.height; s.bpc = 8
            if j.components != s.comps {
                // The codestream's own colour space when the PDF names none or another count.
                s.comps = j.components
                s.cs = s.comps == 1 ? .gray : (s.comps == 4 ? .cmyk : .rgb)
            }
            if d["Decode"] == nil { s.decodeArray = nil }
        case "CCITTFaxDecode":
            return decodeCCITT(&s, parms: parms, object: object)
        default:
            return decodeJBIG2(&s, parms: parms, object: object)
        }
        return true
    }

    /// CCITT fax data to 1-bit samples; rows the data does not reach stay white.
    func decodeCCITT(_ s: inout Samples, parms: PDFDict?, object: Int?) -> Bool {
        let h = s.height
        var dec = CCITTDecoder()
        dec.k = r.int(parms?["K"]) ?? 0
        dec.columns = r.int(parms?["Columns"]) ?? 1728
        dec.rows = max(0, r.int(parms?["Rows"]) ?? h)
        dec.encodedByteAlign = r.bool(parms?["EncodedByteAlign"]) ?? false
        dec.blackIs1 = r.bool(parms?["BlackIs1"]) ?? false
        guard dec.columns > 0, dec.columns <= 1 << 16 else {
            r.warn(.image, "CCITT image has \(dec.columns) columns", object: object)
            return false
        }
        let out = dec.decode(s.data, maxRows: min(h, RenderContext.maxImagePixels / dec.columns))
        if out.damaged { r.warn(.image, "CCITT fax data is damaged after row \(out.rows); the rest is blank", object: object) }
        guard out.rows > 0 else { return false }
        s.data = out.bytes
        s.width = dec.columns
        // Rows that the data does not reach stay white (1 bits, or 0 with BlackIs1).
        let rowBytes = (s.width + 7) / 8
        if out.rows < h { s.data += [UInt8](repeating: dec.blackIs1 ? 0 : 0xFF, count: (h - out.rows) * rowBytes) }
        s.bpc = 1
        return true
    }

    /// A JBIG2 page (with its globals) to 1-bit samples.
    func decodeJBIG2(_ s: inout Samples, parms: PDFDict?, object: Int?) -> Bool {
        var globals: [UInt8]? = nil
        if case .stream(let gs)? = r.resolveOpt(parms?["JBIG2Globals"]) { globals = r.streamData(gs) }
        let page: JBIG2Decoder.Bitmap
        do {
            page = try JBIG2Decoder.decode(s.data, globals: globals) { r.warn(.unsupportedImageFilter, $0, object: object) }
        } catch {
            r.warn(.image, "JBIG2 image does not decode: \((error as? JBIG2Decoder.Failure)?.message ?? "\(error)")", object: object)
            return false
        }
        // JBIG2 writes 1 for black; image samples of 0 are black (DeviceGray) or painted (masks).
        let width = page.width
        let rowBytes = (width + 7) / 8
        var packed = [UInt8](repeating: 0xFF, count: rowBytes * max(s.height, page.height))
        for y in 0 ..< page.height {
            for x in 0 ..< width where page.pixels[y * width + x] == 1 {
                packed[y * rowBytes + x >> 3] &= ~(0x80 >> UInt8(x & 7))
            }
        }
        s.data = packed
        s.width = width
        s.height = max(1, page.height)
        s.bpc = 1
        return true
    }

    /// Whether `cs` is an indexed colour space (its samples are table entries, not levels).
    func isIndexed(_ cs: ColorSpace) -> Bool {
        if case .indexed = cs { return true }
        return false
    }

    /// Makes an image no larger than the page needs and within `RenderContext.maxImagePixels`:
    /// blocks of kx × ky samples become one, kx and ky as large as keep at least twice the
    /// device pixels that `target` says the image covers along each axis (and as large as the
    /// pixel limit needs). With `averaging`, a block's samples are averaged into one 8-bit sample
    /// (so a 1-bit scan shrinks to grey levels, a stencil to coverage); otherwise its first sample
    /// is kept. Missing data reads as 0. False (with a warning) past 2^32 pixels.
    func reduce(_ s: inout Samples, target: ImageTarget?, averaging: Bool, object: Int?) -> Bool {
        let width = s.width, height = s.height
        let pixels = width.multipliedReportingOverflow(by: height).partialValue
        guard pixels <= 1 << 32 else {
            r.warn(.limit, "image of \(width)×\(height) pixels is over the limit and not drawn", object: object)
            return false
        }
        var kx = 1, ky = 1
        if let target, target.width.isFinite, target.height.isFinite {
            kx = max(1, Int(min(Double(width), (Double(width) / (2 * max(target.width, 0.5))).rounded(.down))))
            ky = max(1, Int(min(Double(height), (Double(height) / (2 * max(target.height, 0.5))).rounded(.down))))
        }
        var limited = false
        if pixels > RenderContext.maxImagePixels {
            let k = Int((Double(pixels) / Double(RenderContext.maxImagePixels)).squareRoot().rounded(.up))
            if kx * ky < k * k {
                kx = max(kx, k)
                ky = max(ky, k)
                limited = true
            }
        }
        guard kx > 1 || ky > 1 else { return true }
        let nw = (width + kx - 1) / kx, nh = (height + ky - 1) / ky
        if averaging {
            s.data = averaged(s, kx: kx, ky: ky, width: nw, height: nh)
            s.bpc = 8
        } else {
            s.data = picked(s, kx: kx, ky: ky, width: nw, height: nh)
        }
        if limited {
            r.warn(.limit, "image of \(width)×\(height) pixels drawn from blocks of \(kx)×\(ky) pixels (\(nw)×\(nh))", object: object)
        }
        s.width = nw
        s.height = nh
        return true
    }

    /// One source row's samples as values 0…255 (16-bit samples by their high byte, fewer bits
    /// scaled up), zeros past the data.
    private func levels(_ s: Samples, row y: Int, into out: inout [UInt8]) {
        let rowBytes = s.rowBytes, count = s.width * s.comps, start = y * rowBytes
        let available = max(0, min(rowBytes, s.data.count - start))
        s.data.withUnsafeBufferPointer { data in
            out.withUnsafeMutableBufferPointer { o in
                switch s.bpc {
                case 8:
                    for i in 0 ..< count { o[i] = i < available ? data[start + i] : 0 }
                case 16:
                    for i in 0 ..< count { o[i] = 2 * i < available ? data[start + 2 * i] : 0 }
                case 1:
                    // Whole bytes eight samples at a time (scans are mostly 1-bit and large).
                    let whole = min(count >> 3, available)
                    for b in 0 ..< whole {
                        let v = data[start + b], at = b << 3
                        for k in 0 ..< 8 { o[at + k] = (v << UInt8(k)) & 0x80 != 0 ? 255 : 0 }
                    }
                    for i in (whole << 3) ..< count { o[i] = i >> 3 < available && (data[start + i >> 3] << UInt8(i & 7)) & 0x80 != 0 ? 255 : 0 }
                default:
                    let bpc = s.bpc, mask = (1 << bpc) - 1, scale = 255 / mask
                    for i in 0 ..< count {
                        let bit = i * bpc
                        guard bit >> 3 < available else { o[i] = 0; continue }
                        o[i] = UInt8(((Int(data[start + bit >> 3]) >> (8 - bpc - bit & 7)) & mask) * scale)
                    }
                }
            }
        }
    }

    /// Blocks of kx × ky samples averaged (rounded) into 8-bit samples, `width` × `height` of them.
    private func averaged(_ s: Samples, kx: Int, ky: Int, width: Int, height: Int) -> [UInt8] {
        let comps = s.comps
        var out = [UInt8](repeating: 0, count: width * height * comps)
        var row = [UInt8](repeating: 0, count: s.width * comps)
        var sums = [UInt32](repeating: 0, count: width * comps)
        for oy in 0 ..< height {
            for i in sums.indices { sums[i] = 0 }
            let y0 = oy * ky, y1 = min(s.height, y0 + ky)
            for y in y0 ..< y1 {
                levels(s, row: y, into: &row)
                row.withUnsafeBufferPointer { src in
                    sums.withUnsafeMutableBufferPointer { sum in
                        for ox in 0 ..< width {
                            let x0 = ox * kx, x1 = min(s.width, x0 + kx)
                            for c in 0 ..< comps {
                                var t: UInt32 = 0
                                var i = x0 * comps + c
                                for _ in x0 ..< x1 {
                                    t &+= UInt32(src[i])
                                    i += comps
                                }
                                sum[ox * comps + c] &+= t
                            }
                        }
                    }
                }
            }
            let rows = UInt32(y1 - y0)
            out.withUnsafeMutableBufferPointer { o in
                for ox in 0 ..< width {
                    let n = UInt32(min(s.width, ox * kx + kx) - ox * kx) * rows
                    for c in 0 ..< comps {
                        o[(oy * width + ox) * comps + c] = UInt8((sums[ox * comps + c] + n / 2) / n)
                    }
                }
            }
        }
        return out
    }

    /// The first sample of every block of kx × ky, at the image's own bits per component.
    private func picked(_ s: Samples, kx: Int, ky: Int, width: Int, height: Int) -> [UInt8] {
        let comps = s.comps, bpc = s.bpc, srcRow = s.rowBytes
        let dstRow = (width * comps * bpc + 7) / 8
        var reduced = [UInt8](repeating: 0, count: dstRow * height)
        let data = s.data
        for y in 0 ..< height {
            let src = y * ky * srcRow
            for x in 0 ..< width {
                for c in 0 ..< comps {
                    let si = (x * kx) * comps + c, di = x * comps + c
                    switch bpc {
                    case 8: if src + si < data.count { reduced[y * dstRow + di] = data[src + si] }
                    case 16:
                        if src + 2 * si + 1 < data.count {
                            reduced[y * dstRow + 2 * di] = data[src + 2 * si]; reduced[y * dstRow + 2 * di + 1] = data[src + 2 * si + 1]
                        }
                    default:
                        let sb = si * bpc, db = di * bpc
                        guard src + sb >> 3 < data.count else { continue }
                        let v = (data[src + sb >> 3] >> UInt8(8 - bpc - sb & 7)) & UInt8((1 << bpc) - 1)
                        reduced[y * dstRow + db >> 3] |= v << UInt8(8 - bpc - db & 7)
                    }
                }
            }
        }
        return reduced
    }

    /// A stencil mask's coverage: 255 where the mask paints (a 0 bit, or a 1 bit with /Decode [1 0]);
    /// for averaged 8-bit samples, the share of the block that paints.
    func stencil(_ s: Samples) -> DecodedImage {
        let img = DecodedImage(width: s.width, height: s.height, isMask: true)
        let inverted = (s.decodeArray?.first ?? 0) == 1
        let p = img.pixels.assumingMemoryBound(to: UInt8.self)
        let rowBytes = s.rowBytes
        if s.bpc == 8 {
            // Averaged blocks: the share of 1 bits, scaled to 255.
            for y in 0 ..< s.height {
                for x in 0 ..< s.width {
                    let v = s.data[y * rowBytes + x]
                    p[y * img.stride + x] = inverted ? v : 255 - v
                }
            }
            return img
        }
        for y in 0 ..< s.height {
            for x in 0 ..< s.width {
                let bit = (s.data[y * rowBytes + x >> 3] >> UInt8(7 - x & 7)) & 1
                p[y * img.stride + x] = (bit == 0) != inverted ? 255 : 0
            }
        }
        return img
    }

    /// The samples through /Decode and the colour space to opaque RGB pixels.
    func colourPixels(_ s: Samples) -> DecodedImage {
        let width = s.width, height = s.height, comps = s.comps, bpc = s.bpc, cs = s.cs, data = s.data
        let rowBytes = s.rowBytes
        let img = DecodedImage(width: width, height: height, isMask: false)
        let out = img.pixels.assumingMemoryBound(to: UInt32.self)
        let maxv = Double((1 << bpc) - 1)
        let dec = s.decodeArray ?? cs.defaultDecode(bpc: bpc)
        let isDefaultDecode = s.decodeArray == nil || s.decodeArray! == cs.defaultDecode(bpc: bpc)
        @inline(__always) func pack(_ c: RGB) -> UInt32 {
            0xFF00_0000 | UInt32(c.r * 255 + 0.5) << 16 | UInt32(c.g * 255 + 0.5) << 8 | UInt32(c.b * 255 + 0.5)
        }
        // One-component images of up to 8 bits go through a table of every sample value.
        if comps == 1 && bpc <= 8 {
            var table = [UInt32](repeating: 0, count: 1 << bpc)
            for v in 0 ..< table.count {
                let x = dec.count >= 2 ? dec[0] + Double(v) * (dec[1] - dec[0]) / maxv : Double(v) / maxv
                table[v] = pack(cs.toRGB([x]))
            }
            for y in 0 ..< height {
                let row = y * rowBytes
                for x in 0 ..< width { out[y * width + x] = table[s.sample(row, x)] }
            }
        } else if case .rgb = cs, bpc == 8, isDefaultDecode {
            for y in 0 ..< height {
                var p = y * rowBytes
                for x in 0 ..< width {
                    out[y * width + x] = 0xFF00_0000 | UInt32(data[p]) << 16 | UInt32(data[p + 1]) << 8 | UInt32(data[p + 2])
                    p += 3
                }
            }
        } else if case .cmyk = cs, bpc == 8 {
            let inv = !isDefaultDecode && dec.first == 1
            for y in 0 ..< height {
                var p = y * rowBytes
                for x in 0 ..< width {
                    var c = Double(data[p]) / 255, m = Double(data[p + 1]) / 255, yy = Double(data[p + 2]) / 255, k = Double(data[p + 3]) / 255
                    if inv { c = 1 - c; m = 1 - m; yy = 1 - yy; k = 1 - k }
                    out[y * width + x] = pack(cmykToRGB(c, m, yy, k))
                    p += 4
                }
            }
        } else {
            var comp = [Double](repeating: 0, count: comps)
            for y in 0 ..< height {
                let row = y * rowBytes
                for x in 0 ..< width {
                    for k in 0 ..< comps {
                        let v = Double(s.sample(row, x * comps + k))
                        comp[k] = 2 * k + 1 < dec.count ? dec[2 * k] + v * (dec[2 * k + 1] - dec[2 * k]) / maxv : v / maxv
                    }
                    out[y * width + x] = pack(cs.toRGB(comp))
                }
            }
        }
        return img
    }

    /// The image with its transparency: a soft mask, a stencil mask, or (for unfiltered samples) a
    /// colour key. A mask finer than the image gets the image enlarged to its size (a 2 × 2 image
    /// under a detailed mask draws the mask's shapes, as in viewers).
    func applyTransparency(_ img: DecodedImage, dict d: PDFDict, samples s: Samples, colourKeyed: Bool, fill: ColorState,
                           targetScale: Double, target: ImageTarget?) -> DecodedImage {
        if let sm = r.resolveOpt(d["SMask"]), case .stream(let ss) = sm,
           let alpha = ImageDecoder(r: r, resources: resources).decode(dict: ss.dict, stream: ss, inlineData: nil, object: ss.id?.num,
                                                                       fill: fill, targetScale: targetScale, target: target, isSoftMask: true) {
            let out = enlarged(img, toCover: alpha)
            applyAlpha(out, from: alpha, luminance: true)
            return out
        } else if let m = r.resolveOpt(d["Mask"]) {
            if case .stream(let ms) = m,
               let mask = ImageDecoder(r: r, resources: resources).decode(dict: ms.dict, stream: ms, inlineData: nil, object: ms.id?.num,
                                                                          fill: fill, targetScale: targetScale, target: target) {
                let out = enlarged(img, toCover: mask)
                applyAlpha(out, from: mask, luminance: false)
                return out
            } else if let key = r.numbers(m), key.count >= 2 * s.comps, colourKeyed {
                applyColourKey(img, key: key, samples: s)
            }
        }
        return img
    }

    /// `img` enlarged (each pixel repeated) to the larger of its own and `mask`'s width and height;
    /// `img` itself when the mask is no finer.
    func enlarged(_ img: DecodedImage, toCover mask: DecodedImage) -> DecodedImage {
        let width = max(img.width, mask.width), height = max(img.height, mask.height)
        guard width > img.width || height > img.height, width * height <= RenderContext.maxImagePixels else { return img }
        let out = DecodedImage(width: width, height: height, isMask: false)
        let src = img.pixels.assumingMemoryBound(to: UInt32.self), dst = out.pixels.assumingMemoryBound(to: UInt32.self)
        for y in 0 ..< height {
            let sy = y * img.height / height
            for x in 0 ..< width { dst[y * width + x] = src[sy * img.width + x * img.width / width] }
        }
        return out
    }

    /// Makes transparent every pixel whose samples all lie in the colour key's ranges.
    func applyColourKey(_ img: DecodedImage, key: [Double], samples s: Samples) {
        let out = img.pixels.assumingMemoryBound(to: UInt32.self)
        let rowBytes = s.rowBytes
        for y in 0 ..< s.height {
            let row = y * rowBytes
            for x in 0 ..< s.width {
                var inKey = true
                for k in 0 ..< s.comps {
                    let v = Double(s.sample(row, x * s.comps + k))
                    if v < key[2 * k] || v > key[2 * k + 1] { inKey = false; break }
                }
                if inKey { out[y * s.width + x] = 0 }
            }
        }
    }

    /// Multiplies an image's alpha by a mask's (a soft mask's grey level, or a stencil's coverage),
    /// the mask sampled at the nearest pixel when sizes differ; then premultiplies.
    func applyAlpha(_ img: DecodedImage, from mask: DecodedImage, luminance: Bool) {
        let out = img.pixels.assumingMemoryBound(to: UInt32.self)
        for y in 0 ..< img.height {
            let my = min(mask.height - 1, y * mask.height / img.height)
            for x in 0 ..< img.width {
                let mx = min(mask.width - 1, x * mask.width / img.width)
                var a: UInt32
                if mask.isMask {
                    a = UInt32(mask.pixels.load(fromByteOffset: my * mask.stride + mx, as: UInt8.self))
                } else {
                    let px = mask.pixels.load(fromByteOffset: my * mask.stride + mx * 4, as: UInt32.self)
                    a = luminance ? (px >> 8) & 0xFF : px >> 24
                }
                let p = out[y * img.width + x]
                let pa = (p >> 24) * a / 255
                let rr = ((p >> 16) & 0xFF) * pa / 255, gg = ((p >> 8) & 0xFF) * pa / 255, bb = (p & 0xFF) * pa / 255
                out[y * img.width + x] = pa << 24 | rr << 16 | gg << 8 | bb
            }
        }
    }

    /// Decodes a JPEG at the smallest of 1, 1/2, 1/4, 1/8 scale that still gives the pixels drawn
    /// (see `ImageTarget.keepsPixels`).
    func decodeJPEG(_ input: [UInt8], targetScale: Double, target: ImageTarget?, object: Int?)
        -> (bytes: [UInt8], width: Int, height: Int, components: Int, adobeInverted: Bool)? {
        // Bytes before the start-of-image marker (a stray line end) are skipped, as viewers do.
        var data = input
        if data.count > 2 && !(data[0] == 0xFF && data[1] == 0xD8) {
            var i = 0
            while i + 1 < min(data.count, 1024) && !(data[i] == 0xFF && data[i + 1] == 0xD8) { i += 1 }
            if i + 1 < min(data.count, 1024) { data = Array(data[i...]) }
        }
        guard let tj = tjInitDecompress() else { return nil }
        defer { tjDestroy(tj) }
        var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, space: Int32 = 0
        let ok = data.withUnsafeBufferPointer { b in
            tjDecompressHeader3(tj, b.baseAddress, UInt(b.count), &w, &h, &sub, &space)
        }
        guard ok == 0, w > 0, h > 0 else {
            r.warn(.image, "JPEG image does not decode: \(String(cString: tjGetErrorStr2(tj)))", object: object)
            return nil
        }
        var denom: Int32 = 1
        while denom < 8 && ImageTarget.keepsPixels(width: Int(w), height: Int(h), dividedBy: Int(denom * 2), target: target, scale: targetScale) {
            denom *= 2
        }
        let sw = (w + denom - 1) / denom, sh = (h + denom - 1) / denom
        let cmyk = space == Int32(TJCS_CMYK.rawValue) || space == Int32(TJCS_YCCK.rawValue)
        let gray = space == Int32(TJCS_GRAY.rawValue)
        let comps = cmyk ? 4 : (gray ? 1 : 3)
        let fmt = cmyk ? TJPF_CMYK : (gray ? TJPF_GRAY : TJPF_RGB)
        guard Int(sw) * Int(sh) <= RenderContext.maxImagePixels else { return nil }
        var out = [UInt8](repeating: 0, count: Int(sw) * Int(sh) * comps)
        let rc = data.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in
                tjDecompress2(tj, b.baseAddress, UInt(b.count), o.baseAddress, sw, 0, sh, fmt.rawValue, 0)
            }
        }
        if rc != 0 {
            // Warnings (a truncated file) still give pixels; an error before any row gives none.
            if tjGetErrorCode(tj) == Int32(TJERR_FATAL.rawValue) {
                r.warn(.image, "JPEG image does not decode: \(String(cString: tjGetErrorStr2(tj)))", object: object)
                return nil
            }
            r.warn(.image, "JPEG image is damaged: \(String(cString: tjGetErrorStr2(tj)))", object: object)
        }
        // Adobe's APP14 marker: CMYK written inverted (Photoshop).
        var inverted = false
        if cmyk {
            var i = 2
            while i + 4 < data.count && data[i] == 0xFF {
                let marker = data[i + 1]
                let len = Int(data[i + 2]) << 8 | Int(data[i + 3])
                if marker == 0xEE && i + 9 < data.count && data[i + 4] == 0x41 && data[i + 5] == 0x64 { inverted = true; break }
                if marker == 0xDA { break }
                i += 2 + len
            }
        }
        return (out, Int(sw), Int(sh), comps, inverted)
    }
}
