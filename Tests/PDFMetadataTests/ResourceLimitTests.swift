import Foundation
import PDFMetadata
import PDFCore
import TestSupport
import Testing

/// A classic PDF written from object bodies: `objects[k]` becomes object `k + 1`; returns the
/// bytes and each object's offset. `startOffset` shifts the offsets (for a head written at 0 of a
/// larger file, it is 0).
func classicPDF(_ objects: [String], trailer: String, startxref: Int? = nil) -> [UInt8] {
    var out = Array("%PDF-1.4\n".utf8)
    var offsets: [Int] = []
    for (k, body) in objects.enumerated() {
        offsets.append(out.count)
        out += Array("\(k + 1) 0 obj\n\(body)\nendobj\n".utf8)
    }
    let xrefAt = out.count
    out += Array(xrefTable(offsets).utf8)
    out += Array("trailer\n\(trailer)\nstartxref\n\(startxref ?? xrefAt)\n%%EOF\n".utf8)
    return out
}

/// `xref`, one subsection from object 0, 20-byte entries.
func xrefTable(_ offsets: [Int]) -> String {
    var text = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
    for o in offsets { text += String(repeating: "0", count: 10 - String(o).count) + "\(o) 00000 n \n" }
    return text
}

/// Writes `head` at 0 and `tail` at `tailOffset` with a hole between them (no disk blocks are
/// used for the hole), so the file is `tailOffset + tail.count` bytes long.
func writeSparse(_ path: String, head: [UInt8], tailOffset: Int, tail: [UInt8]) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    #expect(fd >= 0)
    defer { close(fd) }
    _ = head.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    #expect(ftruncate(fd, off_t(tailOffset)) == 0)
    _ = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(tailOffset)) }
}

let sparseObjects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    "<< /Title (Sparse) /Keywords (hole, tail) >>",
]

/// The head of the sparse files: the four objects above, and their offsets.
func sparseHead() -> (bytes: [UInt8], offsets: [Int]) {
    var out = Array("%PDF-1.4\n".utf8)
    var offsets: [Int] = []
    for (k, body) in sparseObjects.enumerated() {
        offsets.append(out.count)
        out += Array("\(k + 1) 0 obj\n\(body)\nendobj\n".utf8)
    }
    return (out, offsets)
}

/// Hostile sizes: a 1 GB file that is mostly a hole, and cross-reference data that claims millions
/// of entries. Every case must end in a result or a `PDFError` quickly and without large
/// allocations; they are fast by design (the PDFMetadata documentation, *Limits*: measured times and memory).
@Suite("PDF resource limits")
struct PDFResourceLimitTests {
    static let gigabyte = 1_000_000_000

    @Test("a sparse 1 GB file with its trailer at the end is read from head and tail only")
    func sparseWithTrailerAtTheEnd() throws {
        let folder = try Scratch("bubbles-pdf-limits")
        defer { folder.remove() }
        let path = folder.path + "/sparse.pdf"
        let (head, offsets) = sparseHead()
        let tailOffset = Self.gigabyte - 4096
        let tail = Array((xrefTable(offsets) + "trailer\n<< /Size 5 /Root 1 0 R /Info 4 0 R >>\nstartxref\n\(tailOffset)\n%%EOF\n").utf8)
        try writeSparse(path, head: head, tailOffset: tailOffset, tail: tail)
        let meta = try PDFDocumentInfo.read(contentsOf: path)
        #expect(meta.title == "Sparse")
        #expect(meta.keywords == ["hole", "tail"])
        #expect(meta.pageCount == 1)
        #expect(meta.warnings.isEmpty)
        #expect(meta.fileSize > Self.gigabyte - 4096)
        #expect(meta.bytesRead < 64 << 10)
    }

    @Test("a sparse 1 GB file whose startxref points into the hole or past the end", arguments: [500_000_000, 5_000_000_000_000])
    func sparseWithWildStartxref(startxref: Int) throws {
        let folder = try Scratch("bubbles-pdf-limits")
        defer { folder.remove() }
        let path = folder.path + "/sparse.pdf"
        let (head, _) = sparseHead()
        let tail = Array("trailer\n<< /Size 5 /Root 1 0 R /Info 4 0 R >>\nstartxref\n\(startxref)\n%%EOF\n".utf8)
        try writeSparse(path, head: head, tailOffset: Self.gigabyte - 4096, tail: tail)
        // The xref is unusable, so the file is repaired by a scan of the whole gigabyte (fast: the
        // scan jumps between candidate bytes) and the trailer at the end is found.
        let meta = try PDFDocumentInfo.read(contentsOf: path)
        #expect(meta.title == "Sparse")
        #expect(meta.pageCount == 1)
        #expect(meta.warnings.contains { $0.kind == .xrefRebuilt })
        // Above the repair-scan limit the same file is refused, not scanned.
        var options = PDFReadOptions()
        options.maxRepairScanBytes = 256 << 20
        #expect {
            _ = try PDFDocumentInfo.read(contentsOf: path, options: options)
        } throws: { error in
            (error as? PDFError)?.kind == .limitExceeded && (error as? PDFError)?.message.contains("repair") == true
        }
    }

    @Test("a classic xref section header that claims 5 million entries")
    func classicTableClaimingMillions() throws {
        // The table claims 5 000 000 entries but holds five, then the trailer: the reader must not
        // reserve room for the claim, and ends in the repaired file.
        let (head, offsets) = sparseHead()
        var table = xrefTable(offsets)
        table = table.replacingOccurrences(of: "xref\n0 5\n", with: "xref\n0 5000000\n")
        let bytes = head + Array((table + "trailer\n<< /Size 5000000 /Root 1 0 R /Info 4 0 R >>\nstartxref\n\(head.count)\n%%EOF\n").utf8)
        let meta = try PDFDocumentInfo.read(data: bytes)
        #expect(meta.title == "Sparse")
        #expect(meta.warnings.contains { $0.kind == .brokenXrefSection || $0.kind == .xrefRebuilt })
        // The same claim with 10 000 001 entries is over the per-section limit outright.
        let bigger = head + Array((table.replacingOccurrences(of: "0 5000000", with: "0 10000001")
            + "trailer\n<< /Size 10000001 /Root 1 0 R /Info 4 0 R >>\nstartxref\n\(head.count)\n%%EOF\n").utf8)
        let repaired = try PDFDocumentInfo.read(data: bigger)
        #expect(repaired.title == "Sparse")
    }

    @Test("an xref stream with /Size 5000000 and /Index [0 5000000] but a few entries")
    func xrefStreamClaimingMillions() throws {
        let (head, offsets) = sparseHead()
        // W [1 4 1]: type, offset, generation; five entries of data.
        var data: [UInt8] = [0, 0, 0, 0, 0, 0xFF]
        for o in offsets { data += [1, UInt8(o >> 24 & 0xFF), UInt8(o >> 16 & 0xFF), UInt8(o >> 8 & 0xFF), UInt8(o & 0xFF), 0] }
        let streamAt = head.count
        var bytes = head
        bytes += Array("5 0 obj\n<< /Type /XRef /Size 5000000 /Index [0 5000000] /W [1 4 1] /Root 1 0 R /Info 4 0 R /Length \(data.count) >>\nstream\n".utf8)
        bytes += data
        bytes += Array("\nendstream\nendobj\nstartxref\n\(streamAt)\n%%EOF\n".utf8)
        let meta = try PDFDocumentInfo.read(data: bytes)
        #expect(meta.title == "Sparse")
        #expect(meta.pageCount == 1)
        #expect(meta.warnings.isEmpty)
    }

    @Test("xref streams chained by /Prev may not add up to more than maxXrefEntries")
    func xrefSectionsAddingUp() throws {
        // Each section is an uncompressed xref stream of 1-byte entries (W [0 1 0]: every entry
        // "in file at offset 1"), 40 000 entries each under distinct numbers, chained by /Prev.
        let (head, _) = sparseHead()
        var bytes = head
        var previous: Int? = nil
        let perSection = 40_000
        for s in 0 ..< 8 {
            let at = bytes.count
            let prev = previous.map { " /Prev \($0)" } ?? ""
            bytes += Array("\(10 + s) 0 obj\n<< /Type /XRef /Size \(perSection * 8) /Index [\(s * perSection) \(perSection)] /W [0 1 0]\(prev) /Root 1 0 R /Info 4 0 R /Length \(perSection) >>\nstream\n".utf8)
            bytes += [UInt8](repeating: 1, count: perSection)
            bytes += Array("\nendstream\nendobj\n".utf8)
            previous = at
        }
        bytes += Array("startxref\n\(previous!)\n%%EOF\n".utf8)
        var options = PDFReadOptions()
        options.maxXrefEntries = 100_000
        // The chain is refused at the third section; the reader falls back to the repair scan,
        // which finds the head's objects.
        let meta = try PDFDocumentInfo.read(data: bytes, options: options)
        #expect(meta.title == "Sparse")
        #expect(meta.warnings.contains { $0.kind == .brokenXrefSection && $0.message.contains("100000") })
        options.strict = true
        #expect(throws: PDFError.self) { try PDFDocumentInfo.read(data: bytes, options: options) }

        // One section alone over the limit is refused while it is read.
        var single = head
        let count = 150_000
        single += Array("10 0 obj\n<< /Type /XRef /Size \(count) /W [0 1 0] /Root 1 0 R /Info 4 0 R /Length \(count) >>\nstream\n".utf8)
        single += [UInt8](repeating: 1, count: count)
        single += Array("\nendstream\nendobj\nstartxref\n\(head.count)\n%%EOF\n".utf8)
        options.strict = false
        let repaired = try PDFDocumentInfo.read(data: single, options: options)
        #expect(repaired.title == "Sparse")
        #expect(repaired.warnings.contains { $0.kind == .brokenXrefSection && $0.message.contains("more than 100000") })
    }

    @Test("object streams whose /Length lives in the next object stream, 2 000 deep")
    func nestedObjectStreamLengths() throws {
        // Object 4 (the Info dictionary) is in object stream 1000; stream 1000 + i has its
        // /Length in object 5000 + i + 1, which is in stream 1000 + i + 1, and so on: resolving
        // the Info dictionary nests one level per stream. The nesting is cut at
        // `maxReferenceChain`; the length is then found by searching for `endstream`.
        let links = 2000
        var bytes = Array("%PDF-1.5\n".utf8)
        var inFile: [Int: Int] = [:]
        var compressed: [Int: Int] = [:]
        func add(_ num: Int, _ body: String) {
            inFile[num] = bytes.count
            bytes += Array("\(num) 0 obj\n\(body)\nendobj\n".utf8)
        }
        add(1, "<< /Type /Catalog /Pages 2 0 R >>")
        add(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        add(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>")
        for i in 0 ..< links {
            let inner = i == 0 ? (4, "<< /Title (Nested) >>") : (5000 + i, "\(i)")
            let header = "\(inner.0) 0 "
            let data = header + inner.1
            compressed[inner.0] = 1000 + i
            let length = i + 1 < links ? "\(5000 + i + 1) 0 R" : "\(data.utf8.count)"
            add(1000 + i, "<< /Type /ObjStm /N 1 /First \(header.utf8.count) /Length \(length) >>\nstream\n\(data)\nendstream")
        }
        // An uncompressed xref stream, W [1 4 2].
        let xrefNum = 9000
        let xrefAt = bytes.count
        inFile[xrefNum] = xrefAt
        let size = xrefNum + 1
        var entries: [UInt8] = []
        for num in 0 ..< size {
            if let off = inFile[num] {
                entries += [1, UInt8(off >> 24 & 0xFF), UInt8(off >> 16 & 0xFF), UInt8(off >> 8 & 0xFF), UInt8(off & 0xFF), 0, 0]
            } else if let stream = compressed[num] {
                entries += [2, 0, 0, UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF), 0, 0]
            } else {
                entries += [0, 0, 0, 0, 0, 0xFF, 0xFF]
            }
        }
        bytes += Array("\(xrefNum) 0 obj\n<< /Type /XRef /Size \(size) /W [1 4 2] /Root 1 0 R /Info 4 0 R /Length \(entries.count) >>\nstream\n".utf8)
        bytes += entries
        bytes += Array("\nendstream\nendobj\nstartxref\n\(xrefAt)\n%%EOF\n".utf8)

        let meta = try PDFDocumentInfo.read(data: bytes)
        #expect(meta.title == "Nested")
        #expect(meta.warnings.contains { $0.kind == .streamLength })
    }

    @Test("a page tree of 300 000 kids under /Count 1 is walked up to maxPageTreeNodes, then /Count is kept")
    func hugePageTree() throws {
        // Kids 5 ... 300 004: two real pages, the rest missing (each a null once the repair scan
        // has looked for it). The root says 1, so the tree is walked.
        var kids = "5 0 R 6 0 R"
        for n in 7 ..< 300_005 { kids += " \(n) 0 R" }
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids 3 0 R /Count 1 >>",
            "[\(kids)]",
            "<< /Title (Wide tree) >>",
            "<< /Type /Page /Parent 2 0 R >>",
            "<< /Type /Page /Parent 2 0 R >>",
        ]
        let bytes = classicPDF(objects, trailer: "<< /Size 7 /Root 1 0 R /Info 4 0 R >>")
        let meta = try PDFDocumentInfo.read(data: bytes)
        #expect(meta.title == "Wide tree")
        #expect(meta.pageCount == 1)
        #expect(meta.warnings.contains { $0.kind == .pageCount && $0.message.contains("more than 200000 nodes") })
        // Under the bound, the walk counts the two pages.
        var o = PDFReadOptions()
        o.maxPageTreeNodes = 400_000
        #expect(try PDFDocumentInfo.read(data: bytes, options: o).pageCount == 2)
    }
}
