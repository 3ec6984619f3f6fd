/// A failure to read a PDF: what went wrong, in words, and where in the file.
///
/// Every input, whatever its bytes, ends either in a `PDFMetadata` value or in a `PDFError`;
/// the reader never traps on input-derived data.
public struct PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category of a failure, stable enough to branch on.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The file could not be opened or read.
        case io
        /// No `%PDF-` header and no objects: not a PDF at all.
        case notAPDF
        /// A syntax error the reader could not work around.
        case syntax
        /// The data ended in the middle of something that was needed.
        case truncated
        /// No usable cross-reference data and no usable trailer, even after a repair scan.
        case brokenStructure
        /// The document catalog (`/Root`) could not be found or read.
        case missingCatalog
        /// An object that was needed is missing or not of the expected type.
        case badObject
        /// A chain of references leads back to itself.
        case referenceLoop
        /// A configured limit was exceeded (nesting, reference chain, sections, objects, sizes).
        case limitExceeded
        /// A stream inflates past ``PDFReadOptions/maxDecompressedSize``.
        case decompressionLimit
        /// A stream filter the reader does not implement.
        case unsupportedFilter
        /// The file is encrypted with a security handler or revision the reader does not implement.
        case unsupportedEncryption
        /// The file is encrypted and the empty user password (or the one given) does not open it.
        case passwordRequired
        /// Only in strict mode: a problem that lenient mode would have repaired with a warning.
        case strictModeViolation
    }

    /// The category of the failure.
    public var kind: Kind
    /// A human-readable explanation.
    public var message: String
    /// The byte offset in the file that the failure concerns, when one is known.
    public var offset: Int?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// The error as one line: its kind, message and byte offset.
    public var description: String {
        if let offset { return "\(kind.rawValue) at byte \(offset): \(message)" }
        return "\(kind.rawValue): \(message)"
    }
}

/// Something the reader repaired or ignored on its way to a result.
///
/// Lenient reading (the default) records every repair as a warning instead of failing; in
/// strict mode (``PDFReadOptions/strict``) the first warning becomes a ``PDFError``.
public struct PDFWarning: Sendable, Equatable, CustomStringConvertible {
    /// The category of a repair or omission.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Bytes before `%PDF-` (and whether the offsets were shifted by them), or no header at all.
        case header
        /// `startxref` was missing or pointed slightly off and the reader searched nearby.
        case startxrefAdjusted
        /// A cross-reference section (or its `/Prev` chain) could not be read and was skipped.
        case brokenXrefSection
        /// The cross-reference data was rebuilt by scanning the file for `N G obj`.
        case xrefRebuilt
        /// An object was not where the cross-reference data said; it was found elsewhere.
        case objectRelocated
        /// A stream's `/Length` was wrong or missing; the end was found by searching `endstream`.
        case streamLength
        /// A stream's compressed data ended early; what inflated is used.
        case truncatedStream
        /// The document information dictionary could not be read; its fields are left empty.
        case unreadableInfo
        /// The XMP metadata stream could not be read or parsed; it is ignored.
        case unreadableXMP
        /// The XMP packet declares a DOCTYPE or entities; it is refused, not expanded.
        case xmpEntitiesRefused
        /// The page tree root has no usable `/Count`, or its `/Count` disagrees with the pages
        /// found by walking the tree (the pages are reported).
        case pageCount
        /// A date string did not parse.
        case date
        /// A dictionary or array ran into `endobj` before it was closed (damaged syntax): it is
        /// read up to there, as poppler, pdf.js and pypdf read it.
        case unterminatedObject
        /// The document catalog could not be read or found: the Info dictionary (found through
        /// the trailer or the repair scan) is reported alone, without a page count or XMP.
        case unreadableCatalog
        /// The password (by default the empty one) does not open an encrypted file whose strings
        /// are not encrypted (`/StrF /Identity`): what lies outside encrypted streams was read,
        /// the encrypted streams (object streams, XMP) were not.
        case passwordRequired
        /// Anything else the reader tolerated.
        case other
    }

    /// The category of the warning.
    public var kind: Kind
    /// A human-readable explanation.
    public var message: String
    /// The byte offset the warning concerns, when one is known.
    public var offset: Int?

    /// Creates a warning.
    public init(_ kind: Kind, _ message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// The warning as one line: its kind, message and byte offset.
    public var description: String {
        if let offset { return "\(kind.rawValue) at byte \(offset): \(message)" }
        return "\(kind.rawValue): \(message)"
    }
}
