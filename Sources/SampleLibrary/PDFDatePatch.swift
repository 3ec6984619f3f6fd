// Cairo 1.16 writes the dates given through `cairo_pdf_surface_set_metadata` without the `D:`
// prefix the PDF date format requires (`/CreationDate (20160421101500Z)`); later Cairo versions
// write it. This file inserts the prefix and corrects the cross-reference table so that every
// object offset still points at its object.

/// A PDF produced by Cairo did not have the structure the patch expects.
public struct PDFPatchError: Error, CustomStringConvertible {
    /// What is wrong, one line.
    public var description: String
}

enum PDFDatePatch {
    /// `pdf` with `D:` inserted into its /CreationDate and /ModDate strings where missing, and its
    /// classic cross-reference table and `startxref` adjusted for the inserted bytes. Files that
    /// already have the prefix (newer Cairo) come back unchanged.
    static func addDatePrefixes(_ pdf: [UInt8]) throws -> [UInt8] {
        var insertions: [Int] = []  // offsets (in the input) where "D:" goes
        for key in ["/CreationDate (", "/ModDate ("] {
            guard let start = findLast(Array(key.utf8), in: pdf) else { continue }
            let valueStart = start + key.utf8.count
            guard valueStart < pdf.count else { throw PDFPatchError(description: "truncated \(key)") }
            if pdf[valueStart] >= UInt8(ascii: "0") && pdf[valueStart] <= UInt8(ascii: "9") {
                insertions.append(valueStart)
            }
        }
        guard !insertions.isEmpty else { return pdf }
        insertions.sort()

        // Where the cross-reference table starts, from the last startxref.
        guard let startxrefKeyword = findLast(Array("startxref".utf8), in: pdf) else {
            throw PDFPatchError(description: "no startxref")
        }
        var cursor = startxrefKeyword + "startxref".utf8.count
        skipWhitespace(pdf, &cursor)
        let numberStart = cursor
        guard let xrefOffset = readInteger(pdf, &cursor) else {
            throw PDFPatchError(description: "no startxref offset")
        }
        let numberEnd = cursor
        guard insertions.last! < xrefOffset,
            pdf[xrefOffset..<min(pdf.count, xrefOffset + 4)].elementsEqual("xref".utf8)
        else {
            throw PDFPatchError(description: "expected a classic xref table after the Info dictionary")
        }

        /// The position of an input offset after the insertions.
        func shifted(_ offset: Int) -> Int {
            offset + 2 * insertions.filter { $0 <= offset }.count
        }

        // Rewrite the 10-digit offsets of in-use entries in place (same width, so the table's own
        // length does not change).
        var output = pdf
        cursor = xrefOffset + 4
        while true {
            skipWhitespace(pdf, &cursor)
            if pdf[cursor..<min(pdf.count, cursor + 7)].elementsEqual("trailer".utf8) { break }
            guard readInteger(pdf, &cursor) != nil else {
                throw PDFPatchError(description: "bad xref subsection header")
            }
            skipWhitespace(pdf, &cursor)
            guard let count = readInteger(pdf, &cursor) else {
                throw PDFPatchError(description: "bad xref subsection count")
            }
            skipWhitespace(pdf, &cursor)
            for _ in 0..<count {
                guard cursor + 20 <= pdf.count else { throw PDFPatchError(description: "truncated xref") }
                let entry = Array(pdf[cursor..<(cursor + 20)])
                if entry[17] == UInt8(ascii: "n") {
                    guard let offset = Int(String(decoding: entry[0..<10], as: UTF8.self)) else {
                        throw PDFPatchError(description: "bad xref entry")
                    }
                    let digits = Array(pad(shifted(offset), 10).utf8)
                    guard digits.count == 10 else { throw PDFPatchError(description: "offset too large") }
                    output.replaceSubrange(cursor..<(cursor + 10), with: digits)
                }
                cursor += 20
            }
        }

        // The new startxref value, then the insertions from the back so earlier offsets hold.
        output.replaceSubrange(numberStart..<numberEnd, with: Array(String(shifted(xrefOffset)).utf8))
        for insertion in insertions.reversed() {
            output.insert(contentsOf: Array("D:".utf8), at: insertion)
        }
        try verifyOffsets(output)
        return output
    }

    /// Checks that every in-use xref entry points at `N G obj` and startxref at `xref`.
    static func verifyOffsets(_ pdf: [UInt8]) throws {
        guard let keyword = findLast(Array("startxref".utf8), in: pdf) else {
            throw PDFPatchError(description: "no startxref")
        }
        var cursor = keyword + "startxref".utf8.count
        skipWhitespace(pdf, &cursor)
        guard let xref = readInteger(pdf, &cursor), xref + 4 <= pdf.count,
            pdf[xref..<(xref + 4)].elementsEqual("xref".utf8)
        else { throw PDFPatchError(description: "startxref does not point at xref") }
        cursor = xref + 4
        while true {
            skipWhitespace(pdf, &cursor)
            if pdf[cursor..<min(pdf.count, cursor + 7)].elementsEqual("trailer".utf8) { return }
            guard let first = readInteger(pdf, &cursor) else { throw PDFPatchError(description: "bad xref") }
            skipWhitespace(pdf, &cursor)
            guard let count = readInteger(pdf, &cursor) else { throw PDFPatchError(description: "bad xref") }
            skipWhitespace(pdf, &cursor)
            for index in 0..<count {
                let entry = Array(pdf[cursor..<(cursor + 20)])
                if entry[17] == UInt8(ascii: "n") {
                    let offset = Int(String(decoding: entry[0..<10], as: UTF8.self)) ?? -1
                    let generation = Int(String(decoding: entry[11..<16], as: UTF8.self)) ?? -1
                    let expected = Array("\(first + index) \(generation) obj".utf8)
                    guard offset >= 0, offset + expected.count <= pdf.count,
                        pdf[offset..<(offset + expected.count)].elementsEqual(expected)
                    else {
                        throw PDFPatchError(description: "xref entry \(first + index) is off")
                    }
                }
                cursor += 20
            }
        }
    }

    // MARK: Byte helpers

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count)
        where haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    private static func findLast(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in stride(from: haystack.count - needle.count, through: 0, by: -1)
        where haystack[i] == needle[0] && haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ cursor: inout Int) {
        while cursor < bytes.count, [0x20, 0x0A, 0x0D, 0x09, 0x0C, 0x00].contains(bytes[cursor]) {
            cursor += 1
        }
    }

    private static func readInteger(_ bytes: [UInt8], _ cursor: inout Int) -> Int? {
        let start = cursor
        var value = 0
        while cursor < bytes.count, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
            cursor += 1
        }
        return cursor > start ? value : nil
    }
}
