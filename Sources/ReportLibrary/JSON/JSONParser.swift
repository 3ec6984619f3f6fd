#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Maps byte offsets of a UTF-8 text to lines and columns.
public struct SourceText: Sendable {
    /// The text's bytes.
    public let bytes: [UInt8]
    /// Offset of the first byte of every line.
    private let lineStarts: [Int]

    /// The text of `bytes` (UTF-8), with its lines found once.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            // memchr from one line break to the next: fast in debug builds too.
            guard let base = buffer.baseAddress else { return }
            var i = 0
            while i < buffer.count, let hit = memchr(base + i, Int32(UInt8(ascii: "\n")), buffer.count - i) {
                i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(i)
            }
        }
        lineStarts = starts
    }

    /// The line and column of `offset` (columns count Unicode scalars, so a column matches what an
    /// editor shows for non-ASCII text).
    public func position(of offset: Int) -> SourcePosition {
        let offset = max(0, min(offset, bytes.count))
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        var i = lineStarts[lo]
        while i < offset {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        // An offset inside a multi-byte character belongs to that character's column.
        if offset < bytes.count, bytes[offset] & 0xC0 == 0x80, column > 1 { column -= 1 }
        return SourcePosition(offset: offset, line: lo + 1, column: column)
    }
}

/// A syntax error in a JSON text, at a byte offset.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The byte offset of the error.
    public var offset: Int
    /// What is wrong, in words.
    public var message: String
    /// True when the text was refused only for nesting deeper than the parser's limit.
    public var isNestingLimit = false
    /// For a nesting error: the steps from the document down to the array or object that went
    /// too deep (the last step leads to it); empty for other errors.
    public var nestingPath: [JSONPathStep] = []

    /// `nestingPath` written as a JSON path (`children[0].children[3]`); empty for the document
    /// itself and for other errors.
    public var path: String { JSONPathStep.path(nestingPath) }
}

/// One step of a JSON path: a member name or an array index, and the byte offset of the value it
/// leads to.
public struct JSONPathStep: Sendable, Equatable {
    /// A member of an object or an element of an array.
    public enum Key: Sendable, Equatable {
        case member(String)
        case index(Int)
    }

    /// The member or the index.
    public var key: Key
    /// Where the value reached by this step starts.
    public var offset: Int

    /// The step `key` to the value starting at byte `offset`.
    public init(_ key: Key, offset: Int) {
        self.key = key
        self.offset = offset
    }

    /// The steps as a JSON path in the datasource's error style: `children[2].file`.
    public static func path<S: Sequence>(_ steps: S) -> String where S.Element == JSONPathStep {
        var text = ""
        for step in steps {
            switch step.key {
            case .member(let name): text += text.isEmpty ? name : "." + name
            case .index(let i): text += "[\(i)]"
            }
        }
        return text
    }
}

/// A strict RFC 8259 JSON parser that records the byte offset of every value.
///
/// Foundation's `JSONSerialization` is not used because it forgets positions (a validator must name
/// the line of a semantic error, not only of a syntax error), silently keeps one of two duplicate
/// keys, and loses member order. Nesting is limited so hostile input cannot exhaust the stack:
/// the parser recurses once per array or object level, never deeper than `maxNesting`, which is
/// itself capped at ``maxNestingCeiling``.
public struct JSONParser {
    /// The deepest array/object nesting accepted by default.
    public static let defaultMaxNesting = 512
    /// The most nesting any caller may ask for (a larger `maxNesting` is lowered to it), so that
    /// the recursion depth has a fixed bound whatever the caller's limits say.
    public static let maxNestingCeiling = 512

    private let bytes: [UInt8]
    private var index = 0
    private let maxNesting: Int

    private init(bytes: [UInt8], maxNesting: Int) {
        self.bytes = bytes
        self.maxNesting = maxNesting
    }

    /// Parses a complete JSON text (one value, surrounded by optional white space).
    public static func parse(_ bytes: [UInt8], maxNesting: Int = defaultMaxNesting) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxNesting: max(0, min(maxNesting, maxNestingCeiling)))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    private func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset ?? index, message: message)
    }

    private func nestingError() -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: "nesting deeper than \(maxNesting) levels", isNestingLimit: true)
    }

    /// A nesting error on its way out of a container gains the step that led into it.
    private static func prepending(_ key: JSONPathStep.Key, at offset: Int, to error: JSONSyntaxError) -> JSONSyntaxError {
        guard error.isNestingLimit else { return error }
        var error = error
        error.nestingPath.insert(JSONPathStep(key, offset: offset), at: 0)
        return error
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of file, expected a value") }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return JSONValue(.object(try parseObject(depth: depth + 1)), at: start)
        case UInt8(ascii: "["):
            return JSONValue(.array(try parseArray(depth: depth + 1)), at: start)
        case UInt8(ascii: "\""):
            return JSONValue(.string(try parseString()), at: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONValue(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONValue(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONValue(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(.number(try parseNumber()), at: start)
        default:
            throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let start = index
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else {
                throw error("invalid literal, expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [(key: String, value: JSONValue)] {
        if depth > maxNesting { throw nestingError() }
        index += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        // Duplicate names: a linear search while the object is small (the usual case), a set
        // once it has many members, so the check stays linear in the object's size.
        var keys: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("unexpected \(describeCurrent()), expected a member name in double quotes")
            }
            let keyOffset = index
            let key = try parseString()
            let duplicate: Bool
            if keys != nil {
                duplicate = !keys!.insert(key).inserted
            } else {
                duplicate = members.contains { $0.key == key }
                if members.count >= 16 { keys = Set(members.map(\.key) + [key]) }
            }
            if duplicate {
                throw error("duplicate member name \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()), expected ':' after member name")
            }
            index += 1
            skipWhitespace()
            let valueStart = index
            let value: JSONValue
            do {
                value = try parseValue(depth: depth)
            } catch {
                throw Self.prepending(.member(key), at: valueStart, to: error)
            }
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return members
            }
            throw error("unexpected \(describeCurrent()), expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        if depth > maxNesting { throw nestingError() }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            let valueStart = index
            do {
                elements.append(try parseValue(depth: depth))
            } catch {
                throw Self.prepending(.index(elements.count), at: valueStart, to: error)
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return elements
            }
            throw error("unexpected \(describeCurrent()), expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number", at: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw error("invalid number: leading zero", at: start)
            }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: expected a digit after '.'", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: expected a digit in the exponent", at: start)
            }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number \(text) is out of range", at: start)
        }
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1  // opening quote
        // Fast path, for the usual string without escapes: find the closing quote in one pass
        // over the buffer and validate the bytes once.
        let plainEnd = bytes.withUnsafeBufferPointer { b -> Int? in
            var i = index
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") { return i }
                if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
                i += 1
            }
            return nil
        }
        if let end = plainEnd, let text = validString(index..<end) {
            index = end + 1
            return text
        }
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ end: Int) throws(JSONSyntaxError) {
            if end > runStart {
                guard let run = validString(runStart..<end) else {
                    throw error("invalid UTF-8 in string", at: firstInvalidUTF8(from: runStart, to: end))
                }
                scalars.append(contentsOf: run.unicodeScalars)
            }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flushRun(index)
                index += 1
                return String(scalars)
            }
            if b < 0x20 {
                throw error("control character 0x\(String(b, radix: 16, uppercase: true)) in string (escape it)")
            }
            if b != UInt8(ascii: "\\") {
                index += 1
                continue
            }
            try flushRun(index)
            let escapeStart = index
            index += 1
            guard index < bytes.count else { throw error("unterminated string", at: start) }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                let high = try parseHex4(escapeStart: escapeStart)
                if (0xD800...0xDBFF).contains(high) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate in \\u escape", at: escapeStart) }
                    index += 2
                    let low = try parseHex4(escapeStart: escapeStart)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("unpaired surrogate in \\u escape", at: escapeStart)
                    }
                    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                    scalars.append(Unicode.Scalar(value)!)
                } else if (0xDC00...0xDFFF).contains(high) {
                    throw error("unpaired surrogate in \\u escape", at: escapeStart)
                } else {
                    scalars.append(Unicode.Scalar(high)!)
                }
            default:
                throw error("invalid escape sequence in string", at: escapeStart)
            }
            runStart = index
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// `bytes[range]` as a string when it is valid UTF-8, else nil. Decoding replaces each
    /// invalid sequence with U+FFFD, which changes the bytes, so the bytes decoded unchanged are
    /// valid ones (and this costs less than `String(validating:as:)`, a generic call).
    private func validString(_ range: Range<Int>) -> String? {
        bytes.withUnsafeBufferPointer { all in
            let part = UnsafeBufferPointer(rebasing: all[range])
            let text = String(decoding: part, as: UTF8.self)
            let same = text.utf8.withContiguousStorageIfAvailable { decoded in
                decoded.count == part.count && (part.isEmpty || memcmp(decoded.baseAddress!, part.baseAddress!, part.count) == 0)
            }
            return same ?? text.utf8.elementsEqual(part) ? text : nil
        }
    }

    /// The offset of the first byte that makes `bytes[from..<to]` invalid UTF-8.
    private func firstInvalidUTF8(from: Int, to: Int) -> Int {
        var i = from
        while i < to {
            // A lead byte with the continuation bytes after it (an ASCII byte or a lone
            // continuation byte alone).
            var end = i + 1
            while bytes[i] >= 0xC0, end < to, bytes[end] & 0xC0 == 0x80 { end += 1 }
            if validString(i..<end) == nil { return i }
            i = end
        }
        return from
    }
}
