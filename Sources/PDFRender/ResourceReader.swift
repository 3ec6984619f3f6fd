import PDFCore

/// Non-throwing access to a document's objects for the renderer: a failure to read an object
/// becomes a warning and an absent value, so one damaged resource never stops a page.
final class ResourceReader {
    let doc: Document
    var warnings = WarningSink()
    /// The most bytes one stream (content, image, font) may decode to.
    let maxStreamBytes: Int

    init(doc: Document, maxStreamBytes: Int) {
        self.doc = doc
        self.maxStreamBytes = maxStreamBytes
    }

    func warn(_ kind: PDFRenderWarning.Kind, _ message: String, object: Int? = nil, offset: Int? = nil) {
        warnings.add(PDFRenderWarning(kind, message, object: object, offset: offset))
    }

    /// The object, references followed; `.null` (and a warning) when it cannot be read.
    func resolve(_ o: PDFObject?) -> PDFObject {
        guard let o else { return .null }
        guard case .ref(let id) = o else { return o }
        do {
            return try doc.object(id)
        } catch let e as PDFError {
            warn(.unreadableObject, e.message, object: id.num, offset: e.offset)
        } catch {
            warn(.unreadableObject, "\(error)", object: id.num)
        }
        return .null
    }

    func resolveOpt(_ o: PDFObject?) -> PDFObject? {
        let r = resolve(o)
        if case .null = r { return nil }
        return r
    }

    func dict(_ o: PDFObject?) -> PDFDict? { resolve(o).dict }

    func number(_ o: PDFObject?) -> Double? {
        switch resolve(o) {
        case .int(let i): return Double(i)
        case .real(let d): return d.isFinite ? d : nil
        default: return nil
        }
    }

    func int(_ o: PDFObject?) -> Int? { resolve(o).intValue }

    func name(_ o: PDFObject?) -> String? { resolve(o).nameValue }

    func bool(_ o: PDFObject?) -> Bool? {
        if case .bool(let b) = resolve(o) { return b }
        return nil
    }

    func array(_ o: PDFObject?) -> [PDFObject]? { resolve(o).arrayValue }

    /// An array of numbers (every item a number), or nil.
    func numbers(_ o: PDFObject?) -> [Double]? {
        guard let a = array(o) else { return nil }
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for x in a {
            guard let v = number(x) else { return nil }
            out.append(v)
        }
        return out
    }

    func rect(_ o: PDFObject?) -> PDFRect? {
        guard let n = numbers(o), n.count >= 4 else { return nil }
        return PDFRect(n[0], n[1], n[2], n[3])
    }

    func matrix(_ o: PDFObject?) -> PDFMatrix? {
        guard let n = numbers(o), n.count >= 6 else { return nil }
        let m = PDFMatrix(n[0], n[1], n[2], n[3], n[4], n[5])
        return m.isFinite ? m : nil
    }

    /// A stream's decoded data (every filter applied); nil with a warning when it cannot be decoded.
    func streamData(_ s: PDFStream) -> [UInt8]? {
        do {
            return try doc.streamData(s, decrypt: true, cap: maxStreamBytes)
        } catch let e as PDFError {
            warn(.unreadableObject, "stream: \(e.message)", object: s.id?.num, offset: e.offset ?? s.dataOffset)
        } catch {
            warn(.unreadableObject, "stream: \(error)", object: s.id?.num, offset: s.dataOffset)
        }
        return nil
    }

    /// A stream's data with every filter applied up to an image codec (DCT, JPX, CCITT, JBIG2),
    /// which is returned with its parameters for the image decoder.
    func imageStreamData(_ s: PDFStream) -> (data: [UInt8], codec: String?, parms: PDFDict?)? {
        imageData(object: s.id?.num, offset: s.dataOffset) {
            let r = try doc.decodeStreamUpToImageCodec(s, cap: maxStreamBytes)
            return (r.data, r.codec, r.parms)
        }
    }

    /// An inline image's data (`dict` with its abbreviations expanded) with its filters applied up
    /// to an image codec; nil, with a warning, when they fail.
    func inlineImageData(_ dict: PDFDict, _ data: [UInt8]) -> (data: [UInt8], codec: String?, parms: PDFDict?)? {
        imageData(object: nil, offset: nil) {
            let r = try doc.decodeFilterChain(data, filter: dict["Filter"], parms: dict["DecodeParms"], at: 0,
                                              cap: min(maxStreamBytes, doc.options.maxDecompressedSize), maxRatio: nil,
                                              keepPrefix: false, stopAtImageCodec: true)
            return (r.data, r.codec, r.codecParms)
        }
    }

    private func imageData(object: Int?, offset: Int?,
                           _ body: () throws -> (data: [UInt8], codec: String?, parms: PDFDict?)) -> (data: [UInt8], codec: String?, parms: PDFDict?)? {
        do {
            return try body()
        } catch let e as PDFError {
            warn(.image, "image data: \(e.message)", object: object, offset: offset.map { e.offset ?? $0 })
        } catch {
            warn(.image, "image data: \(error)", object: object, offset: offset)
        }
        return nil
    }
}
