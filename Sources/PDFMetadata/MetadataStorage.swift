import PDFCore
/// The storage behind ``PDFDocumentMetadata/info``: the Info dictionary's string entries as the fast
/// path kept them (one byte buffer, in file order), or a dictionary that a caller or the full
/// reader assigned. The public dictionary is built from the buffer when it is asked for, so a
/// reader that uses only the fields (title, author, keywords...) never builds it.
struct InfoEntries: Sendable, Equatable {
    private enum Storage {
        case dictionary([String: PDFTextString])
        /// Records in file order: key length (2 bytes, little-endian), the key (ASCII), a tag (1:
        /// a string, 0: the key is left out, as a later entry of another kind or `null` does),
        /// and for a string its length (4 bytes, little-endian) and raw bytes.
        case packed([UInt8])
    }

    private var storage: Storage

    init() { storage = .dictionary([:]) }

    init(_ dictionary: [String: PDFTextString]) { storage = .dictionary(dictionary) }

    init(packed: [UInt8]) { storage = .packed(packed) }

    var dictionary: [String: PDFTextString] {
        switch storage {
        case .dictionary(let d): return d
        case .packed(let p): return InfoEntries.unpack(p)
        }
    }

    static func == (a: InfoEntries, b: InfoEntries) -> Bool {
        if case .packed(let x) = a.storage, case .packed(let y) = b.storage, x == y { return true }
        return a.dictionary == b.dictionary
    }

    private static func unpack(_ p: [UInt8]) -> [String: PDFTextString] {
        var out: [String: PDFTextString] = Dictionary(minimumCapacity: 8)
        p.withUnsafeBufferPointer { b in
            var i = 0
            while i + 3 <= b.count {
                let keyLength = Int(b[i]) | Int(b[i + 1]) << 8
                let key = String(decoding: UnsafeBufferPointer(rebasing: b[i + 2 ..< i + 2 + keyLength]), as: UTF8.self)
                i += 2 + keyLength
                let tag = b[i]
                i += 1
                if tag == 0 {
                    out[key] = nil
                    continue
                }
                let n = Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
                i += 4
                out[key] = PDFTextString(bytes: Array(b[i ..< i + n]))
                i += n
            }
        }
        return out
    }
}

/// Appends records to the packed form of ``InfoEntries``.
struct InfoEntriesWriter {
    var bytes: [UInt8] = []

    /// Appends an entry whose value is a string with raw bytes `value`, or (nil) one that leaves
    /// the key out; returns where the value's bytes start in ``bytes``.
    @discardableResult
    mutating func append(key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>?) -> Int {
        let head = bytes.count
        let total = 3 + key.count + (value.map { 4 + $0.count } ?? 0)
        if bytes.capacity < head + total { bytes.reserveCapacity(max(256, 2 * (head + total))) }
        bytes.append(contentsOf: repeatElement(0, count: total))
        return bytes.withUnsafeMutableBufferPointer { b -> Int in
            var i = head
            b[i] = UInt8(truncatingIfNeeded: key.count)
            b[i + 1] = UInt8(truncatingIfNeeded: key.count >> 8)
            i += 2
            if key.count > 0 { (b.baseAddress! + i).update(from: key.baseAddress!, count: key.count) }
            i += key.count
            guard let value else { return i + 1 } // the tag stays 0
            let n = value.count
            b[i] = 1
            b[i + 1] = UInt8(truncatingIfNeeded: n)
            b[i + 2] = UInt8(truncatingIfNeeded: n >> 8)
            b[i + 3] = UInt8(truncatingIfNeeded: n >> 16)
            b[i + 4] = UInt8(truncatingIfNeeded: n >> 24)
            i += 5
            if n > 0 { (b.baseAddress! + i).update(from: value.baseAddress!, count: n) }
            return i
        }
    }
}

/// The storage behind ``PDFDocumentMetadata/sources``: two bits per field that the merge fills (none,
/// Info, XMP), or a dictionary that a caller assigned. The public dictionary is built when it is
/// asked for.
struct FieldSources: Sendable, Equatable {
    /// The fields in bit order (bits `2k`, `2k + 1` for field k).
    static let names = ["title", "author", "subject", "keywords", "creator", "producer", "creationDate", "modificationDate"]

    enum Field: Int {
        case title, author, subject, keywords, creator, producer, creationDate, modificationDate
    }

    private var bits: UInt16 = 0
    private var assigned: [String: PDFDocumentMetadata.Source]? = nil

    init() {}

    init(_ dictionary: [String: PDFDocumentMetadata.Source]) { assigned = dictionary }

    mutating func set(_ field: Field, _ source: PDFDocumentMetadata.Source) {
        if assigned != nil {
            assigned![FieldSources.names[field.rawValue]] = source
            return
        }
        let shift = UInt16(2 * field.rawValue)
        bits = bits & ~(3 << shift) | (source == .info ? 1 : 2) << shift
    }

    var dictionary: [String: PDFDocumentMetadata.Source] {
        if let assigned { return assigned }
        var out: [String: PDFDocumentMetadata.Source] = [:]
        if bits == 0 { return out }
        out.reserveCapacity(bits.nonzeroBitCount)
        for k in 0 ..< FieldSources.names.count {
            switch bits >> UInt16(2 * k) & 3 {
            case 1: out[FieldSources.names[k]] = .info
            case 2: out[FieldSources.names[k]] = .xmp
            default: break
            }
        }
        return out
    }

    static func == (a: FieldSources, b: FieldSources) -> Bool {
        if a.assigned == nil && b.assigned == nil { return a.bits == b.bits }
        return a.dictionary == b.dictionary
    }
}
