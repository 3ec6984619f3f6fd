#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Document {
    /// What the repair scan finds in the file: each object number's newest header, every header in
    /// file order, and the offsets of `trailer` keywords, xref streams and object streams.
    struct RepairScan {
        var found: [Int: (offset: Int, gen: Int)] = [:]
        var order: [(num: Int, offset: Int)] = []
        var trailerOffsets: [Int] = []
        var xrefStreamNums: [Int] = []
        var objStreamNums: [Int] = []
    }

    /// Rebuilds the cross-reference data by scanning the whole file for `N G obj` (and the
    /// objects inside object streams), then picks the newest trailer whose `/Root` leads to a
    /// catalog; with no such trailer, the newest catalog object found is used.
    ///
    /// The scan reads the file in chunks (bytes counted, memory bounded by the object table).
    package func repair(reason: String) throws {
        guard !repaired else { return }
        repaired = true
        trailerOffset = nil
        // A repair can start while an object is being resolved (an object stream not where the
        // xref says): the rebuilt table is new, so that outer resolution must not make the
        // scan's own reads of the same objects look like reference loops.
        let outerResolving = resolving
        resolving = []
        defer { resolving = outerResolving }
        try warn(.xrefRebuilt, "cross-reference data rebuilt by scanning the file (\(reason))")

        let scan = try repairScan()
        if scan.found.isEmpty {
            throw PDFError(headerVersion == nil ? .notAPDF : .brokenStructure,
                           headerVersion == nil ? "no PDF header and no objects" : "no objects found in the file", offset: 0)
        }
        repairedOffsets = scan.found
        var newXref: [Int: XrefEntry] = [:]
        for (n, e) in scan.found { newXref[n] = .inFile(offset: e.offset, gen: e.gen) }
        xref = newXref
        cache.removeAll()
        failed.removeAll()
        objectStreams.removeAll()
        objectStreamBytes = 0
        let unreadableStreams = try addObjectStreamEntries(scan.objStreamNums)

        let candidates = trailerCandidates(scan)
        let previous = trailer
        trailer = [:]
        for c in candidates {
            trailer = c
            if try rootIsValid() { break }
            trailer = [:]
        }
        if trailer.isEmpty, previous["Root"] != nil {
            trailer = previous
            if !(try rootIsValid()) { trailer = [:] }
        }
        if trailer.isEmpty {
            guard try trailerFromObjects(scan, candidates: candidates, previous: previous, unreadableStreams: unreadableStreams) else {
                return
            }
        }
        // Fill keys the chosen trailer lacks from the other candidates.
        for key in ["Info", "Encrypt", "ID"] where trailer[key] == nil {
            if let v = candidates.first(where: { $0[key] != nil })?[key] { trailer[key] = v }
        }
    }

    /// Scans the whole file, a chunk at a time, for object headers and `trailer` keywords.
    func repairScan() throws -> RepairScan {
        var scan = RepairScan()
        if src.size > options.maxRepairScanBytes {
            throw PDFError(
                .limitExceeded,
                "the file (\(src.size) bytes) is larger than the \(options.maxRepairScanBytes) bytes a repair scan may read",
                offset: 0)
        }
        let chunk = 1 << 20
        let overlap = 64
        var pos = 0
        while pos < src.size {
            let readStart = max(0, pos - overlap)
            let buf = try src.readUncached(readStart, chunk + 2 * overlap)
            if buf.isEmpty { break }
            let lo = pos - readStart
            let hi = min(buf.count, lo + chunk)
            // `obj` keywords, in order. The scan jumps from one `o` to the next with memchr, so
            // binary data and holes cost little; matches cannot overlap, so this finds what a
            // byte-by-byte walk finds.
            var i = nextByte(UInt8(ascii: "o"), in: buf, from: lo, to: hi)
            while i < hi {
                if matchWord(buf, i, "obj"), let s = objHeaderStart(buf, objAt: i) {
                    try scanObjectHeader(buf, readStart: readStart, start: s, obj: i, into: &scan)
                }
                i = nextByte(UInt8(ascii: "o"), in: buf, from: i + 1, to: hi)
            }
            // `trailer` keywords, in order.
            i = nextByte(UInt8(ascii: "t"), in: buf, from: lo, to: hi)
            while i < hi {
                if matchWord(buf, i, "trailer"), i == 0 || !isRegular(buf[i - 1]) {
                    scan.trailerOffsets.append(readStart + i)
                }
                i = nextByte(UInt8(ascii: "t"), in: buf, from: i + 1, to: hi)
            }
            pos += chunk
        }
        return scan
    }

    /// Records the object header that starts at `buf[start]` (its `obj` at `buf[obj]`), and
    /// whether its dictionary says /XRef or /ObjStm.
    func scanObjectHeader(_ buf: [UInt8], readStart: Int, start s: Int, obj i: Int, into scan: inout RepairScan) throws {
        var p = Parser(buf, base: readStart, atEOF: true, pos: s)
        guard let n = p.unsignedInt() else { return }
        _ = p.lexer.skipWhitespace()
        let g = p.unsignedInt() ?? 0
        let off = readStart + s
        if scan.found[n] == nil && scan.found.count >= options.maxRepairObjects {
            throw PDFError(.limitExceeded, "more than \(options.maxRepairObjects) objects in the repair scan", offset: off)
        }
        scan.found[n] = (off, g)
        scan.order.append((n, off))
        if scan.order.count > 4 * options.maxRepairObjects {
            throw PDFError(.limitExceeded, "too many object headers in the repair scan", offset: off)
        }
        // Peek at the dictionary for /XRef or /ObjStm types.
        let peekEnd = min(buf.count, i + 512)
        let peek = Array(buf[i ..< peekEnd])
        if let t = find(Array("/Type".utf8), in: peek) {
            var q = Parser(peek, base: 0, atEOF: true, pos: t + 5)
            _ = q.lexer.skipWhitespace()
            if q.pos < peek.count, peek[q.pos] == UInt8(ascii: "/") {
                if matchWord(peek, q.pos, "/XRef") { scan.xrefStreamNums.append(n) }
                if matchWord(peek, q.pos, "/ObjStm") { scan.objStreamNums.append(n) }
            }
        }
    }

    /// Adds the objects inside the object streams the scan found, newest stream first (directly
    /// found objects win). Bounded work: at most 1000 object streams and 4 × maxDecompressedSize
    /// decoded bytes. Returns up to three descriptions of streams that could not be read.
    func addObjectStreamEntries(_ objStreamNums: [Int]) throws -> [String] {
        var seenStreams = Set<Int>()
        var unreadableStreams: [String] = []
        var decodedBudget = 4 * options.maxDecompressedSize
        for sn in objStreamNums.reversed().prefix(1000) where seenStreams.insert(sn).inserted {
            guard decodedBudget > 0 else { continue }
            let os: ObjectStreamData
            do {
                os = try objectStream(sn)
            } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .io {
                if unreadableStreams.count < 3 { unreadableStreams.append("object stream \(sn): \(e.message)") }
                continue
            }
            decodedBudget -= os.data.count
            for (k, pair) in os.pairs.enumerated() where xref[pair.num] == nil {
                xref[pair.num] = .compressed(stream: sn, index: k)
                if xref.count > options.maxRepairObjects {
                    throw PDFError(.limitExceeded, "more than \(options.maxRepairObjects) objects in the repair scan", offset: os.fileOffset)
                }
            }
        }
        return unreadableStreams
    }

    /// Trailer candidates, newest first: `trailer` dictionaries, then xref stream dictionaries.
    func trailerCandidates(_ scan: RepairScan) -> [PDFDict] {
        var candidates: [PDFDict] = []
        // The repair scan's candidates that do not parse are passed over (the scan is the fallback).
        for off in scan.trailerOffsets.reversed().prefix(1000) {
            if let d = try? parseAt(off, initial: 1024, maxBytes: 1 << 20, { p -> PDFDict? in
                p.pos += 7
                return try p.parseObject().dict
            }) { candidates.append(d) }
        }
        for n in scan.xrefStreamNums.reversed().prefix(1000) {
            if case .inFile(let off, _)? = xref[n], let (_, obj) = try? parseIndirect(at: off, maxBytes: 1 << 20), let d = obj.dict {
                candidates.append(d)
            }
        }
        return candidates
    }

    /// When no trailer leads to a catalog: a trailer made from the newest catalog object, and an
    /// Info-like dictionary beside it. With no catalog anywhere, a trailer of the Info dictionary
    /// alone, and false (the trailer is final). Throws when there is neither.
    func trailerFromObjects(_ scan: RepairScan, candidates: [PDFDict], previous: PDFDict, unreadableStreams: [String]) throws -> Bool {
        var root: ObjectID? = nil
        var info: ObjectID? = nil
        var parsed = 0
        for (n, off) in scan.order.reversed() {
            guard scan.found[n]?.offset == off else { continue }
            parsed += 1
            if parsed > 100_000 { break }
            // Catalogs and Info dictionaries are small: a 64 KB window keeps this scan linear.
            guard let (id, obj) = try? parseIndirect(at: off, maxBytes: 64 << 10), let d = obj.dict else { continue }
            if root == nil && (d["Type"]?.nameValue == "Catalog" || (d["Pages"] != nil && d["Type"] == nil)) {
                root = id
            }
            if info == nil && d["Type"] == nil && d["Parent"] == nil && d["Kids"] == nil
                && ["Producer", "Creator", "Title", "Author", "Keywords", "CreationDate"].contains(where: { d[$0] != nil }) {
                info = id
            }
            if root != nil && info != nil { break }
        }
        guard let root else {
            // No catalog anywhere: an intact Info dictionary is still worth reading (the
            // caller gets it with an `unreadableCatalog` warning). The trailers' /Info first,
            // then the Info-like dictionary the scan found.
            let infoRef = candidates.first(where: { $0["Info"] != nil })?["Info"] ?? previous["Info"] ?? info.map { .ref($0) }
            guard let infoRef else {
                var message = "no trailer and no catalog object found by the repair scan"
                if !unreadableStreams.isEmpty { message += " (unread: " + unreadableStreams.joined(separator: "; ") + ")" }
                throw PDFError(.missingCatalog, message, offset: 0)
            }
            trailer["Info"] = infoRef
            for key in ["Encrypt", "ID"] {
                if let v = candidates.first(where: { $0[key] != nil })?[key] ?? previous[key] { trailer[key] = v }
            }
            return false
        }
        trailer["Root"] = .ref(root)
        if let info {
            trailer["Info"] = .ref(info)
            try warn(.xrefRebuilt, "no trailer: using object \(info.num) as the document information dictionary")
        }
        return true
    }
}

/// The index of the first `byte` in `buf[from ..< to]`, or `to` (memchr: fast over long runs).
package func nextByte(_ byte: UInt8, in buf: [UInt8], from: Int, to: Int) -> Int {
    guard from < to else { return to }
    return buf.withUnsafeBufferPointer { b -> Int in
        guard let base = b.baseAddress, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }
}
