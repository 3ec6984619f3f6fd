#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BubbleSupport
import Foundation

/// Documented ceilings on a datasource. Anything above them is refused with
/// `LibraryError.Kind.limitExceeded` instead of being loaded slowly or exhausting memory.
public struct LibraryLimits: Sendable {
    /// The largest JSON file accepted, in bytes.
    public var maxFileBytes = 64 << 20
    /// The most nodes (categories and reports) in one tree.
    public var maxNodes = 200_000
    /// The deepest node (the root's children are at depth 1).
    public var maxDepth = 64
    /// The longest title, in characters.
    public var maxTitleLength = 300
    /// The longest id, in characters.
    public var maxIDLength = 64
    /// The most author-supplied keywords on one report.
    public var maxKeywords = 200
    /// The longest keyword, in characters.
    public var maxKeywordLength = 200

    /// The documented limits.
    public init() {}
}

/// Options for `LibraryLoader`.
public struct LibraryLoadOptions: Sendable {
    /// Check that every report's PDF exists, is readable and starts like a PDF.
    public var checkFiles = true
    /// The limits the datasource must stay within (default: the documented ones).
    public var limits = LibraryLimits()

    /// Options that check the PDFs (default) within `limits` (default: the documented ones).
    public init(checkFiles: Bool = true, limits: LibraryLimits = LibraryLimits()) {
        self.checkFiles = checkFiles
        self.limits = limits
    }
}

/// Loads and validates a datasource file: see <doc:DatasourceFormat>.
public enum LibraryLoader {
    /// Reads the JSON file at `path` and returns the validated tree, or throws the first problem
    /// found, in document order.
    public static func load(_ path: String, options: LibraryLoadOptions = LibraryLoadOptions()) throws(LibraryError) -> ReportTree {
        let (bytes, stamp) = try readSource(path, limit: options.limits.maxFileBytes)
        let dataFolder = (path as NSString).deletingLastPathComponent
        return try parse(bytes, file: path, dataFolder: dataFolder.isEmpty ? "." : dataFolder, stamp: stamp, options: options)
    }

    /// Validates JSON text as if it had been read from `file`; report paths resolve against
    /// `dataFolder`.
    public static func parse(
        _ bytes: [UInt8], file: String, dataFolder: String, options: LibraryLoadOptions = LibraryLoadOptions()
    ) throws(LibraryError) -> ReportTree {
        try parse(bytes, file: file, dataFolder: dataFolder, stamp: nil, options: options)
    }

    static func parse(
        _ bytes: [UInt8], file: String, dataFolder: String, stamp: FileStamp?, options: LibraryLoadOptions
    ) throws(LibraryError) -> ReportTree {
        let source = SourceText(bytes)
        if bytes.count > options.limits.maxFileBytes {
            throw LibraryError(
                kind: .limitExceeded, file: file,
                message: "file is \(bytes.count) bytes, more than the limit of \(options.limits.maxFileBytes)")
        }
        // Two JSON nesting levels per tree level (object, children array), plus slack; deeper
        // nesting is reported as a depth problem below rather than as a syntax error. The parser
        // caps nesting at `JSONParser.maxNestingCeiling` whatever the limits say, so neither it
        // nor the tree builder (which recurses once per tree level) can exhaust the stack.
        let nestingLimit = min(2 * max(0, options.limits.maxDepth) + 8, JSONParser.maxNestingCeiling)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes, maxNesting: nestingLimit)
        } catch {
            if error.isNestingLimit {
                throw nestingProblem(error, file: file, source: source, maxDepth: options.limits.maxDepth)
            }
            throw LibraryError(
                kind: .malformedJSON, file: file, position: source.position(of: error.offset),
                message: "malformed JSON: \(error.message)")
        }
        var builder = TreeBuilder(file: file, source: source, dataFolder: dataFolder, options: options)
        try builder.build(document)
        return ReportTree(nodes: builder.nodes, sourceFile: file, sourceStamp: stamp, indexByID: builder.indexByID)
    }

    /// The error for a document nested deeper than the parser accepts: when the nesting is a
    /// chain of `children` arrays, the node that is one level too deep (as the tree builder would
    /// name it), otherwise the value at which the nesting limit was reached.
    private static func nestingProblem(_ error: JSONSyntaxError, file: String, source: SourceText, maxDepth: Int) -> LibraryError {
        let steps = error.nestingPath
        var depth = 0
        var i = 0
        while i + 1 < steps.count, steps[i].key == .member("children"), case .index = steps[i + 1].key {
            depth += 1
            if depth > maxDepth {
                return LibraryError(
                    kind: .limitExceeded, file: file, jsonPath: JSONPathStep.path(steps[...(i + 1)]),
                    position: source.position(of: steps[i + 1].offset),
                    message: "the tree is deeper than the limit of \(maxDepth) levels")
            }
            i += 2
        }
        return LibraryError(
            kind: .limitExceeded, file: file, jsonPath: error.path, position: source.position(of: error.offset),
            message: "JSON \(error.message) (the tree may be at most \(maxDepth) levels deep)")
    }

    private static func readSource(_ path: String, limit: Int) throws(LibraryError) -> ([UInt8], FileStamp) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LibraryError(kind: .unreadableSource, file: path, message: "cannot read: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw LibraryError(kind: .unreadableSource, file: path, message: "not a regular file")
        }
        if Int(info.st_size) > limit {
            throw LibraryError(
                kind: .limitExceeded, file: path,
                message: "file is \(info.st_size) bytes, more than the limit of \(limit)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LibraryError(kind: .unreadableSource, file: path, message: "cannot read: permission denied or I/O error")
        }
        let stamp = FileStamp(size: Int(info.st_size), modificationTime: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        return ([UInt8](data), stamp)
    }
}

/// Walks the JSON document in order, validating as it goes, and lays the nodes out flat.
private struct TreeBuilder {
    let file: String
    let source: SourceText
    let dataFolder: String
    let options: LibraryLoadOptions
    var nodes: [ReportNode] = []
    var indexByID: [String: Int] = [:]
    private lazy var realDataFolder: String? = realPath(dataFolder)

    init(file: String, source: SourceText, dataFolder: String, options: LibraryLoadOptions) {
        self.file = file
        self.source = source
        self.dataFolder = dataFolder
        self.options = options
    }

    // Sorted, for the suggestions; a handful of names, so a linear search beats hashing.
    private static let categoryFields = ["children", "colour", "id", "title"]
    private static let reportFields = ["colour", "file", "id", "keywords", "title"]

    func fail(_ kind: LibraryError.Kind, _ path: String, _ value: JSONValue?, _ message: String, otherPath: String? = nil) -> LibraryError {
        LibraryError(
            kind: kind, file: file, jsonPath: path, position: value.map { source.position(of: $0.offset) },
            message: message, otherPath: otherPath)
    }

    /// ``fail(_:_:_:_:otherPath:)`` at the field `name` of the node at `path` (its JSON path is
    /// made only here, for the error: a million nodes would make several million).
    func fail(_ kind: LibraryError.Kind, field name: String, of path: String, _ value: JSONValue?, _ message: String, otherPath: String? = nil) -> LibraryError {
        fail(kind, Self.field(name, of: path), value, message, otherPath: otherPath)
    }

    mutating func build(_ document: JSONValue) throws(LibraryError) {
        guard document.objectMembers != nil else {
            throw fail(.wrongType, "", document, "the document must be an object (the root category), found \(document.typeName)")
        }
        if document["file"] != nil {
            throw fail(.wrongType, "file", document["file"], "the root must be a category, not a report")
        }
        let expected = Self.nodeCount(document, atMost: options.limits.maxNodes)
        nodes.reserveCapacity(expected)
        indexByID.reserveCapacity(expected)
        _ = try addNode(document, path: "", parent: nil, depth: 0, inheritedColour: nil)
    }

    /// How many nodes `value` holds, as far as its `children` arrays of objects say (at most
    /// `limit`): room for the nodes, made once, before they are checked.
    private static func nodeCount(_ value: JSONValue, atMost limit: Int) -> Int {
        var count = 0
        var pending = [value]
        while let node = pending.popLast(), count < limit {
            count += 1
            if let children = node["children"]?.arrayValue {
                for child in children where child.objectMembers != nil { pending.append(child) }
            }
        }
        return count
    }

    /// Adds the node and, depth first, its children; returns its index.
    private mutating func addNode(
        _ value: JSONValue, path: String, parent: Int?, depth: Int, inheritedColour: RGBColour?
    ) throws(LibraryError) -> Int {
        let limits = options.limits
        guard let members = value.objectMembers else {
            throw fail(.wrongType, path, value, "expected an object (a category or a report), found \(value.typeName)")
        }
        if depth > limits.maxDepth {
            throw fail(.limitExceeded, path, value, "the tree is deeper than the limit of \(limits.maxDepth) levels")
        }
        if nodes.count >= limits.maxNodes {
            throw fail(.limitExceeded, path, value, "more than the limit of \(limits.maxNodes) nodes")
        }
        let isReport = value["file"] != nil
        try checkFields(members, of: value, isReport: isReport, path: path)
        let id = try nodeID(value, path: path)
        let title = try nodeTitle(value, path: path)
        let colour = try nodeColour(value, path: path)

        let index = nodes.count
        indexByID[id] = index
        if isReport {
            let (file, resolved) = try reportFile(value["file"]!, of: path)
            let keywords = try reportKeywords(value["keywords"], of: path)
            nodes.append(
                ReportNode(
                    id: id, title: title, kind: .report, colour: colour, branchColour: colour ?? inheritedColour,
                    file: file, resolvedFile: resolved, keywords: keywords, children: [], parent: parent,
                    depth: depth, jsonPath: path))
            return index
        }
        // Append a placeholder first so the node keeps its pre-order position; fill its children after.
        let children = try categoryChildren(value, path: path)
        nodes.append(
            ReportNode(
                id: id, title: title, kind: .category, colour: colour, branchColour: colour ?? inheritedColour,
                file: nil, resolvedFile: nil, keywords: [], children: [], parent: parent, depth: depth, jsonPath: path))
        var childIndices: [Int] = []
        childIndices.reserveCapacity(children.count)
        let childrenPath = Self.field("children", of: path) + "["
        for (i, child) in children.enumerated() {
            let childPath = childrenPath + String(i) + "]"
            childIndices.append(
                try addNode(child, path: childPath, parent: index, depth: depth + 1, inheritedColour: colour ?? inheritedColour))
        }
        let placeholder = nodes[index]
        nodes[index] = ReportNode(
            id: placeholder.id, title: placeholder.title, kind: .category, colour: placeholder.colour,
            branchColour: placeholder.branchColour, file: nil, resolvedFile: nil, keywords: [], children: childIndices,
            parent: parent, depth: depth, jsonPath: path)
        return index
    }

    /// The JSON path of the field `name` of the node at `path`.
    private static func field(_ name: String, of path: String) -> String { path.isEmpty ? name : path + "." + name }

    /// Whether `text` holds more than `limit` characters: counted only when its UTF-8 bytes are
    /// more (a character is at least one byte).
    private static func longer(_ text: String, than limit: Int) -> Bool { text.utf8.count > limit && text.count > limit }

    /// Refuses a report with children and any field a node of its kind does not have.
    private func checkFields(_ members: [(key: String, value: JSONValue)], of value: JSONValue, isReport: Bool, path: String) throws(LibraryError) {
        if isReport, let children = value["children"] {
            throw fail(.reportWithChildren, field: "children", of: path, children, "a report (it has 'file') cannot have children")
        }
        let allowed = isReport ? Self.reportFields : Self.categoryFields
        for member in members where !allowed.contains(member.key) {
            var message = "unknown field '\(member.key)'"
            if let suggestion = closestName(to: member.key, among: allowed) {
                message += " (did you mean '\(suggestion)'?)"
            } else if !isReport && member.key == "keywords" {
                message += " (only reports have keywords)"
            }
            throw fail(.unknownField, field: member.key, of: path, member.value, message)
        }
    }

    /// The node's `id`: a valid id not used before.
    private func nodeID(_ value: JSONValue, path: String) throws(LibraryError) -> String {
        guard let idValue = value["id"] else { throw fail(.missingField, field: "id", of: path, value, "missing field 'id'") }
        guard let id = idValue.stringValue else {
            throw fail(.wrongType, field: "id", of: path, idValue, "'id' must be a string, found \(idValue.typeName)")
        }
        if let problem = idProblem(id, maxLength: options.limits.maxIDLength) {
            throw fail(.invalidValue, field: "id", of: path, idValue, problem)
        }
        if let existing = indexByID[id] {
            let other = nodes[existing].jsonPath
            throw fail(
                .duplicateID, field: "id", of: path, idValue,
                "duplicate id '\(id)', first used at \(other.isEmpty ? "the root" : other)", otherPath: other)
        }
        return id
    }

    /// The node's `title`, trimmed: not empty, not too long, on one line.
    private func nodeTitle(_ value: JSONValue, path: String) throws(LibraryError) -> String {
        let limits = options.limits
        guard let titleValue = value["title"] else {
            throw fail(.missingField, field: "title", of: path, value, "missing field 'title'")
        }
        guard let rawTitle = titleValue.stringValue else {
            throw fail(.wrongType, field: "title", of: path, titleValue, "'title' must be a string, found \(titleValue.typeName)")
        }
        let title = trimmed(rawTitle)
        if title.isEmpty { throw fail(.emptyTitle, field: "title", of: path, titleValue, "the title is empty") }
        if Self.longer(title, than: limits.maxTitleLength) {
            throw fail(.invalidValue, field: "title", of: path, titleValue, "the title is longer than \(limits.maxTitleLength) characters")
        }
        if containsControlCharacter(title) {
            throw fail(.invalidValue, field: "title", of: path, titleValue, "the title contains a control character (line break or tab)")
        }
        return title
    }

    /// The node's own `colour`, if it has one.
    private func nodeColour(_ value: JSONValue, path: String) throws(LibraryError) -> RGBColour? {
        guard let colourValue = value["colour"] else { return nil }
        guard let text = colourValue.stringValue else {
            throw fail(.wrongType, field: "colour", of: path, colourValue, "'colour' must be a string, found \(colourValue.typeName)")
        }
        guard let parsed = RGBColour(hex: text) else {
            throw fail(.invalidValue, field: "colour", of: path, colourValue, "'colour' must look like #1E6FD9, found '\(text)'")
        }
        return parsed
    }

    /// A category's `children` array.
    private func categoryChildren(_ value: JSONValue, path: String) throws(LibraryError) -> [JSONValue] {
        guard let childrenValue = value["children"] else {
            throw fail(.missingField, field: "children", of: path, value, "missing field 'children' (a category needs 'children'; a report needs 'file')")
        }
        guard let children = childrenValue.arrayValue else {
            throw fail(.wrongType, field: "children", of: path, childrenValue, "'children' must be an array, found \(childrenValue.typeName)")
        }
        return children
    }

    private func idProblem(_ id: String, maxLength: Int) -> String? {
        if id.isEmpty { return "the id is empty" }
        if Self.longer(id, than: maxLength) { return "the id is longer than \(maxLength) characters" }
        // Every allowed character is ASCII, so the check runs over the UTF-8 bytes.
        var text = id
        let valid = text.withUTF8 { bytes -> Bool in
            for i in 0..<bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    continue
                case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                    if i == 0 { return false }
                default:
                    return false
                }
            }
            return true
        }
        if !valid {
            return "invalid id '\(id)': use letters, digits, '-', '_' and '.', starting with a letter or digit"
        }
        return nil
    }

    /// A report's `file` (the node at `nodePath`'s), and the path it resolves to.
    private mutating func reportFile(_ value: JSONValue, of nodePath: String) throws(LibraryError) -> (String, String) {
        guard let file = value.stringValue else {
            throw fail(.wrongType, field: "file", of: nodePath, value, "'file' must be a string, found \(value.typeName)")
        }
        if file.isEmpty { throw fail(.invalidValue, field: "file", of: nodePath, value, "'file' is empty") }
        if file.hasPrefix("/") || file.hasPrefix("~") {
            throw fail(.pathEscapesData, field: "file", of: nodePath, value, "'\(file)' must be relative to the data folder")
        }
        // Lexical check first: '..' may not climb above the data folder.
        if climbsAboveStart(file) {
            throw fail(.pathEscapesData, field: "file", of: nodePath, value, "'\(file)' points outside the data folder")
        }
        let resolved = dataFolder == "." ? file : dataFolder + "/" + file
        guard options.checkFiles else { return (file, resolved) }

        var info = stat()
        guard stat(resolved, &info) == 0 else {
            let reason = errno == ENOENT ? "does not exist" : "cannot be read (\(String(cString: strerror(errno))))"
            throw fail(errno == ENOENT ? .missingFile : .unreadableFile, field: "file", of: nodePath, value, "PDF '\(file)' \(reason)")
        }
        // Symbolic links may not lead out of the data folder either.
        if let folder = realDataFolder, let real = realPath(resolved), !real.hasPrefix(folder + "/") {
            throw fail(.pathEscapesData, field: "file", of: nodePath, value, "'\(file)' leads outside the data folder through a symbolic link")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw fail(.unreadableFile, field: "file", of: nodePath, value, "PDF '\(file)' is not a regular file")
        }
        let fd = open(resolved, O_RDONLY)
        guard fd >= 0 else {
            throw fail(.unreadableFile, field: "file", of: nodePath, value, "PDF '\(file)' cannot be read (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 1024)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 1024) }
        guard count >= 0 else {
            throw fail(.unreadableFile, field: "file", of: nodePath, value, "PDF '\(file)' cannot be read (\(String(cString: strerror(errno))))")
        }
        // The header may follow up to 1 KB of junk (ISO 32000-1, implementation note 13).
        let marker = Array("%PDF-".utf8)
        let found = count >= marker.count && (0...(count - marker.count)).contains { head[$0..<$0 + marker.count].elementsEqual(marker) }
        if !found {
            throw fail(.unreadableFile, field: "file", of: nodePath, value, "'\(file)' is not a PDF (no %PDF- header in its first 1024 bytes)")
        }
        return (file, resolved)
    }

    /// A report's `keywords` (the node at `nodePath`'s), each trimmed.
    private func reportKeywords(_ value: JSONValue?, of nodePath: String) throws(LibraryError) -> [String] {
        guard let value else { return [] }
        func elementPath(_ i: Int) -> String { Self.field("keywords", of: nodePath) + "[\(i)]" }
        guard let array = value.arrayValue else {
            throw fail(.wrongType, field: "keywords", of: nodePath, value, "'keywords' must be an array of strings, found \(value.typeName)")
        }
        if array.count > options.limits.maxKeywords {
            throw fail(.limitExceeded, field: "keywords", of: nodePath, value, "more than \(options.limits.maxKeywords) keywords")
        }
        var keywords: [String] = []
        for (i, element) in array.enumerated() {
            guard let text = element.stringValue else {
                throw fail(.wrongType, elementPath(i), element, "a keyword must be a string, found \(element.typeName)")
            }
            let keyword = trimmed(text)
            if keyword.isEmpty { throw fail(.invalidValue, elementPath(i), element, "the keyword is empty") }
            if Self.longer(keyword, than: options.limits.maxKeywordLength) {
                throw fail(.invalidValue, elementPath(i), element, "the keyword is longer than \(options.limits.maxKeywordLength) characters")
            }
            keywords.append(keyword)
        }
        return keywords
    }
}

/// Whether a relative path's `..` components climb above where it starts (`a/../..`), read
/// component by component (empty and `.` components stay in place).
private func climbsAboveStart(_ path: String) -> Bool {
    var text = path
    return text.withUTF8 { bytes -> Bool in
        var depth = 0
        var start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: "/") {
            let length = end - start
            if length == 2 && bytes[start] == UInt8(ascii: ".") && bytes[start + 1] == UInt8(ascii: ".") {
                depth -= 1
                if depth < 0 { return true }
            } else if length > 0 && !(length == 1 && bytes[start] == UInt8(ascii: ".")) {
                depth += 1
            }
            start = end + 1
        }
        return false
    }
}

/// Whether `text` holds a control character (general category Cc: U+0000–U+001F, U+007F–U+009F),
/// read from the UTF-8 bytes (U+0080–U+009F are C2 80–C2 9F).
private func containsControlCharacter(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes -> Bool in
        for i in 0..<bytes.count {
            let b = bytes[i]
            if b < 0x20 || b == 0x7F { return true }
            if b == 0xC2, i + 1 < bytes.count, (0x80...0x9F).contains(bytes[i + 1]) { return true }
        }
        return false
    }
}

/// `text` without leading and trailing white space and line breaks (Foundation's
/// `whitespacesAndNewlines`); skips Foundation when neither end can be trimmed, as is usual.
func trimmed(_ text: String) -> String {
    let scalars = text.unicodeScalars
    if let first = scalars.first, let last = scalars.last, !mayBeTrimmed(first), !mayBeTrimmed(last) {
        return text
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Whether `scalar` may be white space or a line break: a control character, a space, line or
/// paragraph separator (Unicode's `Zs`, `Zl`, `Zp`), or the zero-width space that Foundation
/// counts among them.
func mayBeTrimmed(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x20, 0x7F...0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
    default: return false
    }
}

private func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The candidate within edit distance 2 of `name`, if exactly one is closest.
func closestName(to name: String, among candidates: [String]) -> String? {
    var best: (String, Int)? = nil
    for candidate in candidates {
        let d = EditDistance.levenshtein(name.lowercased(), candidate)
        if d <= 2, best == nil || d < best!.1 { best = (candidate, d) }
    }
    return best?.0
}
