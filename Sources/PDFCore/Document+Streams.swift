/// Stream data (raw, decrypted, through the filter chain), the catalog check and the security
/// handler's set-up.
extension Document {
    // MARK: Streams

    /// Reads, decrypts and decodes a stream's data.
    /// `maxRatio` is passed to every Flate layer (see ``PDFStreamDecoder/inflate(_:limit:maxRatio:)``).
    package func streamData(_ s: PDFStream, decrypt: Bool, cap: Int? = nil, maxRatio: Int? = nil) throws -> [UInt8] {
        try decodeStream(s, decrypt: decrypt, cap: min(cap ?? options.maxDecompressedSize, options.maxDecompressedSize),
                         maxRatio: maxRatio, keepPrefix: false).data
    }

    /// ``streamData(_:decrypt:cap:maxRatio:)`` with the cap given as is; with `keepPrefix`, a
    /// Flate stream that inflates past `cap` gives its first `cap` bytes and `capped` (object
    /// streams: the objects in that prefix stay readable).
    package func decodeStream(_ s: PDFStream, decrypt: Bool, cap: Int, maxRatio: Int?, keepPrefix: Bool) throws -> (data: [UInt8], capped: Bool) {
        let r = try decodeFilters(s, decrypt: decrypt, cap: cap, maxRatio: maxRatio, keepPrefix: keepPrefix, stopAtImageCodec: false)
        return (r.data, r.capped)
    }

    /// A stream's data with its filters applied up to the first image codec (DCTDecode, JPXDecode,
    /// CCITTFaxDecode, JBIG2Decode), which is named with its `/DecodeParms` for an image decoder.
    package func decodeStreamUpToImageCodec(_ s: PDFStream, cap: Int) throws -> (data: [UInt8], codec: String?, parms: PDFDict?) {
        let r = try decodeFilters(s, decrypt: true, cap: min(cap, options.maxDecompressedSize), maxRatio: nil,
                                  keepPrefix: false, stopAtImageCodec: true)
        return (r.data, r.codec, r.codecParms)
    }

    private func decodeFilters(_ s: PDFStream, decrypt: Bool, cap: Int, maxRatio: Int?, keepPrefix: Bool,
                               stopAtImageCodec: Bool) throws -> DecodedFilters {
        var raw = try rawStreamData(s, cap: cap)
        if decrypt, let sec = security, let id = s.id, id != encryptID, sec.shouldDecrypt(stream: s.dict) {
            raw = try sec.decryptStream(raw, id: id)
        }
        return try decodeFilterChain(raw, filter: s.dict["Filter"], parms: s.dict["DecodeParms"] ?? s.dict["DP"],
                                     at: s.dataOffset, cap: cap, maxRatio: maxRatio, keepPrefix: keepPrefix,
                                     stopAtImageCodec: stopAtImageCodec)
    }

    /// What ``decodeFilterChain(_:filter:parms:at:cap:maxRatio:keepPrefix:stopAtImageCodec:)`` gives.
    package struct DecodedFilters {
        /// The bytes after the filters applied.
        package var data: [UInt8]
        /// True when a Flate filter stopped at the cap and kept the prefix.
        package var capped: Bool
        /// The image codec the chain stopped at (`DCTDecode`, `JPXDecode`, `CCITTFaxDecode`,
        /// `JBIG2Decode`, abbreviations expanded), if it did.
        package var codec: String?
        /// That codec's `/DecodeParms`.
        package var codecParms: PDFDict?
    }

    /// Applies a filter chain to bytes: a stream's data, or an inline image's. `filter` and
    /// `parms` are the `/Filter` and `/DecodeParms` values as written (a name or an array; the
    /// abbreviated names of inline images are read too); `offset` names the data in errors.
    /// Output past `cap` bytes is an error (``PDFError/Kind/decompressionLimit``), unless a last
    /// Flate filter may keep its prefix (`keepPrefix`). With `stopAtImageCodec` the chain stops at
    /// the first image codec and names it; else an image codec is ``PDFError/Kind/unsupportedFilter``.
    package func decodeFilterChain(_ input: [UInt8], filter: PDFObject?, parms parmsValue: PDFObject?, at offset: Int,
                                   cap: Int, maxRatio: Int?, keepPrefix: Bool, stopAtImageCodec: Bool) throws -> DecodedFilters {
        var filters: [String] = []
        var parms: [PDFObject] = []
        switch try resolve(filter) {
        case .name(let n): filters = [n]; parms = [try resolve(parmsValue)]
        case .array(let a):
            filters = try a.compactMap { try resolve($0).nameValue }
            if case .array(let pa) = try resolve(parmsValue) { parms = pa }
        default: break
        }
        var out = DecodedFilters(data: input, capped: false)
        func located<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch var e as PDFError { e.offset = offset; throw e }
        }
        func predictor(_ parm: PDFDict) throws -> PDFStreamDecoder.PredictorParameters? {
            guard let pred = try resolve(parm["Predictor"]).intValue, pred > 1 else { return nil }
            return PDFStreamDecoder.PredictorParameters(
                predictor: pred,
                colors: try resolve(parm["Colors"]).intValue ?? 1,
                bitsPerComponent: try resolve(parm["BitsPerComponent"]).intValue ?? 8,
                columns: try resolve(parm["Columns"]).intValue ?? 1)
        }
        for (i, f) in filters.enumerated() {
            let parm = i < parms.count ? try resolve(parms[i]).dict : nil
            switch f {
            case "FlateDecode", "Fl":
                let inflated = try located {
                    try PDFStreamDecoder.inflate(out.data, limit: cap, maxRatio: maxRatio,
                                                 keepPrefix: keepPrefix && i == filters.count - 1)
                }
                if inflated.truncated {
                    try warn(.truncatedStream, "compressed stream data ends early", offset: offset)
                }
                out.data = inflated.bytes
                if inflated.capped { out.capped = true }
                if let parm, let pp = try predictor(parm) {
                    out.data = try located { try PDFStreamDecoder.unpredict(out.data, pp) }
                }
            case "ASCIIHexDecode", "AHx":
                out.data = PDFStreamDecoder.asciiHex(out.data)
            case "ASCII85Decode", "A85":
                out.data = try located { try PDFStreamDecoder.ascii85(out.data) }
            case "Crypt":
                break // only the Identity crypt filter is met in practice; decryption is the caller's
            case "LZWDecode", "LZW":
                let early = try resolve(parm?["EarlyChange"]).intValue ?? 1
                out.data = PDFStreamDecoder.lzw(out.data, earlyChange: early != 0, limit: cap)
                if let parm, let pp = try predictor(parm) {
                    out.data = try located { try PDFStreamDecoder.unpredict(out.data, pp) }
                }
            case "RunLengthDecode", "RL":
                out.data = PDFStreamDecoder.runLength(out.data, limit: cap)
            case "DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode":
                guard stopAtImageCodec else {
                    throw PDFError(.unsupportedFilter, "stream filter /\(f) is not supported", offset: offset)
                }
                out.codec = f == "DCT" ? "DCTDecode" : (f == "CCF" ? "CCITTFaxDecode" : f)
                out.codecParms = parm
                return out
            default:
                throw PDFError(.unsupportedFilter, "stream filter /\(f) is not supported", offset: offset)
            }
            if out.data.count > cap {
                throw PDFError(.decompressionLimit, "stream decodes past the \(cap)-byte cap", offset: offset)
            }
        }
        return out
    }

    /// The raw stream bytes, using `/Length` when it checks out (followed by `endstream`) and
    /// searching for `endstream` otherwise.
    package func rawStreamData(_ s: PDFStream, cap: Int) throws -> [UInt8] {
        var length: Int? = nil
        if let l = s.dict["Length"] {
            if case .ref = l {
                length = (try? resolve(l))?.intValue // unreadable: the data ends at `endstream` instead
            } else {
                length = l.intValue
            }
        }
        if let len = length, len >= 0, len <= cap, s.dataOffset &+ len <= src.size {
            let data = try src.read(s.dataOffset, len + 32)
            if data.count >= len {
                var i = len
                while i < data.count && isPDFWhite(data[i]) { i += 1 }
                if i + 9 <= data.count && matchWord(data, i, "endstream", requireDelimiter: false) || s.dataOffset + len == src.size {
                    return Array(data[0 ..< len])
                }
                if i == data.count && data.count < len + 32 {
                    return Array(data[0 ..< len]) // end of file right after: accept
                }
            }
        }
        // Search for endstream.
        let pat = Array("endstream".utf8)
        var pos = s.dataOffset
        var collected: [UInt8] = []
        let chunk = 16 * 1024
        while pos < src.size {
            let data = try src.read(pos, chunk)
            if data.isEmpty { break }
            collected.append(contentsOf: data)
            let searchFrom = max(0, collected.count - data.count - pat.count)
            if let i = find(pat, in: collected, from: searchFrom) {
                var end = i
                if end > 0 && collected[end - 1] == 0x0A { end -= 1 }
                if end > 0 && collected[end - 1] == 0x0D { end -= 1 }
                try warn(.streamLength, "stream /Length \(length.map(String.init) ?? "missing") is wrong; using \(end) bytes up to endstream", offset: s.dataOffset)
                return Array(collected[0 ..< end])
            }
            if collected.count > cap {
                throw PDFError(.decompressionLimit, "stream longer than \(cap) bytes with no endstream", offset: s.dataOffset)
            }
            pos += data.count
        }
        try warn(.streamLength, "stream has no endstream; using the data up to the end of the file", offset: s.dataOffset)
        return collected
    }

    // MARK: Catalog checks

    package func rootIsValid() throws -> Bool {
        guard let r = trailer["Root"] else { return false }
        do {
            let root = try resolve(r)
            guard let d = root.dict else { return false }
            return d["Type"]?.nameValue == "Catalog" || d["Pages"] != nil
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io && e.kind != .passwordRequired {
            return false
        }
    }

    // MARK: Security

    package func setUpSecurity() throws {
        guard !securityChecked else { return }
        securityChecked = true
        guard let encRef = trailer["Encrypt"] else { return }
        if case .ref(let id) = encRef { encryptID = id }
        let enc: PDFObject
        do {
            enc = try resolve(encRef)
        } catch let e as PDFError {
            throw PDFError(.unsupportedEncryption, "the /Encrypt dictionary cannot be read: \(e.message)", offset: e.offset)
        }
        guard var d = enc.dict else {
            if case .null = enc { return }
            throw PDFError(.unsupportedEncryption, "/Encrypt is not a dictionary", offset: encryptID.flatMap { offsetHint($0.num) })
        }
        // Any value may be indirect (`/CF 7 0 R`, `/O 9 0 R`, a crypt filter `/StdCF 8 0 R`):
        // resolve the dictionary's values and, under /CF, each filter and its values. One that
        // cannot be read is null: the handler then reports the entry it lacks by name.
        func direct(_ o: PDFObject?) -> PDFObject? {
            guard let o else { return nil }
            if case .ref = o { return (try? resolve(o)) ?? .null }
            return o
        }
        for (k, v) in d { if case .ref = v { d[k] = direct(v) } }
        if case .dict(var cfs)? = d["CF"] {
            for (name, cf) in cfs {
                guard case .dict(var f)? = direct(cf) else { continue }
                for (k, v) in f { if case .ref = v { f[k] = direct(v) } }
                cfs[name] = .dict(f)
            }
            d["CF"] = .dict(cfs)
        }
        var fileID: [UInt8] = []
        if case .array(let ids)? = direct(trailer["ID"]), let first = ids.first, case .string(let b)? = direct(first) {
            fileID = b
        }
        // An /Encrypt dictionary written into the trailer has no object of its own: the trailer's
        // cross-reference section is its place.
        let encOffset = encryptID.flatMap { offsetHint($0.num) } ?? trailerOffset
        let handler = try SecurityHandler(dict: d, fileID: fileID, password: options.password, offset: encOffset)
        security = handler
        if handler.locked {
            try warn(.passwordRequired, (options.password.isEmpty ? "the empty user password does not open the file"
                                                                  : "the password does not open the file")
                     + "; its strings are not encrypted (/StrF /Identity), so objects outside object streams are read "
                     + "and encrypted streams (object streams, XMP) are not", offset: encOffset)
        }
        // Anything cached before now was read without decryption.
        cache.removeAll()
        failed.removeAll()
        objectStreams.removeAll()
        objectStreamBytes = 0
    }
}
