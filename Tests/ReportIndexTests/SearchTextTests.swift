import Testing

@testable import ReportIndex

@Suite struct SearchTextTests {
    @Test(arguments: [
        ("Zürich", "zurich"),
        ("Straße", "strasse"),
        ("STRASSE", "strasse"),
        ("Résumé", "resume"),
        ("ÉCOLE", "ecole"),
        ("Ἀθῆναι", "αθηναι"),
        ("Σίσυφος", "σισυφοσ"),
        ("Tiếng Việt", "tieng viet"),
        ("Hà Nội", "ha noi"),
        ("שָׁלוֹם", "שלום"),
        ("مُحَمَّد", "محمد"),
        ("كـتـاب", "كتاب"),
        ("Ｒｅｖｅｎｕｅ ２０３１", "revenue 2031"),
        ("ﬁnance", "finance"),
        ("İstanbul", "istanbul"),
        ("Москва́", "москва"),
        ("O'Brien & Co.", "o brien co"),
        ("Q1-2016: Income*Statement", "q1 2016 income statement"),
    ])
    func foldsCaseDiacriticsAndWidth(text: String, expected: String) {
        #expect(SearchText.normalize(text) == expected)
    }

    @Test func unspacedScriptsAreCutIntoCharacters() {
        #expect(SearchText.normalize("月次報告書") == "月 次 報 告 書")
        #expect(SearchText.normalize("ｶﾞｲﾄﾞ") == "ガ イ ド")
        #expect(SearchText.normalize("が") != SearchText.normalize("か"))
        #expect(SearchText.normalize("매출 보고서") == "매 출 보 고 서")
        // Thai: grapheme clusters, vowels kept with their consonant.
        // (SARA AM decomposes to NIKHAHIT + SARA AA under NFKD, in the index and the query alike.)
        #expect(SearchText.normalize("รายงานประจำปี") == "ร า ย ง า น ป ร ะ จ\u{E4D}\u{E32} ปี")
        #expect(SearchQuery("ประจำ").spans(in: "รายงานประจำปี") == [6..<11])
        #expect(SearchText.normalize("2020年度") == "2020 年 度")
    }

    @Test func tokenRangesAreScalarOffsetsIntoTheOriginal() {
        let tokens = SearchText.tokens("Über 報告")
        #expect(tokens.map(\.range) == [0..<4, 5..<6, 6..<7])
        let decomposed = SearchText.tokens("Cafe\u{301} noir")
        #expect(decomposed.map(\.text) == ["cafe", "noir"])
        #expect(decomposed.map(\.range) == [0..<5, 6..<10])
    }

    @Test func queriesAreTextNeverSyntax() {
        for text in ["\"", "*", "-", "NEAR(a b)", "a AND b OR c", "title: x", "^x", "(a", "a)", "\0", "\"\"", "a\"b\"c", "{title}: x"] {
            let query = SearchQuery(text)
            if let expression = query.ftsExpression() {
                // Every term is one quoted string, an optional star, and AND between them.
                #expect(!expression.contains("NEAR("))
                #expect(expression.filter { $0 == "\"" }.count == query.terms.count * 2)
            }
        }
        #expect(SearchQuery("a AND b").terms.map(\.tokens) == [["a"], ["and"], ["b"]])
    }

    @Test func lastWordIsAPrefixUnlessTheQueryEndsInSpace() {
        #expect(SearchQuery("annual rev").terms.map(\.isPrefix) == [false, true])
        #expect(SearchQuery("annual rev ").terms.map(\.isPrefix) == [false, false])
        #expect(SearchQuery("\"annual report\"").terms.map(\.isPrefix) == [false])
        #expect(SearchQuery("\"annual rep").terms == [SearchQuery.Term(tokens: ["annual", "rep"], isPrefix: true)])
        #expect(SearchQuery("月次報告").terms == [SearchQuery.Term(tokens: ["月", "次", "報", "告"], isPrefix: true)])
    }

    @Test func spansMapBackToTheOriginalText() {
        let query = SearchQuery("zurich umsatze")
        #expect(query.spans(in: "Umsätze Zürich 2031") == [0..<7, 8..<14])
        #expect(SearchQuery("報告").spans(in: "月次報告書") == [2..<4])
        // A word typed in part marks the part typed, accents and case folded one to one.
        #expect(SearchQuery("rev").spans(in: "Revenue and revisions") == [0..<3, 12..<15])
        #expect(SearchQuery("zur").spans(in: "Zürich Office") == [0..<3])
        #expect(SearchQuery("zur ").spans(in: "Zürich Office") == [])
        #expect(SearchQuery("report").spans(in: "Annual") == [])
    }
}

/// The words the ranking reads from a normalised column are those of `split(separator: " ")`,
/// for ASCII and for text where a space begins a cluster with the mark after it.
@Suite struct ColumnWordsTests {
    @Test(arguments: [
        "", " ", "  a  b ", "board minutes 2019", "umsatze prognose q3", "財 務 報 告", "отчет финансовый",
        "a \u{301}b c", "\u{0915} \u{093F} x", " \u{0D4E} y ", "x\u{00A0}y z", "e\u{301} f", "\r\n a",
    ])
    func sameAsSplittingAtSpaces(_ text: String) {
        #expect(ReportIndex.words(text) == text.split(separator: " ", omittingEmptySubsequences: true), "\(Array(text.unicodeScalars))")
    }

    /// Seeded random strings over spaces, ASCII letters, marks, CJK and Thai.
    @Test func sameOnRandomText() {
        let pieces: [String] = [" ", " ", "a", "Z", "7", "\u{301}", "\u{93F}", "\u{E31}", "財", "é", "\u{200D}", "\r\n", "\u{1F3FB}"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for k in 0..<Int(state >> 60) + 1 {
                let r = (state >> UInt64(4 * (k % 14))) & 0xFF
                text += pieces[Int(r) % pieces.count]
            }
            #expect(ReportIndex.words(text) == text.split(separator: " ", omittingEmptySubsequences: true), "\(Array(text.unicodeScalars))")
        }
    }
}
