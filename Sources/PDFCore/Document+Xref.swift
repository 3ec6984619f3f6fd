/// Reading the cross-reference data: the `startxref` chain of tables and streams, with `/Prev`
/// and `/XRefStm`.
extension Document {
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
                // Candidates are guesses: one that does not read is passed over for the next.
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
