/// A position in a JSON text: byte offset (0-based), line and column (1-based, columns counted in
/// Unicode scalars, as editors show them).
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    /// The byte offset, from 0.
    public var offset: Int
    /// The line, from 1.
    public var line: Int
    /// The column in Unicode scalars, from 1.
    public var column: Int

    /// The position at byte `offset`, `line` and `column`.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}

/// A parsed JSON value that remembers where it stood in the text, keeps object members in document
/// order and never merges duplicate keys (the parser rejects them), so every later error can name
/// its line and column.
public struct JSONValue: Sendable {
    /// The payload of a JSON value.
    public enum Kind: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in document order.
        case object([(key: String, value: JSONValue)])
    }

    /// The value.
    public var kind: Kind
    /// The byte offset where the value starts; `SourceText.position(of:)` turns it into a line and
    /// column.
    public var offset: Int

    /// The value `kind`, starting at byte `offset` of its text.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The name of the value's JSON type, as used in error messages.
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The string, if the value is one.
    public var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The number, if the value is one.
    public var numberValue: Double? {
        if case .number(let n) = kind { return n }
        return nil
    }

    /// The Boolean, if the value is one.
    public var boolValue: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    /// The elements, if the value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    /// The members in document order, if the value is an object.
    public var objectMembers: [(key: String, value: JSONValue)]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    /// The member named `key`, for objects (linear search: objects here are small).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        var i = 0
        while i < members.count {
            if members[i].key == key { return members[i].value }
            i += 1
        }
        return nil
    }
}
