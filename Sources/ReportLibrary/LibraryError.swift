/// Why a datasource was refused, and exactly where.
///
/// `description` is one line in the style of a compiler diagnostic:
/// `Data/reports.json:41:13: children[2].children[0].file: PDF 'reports/x.pdf' does not exist`.
public struct LibraryError: Error, Sendable, CustomStringConvertible {
    /// The kind of problem, for programs and tests.
    public enum Kind: String, Sendable, CaseIterable {
        /// The JSON file itself could not be read.
        case unreadableSource
        /// The text is not valid JSON.
        case malformedJSON
        /// A value has the wrong JSON type.
        case wrongType
        /// A required member is absent.
        case missingField
        /// A member the format does not define (usually a typo).
        case unknownField
        /// A title that is empty or only white space.
        case emptyTitle
        /// A value of the right type that breaks a rule (id syntax, colour syntax, lengths).
        case invalidValue
        /// Two nodes share an id.
        case duplicateID
        /// A node has both `file` and `children`.
        case reportWithChildren
        /// A report's PDF does not exist.
        case missingFile
        /// A report's PDF exists but cannot be read, or is not a PDF.
        case unreadableFile
        /// A report's `file` points outside the data folder.
        case pathEscapesData
        /// More nodes, deeper nesting or a bigger file than the documented limits allow.
        case limitExceeded
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The JSON file, as given to the loader.
    public var file: String
    /// The JSON path of the offending value (`children[2].file`); empty for the document itself.
    public var jsonPath: String
    /// Line, column and byte offset in the JSON text, when known.
    public var position: SourcePosition?
    /// What is wrong, in words.
    public var message: String
    /// For `duplicateID`: the path of the first node with that id.
    public var otherPath: String?

    /// An error of `kind` in `file` at `jsonPath` (and `position`, when known), saying `message`.
    public init(
        kind: Kind, file: String, jsonPath: String = "", position: SourcePosition? = nil,
        message: String, otherPath: String? = nil
    ) {
        self.kind = kind
        self.file = file
        self.jsonPath = jsonPath
        self.position = position
        self.message = message
        self.otherPath = otherPath
    }

    /// `FILE:LINE:COLUMN: PATH: message`, one line.
    public var description: String {
        var text = file
        if let position { text += ":\(position.line):\(position.column)" }
        text += ": "
        if !jsonPath.isEmpty { text += jsonPath + ": " }
        return text + message
    }
}
