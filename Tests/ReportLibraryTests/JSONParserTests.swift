import ReportLibrary
import Testing

@Suite("JSON parser")
struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesAndOffsets() throws {
        let value = try parse(#" {"a": [1, -2.5e1, true, false, null], "b": "x"}"#)
        let members = try #require(value.objectMembers)
        #expect(members.map(\.key) == ["a", "b"])
        #expect(value.offset == 1)
        let array = try #require(value["a"]?.arrayValue)
        #expect(array.map(\.offset) == [8, 11, 19, 25, 32])
        #expect(array[1].numberValue == -25)
        #expect(array[2].boolValue == true)
        #expect(value["b"]?.stringValue == "x")
    }

    @Test func stringEscapes() throws {
        let value = try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#)
        #expect(value.stringValue == "a\"b\\c/d\n\té😀")
        let utf8 = try parse("\"Zürich 日本語\"")
        #expect(utf8.stringValue == "Zürich 日本語")
    }

    @Test func rejectsWhatRFC8259Rejects() {
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "1e", "tru", "\"\\x\"", "\"\\ud800\"", "\"abc", "{\"a\":1,}", "NaN", "1e999"] {
            #expect(syntaxError(Array(bad.utf8)) != nil, "\(bad)")
        }
    }

    @Test func invalidUTF8IsAnErrorAtItsOffset() {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF] + Array("\"]".utf8)
        #expect(syntaxError(bytes)?.offset == 4)
    }

    @Test func everyKindOfInvalidUTF8IsRefusedAndValidTextKept() throws {
        // Overlong forms, surrogates, past U+10FFFF, lone continuation bytes, bytes that never
        // occur, truncated sequences (one of three bytes, as long as the U+FFFD that replaces it).
        let invalid: [[UInt8]] = [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xBF], [0xF5, 0x80, 0x80, 0x80],
            [0xFF], [0xE2, 0x82], [0xF0, 0x90, 0x80], [0xF0, 0x90, 0x80, 0x41],
        ]
        for sequence in invalid {
            let plain: [UInt8] = Array("[\"ab".utf8) + sequence + Array("\"]".utf8)
            #expect(syntaxError(plain)?.offset == 4, "\(sequence)")
            let escaped: [UInt8] = Array("[\"a\\nb".utf8) + sequence + Array("\"]".utf8)
            #expect(syntaxError(escaped)?.offset == 6, "\(sequence)")
        }
        for text in ["é", "\u{FFFD}", "売上 \u{10FFFF}", "a\u{FFFD}\u{FFFD}b", String(repeating: "ж", count: 40)] {
            let value = try JSONParser.parse(Array("[\"\(text)\", \"\(text)\\t\"]".utf8))
            #expect(value.arrayValue?.compactMap(\.stringValue) == [text, text + "\t"])
        }
    }

    @Test func nestingLimit() {
        let deep = Array(String(repeating: "[", count: 600).utf8)
        let error = syntaxError(deep)
        #expect(error?.isNestingLimit == true)
    }

    @Test func sourcePositions() {
        let text = SourceText(Array("ab\ncdé\nf".utf8))
        #expect(text.position(of: 0) == SourcePosition(offset: 0, line: 1, column: 1))
        #expect(text.position(of: 4) == SourcePosition(offset: 4, line: 2, column: 2))
        #expect(text.position(of: 8) == SourcePosition(offset: 8, line: 3, column: 1))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("1".utf8))
        #expect(value.numberValue == 1)
    }
}
