import NIOCore
import PostgresNIO

/// A value that ``PackedArray`` writes as an element of a PostgreSQL array in binary form: its
/// own PostgresNIO encoding, whose length it knows before writing.
protocol PackedElement: PostgresArrayEncodable, PostgresNonThrowingEncodable {
    /// How many bytes `encode(into:context:)` writes.
    var packedByteCount: Int { get }
}

/// A one-dimensional array bound as one parameter in PostgreSQL's binary array form, written in
/// one pass into a buffer grown once: the form `Array`'s own encoding writes (`array_recv`: the
/// number of dimensions, a flag for nulls, the element type, the length and lower bound, then
/// each element's length and bytes), for the large arrays of an update's statements.
struct PackedArray<Element: PackedElement>: PostgresNonThrowingEncodable {
    /// The elements, in order.
    var elements: [Element]

    init(_ elements: [Element]) { self.elements = elements }

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        let header = 12 + (elements.isEmpty ? 0 : 8)
        buffer.reserveCapacity(minimumWritableBytes: elements.reduce(header) { $0 + 4 + $1.packedByteCount })
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            buffer.writeInteger(Int32(element.packedByteCount))
            element.encode(into: &buffer, context: context)
        }
    }
}

extension Int32: PackedElement {
    var packedByteCount: Int { 4 }
}

extension Int64: PackedElement {
    var packedByteCount: Int { 8 }
}

extension Bool: PackedElement {
    var packedByteCount: Int { 1 }
}

extension String: PackedElement {
    var packedByteCount: Int { utf8.count }
}

extension ByteBuffer: PackedElement {
    var packedByteCount: Int { readableBytes }
}

extension PostgresStore.BinaryVector: PackedElement {
    var packedByteCount: Int { bytes.count }
}
