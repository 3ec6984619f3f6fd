import BubbleSupport
import Foundation
import Testing

@Suite("BubbleSupport")
struct BubbleSupportTests {
    @Test func fnv1a64MatchesThePublishedVectors() {
        #expect(FNV1a64.hash("".utf8) == 0xCBF2_9CE4_8422_2325)
        #expect(FNV1a64.hash("a".utf8) == 0xAF63_DC4C_8601_EC8C)
        #expect(FNV1a64.hash("foobar".utf8) == 0x8594_4171_F739_67E8)
        var h = FNV1a64()
        h.combine(bytes: "foo".utf8)
        #expect(FNV1a64.hash("bar".utf8, seed: h.value) == FNV1a64.hash("foobar".utf8))
    }

    @Test func splitMix64MatchesTheReferenceSequence() {
        var g = SplitMix64(seed: 0)
        #expect(g.next() == 0xE220_A839_7B1D_CDAF)
        #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(g.next() == 0x06C4_5D18_8009_454F)
        var u = SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let x = u.nextUnit()
            #expect(x >= 0 && x < 1)
        }
    }

    /// Within the documented error: 4e-13 for sin and cos (truncated Taylor polynomials), a few
    /// ulps for e^x and ln x (series summed to convergence).
    @Test func deterministicMathIsCloseToLibm() {
        for i in -2000...2000 {
            let x = Double(i) * 0.01
            let (s, c) = DeterministicMath.sinCos(x)
            #expect(abs(s - Foundation.sin(x)) < 4e-13 && abs(c - Foundation.cos(x)) < 4e-13, "\(x)")
            let e = DeterministicMath.exp(x)
            #expect(abs(e - Foundation.exp(x)) <= 1e-14 * Foundation.exp(x), "\(x)")
        }
        for x in [1e-300, 1e-5, 0.5, 1, 2, 10, 12345.678, 1e300] {
            #expect(abs(DeterministicMath.log(x) - Foundation.log(x)) <= 1e-14 * max(1, abs(Foundation.log(x))), "\(x)")
        }
        #expect(DeterministicMath.sinCos(0) == (0, 1))
        #expect(abs(DeterministicMath.power(2, 10) - 1024) < 1e-9)
        #expect(DeterministicMath.twoPi == 2 * DeterministicMath.pi && DeterministicMath.halfPi == DeterministicMath.pi / 2)
    }

    @Test func jsonNumbersReadBackExactlyAndAreAlwaysJSON() throws {
        let cases: [(Double, String)] = [
            (384, "384"), (-2, "-2"), (0, "0"), (-0.0, "0"), (0.7, "0.7"), (1e-05, "1e-05"), (-1.25, "-1.25"),
            (9_007_199_254_740_991, "9007199254740991"), (1e16, "1e+16"), (1e15, "1000000000000000"),
            (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
        ]
        for (value, text) in cases { #expect(JSONLiteral.number(value) == text, "\(value)") }
        for value in [0.1, 1 / 3.0, 123.456, 6.02e23, -Double.leastNonzeroMagnitude, .pi] {
            let text = JSONLiteral.number(value)
            #expect(Double(text) == value, "\(text)")
            let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [Double]
            #expect(parsed == [value])
        }
    }

    @Test func jsonStringsEscapeWhatJSONAndHTMLNeed() {
        #expect(JSONLiteral.string("a\"b\\c\nd\u{1}\u{7F}\u{2028}é") == "\"a\\\"b\\\\c\\nd\\u0001\\u007f\\u2028é\"")
        #expect(JSONLiteral.string("</script>&", htmlSafe: true) == "\"\\u003c/script\\u003e\\u0026\"")
    }

    @Test func hexIsZeroPadded() {
        #expect(Hex.hash(0xABC) == "0000000000000abc")
        #expect(Hex.hash(.max) == "ffffffffffffffff")
        #expect(Hex.string(UInt8(10), digits: 2, uppercase: true) == "0A")
        #expect(Hex.string(UInt32(0x1F600), digits: 4, uppercase: true) == "1F600")
        #expect(Hex.string(0, digits: 4) == "0000")
    }

    /// Characters are the unit: one letter a reader sees is one edit, however many scalars it has.
    @Test func editDistanceCountsCharacters() {
        #expect(EditDistance.levenshtein("kitten", "sitting") == 3)
        #expect(EditDistance.levenshtein("", "abc") == 3)
        #expect(EditDistance.levenshtein("abc", "") == 3)
        #expect(EditDistance.levenshtein("same", "same") == 0)
        #expect(EditDistance.levenshtein("finance", "fiannce") == 2)
        #expect(EditDistance.levenshtein("caf\u{E9}", "cafe\u{301}") == 0)  // é precomposed and decomposed
        #expect(EditDistance.levenshtein("\u{1F1E9}\u{1F1EA}", "\u{1F1EB}\u{1F1F7}") == 1)  // 🇩🇪 → 🇫🇷: two scalars each
        #expect(EditDistance.levenshtein("cafe", "caf\u{E9}") == 1)
    }

    @Test func monthNamesAndTheOneLookup() {
        #expect(MonthNames.english.count == 12 && MonthNames.englishShort.count == 12 && MonthNames.german.count == 12)
        #expect(MonthNames.englishShort == MonthNames.english.map { String($0.prefix(3)) })
        #expect(MonthNames.month(named: "MARCH") == 3)
        #expect(MonthNames.month(named: "Sept") == 9)
        #expect(MonthNames.month(named: "März") == 3)
        #expect(MonthNames.month(named: "maerz") == 3)
        #expect(MonthNames.month(named: "Okt") == 10)
        #expect(MonthNames.month(named: "Mai"[...]) == 5)
        #expect(MonthNames.month(named: "Mar.") == nil)
        #expect(MonthNames.month(named: "Monday") == nil)
        // The table the dashboard's title keys read (TitleKeys.monthNames), word for word.
        let titleKeys: [String: Int] = [
            "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
            "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
            "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
            "januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7, "okt": 10,
            "oktober": 10, "dez": 12, "dezember": 12,
        ]
        #expect(MonthNames.lowerCased == titleKeys)
    }
}
