import NIOCore
import PostgresNIO

/// A value that ``PackedArray`` writes as an element of a PostgreSQL array in binary form.
protocol PackedElement {
    /// The type of the array of such values.
    static var packedArrayType: PostgresDataType { get }
    /// The element's type.
    static var packedElementType: PostgresDataType { get }
    /// How many bytes ``write(into:)`` writes.
    var packedByteCount: Int { get }
    /// Writes the element's bytes (without their length).
    func write(into buffer: inout ByteBuffer)
}

/// A one-dimensional array bound as one parameter in PostgreSQL's binary array form, written in
/// one pass into a buffer grown once: the form `Array`'s own encoding writes (`array_recv`: the
/// number of dimensions, a flag for nulls, the element type, the length and lower bound, then
/// each element's length and bytes), for the large arrays of an update's statements.
struct PackedArray<Element: PackedElement>: PostgresNonThrowingEncodable {
    /// The elements, in order.
    var elements: [Element]

    init(_ elements: [Element]) { self.elements = elements }

    static var psqlType: PostgresDataType { Element.packedArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let header = 12 + (elements.isEmpty ? 0 : 8)
        buffer.reserveCapacity(minimumWritableBytes: elements.reduce(header) { $0 + 4 + $1.packedByteCount })
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(0, as: Int32.self)
        buffer.writeInteger(Element.packedElementType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            buffer.writeInteger(Int32(element.packedByteCount))
            element.write(into: &buffer)
        }
    }
}

extension Int32: PackedElement {
    static var packedArrayType: PostgresDataType { .int4Array }
    static var packedElementType: PostgresDataType { .int4 }
    var packedByteCount: Int { 4 }
    func write(into buffer: inout ByteBuffer) { buffer.writeInteger(self) }
}

extension Int64: PackedElement {
    static var packedArrayType: PostgresDataType { .int8Array }
    static var packedElementType: PostgresDataType { .int8 }
    var packedByteCount: Int { 8 }
    func write(into buffer: inout ByteBuffer) { buffer.writeInteger(self) }
}

extension Bool: PackedElement {
    static var packedArrayType: PostgresDataType { .boolArray }
    static var packedElementType: PostgresDataType { .bool }
    var packedByteCount: Int { 1 }
    func write(into buffer: inout ByteBuffer) { buffer.writeInteger(self ? 1 : 0, as: UInt8.self) }
}

extension String: PackedElement {
    static var packedArrayType: PostgresDataType { .textArray }
    static var packedElementType: PostgresDataType { .text }
    var packedByteCount: Int { utf8.count }
    func write(into buffer: inout ByteBuffer) { buffer.writeString(self) }
}

extension PostgresStore.BinaryVector: PackedElement {
    static var packedArrayType: PostgresDataType { .tsvectorArray }
    static var packedElementType: PostgresDataType { .tsvector }
    var packedByteCount: Int { bytes.count }
    func write(into buffer: inout ByteBuffer) { buffer.writeBytes(bytes) }
}

extension ByteBuffer: PackedElement {
    static var packedArrayType: PostgresDataType { .byteaArray }
    static var packedElementType: PostgresDataType { .bytea }
    var packedByteCount: Int { readableBytes }
    func write(into buffer: inout ByteBuffer) { buffer.writeImmutableBuffer(self) }
}
