/// An indirect object's number and generation.
struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    var num: Int
    var gen: Int
    var description: String { "\(num) \(gen) R" }
}

/// A parsed PDF object. Streams keep only their dictionary and where their data starts; the data
/// is read on demand (and only for the few streams the metadata needs).
enum PDFObject: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case real(Double)
    case string([UInt8])
    case name(String)
    case array([PDFObject])
    case dict([String: PDFObject])
    // Only the stream case is boxed: it is the one large payload. (An `indirect` enum would
    // allocate a box for every number and name the parser makes.)
    indirect case stream(PDFStream)
    case ref(ObjectID)

    var dict: [String: PDFObject]? {
        switch self {
        case .dict(let d): return d
        case .stream(let s): return s.dict
        default: return nil
        }
    }

    var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .real(let d) where d.isFinite && abs(d) < 1e15 && d == d.rounded(): return Int(d)
        default: return nil
        }
    }

    var nameValue: String? {
        if case .name(let n) = self { return n }
        return nil
    }

    var stringBytes: [UInt8]? {
        if case .string(let b) = self { return b }
        return nil
    }

    var arrayValue: [PDFObject]? {
        if case .array(let a) = self { return a }
        return nil
    }

    var refValue: ObjectID? {
        if case .ref(let r) = self { return r }
        return nil
    }
}

/// A stream object: its dictionary, the absolute offset of its first data byte, and the object
/// it belongs to (for decryption).
struct PDFStream: Sendable {
    var dict: [String: PDFObject]
    var dataOffset: Int
    var id: ObjectID?
}
