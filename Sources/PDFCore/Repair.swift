#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Document {
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

        var found: [Int: (offset: Int, gen: Int)] = [:]
        var order: [(num: Int, offset: Int)] = []
        var trailerOffsets: [Int] = []
        var xrefStreamNums: [Int] = []
        var objStreamNums: [Int] = []
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
                    var p = Parser(buf, base: readStart, atEOF: true, pos: s)
                    if let n = p.unsignedInt() {
                        _ = p.lexer.skipWhitespace()
                        let g = p.unsignedInt() ?? 0
                        let off = readStart + s
                        if found[n] == nil && found.count >= options.maxRepairObjects {
                            throw PDFError(.limitExceeded, "more than \(options.maxRepairObjects) objects in the repair scan", offset: off)
                        }
                        found[n] = (off, g)
                        order.append((n, off))
                        if order.count > 4 * options.maxRepairObjects {
                            throw PDFError(.limitExceeded, "too many object headers in the repair scan", offset: off)
                        }
                        // Peek at the dictionary for /XRef or /ObjStm types.
                        let peekEnd = min(buf.count, i + 512)
                        let peek = Array(buf[i ..< peekEnd])
                        if let t = find(Array("/Type".utf8), in: peek) {
                            var q = Parser(peek, base: 0, atEOF: true, pos: t + 5)
                            _ = q.lexer.skipWhitespace()
                            if q.pos < peek.count, peek[q.pos] == UInt8(ascii: "/") {
                                if matchWord(peek, q.pos, "/XRef") { xrefStreamNums.append(n) }
                                if matchWord(peek, q.pos, "/ObjStm") { objStreamNums.append(n) }
                            }
                        }
                    }
                }
                i = nextByte(UInt8(ascii: "o"), in: buf, from: i + 1, to: hi)
            }
            // `trailer` keywords, in order.
            i = nextByte(UInt8(ascii: "t"), in: buf, from: lo, to: hi)
            while i < hi {
                if matchWord(buf, i, "trailer"), i == 0 || !isRegular(buf[i - 1]) {
                    trailerOffsets.append(readStart + i)
                }
                i = nextByte(UInt8(ascii: "t"), in: buf, from: i + 1, to: hi)
            }
            pos += chunk
        }
        if found.isEmpty {
            throw PDFError(headerVersion == nil ? .notAPDF : .brokenStructure,
                           headerVersion == nil ? "no PDF header and no objects" : "no objects found in the file", offset: 0)
        }
        repairedOffsets = found
        var newXref: [Int: XrefEntry] = [:]
        for (n, e) in found { newXref[n] = .inFile(offset: e.offset, gen: e.gen) }
        xref = newXref
        cache.removeAll()
        failed.removeAll()
        objectStreams.removeAll()
        objectStreamBytes = 0

        // Objects inside object streams (directly found objects win).
        var seenStreams = Set<Int>()
        var unreadableStreams: [String] = []
        // Bounded work: at most 1000 object streams and 4 × maxDecompressedSize decoded bytes.
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

        // Trailer candidates, newest first: `trailer` dictionaries, then xref stream dictionaries.
        var candidates: [PDFDict] = []
        // The repair scan's candidates that do not parse are passed over (the scan is the fallback).
        for off in trailerOffsets.reversed().prefix(1000) {
            if let d = try? parseAt(off, initial: 1024, maxBytes: 1 << 20, { p -> PDFDict? in
                p.pos += 7
                return try p.parseObject().dict
            }) { candidates.append(d) }
        }
        for n in xrefStreamNums.reversed().prefix(1000) {
            if case .inFile(let off, _)? = xref[n], let (_, obj) = try? parseIndirect(at: off, maxBytes: 1 << 20), let d = obj.dict {
                candidates.append(d)
            }
        }
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
            // No trailer leads to a catalog: look for the newest catalog object, and an Info-like
            // dictionary beside it.
            var root: ObjectID? = nil
            var info: ObjectID? = nil
            var parsed = 0
            for (n, off) in order.reversed() {
                guard found[n]?.offset == off else { continue }
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
                return
            }
            trailer["Root"] = .ref(root)
            if let info {
                trailer["Info"] = .ref(info)
                try warn(.xrefRebuilt, "no trailer: using object \(info.num) as the document information dictionary")
            }
        }
        // Fill keys the chosen trailer lacks from the other candidates.
        for key in ["Info", "Encrypt", "ID"] where trailer[key] == nil {
            if let v = candidates.first(where: { $0[key] != nil })?[key] { trailer[key] = v }
        }
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
