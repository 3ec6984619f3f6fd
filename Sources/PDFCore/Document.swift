/// Where an object lives, according to the cross-reference data.
package enum XrefEntry: Sendable {
    case free
    case inFile(offset: Int, gen: Int)
    case compressed(stream: Int, index: Int)
}

/// A decoded object stream: its data and the (object number, offset) pairs of its header.
package struct ObjectStreamData {
    package var data: [UInt8]
    package var first: Int
    package var pairs: [(num: Int, offset: Int)]
    package var fileOffset: Int
    /// True when `data` is only the first part of the decoded stream.
    package var capped = false
    /// True when `data` is all of the stream, or as much as ``PDFReadOptions/maxObjectStreamSize``
    /// allows; false when it is a first part that can be decoded further.
    package var complete = true
    /// The objects' start offsets in `data` (`first` + each pair's offset that does not
    /// overflow), sorted and without repeats: where the object after a given one starts.
    package var starts: [Int] = []

    /// A decoded object stream; `starts` is made from `pairs`.
    package init(data: [UInt8], first: Int, pairs: [(num: Int, offset: Int)], fileOffset: Int, capped: Bool = false, complete: Bool = true) {
        self.data = data
        self.first = first
        self.pairs = pairs
        self.fileOffset = fileOffset
        self.capped = capped
        self.complete = complete
        var starts: [Int] = []
        starts.reserveCapacity(pairs.count)
        for pair in pairs {
            let (o, overflow) = first.addingReportingOverflow(pair.offset)
            if !overflow { starts.append(o) }
        }
        starts.sort()
        var unique: [Int] = []
        unique.reserveCapacity(starts.count)
        for o in starts where unique.last != o { unique.append(o) }
        self.starts = unique
    }

    /// The smallest object start greater than `offset`, or `Int.max` when none is.
    package func nextStart(after offset: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] > offset { high = mid } else { low = mid + 1 }
        }
        return low < starts.count ? starts[low] : Int.max
    }
}

/// The lazily loaded object graph of one PDF: cross-reference data, trailer, object cache,
/// decryption. Reads only what is asked for.
package final class Document {
    package let src: ByteSource
    package let options: PDFReadOptions
    package var warnings: [PDFWarning] = []

    package var headerOffset = 0
    package var headerVersion: String?
    /// Added to every offset that the cross-reference data gives (`startxref`, `/Prev`,
    /// `/XRefStm`, entries): `headerOffset` when those offsets count from the `%PDF-` header
    /// (bytes were put before a finished file), else 0.
    package var offsetShift = 0
    package var xref: [Int: XrefEntry] = [:]
    package var trailer: PDFDict = [:]
    /// Where the newest cross-reference section, whose trailer is `trailer`, starts (nil after
    /// the repair scan): the place named for what a direct value of the trailer gets wrong.
    package var trailerOffset: Int?
    package var repaired = false
    package var repairedOffsets: [Int: (offset: Int, gen: Int)] = [:]
    package var cache: [ObjectID: PDFObject] = [:]
    /// Objects whose reading failed, with the error (cleared with `cache`).
    package var failed: [ObjectID: PDFError] = [:]
    /// The objects being resolved, innermost last: a stack no deeper than `maxReferenceChain + 1`,
    /// searched linearly (cheaper than hashing at that size).
    package var resolving: [ObjectID] = []
    package var objectStreams: [Int: ObjectStreamData] = [:]
    package var objectStreamBytes = 0
    package var security: SecurityHandler?
    /// Whether ``setUpSecurity()`` has run (it runs once, before the catalog is checked when
    /// the cross-reference data loaded, else after the repair scan).
    package var securityChecked = false
    package var encryptID: ObjectID?
    /// The first window read for an indirect object (it grows when the object is longer).
    package var objectWindow = 2048

    package init(src: ByteSource, options: PDFReadOptions) {
        self.src = src
        self.options = options
    }

    // MARK: Warnings

    package func warn(_ kind: PDFWarning.Kind, _ message: String, offset: Int? = nil) throws {
        let w = PDFWarning(kind, message, offset: offset)
        if options.strict {
            throw PDFError(.strictModeViolation, "\(kind.rawValue): \(message)", offset: offset)
        }
        if !warnings.contains(w) { warnings.append(w) }
    }

    // MARK: Windows

    /// Parses at `offset` with a window that grows until the parse completes (or a cap is hit).
    package func parseAt<T>(_ offset: Int, initial: Int = 2048, maxBytes: Int? = nil,
                    _ body: (inout Parser) throws -> T) throws -> T {
        if let whole = src.residentBytes {
            // A small file read whole: parse in place, no window to copy or grow.
            var p = Parser(whole, base: 0, atEOF: true, maxDepth: options.maxNestingDepth,
                           pos: max(0, min(offset, whole.count)))
            do {
                return try body(&p)
            } catch is NeedMoreData {
                throw PDFError(.truncated, "file ends inside an object", offset: offset)
            }
        }
        let cap = maxBytes ?? options.maxObjectSize
        var len = min(initial, cap)
        while true {
            let buf = try src.read(offset, len)
            let atEOF = offset &+ buf.count >= src.size
            var p = Parser(buf, base: offset, atEOF: atEOF, maxDepth: options.maxNestingDepth)
            do {
                return try body(&p)
            } catch is NeedMoreData {
                if atEOF { throw PDFError(.truncated, "file ends inside an object", offset: offset) }
                if len >= cap {
                    throw PDFError(.limitExceeded, "object larger than \(cap) bytes", offset: offset)
                }
                len = min(len &* 4, cap)
            }
        }
    }

    // MARK: Opening

    package func open() throws {
        if src.size == 0 { throw PDFError(.notAPDF, "empty file", offset: 0) }
        try readHeader()
        var loaded = false
        do {
            if let start = try findStartXref() {
                try chooseOffsetShift(startxref: start)
                try loadXrefChain(start &+ offsetShift)
                loaded = true
            } else {
                try warn(.startxrefAdjusted, "no startxref found near the end of the file", offset: src.size)
            }
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io {
            try warn(.brokenXrefSection, "cross-reference data unreadable: \(e.message)", offset: e.offset)
        }
        // Decryption is set up before the catalog is read, so that a catalog in an encrypted object
        // stream is found where it is instead of sending the reader into the repair scan.
        if loaded && trailer["Encrypt"] != nil { try setUpSecurity() }
        let rootOK = loaded ? try rootIsValid() : false
        if !rootOK {
            try repair(reason: loaded ? "the trailer's /Root does not lead to a catalog" : "no usable cross-reference data")
        }
        try setUpSecurity()
    }

    package func readHeader() throws {
        let head = try src.read(0, 1024)
        let pat = Array("%PDF-".utf8)
        if let i = find(pat, in: head) {
            headerOffset = i
            var j = i + pat.count
            var v: [UInt8] = []
            while j < head.count, isDigit(head[j]) || head[j] == UInt8(ascii: ".") { v.append(head[j]); j += 1 }
            headerVersion = v.isEmpty ? nil : String(decoding: v, as: UTF8.self)
            if i > 0 { try warn(.header, "\(i) bytes before the %PDF- header", offset: 0) }
        } else {
            try warn(.header, "no %PDF- header in the first 1024 bytes", offset: 0)
        }
    }

    /// With bytes before the header, decides whether the file's offsets count from the header
    /// (a mail gateway or web server put them before a finished file: poppler's and pdf.js's
    /// reading) or from the first byte (a producer that counted them): the first that leads to
    /// cross-reference data at `startxref` wins, the header first. When neither does, the
    /// offsets are taken from the header and the nearby search of ``readXrefSection`` goes on
    /// from there.
    package func chooseOffsetShift(startxref start: Int) throws {
        guard headerOffset > 0 else { return }
        let shifted = start &+ headerOffset
        if try startsXrefData(at: shifted) || !(try startsXrefData(at: start)) {
            offsetShift = headerOffset
            try warn(.header, "offsets count from the %PDF- header: shifted by \(headerOffset) bytes", offset: headerOffset)
        }
    }

    /// Whether `xref` or an `N G obj` header starts at `offset` (after white space).
    package func startsXrefData(at offset: Int) throws -> Bool {
        guard offset >= 0 && offset < src.size else { return false }
        do {
            return try parseAt(offset, initial: 64, maxBytes: 1024) { p in
                try p.skipWhitespace()
                if p.matches("xref") { return true }
                return try p.indirectHeader() != nil
            }
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io {
            return false
        }
    }

    /// Finds the offset that the last `startxref` names, or nil.
    package func findStartXref() throws -> Int? {
        var len = min(src.size, 1024)
        while true {
            let tailStart = src.size - len
            let tail = try src.read(tailStart, len)
            if let i = findLast(Array("startxref".utf8), in: tail) {
                var p = Parser(tail, base: tailStart, atEOF: true, pos: i + 9)
                _ = p.lexer.skipWhitespace()
                if let n = p.unsignedInt() { return n }
                try warn(.startxrefAdjusted, "startxref is not followed by a number", offset: tailStart + i)
                return nil
            }
            if len >= min(src.size, 64 * 1024) { return nil }
            len = min(src.size, len * 8)
        }
    }

    // MARK: Objects

    /// The warning for the stray token ``Parser/strayAt`` records, in `subject` (an object, the trailer).
    package static func strayMessage(_ subject: String) -> String {
        "\(subject): a stray delimiter or brace is skipped (a brace where a value belongs reads as null)"
    }

    /// Parses `N G obj …` at an absolute offset.
    package func parseIndirect(at offset: Int, maxBytes: Int? = nil) throws -> (ObjectID, PDFObject) {
        var cut: Int? = nil
        var stray: Int? = nil
        let result: (ObjectID, PDFObject) = try parseAt(offset, initial: objectWindow, maxBytes: maxBytes) { p in
            guard let id = try p.indirectHeader() else {
                throw PDFError(.badObject, "no `N G obj` header", offset: offset)
            }
            let obj = try p.parseObject(allowStream: true)
            cut = p.closedAtEndobj
            stray = p.strayAt
            if case .stream(var s) = obj {
                s.id = id
                return (id, .stream(s))
            }
            return (id, obj)
        }
        if let cut {
            try warn(.unterminatedObject, "object \(result.0.num): a dictionary or array not closed before endobj is read up to it",
                     offset: cut)
        }
        if let stray {
            try warn(.other, Self.strayMessage("object \(result.0.num)"), offset: stray)
        }
        return result
    }

    /// Returns the value of an indirect object (decrypted, references inside left unresolved).
    package func object(_ id: ObjectID, chain: Int = 0) throws -> PDFObject {
        if let c = cache[id] { return c }
        if resolving.contains(id) {
            throw PDFError(.referenceLoop, "reference loop through object \(id)", offset: offsetHint(id.num))
        }
        if chain > options.maxReferenceChain {
            throw PDFError(.limitExceeded, "reference chain longer than \(options.maxReferenceChain)", offset: offsetHint(id.num))
        }
        // Resolving one object can need another (a stream's indirect /Length, the object stream
        // holding it, that stream's /Length, ...): `resolving` holds that nesting, which is
        // bounded like a reference chain so hostile files cannot recurse deeply.
        if resolving.count > options.maxReferenceChain {
            throw PDFError(
                .limitExceeded, "objects nested deeper than \(options.maxReferenceChain) while resolving object \(id.num)",
                offset: offsetHint(id.num))
        }
        if let e = failed[id] { throw e }
        resolving.append(id)
        defer { resolving.removeLast() }
        var value: PDFObject
        do {
            value = try load(id)
        } catch let e as PDFError {
            // An object that cannot be read is not parsed again (the page count check and the
            // walk ask for the same kids). Failures that depend on how the object was reached
            // (nesting, loops) or on the caller (strict mode, passwords, I/O) are not kept.
            switch e.kind {
            case .badObject, .syntax, .truncated, .decompressionLimit, .unsupportedFilter: failed[id] = e
            default: break
            }
            throw e
        }
        if case .ref(let next) = value {
            value = try object(next, chain: chain + 1)
        }
        cache[id] = value
        return value
    }

    /// Resolves a value that may be a reference.
    package func resolve(_ obj: PDFObject?) throws -> PDFObject {
        guard let obj else { return .null }
        if case .ref(let id) = obj { return try object(id) }
        return obj
    }

    package func offsetHint(_ num: Int) -> Int? {
        if case .inFile(let off, _)? = xref[num] { return off }
        return repairedOffsets[num]?.offset
    }

    package func load(_ id: ObjectID) throws -> PDFObject {
        switch xref[id.num] {
        case .inFile(let off, _)?:
            if let v = try loadFromFile(id, at: off) { return v }
            // Not where the xref says: rebuild, then try where the scan found it.
            if !repaired { try repair(reason: "object \(id.num) is not at offset \(off)") }
            if let r = repairedOffsets[id.num], r.offset != off, let v = try loadFromFile(id, at: r.offset) {
                try warn(.objectRelocated, "object \(id.num) found at \(r.offset), not \(off)", offset: off)
                return v
            }
            throw PDFError(.badObject, "object \(id.num) \(id.gen) not found", offset: off)
        case .compressed(let stm, let index)?:
            return try loadCompressed(id, stream: stm, index: index)
        case .free?:
            return .null
        case nil:
            if !repaired && id.num > 0 {
                try repair(reason: "object \(id.num) is missing from the cross-reference data")
                if xref[id.num] != nil { return try load(id) }
            }
            return .null // a reference to a missing object is null
        }
    }

    package func loadFromFile(_ id: ObjectID, at off: Int) throws -> PDFObject? {
        let parsed: (ObjectID, PDFObject)
        do {
            parsed = try parseIndirect(at: off)
        } catch let e as PDFError where e.kind == .badObject {
            return nil
        }
        guard parsed.0.num == id.num else { return nil }
        var value = parsed.1
        if let sec = security, id != encryptID {
            value = sec.decryptStrings(value, id: id)
        }
        return value
    }

    package func loadCompressed(_ id: ObjectID, stream: Int, index: Int) throws -> PDFObject {
        var os = try objectStream(stream)
        var rel: Int? = nil
        if index >= 0 && index < os.pairs.count && os.pairs[index].num == id.num {
            rel = os.pairs[index].offset
        } else {
            rel = os.pairs.first(where: { $0.num == id.num })?.offset
        }
        guard let r = rel else {
            throw PDFError(.badObject, "object \(id.num) is not in object stream \(stream)", offset: os.fileOffset)
        }
        let (start, ovf) = os.first.addingReportingOverflow(r)
        guard !ovf, start >= 0 else {
            throw PDFError(.badObject, "object \(id.num) offset outside object stream \(stream)", offset: os.fileOffset)
        }
        // Made only when thrown (an interpolated message costs more than reading a small object).
        func pastCap() -> PDFError {
            PDFError(
                .decompressionLimit,
                "object \(id.num) lies past the first \(os.data.count) bytes of object stream \(stream), which decodes to more "
                + "than PDFReadOptions.maxObjectStreamSize (\(options.maxObjectStreamSize) bytes); raise it to read the object",
                offset: os.fileOffset)
        }
        // Each step decodes at least 8 times more, so a handful reach any cap; the count is a
        // guard against a stream whose decoded size does not grow with the step.
        var steps = 0
        while true {
            steps += 1
            if steps > 16 {
                throw PDFError(.badObject, "object \(id.num): object stream \(stream) does not decode further", offset: os.fileOffset)
            }
            if start >= os.data.count {
                // Past what is decoded: decode further (up to the cap) when there is more.
                if !os.complete { os = try objectStream(stream, covering: start &+ 4096); continue }
                if os.capped { throw pastCap() }
                throw PDFError(.badObject, "object \(id.num) offset outside object stream \(stream)", offset: os.fileOffset)
            }
            // The object ends where the next one in the stream starts, and spans at most
            // maxObjectSize bytes: a damaged object cannot run on into the rest of the stream.
            let next = os.nextStart(after: start)
            let spanEnd = min(next, start &+ options.maxObjectSize)
            if next != Int.max && spanEnd > os.data.count && !os.complete {
                // Where the object ends is known and not yet decoded: decode to there.
                os = try objectStream(stream, covering: spanEnd)
                continue
            }
            let end = min(spanEnd, os.data.count)
            var p = Parser(Array(os.data[start ..< end]), base: 0, atEOF: true, maxDepth: options.maxNestingDepth)
            do {
                return try p.parseObject()
            } catch let e as PDFError where os.capped && e.kind == .truncated && end == os.data.count && end < spanEnd {
                // The object runs past the decoded part.
                if !os.complete {
                    os = try objectStream(stream, covering: max(start &+ 4096, os.data.count &* 8, os.data.count &+ 1))
                    continue
                }
                throw pastCap()
            } catch var e as PDFError {
                e.offset = os.fileOffset
                e.message += " (object \(id.num) in object stream \(stream), at \(start &+ p.pos))"
                throw e
            }
        }
    }

    /// The first decoded size tried for an object stream: most are smaller, and a larger one is
    /// decoded only as far as the objects asked for (and its header) reach.
    package static let objectStreamFirstLimit = 64 << 10

    /// The decoded object stream `num`, at least its first `need` bytes (or all of it, or up to
    /// ``PDFReadOptions/maxObjectStreamSize``) and its whole header of object numbers and offsets.
    ///
    /// A large object stream is inflated in steps (64 KiB, then at least 8 times more each time)
    /// and only as far as needed: a 13 MB object stream whose catalog and Info come first costs a
    /// 64 KiB inflate, not 13 MB. Each step starts the inflate again, so the work is at most
    /// about 8/7 of one inflate to the size finally needed.
    package func objectStream(_ num: Int, covering need: Int = 0) throws -> ObjectStreamData {
        if let o = objectStreams[num], o.complete || o.data.count >= need { return o }
        guard case .inFile? = xref[num] else {
            throw PDFError(.badObject, "object stream \(num) is not a plain file object", offset: nil)
        }
        guard case .stream(let s) = try object(ObjectID(num: num, gen: 0)) else {
            throw PDFError(.badObject, "object \(num) is not an object stream", offset: offsetHint(num))
        }
        let cap = options.maxObjectStreamSize
        var limit = min(cap, max(Document.objectStreamFirstLimit, need))
        if let old = objectStreams[num] { limit = min(cap, max(limit, old.data.count &* 8)) }
        while true {
            let (data, capped): ([UInt8], Bool)
            do {
                (data, capped) = try decodeStream(s, decrypt: true, cap: limit, maxRatio: nil, keepPrefix: true)
            } catch var e as PDFError where e.kind == .decompressionLimit {
                // An inner filter layer over the step's limit: try the next step.
                if limit < cap { limit = min(cap, limit &* 8); continue }
                e.message = "object stream \(num): \(e.message) (PDFReadOptions.maxObjectStreamSize, \(cap) bytes)"
                throw e
            }
            let complete = !capped || limit >= cap
            guard let n = try resolve(s.dict["N"]).intValue, let first = try resolve(s.dict["First"]).intValue,
                  n >= 0, first >= 0, capped || (n <= data.count / 2 + 1 && first <= data.count) else {
                throw PDFError(.badObject, "object stream \(num) has bad /N or /First", offset: s.dataOffset)
            }
            if !complete && first >= data.count {
                // The header itself is longer than this step: decode further.
                limit = min(cap, max(limit &* 8, first &+ 4096))
                continue
            }
            if capped && complete {
                try warn(.truncatedStream, "object stream \(num) decodes to more than PDFReadOptions.maxObjectStreamSize "
                         + "(\(cap) bytes): only the objects in its first \(cap) bytes can be read", offset: s.dataOffset)
            }
            var p = Parser(data, base: 0, atEOF: true, maxDepth: 4)
            var pairs: [(num: Int, offset: Int)] = []
            pairs.reserveCapacity(min(n, data.count / 2 + 1))
            for _ in 0 ..< n {
                _ = p.lexer.skipWhitespace()
                guard p.pos < first, let on = p.unsignedInt() else { break }
                _ = p.lexer.skipWhitespace()
                guard let oo = p.unsignedInt() else { break }
                pairs.append((on, oo))
            }
            let o = ObjectStreamData(data: data, first: first, pairs: pairs, fileOffset: s.dataOffset,
                                     capped: capped, complete: complete)
            if let old = objectStreams[num] { objectStreamBytes -= old.data.count }
            // Keep memory bounded: drop decoded object streams beyond a budget.
            if objectStreamBytes + data.count > max(4 * options.maxDecompressedSize, options.maxObjectStreamSize) {
                objectStreams.removeAll()
                objectStreamBytes = 0
            }
            objectStreams[num] = o
            objectStreamBytes += data.count
            return o
        }
    }

}
