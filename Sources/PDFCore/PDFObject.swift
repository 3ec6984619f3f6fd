/// An indirect object's number and generation.
package struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    package var num: Int
    package var gen: Int
    package var description: String { "\(num) \(gen) R" }
}

/// A parsed PDF object. Streams keep only their dictionary and where their data starts; the data
/// is read on demand (and only for the few streams the metadata needs).
package enum PDFObject: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case real(Double)
    case string([UInt8])
    case name(String)
    case array([PDFObject])
    case dict(PDFDict)
    // Only the stream case is boxed: it is the one large payload. (An `indirect` enum would
    // allocate a box for every number and name the parser makes.)
    indirect case stream(PDFStream)
    case ref(ObjectID)

    package var dict: PDFDict? {
        switch self {
        case .dict(let d): return d
        case .stream(let s): return s.dict
        default: return nil
        }
    }

    package var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .real(let d) where d.isFinite && abs(d) < 1e15 && d == d.rounded(): return Int(d)
        default: return nil
        }
    }

    package var nameValue: String? {
        if case .name(let n) = self { return n }
        return nil
    }

    package var stringBytes: [UInt8]? {
        if case .string(let b) = self { return b }
        return nil
    }

    package var arrayValue: [PDFObject]? {
        if case .array(let a) = self { return a }
        return nil
    }

    package var refValue: ObjectID? {
        if case .ref(let r) = self { return r }
        return nil
    }
}

/// A stream object: its dictionary, the absolute offset of its first data byte, and the object
/// it belongs to (for decryption).
package struct PDFStream: Sendable {
    package var dict: PDFDict
    package var dataOffset: Int
    package var id: ObjectID?
}

/// A PDF dictionary, kept as the list of its entries in file order instead of a hash table.
///
/// Real dictionaries have a handful of keys and are read a few times each, so a linear search
/// beats hashing (a `Dictionary` paid a seeded SipHash per insert and lookup and three
/// allocations per dictionary, a tenth of a small file's reading time). Entries are only ever
/// appended: a repeated key shadows the earlier one (lookups search from the end, so the last
/// wins, as before), and a removed key is shadowed by a `null` entry, which reads as absent. So
/// building a dictionary of n entries costs O(n) whatever its keys, and a hostile dictionary of
/// millions of keys costs one pass per lookup, not a quadratic build.
package struct PDFDict: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Element = (key: String, value: PDFObject)

    private(set) var entries: [Element] = []

    package init() {}

    package init(minimumCapacity: Int) { entries.reserveCapacity(minimumCapacity) }

    package init(dictionaryLiteral elements: (String, PDFObject)...) {
        for (k, v) in elements { entries.append((k, v)) }
    }

    /// The value of the last entry for `key`, nil when there is none or it is `null`.
    package subscript(key: String) -> PDFObject? {
        get {
            var i = entries.count - 1
            while i >= 0 {
                if entries[i].key == key {
                    if case .null = entries[i].value { return nil }
                    return entries[i].value
                }
                i -= 1
            }
            return nil
        }
        set {
            var i = entries.count - 1
            while i >= 0 {
                if entries[i].key == key {
                    entries[i].value = newValue ?? .null
                    return
                }
                i -= 1
            }
            if let newValue { entries.append((key, newValue)) }
        }
    }

    /// Appends an entry without looking for an earlier one (the parser's insert: O(1)).
    package mutating func append(_ key: String, _ value: PDFObject) {
        entries.append((key, value))
    }

    @discardableResult
    package mutating func removeValue(forKey key: String) -> PDFObject? {
        let old = self[key]
        if old != nil { self[key] = nil }
        return old
    }

    /// Whether no key has a value.
    package var isEmpty: Bool { !entries.contains { if case .null = $0.value { return false }; return true } }

    /// The live entries (each key once, its last value; `null` values left out), in file order.
    package func makeIterator() -> IndexingIterator<[Element]> {
        var out: [Element] = []
        out.reserveCapacity(entries.count)
        if entries.count <= 16 {
            for (i, e) in entries.enumerated() {
                var shadowed = false
                var j = i + 1
                while j < entries.count { if entries[j].key == e.key { shadowed = true; break }; j += 1 }
                if shadowed { continue }
                if case .null = e.value { continue }
                out.append(e)
            }
        } else {
            var seen = Set<String>()
            for e in entries.reversed() where seen.insert(e.key).inserted {
                if case .null = e.value { continue }
                out.append(e)
            }
            out.reverse()
        }
        return out.makeIterator()
    }

    /// A dictionary with the same live entries, each value transformed.
    package func mapValues(_ transform: (PDFObject) throws -> PDFObject) rethrows -> PDFDict {
        var d = PDFDict(minimumCapacity: entries.count)
        for e in self { d.entries.append((e.key, try transform(e.value))) }
        return d
    }
}
