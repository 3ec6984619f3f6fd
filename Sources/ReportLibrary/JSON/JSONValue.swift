/// A position in a JSON text: byte offset (0-based), line and column (1-based, columns counted in
/// Unicode scalars, as editors show them).
public struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

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

    public var kind: Kind
    /// The byte offset where the value starts; `SourceText.position(of:)` turns it into a line and
    /// column.
    public var offset: Int

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

    public var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let n) = kind { return n }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = kind { return b }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

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
