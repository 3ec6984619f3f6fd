import PDFCore
import Foundation

/// What the reader found in one PDF: the document information, the page count, and how it got
/// there (warnings, bytes read).
///
/// **Precedence:** each field comes from the Info dictionary when it is there and not blank;
/// otherwise from the XMP packet: `title` ← `dc:title`, `author` ← `dc:creator` (joined with
/// `", "`), `subject` ← `dc:description`, `keywords` ← `pdf:Keywords`, else the `dc:subject` bag,
/// `creator` ← `xmp:CreatorTool`, `producer` ← `pdf:Producer`, dates ← `xmp:CreateDate` and
/// `xmp:ModifyDate`. The Info dictionary wins because it is what every PDF tool (and `pdfinfo`)
/// shows and what incremental updates change; XMP fills the gaps left by producers that write
/// only XMP (PDF 2.0 deprecates Info in favour of XMP). ``sources`` tells where each came from.
public struct PDFDocumentMetadata: Sendable, Equatable {
    /// Where a field's value came from.
    public enum Source: String, Sendable, Equatable {
        /// The document information dictionary (`/Info`).
        case info
        /// The XMP metadata stream.
        case xmp
    }

    /// The PDF version: the header's, or the catalog's `/Version` when that is newer.
    public var version: String?
    /// `/Title`.
    public var title: String?
    /// `/Author`.
    public var author: String?
    /// `/Subject`.
    public var subject: String?
    /// The keywords as a list (see ``PDFKeywords/split(_:)`` for the rules).
    public var keywords: [String] = []
    /// The Info dictionary's `/Keywords` exactly as stored (bytes and decoded text), if any.
    public var rawKeywords: PDFTextString?
    /// `/Creator` (the application that made the original document).
    public var creator: String?
    /// `/Producer` (the application that wrote the PDF).
    public var producer: String?
    /// `/CreationDate`, parsed.
    public var creationDate: Date?
    /// `/ModDate`, parsed.
    public var modificationDate: Date?
    /// The number of pages: the page tree root's `/Count` when its kids agree with it, else the
    /// pages found by walking the tree (with a `pageCount` warning).
    public var pageCount: Int?
    /// Whether the file has an `/Encrypt` dictionary (it was opened with the empty or given password).
    public var isEncrypted: Bool = false
    /// Every repair and omission on the way, in order.
    public var warnings: [PDFWarning] = []
    /// The bytes actually read from the file (block-granular, see the benchmark).
    public var bytesRead: Int = 0
    /// The size of the file.
    public var fileSize: Int = 0
    /// Every string-valued entry of the Info dictionary, raw bytes beside decoded text.
    ///
    /// The reader keeps the entries' raw bytes and builds this dictionary (decoding each entry)
    /// each time the property is read, so that a caller who needs only the fields above pays for
    /// none of it; a caller who looks up several entries should read the property once.
    public var info: [String: PDFTextString] {
        get { infoEntries.dictionary }
        set { infoEntries = InfoEntries(newValue) }
    }
    var infoEntries = InfoEntries()
    /// The parsed XMP packet, when there is one and it parsed.
    public var xmp: XMPMetadata?
    /// For each filled field (`"title"`, `"author"`, `"subject"`, `"keywords"`, `"creator"`,
    /// `"producer"`, `"creationDate"`, `"modificationDate"`), where its value came from.
    ///
    /// Kept as two bits per field; the dictionary is built each time the property is read.
    public var sources: [String: Source] {
        get { fieldSources.dictionary }
        set { fieldSources = FieldSources(newValue) }
    }
    var fieldSources = FieldSources()

    /// Creates an empty value.
    public init() {}
}

/// The entry points of the PDF metadata reader.
///
/// ```swift
/// let meta = try PDFDocumentInfo.read(contentsOf: "report.pdf")
/// print(meta.title ?? "-", meta.pageCount ?? 0, meta.keywords)
/// ```
///
/// The reader is lazy (the tail, the cross-reference data and the handful of objects it needs:
/// trailer, catalog, page tree root, Info, XMP, Encrypt), lenient (repairs are warnings) and
/// bounded (see `PDFReadOptions`): any input ends in a value or a `PDFError`.
public enum PDFDocumentInfo {
    /// Reads the metadata of the PDF at `path`.
    public static func read(contentsOf path: String, options: PDFReadOptions = PDFReadOptions()) throws(PDFError) -> PDFDocumentMetadata {
        let src = try ByteSource(path: path)
        return try read(src, options: options)
    }

    /// Reads the metadata of a PDF held in memory (for fuzzing and tests; reads are counted the
    /// same way).
    public static func read(data: some Collection<UInt8>, options: PDFReadOptions = PDFReadOptions()) throws(PDFError) -> PDFDocumentMetadata {
        try read(ByteSource(bytes: Array(data)), options: options)
    }

    /// Reads like ``read(contentsOf:options:)``, always with the full reader (never with the
    /// fast path for plain files): for tests and fuzzing that check both give the same result.
    @_spi(Testing)
    public static func readWithFullReader(contentsOf path: String, options: PDFReadOptions = PDFReadOptions()) throws(PDFError) -> PDFDocumentMetadata {
        try read(ByteSource(path: path), options: options, fastPath: false)
    }

    /// Reads like ``read(data:options:)``, always with the full reader (see
    /// ``readWithFullReader(contentsOf:options:)``).
    @_spi(Testing)
    public static func readWithFullReader(data: some Collection<UInt8>, options: PDFReadOptions = PDFReadOptions()) throws(PDFError) -> PDFDocumentMetadata {
        try read(ByteSource(bytes: Array(data)), options: options, fastPath: false)
    }

    /// The fast path alone: the metadata when it reads the input, nil when it would hand the
    /// input to the full reader.
    @_spi(Testing)
    public static func readWithFastPath(data: some Collection<UInt8>, options: PDFReadOptions = PDFReadOptions()) -> PDFDocumentMetadata? {
        var lean = FastPathReader(src: ByteSource(bytes: Array(data)), options: options)
        return lean.read()
    }

    /// A value that leaves its field unset when it cannot be read (a damaged object), while
    /// strict mode, a missing password and I/O errors still end the read.
    static func optionalValue(_ doc: Document, _ o: PDFObject?) throws -> PDFObject? {
        do {
            return try doc.resolve(o)
        } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .passwordRequired && e.kind != .io {
            return nil
        }
    }

    static func read(_ src: ByteSource, options: PDFReadOptions, fastPath: Bool = true) throws(PDFError) -> PDFDocumentMetadata {
        // Files of the plain shape are read without building objects; anything else (and any
        // file the fast path would read differently) goes to the full reader.
        if fastPath {
            var lean = FastPathReader(src: src, options: options)
            if let m = lean.read() { return m }
        }
        let doc = Document(src: src, options: options)
        do {
            var m = try extract(doc)
            m.warnings = doc.warnings
            m.bytesRead = src.bytesRead
            m.fileSize = src.size
            return m
        } catch let e as PDFError {
            throw e
        } catch is NeedMoreData {
            throw PDFError(.truncated, "unexpected end of data")
        } catch {
            throw PDFError(.syntax, "\(error)")
        }
    }

    static func extract(_ doc: Document) throws -> PDFDocumentMetadata {
        try doc.open()
        var m = PDFDocumentMetadata()
        m.isEncrypted = doc.security != nil

        // Catalog, version, page count. Without a catalog, an intact Info dictionary is still
        // read (and the read fails only when there is none).
        var catalog: PDFDict? = nil
        var catalogError: PDFError? = nil
        if let rootRef = doc.trailer["Root"] {
            do {
                catalog = try doc.resolve(rootRef).dict
            } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .passwordRequired && e.kind != .io {
                catalogError = e
            }
        }
        let rootOffset = doc.trailer["Root"]?.refValue.flatMap { doc.offsetHint($0.num) }
        m.version = doc.headerVersion
        if let catalog {
            if let v = try optionalValue(doc, catalog["Version"])?.nameValue, isNewer(v, than: m.version) {
                m.version = v
            }
            do {
                m.pageCount = try doc.pageCount(catalog: catalog)
            } catch let e as PDFError where e.kind != .strictModeViolation && e.kind != .passwordRequired {
                try doc.warn(.pageCount, "the page tree root cannot be read: \(e.message)", offset: e.offset)
            }
        } else if doc.trailer["Info"] == nil {
            // The place: the catalog's object, else the trailer's section, else the whole file
            // (as the repair scan's own errors name it).
            throw PDFError(.missingCatalog, "the trailer's /Root is not a dictionary" + (catalogError.map { ": \($0.message)" } ?? ""),
                           offset: catalogError?.offset ?? rootOffset ?? doc.trailerOffset ?? 0)
        } else {
            try doc.warn(.unreadableCatalog, "no readable document catalog"
                         + (catalogError.map { " (\($0.message))" } ?? "")
                         + ": the document information dictionary is read alone, without a page count or XMP",
                         offset: catalogError?.offset ?? rootOffset)
        }

        // Info dictionary.
        if let infoRef = doc.trailer["Info"] {
            do {
                let info = try doc.resolve(infoRef)
                if let d = info.dict {
                    var entries: [String: PDFTextString] = [:]
                    for (k, v) in d {
                        let r = try optionalValue(doc, v)
                        switch r {
                        case .string(let b)?: entries[k] = PDFTextString(bytes: b)
                        case .name(let n)?: entries[k] = PDFTextString(bytes: Array(n.utf8))
                        default: break
                        }
                    }
                    m.info = entries
                } else if case .null = info {
                    try doc.warn(.unreadableInfo, "the /Info reference leads to nothing",
                                 offset: infoRef.refValue.flatMap { doc.offsetHint($0.num) })
                } else {
                    try doc.warn(.unreadableInfo, "/Info is not a dictionary",
                                 offset: infoRef.refValue.flatMap { doc.offsetHint($0.num) })
                }
            } catch let e as PDFError where e.kind != .strictModeViolation {
                try doc.warn(.unreadableInfo, "the document information dictionary cannot be read: \(e.message)", offset: e.offset)
            }
        }

        if catalog == nil && m.info.isEmpty {
            throw PDFError(.missingCatalog, "no readable document catalog, and no readable document information dictionary",
                           offset: catalogError?.offset ?? rootOffset ?? doc.trailerOffset ?? 0)
        }

        // XMP.
        if doc.options.readXMP, let mdRef = catalog?["Metadata"] {
            do {
                if case .stream(let s) = try doc.resolve(mdRef) {
                    let bytes = try doc.streamData(s, decrypt: true, cap: doc.options.maxMetadataStreamSize,
                                                   maxRatio: doc.options.maxMetadataInflateRatio)
                    if find(Array("<!DOCTYPE".utf8), in: bytes) != nil || find(Array("<!ENTITY".utf8), in: bytes) != nil {
                        try doc.warn(.xmpEntitiesRefused, "the XMP packet declares a DOCTYPE or entities; it is ignored",
                                     offset: s.dataOffset)
                    } else {
                        do {
                            m.xmp = try XMPMetadata.parse(bytes)
                        } catch {
                            try doc.warn(.unreadableXMP, error.message, offset: s.dataOffset)
                        }
                    }
                }
            } catch let e as PDFError where e.kind != .strictModeViolation {
                try doc.warn(.unreadableXMP, "the XMP metadata stream cannot be read: \(e.message)", offset: e.offset)
            }
        }

        try merge(&m, fields: InfoFields(m.info)) { kind, message in try doc.warn(kind, message) }
        return m
    }

    /// Fills the fields from the Info entries (`fields`: those of `m.info` that they use) and the
    /// XMP packet already in `m` (Info first), as the type's comment describes, and `sources` from
    /// scratch; `warn` receives the dates that do not parse.
    static func merge<E: Error>(_ m: inout PDFDocumentMetadata, fields info: InfoFields,
                                warn: (PDFWarning.Kind, String) throws(E) -> Void) throws(E) {
        let infoKeywords = info.keywords
        /// An entry's text, nil when it is missing or blank (only white space, U+FEFF or NUL).
        func infoText(_ t: String?) -> String? {
            guard let t else { return nil }
            // A printable ASCII first and last byte: not blank (PDFKeywords.trim's own fast path).
            if let f = t.utf8.first, let l = t.utf8.last, f > 0x20, f < 0x7F, l > 0x20, l < 0x7F { return t }
            return PDFKeywords.trim(Substring(t)).isEmpty ? nil : t
        }
        var sources = FieldSources()
        func pick(_ field: FieldSources.Field, _ value: String?, _ xmp: String?) -> String? {
            if let v = infoText(value) { sources.set(field, .info); return v }
            if let x = xmp, !x.isEmpty { sources.set(field, .xmp); return x }
            return nil
        }
        let x = m.xmp
        m.title = pick(.title, info.title, x?.title)
        m.author = pick(.author, info.author, x.flatMap { $0.creators.isEmpty ? nil : $0.creators.joined(separator: ", ") })
        m.subject = pick(.subject, info.subject, x?.description)
        m.creator = pick(.creator, info.creator, x?.creatorTool)
        m.producer = pick(.producer, info.producer, x?.producer)
        m.rawKeywords = infoKeywords
        let keywordsText = infoText(infoKeywords?.text)
        if let k = keywordsText {
            m.keywords = PDFKeywords.split(k)
        }
        if m.keywords.isEmpty, let x {
            if let k = x.keywords { m.keywords = PDFKeywords.split(k) }
            if m.keywords.isEmpty { m.keywords = PDFKeywords.merge(x.subjects.flatMap { PDFKeywords.split($0) }) }
        }
        if !m.keywords.isEmpty { sources.set(.keywords, keywordsText != nil ? .info : .xmp) }

        func date(_ field: FieldSources.Field, _ key: String, _ value: String?, _ xmp: String?) throws(E) -> Date? {
            if let s = value {
                if let d = PDFDate.parse(s) { sources.set(field, .info); return d }
                try warn(.date, "/\(key) \"\(s)\" is not a PDF date")
            }
            if let s = xmp, let d = PDFDate.parseISO8601(s) { sources.set(field, .xmp); return d }
            return nil
        }
        m.creationDate = try date(.creationDate, "CreationDate", info.creationDate, x?.createDate)
        m.modificationDate = try date(.modificationDate, "ModDate", info.modDate, x?.modifyDate)
        m.fieldSources = sources
    }

    /// The Info entries that the fields come from: the text of each, and `/Keywords` whole.
    struct InfoFields {
        var title, author, subject, creator, producer, creationDate, modDate: String?
        var keywords: PDFTextString?

        init() {}

        init(_ info: [String: PDFTextString]) {
            title = info["Title"]?.text
            author = info["Author"]?.text
            subject = info["Subject"]?.text
            keywords = info["Keywords"]
            creator = info["Creator"]?.text
            producer = info["Producer"]?.text
            creationDate = info["CreationDate"]?.text
            modDate = info["ModDate"]?.text
        }

        /// The entries above, by number: ``slot(_:)`` gives a key's.
        static let slotCount = 8

        /// The number (below ``slotCount``) of the entry `key` names, nil for other keys.
        static func slot(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
            func isKey(_ w: StaticString) -> Bool {
                guard key.count == w.utf8CodeUnitCount else { return false }
                for i in 0 ..< key.count where key[i] != w.utf8Start[i] { return false }
                return true
            }
            switch key.count {
            case 5: return isKey("Title") ? 0 : nil
            case 6: return isKey("Author") ? 1 : nil
            case 7: return isKey("Subject") ? 2 : isKey("Creator") ? 3 : isKey("ModDate") ? 4 : nil
            case 8: return isKey("Keywords") ? 5 : isKey("Producer") ? 6 : nil
            case 12: return isKey("CreationDate") ? 7 : nil
            default: return nil
            }
        }

        /// Sets the entry numbered `slot` from its raw bytes.
        mutating func set(_ slot: Int, _ raw: UnsafeBufferPointer<UInt8>) {
            if slot == 5 {
                keywords = PDFTextString(bytes: Array(raw))
                return
            }
            let text = PDFTextString.decode(raw).0
            switch slot {
            case 0: title = text
            case 1: author = text
            case 2: subject = text
            case 3: creator = text
            case 4: modDate = text
            case 6: producer = text
            default: creationDate = text
            }
        }
    }

    static func isNewer(_ a: String, than b: String?) -> Bool {
        guard let b else { return true }
        func parts(_ s: String) -> [Int] { s.split(separator: ".").map { Int($0) ?? 0 } }
        let pa = parts(a), pb = parts(b)
        for i in 0 ..< max(pa.count, pb.count) {
            let x = i < pa.count ? pa[i] : 0, y = i < pb.count ? pb[i] : 0
            if x != y { return x > y }
        }
        return false
    }
}
