import Foundation
import Testing

@testable import ReportIndex

/// The writers' remembered normalisation (``FieldTexts``) against the one it remembers: the
/// columns of ``SearchText/normalize(_:)`` and ``SearchText/indexed(_:)``, byte for byte, on texts
/// made of pieces that test where a space is a character of its own.
@Suite struct FieldTextsTests {
    /// Pieces of text: letters and digits of several scripts, tokens of letters and digits, and
    /// spaces beside scalars that make one character with them (marks, joiners and modifiers
    /// after; prepended concatenation marks before) or that fold to nothing.
    static let alphabet = [
        "a", "Z", "7", " ", "  ", "-", "_", "\t", "\r\n", "\u{00A0}", "é", "e\u{0301}", " \u{0301}", "Straße", "ﬁ", "２", "²", "①",
        "٣", "一", "Ⅻ", "к", "Ж", "ก", "\u{0E33}", " \u{0E33}", "\u{0E34}", " \u{0E34}", "-\u{0E34}", "売", "上", "ｶ", "ﾞ", "매",
        "\u{1100}", "\u{1161}", "\u{0600}", "\u{0600} ", "\u{0D4E}", "\u{0D4E} ", "क्ष", "\u{094D}", "\u{0903}", " \u{0903}", "\u{200D}",
        " \u{200D}", "👍", " \u{1F3FB}", "🇩🇪", "\u{FFFF}", "\u{0640}", "'", "\\", "x2", "v2final", "Q3", "inv2020",
    ]

    /// A seeded sequence of numbers (an LCG), so that every run tests the same texts.
    struct Numbers {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next(_ below: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33) % below
        }
    }

    static func text(_ numbers: inout Numbers) -> String {
        (0..<numbers.next(9)).map { _ in alphabet[numbers.next(alphabet.count)] }.joined()
    }

    @Test func wordsAreTheCharacterSplitAtSpaces() {
        var numbers = Numbers()
        for _ in 0..<4_000 {
            let text = Self.text(&numbers)
            #expect(SearchText.words(text[...]).map(String.init) == text.split(separator: " ").map(String.init), "\(text.debugDescription)")
            #expect(ReportIndex.words(text).map(String.init) == text.split(separator: " ").map(String.init))
            // The same text as a slice of a longer one (its bytes counted from the slice's start).
            let padded = "x " + text + " y"
            let inner = padded[padded.utf8.index(padded.startIndex, offsetBy: 2)..<padded.utf8.index(padded.endIndex, offsetBy: -2)]
            #expect(SearchText.words(inner).map(String.init) == text.split(separator: " ").map(String.init), "\(text.debugDescription)")
        }
    }

    @Test func scalarsSaidNeverToJoinASpaceDoNot() {
        for range in SearchText.scalarsNeverJoiningSpace {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let alone = (" " + String(scalar)).count == 2 && (String(scalar) + " ").count == 2
                if !alone { Issue.record("U+\(String(value, radix: 16)) makes one character with a space") }
            }
        }
    }

    @Test func columnsAreTheNormalizedAndIndexedTexts() {
        var numbers = Numbers()
        var texts = FieldTexts()  // one for every text, so that pieces are remembered and met again
        for _ in 0..<4_000 {
            let pieces = (0..<1 + numbers.next(3)).map { _ in Self.text(&numbers) }
            let expected = SearchText.indexed(pieces.map(SearchText.normalize).joined(separator: " "))
            #expect(texts.column(pieces) == expected, "\(pieces.debugDescription)")
            let key = texts.keywordKey(pieces[0])
            #expect(key == SearchText.keywordKey(pieces[0]))
            // Keys are NFC, so the writers compare keys by their bytes (`FieldTexts.keywordKeys`).
            #expect(Array(key.utf8) == Array(key.precomposedStringWithCanonicalMapping.utf8), "\(pieces[0].debugDescription)")
        }
    }

    @Test func keywordsMergeWithoutRepeatsIgnoringCase() {
        // Spellings that differ in case, or only in their Unicode form (the same keyword).
        let spellings = ["Revenue", "revenue", "REVENUE", "Café", "cafe\u{301}", "CAFÉ", "Straße", "STRASSE", "Q3", "q3", "ﬁnance", "finance", "", " "]
        var numbers = Numbers()
        for _ in 0..<2_000 {
            let first = (0..<numbers.next(12)).map { _ in spellings[numbers.next(spellings.count)] }
            let extra = (0..<numbers.next(12)).map { _ in spellings[numbers.next(spellings.count)] }
            // The definition: the first spelling of each keyword, compared lowercased as strings are.
            var seen: Set<String> = []
            let expected = (first + extra).filter { seen.insert($0.lowercased()).inserted }
            #expect(ReportIndex.mergeKeywords(first, extra) == expected, "\(first) + \(extra)")
        }
    }
}
