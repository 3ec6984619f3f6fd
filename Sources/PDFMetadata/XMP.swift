import PDFCore
/// The fields the reader takes from an XMP packet (the catalog's `/Metadata` stream).
///
/// Parsed by a small XML parser of our own that **refuses** any `<!DOCTYPE` or `<!ENTITY`
/// declaration (nothing is ever expanded or fetched) and caps nesting and element counts.
/// Namespaces are resolved by URI, so any prefix works.
public struct XMPMetadata: Sendable, Equatable {
    /// `dc:title`: the `x-default` alternative first, else the first one (an `rdf:Bag` or `rdf:Seq`
    /// title, a known producer bug, is read the same way; so is a plain text value).
    public var title: String?
    /// `dc:description` (the XMP twin of the Info dictionary's `/Subject`).
    public var description: String?
    /// `dc:creator` items (normally an `rdf:Seq`).
    public var creators: [String] = []
    /// `dc:subject` items (normally an `rdf:Bag`): the XMP keywords list.
    public var subjects: [String] = []
    /// `pdf:Keywords`: the XMP twin of the Info dictionary's `/Keywords`.
    public var keywords: String?
    /// `pdf:Producer`.
    public var producer: String?
    /// `xmp:CreatorTool` (the twin of `/Creator`).
    public var creatorTool: String?
    /// `xmp:CreateDate`, as written.
    public var createDate: String?
    /// `xmp:ModifyDate`, as written.
    public var modifyDate: String?

    /// Creates an empty value.
    public init() {}

    static let nsRDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let nsDC = "http://purl.org/dc/elements/1.1/"
    static let nsPDF = "http://ns.adobe.com/pdf/1.3/"
    static let nsXMP = "http://ns.adobe.com/xap/1.0/"
    static let nsXML = "http://www.w3.org/XML/1998/namespace"

    /// Parses an XMP packet. Throws `PDFError` of kind `.syntax` for malformed XML and of kind
    /// `.limitExceeded` for a refused DOCTYPE/ENTITY declaration or a cap exceeded.
    public static func parse(_ bytes: [UInt8]) throws(PDFError) -> XMPMetadata {
        var xml = XMLTiny(bytes: bytes)
        let root = try xml.parseDocument()
        var m = XMPMetadata()
        root.walk { el in
            guard el.uri == nsRDF && el.local == "Description" else { return }
            // Simple properties written as attributes.
            for a in el.attributes {
                m.take(uri: a.uri, local: a.local, values: [(nil, a.value)], isContainer: false)
            }
            for p in el.children {
                if let container = p.children.first(where: { $0.uri == nsRDF && ["Alt", "Bag", "Seq"].contains($0.local) }) {
                    let items = container.children
                        .filter { $0.uri == nsRDF && $0.local == "li" }
                        .map { li -> (String?, String) in
                            (li.attributes.first(where: { $0.uri == nsXML && $0.local == "lang" })?.value, itemText(li))
                        }
                    m.take(uri: p.uri, local: p.local, values: items, isContainer: true)
                } else {
                    m.take(uri: p.uri, local: p.local, values: [(nil, p.text)], isContainer: false)
                }
            }
        }
        return m
    }

    /// The text of a container item: its own text, or for a qualified item (RDF's
    /// `rdf:parseType="Resource"`, a nested `rdf:Description`, or the attribute form) its
    /// `rdf:value`, so that the item keeps its place in the list instead of being dropped.
    static func itemText(_ li: XMLElement) -> String {
        func value(_ e: XMLElement) -> String? {
            if let a = e.attributes.first(where: { $0.uri == nsRDF && $0.local == "value" }) { return a.value }
            return e.children.first(where: { $0.uri == nsRDF && $0.local == "value" })?.text
        }
        if let v = value(li) { return v }
        if let d = li.children.first(where: { $0.uri == nsRDF && $0.local == "Description" }), let v = value(d) { return v }
        return li.text
    }

    private mutating func take(uri: String, local: String, values: [(lang: String?, text: String)], isContainer: Bool) {
        func trimmed(_ s: String) -> String? {
            let t = PDFKeywords.trim(Substring(s))
            return t.isEmpty ? nil : t
        }
        func best() -> String? {
            if let x = values.first(where: { $0.lang?.lowercased() == "x-default" }), let t = trimmed(x.text) { return t }
            return values.lazy.compactMap { trimmed($0.text) }.first
        }
        let all = values.compactMap { trimmed($0.text) }
        switch (uri, local) {
        case (XMPMetadata.nsDC, "title"): if title == nil { title = best() }
        case (XMPMetadata.nsDC, "description"): if description == nil { description = best() }
        case (XMPMetadata.nsDC, "creator"): if creators.isEmpty { creators = all }
        case (XMPMetadata.nsDC, "subject"): if subjects.isEmpty { subjects = all }
        case (XMPMetadata.nsPDF, "Keywords"): if keywords == nil { keywords = best() }
        case (XMPMetadata.nsPDF, "Producer"): if producer == nil { producer = best() }
        case (XMPMetadata.nsXMP, "CreatorTool"): if creatorTool == nil { creatorTool = best() }
        case (XMPMetadata.nsXMP, "CreateDate"): if createDate == nil { createDate = best() }
        case (XMPMetadata.nsXMP, "ModifyDate"): if modifyDate == nil { modifyDate = best() }
        default: break
        }
    }
}

/// An element of the tiny XML tree.
final class XMLElement {
    var uri = ""
    var local = ""
    var attributes: [(uri: String, local: String, value: String)] = []
    var children: [XMLElement] = []
    var text = ""

    func walk(_ body: (XMLElement) -> Void) {
        var stack: [XMLElement] = [self]
        while let e = stack.popLast() {
            body(e)
            stack.append(contentsOf: e.children.reversed())
        }
    }
}

/// A minimal, non-validating XML parser for XMP packets: elements, attributes, namespaces,
/// text, CDATA, comments, processing instructions, the five predefined entities and character
/// references. Any DOCTYPE or ENTITY declaration is refused.
struct XMLTiny {
    let b: [UInt8]
    var i = 0
    var elements = 0
    static let maxDepth = 64
    static let maxElements = 100_000

    init(bytes: [UInt8]) {
        var bytes = bytes
        // Transcode UTF-16 packets (allowed by XMP) to UTF-8.
        if bytes.count >= 2 && (bytes[0] == 0xFE && bytes[1] == 0xFF || bytes[0] == 0xFF && bytes[1] == 0xFE) {
            bytes = Array(bytes.withUnsafeBufferPointer { PDFTextString.utf16($0, from: 2, bigEndian: bytes[0] == 0xFE) }.utf8)
        } else if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            bytes.removeFirst(3)
        }
        b = bytes
    }

    func err(_ m: String) -> PDFError { PDFError(.syntax, "XMP: \(m) at packet byte \(i)") }

    func starts(_ s: String, at k: Int) -> Bool {
        var j = k
        for c in s.utf8 {
            guard j < b.count, b[j] == c else { return false }
            j += 1
        }
        return true
    }

    mutating func skip(past s: String) throws(PDFError) {
        let pat = Array(s.utf8)
        guard let k = find(pat, in: b, from: i) else { throw err("unterminated construct") }
        i = k + pat.count
    }

    mutating func parseDocument() throws(PDFError) -> XMLElement {
        // Refuse entity declarations anywhere, before anything is parsed.
        if find(Array("<!DOCTYPE".utf8), in: b) != nil || find(Array("<!ENTITY".utf8), in: b) != nil {
            throw PDFError(.limitExceeded, "XMP packet declares a DOCTYPE or entities; refused")
        }
        let root = XMLElement()
        try parseContent(into: root, scopes: [["xml": XMPMetadata.nsXML]], depth: 0, closing: nil)
        return root
    }

    /// Parses content until the closing tag `closing` (or the end, at top level).
    mutating func parseContent(into parent: XMLElement, scopes: [[String: String]], depth: Int, closing: String?) throws(PDFError) {
        var text: [UInt8] = []
        while i < b.count {
            if b[i] != UInt8(ascii: "<") {
                let start = i
                var amp = false
                while i < b.count && b[i] != UInt8(ascii: "<") {
                    if b[i] == UInt8(ascii: "&") { amp = true }
                    i += 1
                }
                if amp { text.append(contentsOf: XMLTiny.unescape(b[start ..< i])) } else { text.append(contentsOf: b[start ..< i]) }
                continue
            }
            if starts("<!--", at: i) { i += 4; try skip(past: "-->"); continue }
            if starts("<![CDATA[", at: i) {
                i += 9
                let start = i
                try skip(past: "]]>")
                text.append(contentsOf: b[start ..< i - 3])
                continue
            }
            if starts("<?", at: i) { i += 2; try skip(past: "?>"); continue }
            if starts("<!", at: i) { throw err("declarations are not allowed") }
            if starts("</", at: i) {
                i += 2
                let name = readName()
                while i < b.count && b[i] != UInt8(ascii: ">") { i += 1 }
                i += 1
                guard let closing else { continue } // stray close at top level: ignore
                if name != closing { throw err("</\(name)> closes <\(closing)>") }
                parent.text = String(decoding: text, as: UTF8.self)
                return
            }
            try parseElement(into: parent, scopes: scopes, depth: depth + 1)
        }
        if closing != nil { throw err("unterminated element") }
        parent.text = String(decoding: text, as: UTF8.self)
    }

    mutating func parseElement(into parent: XMLElement, scopes: [[String: String]], depth: Int) throws(PDFError) {
        guard depth <= XMLTiny.maxDepth else { throw PDFError(.limitExceeded, "XMP nested deeper than \(XMLTiny.maxDepth)") }
        elements += 1
        guard elements <= XMLTiny.maxElements else { throw PDFError(.limitExceeded, "XMP has too many elements") }
        i += 1
        let qname = readName()
        guard !qname.isEmpty else { throw err("bad element name") }
        var rawAttrs: [(String, String)] = []
        var selfClosing = false
        while true {
            skipSpace()
            guard i < b.count else { throw err("unterminated tag") }
            if b[i] == UInt8(ascii: "/") && i + 1 < b.count && b[i + 1] == UInt8(ascii: ">") { i += 2; selfClosing = true; break }
            if b[i] == UInt8(ascii: ">") { i += 1; break }
            let an = readName()
            guard !an.isEmpty else { throw err("bad attribute") }
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { throw err("attribute without value") }
            i += 1
            skipSpace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else { throw err("unquoted attribute") }
            let q = b[i]
            i += 1
            let start = i
            while i < b.count && b[i] != q { i += 1 }
            guard i < b.count else { throw err("unterminated attribute") }
            rawAttrs.append((an, String(decoding: XMLTiny.unescape(b[start ..< i]), as: UTF8.self)))
            i += 1
        }
        var scope = scopes.last ?? [:]
        for (n, v) in rawAttrs {
            if n == "xmlns" { scope[""] = v } else if n.hasPrefix("xmlns:") { scope[String(n.dropFirst(6))] = v }
        }
        func split(_ q: String, isAttr: Bool) -> (String, String) {
            if let c = q.firstIndex(of: ":") {
                return (scope[String(q[..<c])] ?? "", String(q[q.index(after: c)...]))
            }
            return (isAttr ? "" : scope[""] ?? "", q)
        }
        let el = XMLElement()
        (el.uri, el.local) = split(qname, isAttr: false)
        for (n, v) in rawAttrs where n != "xmlns" && !n.hasPrefix("xmlns:") {
            let (u, l) = split(n, isAttr: true)
            el.attributes.append((u, l, v))
        }
        parent.children.append(el)
        if !selfClosing {
            try parseContent(into: el, scopes: [scope], depth: depth, closing: qname)
        }
    }

    mutating func readName() -> String {
        let start = i
        while i < b.count {
            let c = b[i]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ">") || c == UInt8(ascii: "/")
                || c == UInt8(ascii: "=") || c == UInt8(ascii: "<") { break }
            i += 1
        }
        return String(decoding: b[start ..< i], as: UTF8.self)
    }

    mutating func skipSpace() {
        while i < b.count && (b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D) { i += 1 }
    }

    static func unescape(_ s: ArraySlice<UInt8>) -> [UInt8] {
        guard s.contains(UInt8(ascii: "&")) else { return Array(s) }
        var out: [UInt8] = []
        var k = s.startIndex
        while k < s.endIndex {
            let c = s[k]
            if c == UInt8(ascii: "&"), let semi = s[k...].prefix(12).firstIndex(of: UInt8(ascii: ";")) {
                let name = String(decoding: s[(k + 1) ..< semi], as: UTF8.self)
                var rep: [UInt8]? = nil
                switch name {
                case "lt": rep = [UInt8(ascii: "<")]
                case "gt": rep = [UInt8(ascii: ">")]
                case "amp": rep = [UInt8(ascii: "&")]
                case "quot": rep = [UInt8(ascii: "\"")]
                case "apos": rep = [UInt8(ascii: "'")]
                default:
                    if name.hasPrefix("#x") || name.hasPrefix("#X"), let v = UInt32(name.dropFirst(2), radix: 16), let u = Unicode.Scalar(v) {
                        rep = Array(String(Character(u)).utf8)
                    } else if name.hasPrefix("#"), let v = UInt32(name.dropFirst(1)), let u = Unicode.Scalar(v) {
                        rep = Array(String(Character(u)).utf8)
                    }
                }
                if let rep {
                    out.append(contentsOf: rep)
                    k = semi + 1
                    continue
                }
            }
            out.append(c)
            k += 1
        }
        return out
    }
}
