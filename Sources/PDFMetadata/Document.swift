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
                try? p.skipWhitespace()
                if let n = p.unsignedInt() { return n }
                try warn(.startxrefAdjusted, "startxref is not followed by a number", offset: tailStart + i)
                return nil
            }
            if len >= min(src.size, 64 * 1024) { return nil }
            len = min(src.size, len * 8)
        }
    }

    // MARK: Cross-reference loading

    package func loadXrefChain(_ start: Int) throws {
        var queue = [start]
        var seen = Set<Int>()
        var sections = 0
        var first = true
        var newest = true
        while !queue.isEmpty {
            let off = queue.removeFirst()
            if seen.contains(off) {
                try warn(.brokenXrefSection, "cross-reference /Prev chain loops back to \(off)", offset: off)
                continue
            }
            seen.insert(off)
            sections += 1
            if sections > options.maxXrefSections {
                throw PDFError(.limitExceeded, "more than \(options.maxXrefSections) cross-reference sections", offset: off)
            }
            let section: XrefSection
            do {
                section = try readXrefSection(at: off, tolerant: first)
            } catch let e as PDFError where !first && e.kind != .strictModeViolation && e.kind != .io {
                try warn(.brokenXrefSection, "skipping unreadable cross-reference section: \(e.message)", offset: off)
                continue
            }
            first = false
            func tooMany() -> PDFError {
                PDFError(.limitExceeded, "more than \(options.maxXrefEntries) cross-reference entries", offset: off)
            }
            if xref.isEmpty {
                guard section.entries.count <= options.maxXrefEntries else { throw tooMany() }
                xref = section.entries // the newest section: taken whole, without rehashing
            } else if section.entries.count > xref.count {
                // An older section larger than what is merged so far (a linearized file's main
                // table under its first-page section, an update of a few objects): the newer
                // entries go over it, so the larger table is not hashed again.
                var merged = section.entries
                for (num, entry) in xref { merged[num] = entry }
                guard merged.count <= options.maxXrefEntries else { throw tooMany() }
                xref = merged
            } else {
                xref.reserveCapacity(min(xref.count + section.entries.count, options.maxXrefEntries))
                // Whatever the order of this loop, it throws exactly when the sections hold more
                // distinct object numbers than the limit.
                for (num, entry) in section.entries where xref[num] == nil {
                    guard xref.count < options.maxXrefEntries else { throw tooMany() }
                    xref[num] = entry
                }
            }
            // Older trailers fill in what the newest lacks, except /Info: an update whose trailer
            // has no /Info leaves the document without one (as poppler and qpdf read it).
            for (k, v) in section.trailer where trailer[k] == nil {
                if k == "Prev" || k == "XRefStm" || (k == "Info" && !newest) { continue }
                trailer[k] = v
            }
            if newest { trailerOffset = off }
            newest = false
            if let prev = section.trailer["Prev"]?.intValue, prev >= 0 { queue.append(prev &+ offsetShift) }
        }
    }

    package struct XrefSection {
        var entries: [Int: XrefEntry]
        var trailer: PDFDict
    }

    /// Reads a classic table or an xref stream at `offset`; when `tolerant`, searches near a
    /// slightly wrong offset (and one shifted by junk before the header).
    package func readXrefSection(at offset: Int, tolerant: Bool) throws -> XrefSection {
        do {
            return try readXrefSectionExact(at: offset)
        } catch let e as PDFError {
            guard tolerant, e.kind != .strictModeViolation else { throw e }
            var candidates: [Int] = []
            // Search a window around the offset for `xref` or `N G obj` and take the nearest.
            let lo = max(0, offset &- 1024)
            let win = try src.read(lo, 2048 + 64)
            var hits: [Int] = []
            for i in 0 ..< win.count {
                if matchWord(win, i, "xref") && (i == 0 || !isRegular(win[i - 1])) { hits.append(lo + i) }
                if matchWord(win, i, "obj") {
                    if let s = objHeaderStart(win, objAt: i) { hits.append(lo + s) }
                }
            }
            hits.sort { abs($0 - offset) < abs($1 - offset) }
            candidates.append(contentsOf: hits.filter { $0 != offset })
            for c in candidates.prefix(8) {
                if let s = try? readXrefSectionExact(at: c) {
                    try warn(.startxrefAdjusted, "startxref points to \(offset); cross-reference data found at \(c)", offset: offset)
                    return s
                }
            }
            throw e
        }
    }

    package func readXrefSectionExact(at offset: Int) throws -> XrefSection {
        guard offset >= 0 && offset < src.size else {
            throw PDFError(.brokenStructure, "cross-reference offset \(offset) is outside the file", offset: offset)
        }
        let isTable: Bool = try parseAt(offset, initial: 64) { p in
            try p.skipWhitespace()
            return p.matches("xref")
        }
        if isTable { return try readXrefTable(at: offset) }
        return try readXrefStream(at: offset)
    }

    package func readXrefTable(at offset: Int) throws -> XrefSection {
        var stray: Int? = nil
        var section = try parseAt(offset, initial: 4096) { p -> XrefSection in
            try p.skipWhitespace()
            p.pos += 4
            var entries: [Int: XrefEntry] = [:]
            while true {
                try p.skipWhitespace()
                if p.matches("trailer") {
                    p.pos += 7
                    try p.skipWhitespace()
                    guard case .dict(let d) = try p.parseObject() else {
                        throw p.fail(.syntax, "trailer is not a dictionary")
                    }
                    stray = p.strayAt
                    return XrefSection(entries: entries, trailer: d)
                }
                guard let start = p.unsignedInt() else { throw p.fail(.syntax, "bad cross-reference subsection header") }
                try p.skipWhitespace()
                guard let count = p.unsignedInt() else { throw p.fail(.syntax, "bad cross-reference subsection count") }
                guard count <= 10_000_000, start <= Int(Int32.max) else {
                    throw p.fail(.limitExceeded, "cross-reference subsection of \(count) entries")
                }
                // Room for the entries, bounded by what the window can hold (an entry takes at
                // least 6 bytes), so that a hostile count cannot reserve memory.
                entries.reserveCapacity(entries.count + min(count, (p.buf.count - p.pos) / 6 + 1))
                for k in 0 ..< count {
                    try p.skipWhitespace()
                    guard let off = p.unsignedInt() else { throw p.fail(.syntax, "bad cross-reference entry") }
                    try p.skipWhitespace()
                    guard let gen = p.unsignedInt() else { throw p.fail(.syntax, "bad cross-reference entry") }
                    try p.skipWhitespace()
                    guard p.pos < p.buf.count else { throw p.endOfData("a cross-reference entry") }
                    let t = p.buf[p.pos]
                    p.pos += 1
                    let num = start + k
                    if entries[num] != nil { continue } // first entry in a section wins
                    if entries.count >= options.maxXrefEntries {
                        throw p.fail(.limitExceeded, "more than \(options.maxXrefEntries) cross-reference entries")
                    }
                    if t == UInt8(ascii: "n") {
                        // Offset 0 (or past the end) cannot be an object: ignore such entries.
                        let at = off &+ offsetShift
                        if off > 0 && at < src.size { entries[num] = .inFile(offset: at, gen: gen) }
                    } else if t == UInt8(ascii: "f") {
                        entries[num] = .free
                    } else {
                        throw p.fail(.syntax, "bad cross-reference entry type")
                    }
                }
            }
        }
        if let stray {
            try warn(.other, Self.strayMessage("the trailer"), offset: stray)
        }
        // Hybrid file: the table's companion xref stream fills in objects in object streams.
        if let raw = section.trailer["XRefStm"]?.intValue, raw > 0 {
            let stm = raw &+ offsetShift
            do {
                let s = try readXrefStream(at: stm)
                for (num, e) in s.entries {
                    switch section.entries[num] {
                    case nil, .free?: section.entries[num] = e
                    default: break
                    }
                }
            } catch let e as PDFError where e.kind != .strictModeViolation {
                try warn(.brokenXrefSection, "unreadable /XRefStm: \(e.message)", offset: stm)
            }
        }
        return section
    }

    package func readXrefStream(at offset: Int) throws -> XrefSection {
        let (id, obj) = try parseIndirect(at: offset)
        guard case .stream(var s) = obj, s.dict["Type"]?.nameValue == "XRef" || s.dict["W"] != nil else {
            throw PDFError(.brokenStructure, "no cross-reference stream at \(offset)", offset: offset)
        }
        s.id = id
        let data = try streamData(s, decrypt: false)
        guard let w = s.dict["W"]?.arrayValue?.compactMap({ $0.intValue }), w.count == 3,
              w.allSatisfy({ (0 ... 8).contains($0) }) else {
            throw PDFError(.brokenStructure, "bad /W in cross-reference stream", offset: offset)
        }
        let entrySize = w[0] + w[1] + w[2]
        guard entrySize > 0 else { throw PDFError(.brokenStructure, "empty /W", offset: offset) }
        let size = s.dict["Size"]?.intValue ?? 0
        var index: [Int] = s.dict["Index"]?.arrayValue?.compactMap({ $0.intValue }) ?? [0, size]
        if index.count % 2 != 0 { index.removeLast() }
        var entries: [Int: XrefEntry] = [:]
        var declared = 0
        var ix = 1
        while ix < index.count { if index[ix] > 0 { declared = declared &+ index[ix] }; ix += 2 }
        entries.reserveCapacity(min(max(0, declared), data.count / entrySize, options.maxXrefEntries))
        // Subsections that do not overlap (as writers make them) give each number once: no need
        // to look a number up before it is inserted.
        var ranges: [(Int, Int)] = []
        ix = 0
        while ix + 1 < index.count { ranges.append((index[ix], index[ix + 1])); ix += 2 }
        ranges.sort { $0.0 < $1.0 }
        var overlapping = false
        for k in ranges.indices.dropFirst() {
            let (end, ovf) = ranges[k - 1].0.addingReportingOverflow(max(0, ranges[k - 1].1))
            if ovf || end > ranges[k].0 { overlapping = true }
        }
        try forEachXrefStreamEntry(data, widths: w, index: index) { (number, type, f2, f3) throws(PDFError) in
            guard let num = number else { return }
            if overlapping && entries[num] != nil { return }
            if entries.count >= options.maxXrefEntries {
                throw PDFError(.limitExceeded, "more than \(options.maxXrefEntries) cross-reference entries", offset: offset)
            }
            switch type {
            case 0: entries[num] = .free
            case 1: if f2 > 0 && f2 &+ offsetShift < src.size { entries[num] = .inFile(offset: f2 &+ offsetShift, gen: f3) }
            case 2: entries[num] = .compressed(stream: f2, index: f3)
            default: break // unknown types are null references
            }
        }
        var d = s.dict
        d.removeValue(forKey: "Length")
        d.removeValue(forKey: "Filter")
        d.removeValue(forKey: "DecodeParms")
        return XrefSection(entries: entries, trailer: d)
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
            var next = Int.max
            for pair in os.pairs {
                let (o, ovf2) = os.first.addingReportingOverflow(pair.offset)
                if !ovf2 && o > start && o < next { next = o }
            }
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
                try? p.skipWhitespace()
                guard p.pos < first, let on = p.unsignedInt() else { break }
                try? p.skipWhitespace()
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
                               stopAtImageCodec: Bool) throws -> (data: [UInt8], capped: Bool, codec: String?, codecParms: PDFDict?) {
        var capped = false
        var raw = try rawStreamData(s, cap: cap)
        if decrypt, let sec = security, let id = s.id, id != encryptID, sec.shouldDecrypt(stream: s.dict) {
            raw = try sec.decryptStream(raw, id: id)
        }
        var filters: [String] = []
        var parms: [PDFObject] = []
        switch try resolve(s.dict["Filter"]) {
        case .name(let n): filters = [n]; parms = [try resolve(s.dict["DecodeParms"] ?? s.dict["DP"])]
        case .array(let a):
            filters = try a.compactMap { try resolve($0).nameValue }
            if case .array(let pa) = try resolve(s.dict["DecodeParms"] ?? s.dict["DP"]) { parms = pa }
        default: break
        }
        var data = raw
        for (i, f) in filters.enumerated() {
            let parm = i < parms.count ? try resolve(parms[i]).dict : nil
            switch f {
            case "FlateDecode", "Fl":
                var inflated: PDFStreamDecoder.Inflated
                do {
                    inflated = try PDFStreamDecoder.inflate(data, limit: cap, maxRatio: maxRatio,
                                                            keepPrefix: keepPrefix && i == filters.count - 1)
                } catch var e {
                    e.offset = s.dataOffset
                    throw e
                }
                if inflated.truncated {
                    try warn(.truncatedStream, "compressed stream data ends early", offset: s.dataOffset)
                }
                data = inflated.bytes
                if inflated.capped { capped = true }
                if let parm {
                    let pp = PDFStreamDecoder.PredictorParameters(
                        predictor: try resolve(parm["Predictor"]).intValue ?? 1,
                        colors: try resolve(parm["Colors"]).intValue ?? 1,
                        bitsPerComponent: try resolve(parm["BitsPerComponent"]).intValue ?? 8,
                        columns: try resolve(parm["Columns"]).intValue ?? 1)
                    do {
                        data = try PDFStreamDecoder.unpredict(data, pp)
                    } catch var e {
                        e.offset = s.dataOffset
                        throw e
                    }
                }
            case "ASCIIHexDecode", "AHx":
                data = PDFStreamDecoder.asciiHex(data)
            case "ASCII85Decode", "A85":
                do { data = try PDFStreamDecoder.ascii85(data) } catch var e { e.offset = s.dataOffset; throw e }
            case "Crypt":
                break // only the Identity crypt filter is met in practice; decryption is above
            case "LZWDecode", "LZW":
                let early = try resolve(parm?["EarlyChange"]).intValue ?? 1
                data = PDFStreamDecoder.lzw(data, earlyChange: early != 0, limit: cap)
                if let parm, let pred = try resolve(parm["Predictor"]).intValue, pred > 1 {
                    let pp = PDFStreamDecoder.PredictorParameters(
                        predictor: pred,
                        colors: try resolve(parm["Colors"]).intValue ?? 1,
                        bitsPerComponent: try resolve(parm["BitsPerComponent"]).intValue ?? 8,
                        columns: try resolve(parm["Columns"]).intValue ?? 1)
                    do { data = try PDFStreamDecoder.unpredict(data, pp) } catch var e { e.offset = s.dataOffset; throw e }
                }
            case "RunLengthDecode", "RL":
                data = PDFStreamDecoder.runLength(data, limit: cap)
            case "DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode":
                guard stopAtImageCodec else {
                    throw PDFError(.unsupportedFilter, "stream filter /\(f) is not supported", offset: s.dataOffset)
                }
                let full = f == "DCT" ? "DCTDecode" : (f == "CCF" ? "CCITTFaxDecode" : f)
                return (data, capped, full, parm)
            default:
                throw PDFError(.unsupportedFilter, "stream filter /\(f) is not supported", offset: s.dataOffset)
            }
            if data.count > cap {
                throw PDFError(.decompressionLimit, "stream decodes past the \(cap)-byte cap", offset: s.dataOffset)
            }
        }
        return (data, capped, nil, nil)
    }

    /// The raw stream bytes, using `/Length` when it checks out (followed by `endstream`) and
    /// searching for `endstream` otherwise.
    package func rawStreamData(_ s: PDFStream, cap: Int) throws -> [UInt8] {
        var length: Int? = nil
        if let l = s.dict["Length"] {
            if case .ref = l {
                length = (try? resolve(l))?.intValue
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
        // resolve the dictionary's values and, under /CF, each filter and its values.
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
        if case .array(let ids)? = direct(trailer["ID"]), let first = ids.first, case .string(let b) = (try? resolve(first)) ?? .null {
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

// MARK: Byte helpers

@inline(__always) package func isRegular(_ b: UInt8) -> Bool { !isPDFWhite(b) && !isPDFDelimiter(b) }

package func matchWord(_ buf: [UInt8], _ i: Int, _ word: String, requireDelimiter: Bool = true) -> Bool {
    var k = i
    for c in word.utf8 {
        guard k < buf.count, buf[k] == c else { return false }
        k += 1
    }
    if requireDelimiter { return k >= buf.count || !isRegular(buf[k]) }
    return true
}

/// Given `obj` at `i`, returns where `N G` before it starts, if the bytes before are `N G `.
package func objHeaderStart(_ buf: [UInt8], objAt i: Int) -> Int? {
    if i > 0 && isRegular(buf[i - 1]) && !isDigit(buf[i - 1]) { return nil }
    var j = i - 1
    while j >= 0 && isPDFWhite(buf[j]) { j -= 1 }
    let genEnd = j
    while j >= 0 && isDigit(buf[j]) { j -= 1 }
    if j == genEnd || genEnd - j > 5 { return nil }
    guard j >= 0, isPDFWhite(buf[j]) else { return nil }
    while j >= 0 && isPDFWhite(buf[j]) { j -= 1 }
    let numEnd = j
    while j >= 0 && isDigit(buf[j]) { j -= 1 }
    if j == numEnd || numEnd - j > 10 { return nil }
    if j >= 0 && isRegular(buf[j]) { return nil }
    return j + 1
}

package func find(_ pat: [UInt8], in buf: [UInt8], from: Int = 0) -> Int? {
    guard !pat.isEmpty, buf.count >= pat.count else { return nil }
    let first = pat[0]
    var i = max(0, from)
    let last = buf.count - pat.count
    while i <= last {
        if buf[i] == first {
            var k = 1
            while k < pat.count && buf[i + k] == pat[k] { k += 1 }
            if k == pat.count { return i }
        }
        i += 1
    }
    return nil
}

package func findLast(_ pat: [UInt8], in buf: [UInt8]) -> Int? {
    guard !pat.isEmpty, buf.count >= pat.count else { return nil }
    var i = buf.count - pat.count
    while i >= 0 {
        var k = 0
        while k < pat.count && buf[i + k] == pat[k] { k += 1 }
        if k == pat.count { return i }
        i -= 1
    }
    return nil
}

/// Walks the entries of a cross-reference stream's decoded `data` (fields of `widths` bytes, big
/// endian) through the subsections of `index` (start, count pairs; an even count), in order:
/// `body` gets each entry's object number (nil where `start + k` overflows), its type (1 when the
/// first width is 0) and its second and third fields. Subsections with a negative start or count
/// are skipped; the walk ends where the data does. Both readers (`Document`, the fast path) use it.
package func forEachXrefStreamEntry<E: Error>(
    _ data: [UInt8], widths w: [Int], index: [Int], _ body: (_ number: Int?, _ type: Int, _ f2: Int, _ f3: Int) throws(E) -> Void
) throws(E) {
    let entrySize = w[0] + w[1] + w[2]
    var pos = 0
    func field(_ width: Int, _ at: Int) -> Int {
        var v = 0
        for k in 0 ..< width { v = (v << 8) | Int(data[at + k]) }
        return v
    }
    var i = 0
    while i < index.count {
        let start = index[i], count = index[i + 1]
        i += 2
        guard start >= 0, count >= 0 else { continue }
        var k = 0
        while k < count && pos + entrySize <= data.count {
            let type = w[0] == 0 ? 1 : field(w[0], pos)
            let f2 = field(w[1], pos + w[0])
            let f3 = field(w[2], pos + w[0] + w[1])
            pos += entrySize
            let (num, ovf) = start.addingReportingOverflow(k)
            k += 1
            try body(ovf ? nil : num, type, f2, f3)
        }
    }
}
