import Foundation
import NIOCore
import PDFCore
import PostgresNIO
import ReportLibrary
import SampleLibrary
import TestSupport
import Testing

@testable import ReportIndex

/// The index tests every store passes: the SQLite file and PostgreSQL (`ReportIndexTests` and
/// `PostgresIndexTests` run each of them).
struct IndexChecks {
    let store: TestStore

    func built(_ library: TestLibrary, count: Int = TestLibrary.reports.count) throws -> ReportIndex {
        let index = try ReportIndex.open(at: library.indexPath)
        let update = try index.update(with: try library.tree())
        #expect(update.reports == count)
        return index
    }

    func ids(_ index: ReportIndex, _ text: String, _ options: SearchOptions = SearchOptions()) throws -> [String] {
        try index.search(SearchQuery(text), options: options).results.map(\.id)
    }

    func findsAsAReaderExpects() throws {
        let library = try TestLibrary(store: store)
        defer { library.remove() }
        let index = try built(library)
        // Case, diacritics and ß, either way round.
        // (Report kr-report's PDF is the Zürich lease review: its PDF title matches too, below.)
        #expect(try ids(index, "zurich") == ["umsatz", "kr-report"])
        #expect(try ids(index, "ZÜRICH") == ["umsatz", "kr-report"])
        #expect(try ids(index, "umsatze") == ["umsatz"])
        #expect(try ids(index, "strassenbau") == ["strasse"])
        #expect(try ids(index, "resume") == ["strasse"])
        #expect(try ids(index, "εκθεση") == ["el-report"])
        #expect(try ids(index, "bao cao ha noi") == ["vi-report"])
        #expect(try ids(index, "التقرير") == ["ar-report"])
        #expect(try ids(index, "דוח") == ["he-report"])
        // Unspaced scripts: one and two characters inside a longer run.
        #expect(try ids(index, "報告") == ["jp-report"])
        #expect(try ids(index, "報") == ["jp-report"])
        #expect(try ids(index, "报告") == ["cn-report"])
        #expect(try ids(index, "매출") == ["kr-report"])
        #expect(try ids(index, "보고") == ["kr-report"])
        #expect(try ids(index, "ประจำ") == ["th-report"])
        // Prefix as you type, every word must match, phrases.
        let rev = try ids(index, "rev")
        #expect(Array(rev.prefix(2)) == ["rev-2016", "rev-2017"])
        #expect(rev.contains("ar-report"), "its PDF's keywords hold 'revenue'")
        #expect(try ids(index, "revenue 2017") == ["rev-2017"])
        #expect(try ids(index, "revenue 2018") == [])
        #expect(try ids(index, "\"forecast revenue\"") == [])
        #expect(try ids(index, "\"revenue forecast\"") == ["rev-2016", "rev-2017"])
    }

    func hostileQueriesGiveResultsOrNone() throws {
        let library = try TestLibrary(store: store)
        defer { library.remove() }
        let index = try built(library)
        let hostile = [
            "\"", "\"\"", "*", "-", "-revenue", "NEAR", "NEAR(report)", "AND", "OR", "NOT", "a OR b", ":", "title:revenue",
            "{title}: x", "^revenue", "(", ")", "[x]", "\0", "re\0venue", "*revenue*", "'", "\\", "%", "_",
            String(repeating: "revenue ", count: 1_250), String(repeating: "報", count: 10_000), "🎉", "\u{202E}", "",
        ]
        for text in hostile {
            let results = try index.search(SearchQuery(text), withFacets: true)
            #expect(results.total >= 0)
            _ = try index.matchingIDs(SearchQuery(text))
        }
        #expect(try ids(index, "\"AND\" OR NEAR(report)").contains("quotes"))
    }

    func ranksTitleMatchesFirstAndCountsEveryMatch() throws {
        let library = try TestLibrary(store: store)
        defer { library.remove() }
        let index = try built(library)
        // "forecast" is in two titles and in their keywords; the title matches come first.
        let results = try index.search(SearchQuery("forecast"), options: SearchOptions(limit: 1))
        #expect(results.total == 2)
        #expect(results.results.count == 1)
        let first = try #require(results.results.first)
        #expect(first.matches.first?.field == .title)
        #expect(first.matches.first?.spans == [8..<16])
        #expect(first.path == ["root", "finance", "forecasts"])
        #expect(first.score >= 6)
        // A keyword-only match ranks below title matches.
        let budget = try index.search(SearchQuery("budget"))
        #expect(budget.results.first?.id == "rev-2017")
        #expect(budget.results.first?.matches.map(\.field) == [.keywords])
        // Words in the title rank above the same words spread over the PDF's title and keywords.
        #expect(try ids(index, "revenue 2016") == ["rev-2016", "rev-2017", "ar-report"])
        #expect((budget.results.first?.score ?? 9) < 6)
        // Spans are Unicode scalar offsets into the stored text.
        let jp = try index.search(SearchQuery("報告")).results.first
        #expect(jp?.matches.first?.spans == [2..<4])
        // Asking for the title's matches only: the same results and scores, the other fields'
        // matches left out.
        for text in ["forecast", "budget", "revenue 2016", "報告"] {
            let all = try index.search(SearchQuery(text))
            let titles = try index.search(SearchQuery(text), options: SearchOptions(matchFields: [.title]))
            #expect(titles.total == all.total)
            #expect(titles.results.map(\.id) == all.results.map(\.id))
            #expect(titles.results.map(\.score) == all.results.map(\.score))
            #expect(titles.results.map(\.matches) == all.results.map { $0.matches.filter { $0.field == .title } }, "\(text)")
        }
        #expect(try index.search(SearchQuery("budget"), options: SearchOptions(matchFields: [.title])).results.first?.matches == [])
    }

    func keywordsAndSubtreesRestrict() throws {
        let library = try TestLibrary(store: store)
        defer { library.remove() }
        let index = try built(library)
        #expect(try ids(index, "", SearchOptions(keywords: ["forecast"])) == ["rev-2016", "rev-2017"])
        #expect(try ids(index, "", SearchOptions(keywords: ["FORECAST", "budget"])) == ["rev-2017"])
        #expect(try ids(index, "", SearchOptions(keywords: ["forecast", "dach"])) == [])
        #expect(try ids(index, "", SearchOptions(keywords: ["!!!"])) == [])
        #expect(try ids(index, "", SearchOptions(within: "asia")) == ["jp-report", "cn-report", "kr-report", "th-report"])
        #expect(try ids(index, "2016", SearchOptions(within: "asia")) == ["jp-report", "kr-report"])  // shorter title first
        #expect(throws: IndexError.self) { try index.search(SearchQuery("x"), options: SearchOptions(within: "nope")) }
        let facets = try index.facets(SearchQuery("revenue"))
        #expect(facets.contains(KeywordCount(keyword: "forecast", count: 2)))
        #expect(facets.first?.count == 2)
        #expect(facets.contains(KeywordCount(keyword: "Budget", count: 1)))
        #expect(try index.matchingIDs(SearchQuery("report"), options: SearchOptions(within: "mideast")) == ["ar-report", "he-report"])
    }

    func updatesReadOnlyWhatChanged() throws {
        let library = try TestLibrary(store: store)
        defer { library.remove() }
        let index = try ReportIndex.open(at: library.indexPath)
        let first = try index.update(with: try library.tree())
        #expect(first.read == TestLibrary.samplePDFs.count && first.unchanged == 0 && first.removed == 0 && first.wrote)
        let again = try index.update(with: try library.tree())
        #expect(again.read == 0 && again.unchanged == TestLibrary.samplePDFs.count && !again.wrote)

        // A new modification time with the same content: not read again.
        let pdf0 = library.folder + "/pdf/0.pdf"
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, pdf0, &times, 0)
        let touched = try index.update(with: try library.tree())
        #expect(touched.read == 0 && touched.unchanged == TestLibrary.samplePDFs.count)

        // New content: read again.
        try FileManager.default.removeItem(atPath: pdf0)
        try FileManager.default.copyItem(atPath: packageRoot + "/Data/reports/q3-2016.pdf", toPath: pdf0)
        let changed = try index.update(with: try library.tree())
        #expect(changed.read == 1 && changed.unchanged == TestLibrary.samplePDFs.count - 1)

        // A report dropped, ids changed: the index follows, and holds what a clean build holds.
        var reports = TestLibrary.reports
        reports.removeLast()
        reports[0].0 = "revenue-2016"
        try library.write(reports)
        let edited = try index.update(with: try library.tree())
        #expect(edited.removed == 2 && edited.reports == reports.count && edited.read == 0)
        #expect(try ids(index, "revenue 2016").first == "revenue-2016")

        // A PDF removed between runs: its reports stay, with the reader's error as without an index.
        try FileManager.default.removeItem(atPath: library.folder + "/pdf/7.pdf")
        let removed = try index.update(with: try library.tree())
        #expect(removed.read == 1 && removed.warnings >= 1)
        #expect(removed.files[library.folder + "/pdf/7.pdf"]?.readError != nil)
        #expect(try index.update(with: try library.tree()).read == 0, "a missing file is not read again and again")

        let clean = library.otherIndexPath("clean")
        _ = try ReportIndex.open(at: clean).update(with: try library.tree())
        #expect(try dumpRows(library.indexPath) == dumpRows(clean))
        library.removeIndex(clean)
        #expect(try index.integrityProblems() == [])
    }

    func aSecondUpdaterWaitsThenFails() throws {
        let library = try TestLibrary(name: "locked", store: store)
        defer { library.remove() }
        let first = try ReportIndex.open(at: library.indexPath)
        let start = Date()
        #expect {
            _ = try ReportIndex.open(at: library.indexPath, mode: .update(lockWait: 0.3))
        } throws: { error in
            (error as? IndexError)?.kind == .locked && "\(error)".contains("another process is updating the index")
        }
        #expect(Date().timeIntervalSince(start) >= 0.25)
        // Commands that only want metadata read the index instead of waiting.
        let reader = try ReportIndex.open(at: library.indexPath, mode: .updateIfPossible)
        #expect(!reader.isWritable)
        withExtendedLifetime(first) {}
    }

    func searchesFromManyThreadsWhileAnUpdateRuns() throws {
        let library = try TestLibrary(name: "threads", store: store)
        defer { library.remove() }
        let index = try built(library)
        let tree = try library.tree()
        // Rewrite the PDFs' modification times so that the update reads them again.
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for round in 0..<5 {
                    for i in TestLibrary.samplePDFs.indices {
                        var times = [timespec(tv_sec: 1_600_000_000 + round, tv_nsec: 0), timespec(tv_sec: 1_600_000_000 + round, tv_nsec: 0)]
                        utimensat(AT_FDCWD, library.folder + "/pdf/\(i).pdf", &times, 0)
                    }
                    if (try? index.update(with: tree, jobs: 2)) == nil { failures.add(1) }
                }
            } else {
                for _ in 0..<50 {
                    guard let found = try? index.search(SearchQuery("report"), withFacets: true), found.total >= 1 else {
                        failures.add(1)
                        continue
                    }
                }
            }
        }
        #expect(failures.value == 0)
        #expect(try index.integrityProblems() == [])
    }

    func aFileThatChangesWhileItIsReadConverges() throws {
        let library = try TestLibrary(name: "changing", store: store)
        defer { library.remove() }
        let index = try built(library)
        let tree = try library.tree()
        let target = library.folder + "/pdf/0.pdf"
        let versions = [packageRoot + "/Data/reports/q3-2016.pdf", packageRoot + "/Data/reports/q4-2016.pdf"]
        let stop = Locked(0)
        let writer = Thread {
            var n = 0
            while stop.value == 0 {
                let tmp = target + ".tmp"
                try? FileManager.default.removeItem(atPath: tmp)
                try? FileManager.default.copyItem(atPath: versions[n % 2], toPath: tmp)
                rename(tmp, target)
                n += 1
            }
        }
        writer.start()
        for _ in 0..<20 { _ = try index.update(with: tree) }
        stop.add(1)
        usleep(50_000)
        // Whatever it saw meanwhile, once the file holds still the index agrees with a fresh read.
        let final = try index.update(with: tree)
        let record = try #require(final.files[target])
        let fresh = PDFFileReader.read(target)
        #expect(record.contentHash == fresh.contentHash && record.title == fresh.title && record.pageCount == fresh.pageCount)
        #expect(try index.integrityProblems() == [])
    }

    func findsWordsInsideTokensOfLettersAndDigits() throws {
        let library = try TestLibrary(name: "parts", store: store)
        defer { library.remove() }
        try library.write([
            ("annot", "l3pdfannot (LaTeX PDF management testphase bundle)", ["tex", "bundles"], 0, []),
            ("paper", "paper1997corrected", ["papers", "old"], 1, []),
            ("fixed", "Corrected figures", ["papers", "new"], 2, []),
            ("q3", "Q3Report2016", ["finance", "quarters"], 3, ["INV2020-0042"]),
            ("final", "Plan v2final", ["finance", "plans"], 4, []),
        ])
        let index = try built(library, count: 5)
        #expect(try ids(index, "pdfannot") == ["annot"])
        #expect(try ids(index, "pdfann") == ["annot"])
        #expect(try ids(index, "l3pdfannot") == ["annot"])
        // The whole token ranks above a part of one.
        #expect(try ids(index, "corrected") == ["fixed", "paper"])
        #expect(try ids(index, "1997") == ["paper"])
        #expect(try ids(index, "report").first == "q3", "the others match in their category titles only")
        #expect(try ids(index, "final") == ["final"])
        #expect(try ids(index, "inv2020") == ["q3"])
        #expect(try ids(index, "0042") == ["q3"])
        // A phrase of whole tokens does not run into the parts.
        #expect(try ids(index, "\"bundle l3pdfannot\"") == [])
        let paper = try index.search(SearchQuery("corrected ")).results.first { $0.id == "paper" }
        #expect(paper?.matches.first?.spans == [9..<18])
        let whole = try index.search(SearchQuery("corrected ")).results.first { $0.id == "fixed" }
        #expect((whole?.score ?? 0) > (paper?.score ?? 9))
    }

    func keywordsWithControlCharactersCanBeFiltered() throws {
        let library = try TestLibrary(name: "controls", store: store)
        defer { library.remove() }
        let odd = "Annual\tReport\u{8}\n\u{C}2016  draft"
        try library.write([
            ("odd-kw", "Odd keywords", ["misc", "odd"], 0, [odd]),
            ("plain-kw", "Plain keywords", ["misc", "plain"], 1, ["annual report 2016 draft"]),
        ])
        let index = try built(library, count: 2)
        #expect(SearchText.keywordKey(odd) == "annual report 2016 draft")
        #expect(try ids(index, "", SearchOptions(keywords: [odd])) == ["odd-kw", "plain-kw"])
        #expect(try ids(index, "", SearchOptions(keywords: ["Annual Report 2016 Draft"])) == ["odd-kw", "plain-kw"])
        let facets = try index.facets(SearchQuery(""))
        #expect(facets.first == KeywordCount(keyword: odd, count: 2), "one key, shown as first spelt in code-point order")
    }

    func aReadOnlyIndexAnswersWithoutWriting() throws {
        let library = try TestLibrary(name: "readonly", store: store)
        defer { library.remove() }
        do { _ = try built(library) }
        let before = try dumpRows(library.indexPath)
        try FileManager.default.removeItem(atPath: library.folder + "/pdf/3.pdf")
        try FileManager.default.copyItem(atPath: packageRoot + "/Data/reports/q3-2016.pdf", toPath: library.folder + "/pdf/3.pdf")
        let holder = try ReportIndex.open(at: library.indexPath)  // another process updating
        let reader = try ReportIndex.open(at: library.indexPath, mode: .updateIfPossible)
        let update = try reader.update(with: try library.tree())
        #expect(update.read == 1 && !update.wrote)
        #expect(update.files[library.folder + "/pdf/3.pdf"] == PDFFileReader.read(library.folder + "/pdf/3.pdf"))
        #expect(try dumpRows(library.indexPath) == before)
        withExtendedLifetime(holder) {}
    }
}

/// An integer shared between threads.
final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int
    init(_ value: Int) { stored = value }
    var value: Int { lock.withLock { stored } }
    func add(_ n: Int) { lock.withLock { stored += n } }
}

@Suite struct ReportIndexTests {
    let checks = IndexChecks(store: .sqlite)

    @Test func findsAsAReaderExpects() throws { try checks.findsAsAReaderExpects() }
    @Test func hostileQueriesGiveResultsOrNone() throws { try checks.hostileQueriesGiveResultsOrNone() }
    @Test func ranksTitleMatchesFirstAndCountsEveryMatch() throws { try checks.ranksTitleMatchesFirstAndCountsEveryMatch() }
    @Test func keywordsAndSubtreesRestrict() throws { try checks.keywordsAndSubtreesRestrict() }
    @Test func updatesReadOnlyWhatChanged() throws { try checks.updatesReadOnlyWhatChanged() }
    @Test func aSecondUpdaterWaitsThenFails() throws { try checks.aSecondUpdaterWaitsThenFails() }
    @Test func searchesFromManyThreadsWhileAnUpdateRuns() throws { try checks.searchesFromManyThreadsWhileAnUpdateRuns() }
    @Test func aFileThatChangesWhileItIsReadConverges() throws { try checks.aFileThatChangesWhileItIsReadConverges() }
    @Test func aReadOnlyIndexAnswersWithoutWriting() throws { try checks.aReadOnlyIndexAnswersWithoutWriting() }
    @Test func keywordsWithControlCharactersCanBeFiltered() throws { try checks.keywordsWithControlCharactersCanBeFiltered() }
    @Test func findsWordsInsideTokensOfLettersAndDigits() throws { try checks.findsWordsInsideTokensOfLettersAndDigits() }

    @Test(arguments: ["empty", "truncated", "random", "other-version", "other-program"])
    func damagedIndexesAreRebuiltWithAWarning(damage: String) throws {
        let library = try TestLibrary(name: "damaged", store: .sqlite)
        defer { library.remove() }
        do { _ = try checks.built(library) }
        let path = library.indexPath
        switch damage {
        case "empty":
            try Data().write(to: URL(fileURLWithPath: path))
        case "truncated":
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: path))
        case "random":
            let noise = (0..<20_000).map { (i: Int) -> UInt8 in UInt8(truncatingIfNeeded: (i &* 2_654_435_761) >> 13) }
            try Data(noise).write(to: URL(fileURLWithPath: path))
        case "other-version":
            let index = try ReportIndex.open(at: path)
            try index.write { db in try db.execute(sql: "PRAGMA user_version = 99") }
        default:
            try FileManager.default.removeItem(atPath: path)
            let other = try ReportIndex.open(at: path)
            try other.write { db in
                try db.execute(sql: "PRAGMA application_id = 1")
            }
        }
        var warnings: [String] = []
        let index = try ReportIndex.open(at: path) { warnings.append($0) }
        let update = try index.update(with: try library.tree())
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.contains("rebuilding the index") == true)
        if damage == "other-version" { #expect(warnings.first?.contains("schema version 99") == true) }
        #expect(update.reports == TestLibrary.reports.count)
        #expect(try checks.ids(index, "zurich").first == "umsatz")
        #expect(try index.integrityProblems() == [])
    }
}

/// The keys a report adds to the PostgreSQL store's `prefix_count`, without a server.
@Suite struct PostgresCountedKeysTests {
    @Test("every prefix of up to 16 bytes, and each whole token of up to 15 and a space")
    func prefixesAndWholeTokens() {
        let keys = PostgresStore.vector(["revenue q3", "", "квартальный", "", ""]).prefixes.map(\.text)
        for key in ["r", "revenu", "revenue", "revenue ", "q", "q3", "q3 ", "к", "кварталь"] {
            #expect(keys.contains(key), "\(key)")
        }
        // 9 Cyrillic letters are 18 bytes: beyond the counted length, and so is the whole word.
        #expect(!keys.contains("квартальн") && !keys.contains("квартальный ") && !keys.contains("rev "))
        #expect(keys == keys.sorted() && Set(keys).count == keys.count)
    }

    @Test("two neighbouring characters of an unspaced script are a pair lexeme and key; words of other scripts are not")
    func pairsOfUnspacedCharacters() {
        let columns = ["报 告 书", "", "revenue forecast", "", "ร า \(SearchText.partsMark) ย"]
        let (literal, prefixes) = PostgresStore.vector(columns)
        let keys = prefixes.map(\.text)
        #expect(literal.contains("'A报\u{1}告'") && literal.contains("'A告\u{1}书'") && literal.contains("'Eร\u{1}า'"))
        #expect(!literal.contains("\u{1}revenue") && !literal.contains("\u{1}forecast") && !literal.contains("า\u{1}ย"))
        #expect(keys.contains("报\u{1}告") && keys.contains("报\u{1}告 ") && keys.contains("ร\u{1}า"))
    }

    /// A report's keys counted once each from its distinct tokens and the bytes each shares with
    /// the one before (as the writer counts them) are every key of every token, each once: on
    /// 4 000 generated reports of tricky pieces, and tokens that share their first 16 bytes.
    @Test func eachKeyOnceFromDistinctTokens() {
        var numbers = FieldTextsTests.Numbers()
        var texts = FieldTexts()
        let long = ["abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnoé", "abcdefghijklmnoéx", "abcdefghijklmn", "abcdefghijklmnop\u{301}"]
        for round in 0..<4_000 {
            var columns = (0..<5).map { _ in texts.column([FieldTextsTests.text(&numbers), FieldTextsTests.text(&numbers)]) }
            if round % 10 == 0 { columns[numbers.next(5)] += " " + (0..<3).map { _ in long[numbers.next(long.count)] }.joined(separator: " ") }
            var tokens: [PostgresStore.CountedToken] = []
            _ = PostgresStore.vector(columns, tokens: &tokens)
            let every = Set(tokens.flatMap { $0.keys(after: 0) })
            let counted = PostgresStore.CountedToken.distinct(&tokens).flatMap { $0.token.keys(after: $0.cut) }
            #expect(counted.count == Set(counted).count, "\(columns.debugDescription)")
            #expect(Set(counted) == every, "\(columns.debugDescription)")
        }
    }

    @Test("a prefix that ends with a space (a token holds one before a mark) is no key: it would read as a whole token")
    func noPrefixEndsWithASpace() {
        let token = "ab \u{0E31}c"  // a space that a Thai vowel mark follows is one grapheme: one token
        #expect(ReportIndex.words(token).count == 1)
        let keys = PostgresStore.vector([token, "", "", "", ""]).prefixes.map(\.text)
        #expect(keys.contains("ab") && keys.contains("ab \u{0E31}") && keys.contains(token + " "))
        #expect(!keys.contains("ab "))
    }
}

@Suite struct PostgresPostingTests {
    @Test("the least string above every string that begins with a prefix, in code-point order")
    func successors() {
        #expect(PostgresStore.successor("abc") == "abd")
        #expect(PostgresStore.successor("a\u{D7FF}") == "a\u{E000}")
        #expect(PostgresStore.successor("a\u{10FFFF}") == "b")
        #expect(PostgresStore.successor("\u{10FFFF}\u{10FFFF}") == nil)
    }

    @Test("a term's tokens: one whole token, every token a typed one begins, a pair's token, a phrase of unspaced characters pair by pair; other phrases and keywords go to GIN")
    func termRanges() {
        let none = ReportIndex.Restriction()
        let terms = PostgresStore.postingTerms(SearchQuery("revenue fore"), none)
        #expect(terms?.map { $0.map(\.lo) } == [["revenue"], ["fore"]] && terms?.map { $0.map(\.hi) } == [["revenue\u{1}"], ["forf"]])
        #expect(PostgresStore.postingTerms(SearchQuery("报告"), none)?.map { $0.map(\.lo) } == [["报\u{1}告"]])
        let phrase = PostgresStore.postingTerms(SearchQuery("报告书"), none)
        #expect(phrase?.map { $0.map(\.lo) } == [["报\u{1}告", "告\u{1}书"]], "a phrase: its pairs")
        #expect(phrase?.first?.map(\.hi) == ["报\u{1}告\u{1}", PostgresStore.successor("告\u{1}书")!])
        #expect(PostgresStore.postingTerms(SearchQuery("报告书 "), none)?.first?.last?.hi == "告\u{1}书\u{1}", "a finished phrase: its last pair whole")
        #expect(PostgresStore.postingTerms(SearchQuery("\"board minutes\""), none) == nil)
        #expect(PostgresStore.postingTerms(SearchQuery("报告2020"), none) == nil, "a phrase with a token of another script")
        #expect(PostgresStore.postingTerms(SearchQuery(""), none) == nil)
        #expect(PostgresStore.postingTerms(SearchQuery("revenue"), ReportIndex.Restriction(keywordKeys: ["forecast"])) == nil)
    }

    @Test("a phrase longer than a field's positions matches nothing (no tsquery the server would have to parse)")
    func phrasesBeyondTheLastPosition() {
        let longest = SearchQuery.Term(tokens: Array(repeating: "board", count: PostgresStore.longestPhrase), isPrefix: false)
        #expect(PostgresStore.tsquery(longest, tag: "1") != nil)
        let longer = SearchQuery.Term(tokens: longest.tokens + ["board"], isPrefix: false)
        #expect(PostgresStore.tsquery(longer, tag: "1") == nil)
        // The same bound on the `posting` table's path: a phrase of unspaced characters is its pairs.
        let han = String(repeating: "报", count: PostgresStore.longestPhrase)
        #expect(PostgresStore.postingTerms(SearchQuery(han), ReportIndex.Restriction())?.first?.count == PostgresStore.longestPhrase - 1)
        #expect(PostgresStore.postingTerms(SearchQuery(han + "报"), ReportIndex.Restriction())?.first?.count == nil, "one token more")
    }

    @Test("a subtree's reports in a word of a chunk's bitmap, against one report at a time")
    func subtreeMasks() {
        for start in [0, 64, 128, 4_032] {
            for range in [0...0, 0...63, 63...63, 64...64, 70...100, 100...4_100, 3_000...4_095, 4_095...5_000, 5_000...6_000, 65...66, 127...128] {
                var truth: UInt64 = 0
                for b in 0..<64 where range.contains(start + b) { truth |= 1 << UInt64(b) }
                #expect(PostgresStore.mask(keeping: range, inWordAt: start) == truth, "range \(range), word at \(start)")
            }
        }
    }

    @Test("a phrase holds where its pairs' positions follow one another in one field")
    func phrasesFromPositions() {
        var vectors: [(ord: Int32, bytes: ByteBuffer)] = []
        let reports = [
            (64, ["报 告 书", "", "", "", ""]),  // the phrase
            (65, ["报 告 x 告 书", "", "", "", ""]),  // both pairs, apart
            (66, ["报 告", "", "", "", "告 书"]),  // both pairs, in two fields
            (67, ["书 告 报", "", "", "", "a 报 告 书"]),  // the phrase in the last field, the pairs the wrong way in the first
            (68, ["告 书 报 告", "", "", "", ""]),  // the wrong order
            (127, ["x", "报 告 书 报 告 书", "", "", ""]),  // twice, in the last report of the chunk
        ]
        for (ord, columns) in reports {
            var tokens: [PostgresStore.CountedToken] = []
            vectors.append((Int32(ord), ByteBuffer(bytes: PostgresStore.vector(columns, tokens: &tokens).bytes)))
        }
        let rows = PostgresStore.postings(of: vectors, chunk: 1, bits: 6)
        let pair = { (token: String) -> [Int: [PostgresStore.PostingRow]] in
            guard let k = rows.tokens.firstIndex(of: token) else { return [:] }
            return [1: [PostgresStore.PostingRow(ords: rows.ords[k], positions: rows.positions[k], wordsPerChunk: 1)]]
        }
        let found = PostgresStore.phraseMatches([pair("报\u{1}告"), pair("告\u{1}书")], wordsPerChunk: 1)
        #expect(found[1] == [1 << 0 | 1 << 3 | 1 << 63])
        #expect(PostgresStore.phraseMatches([pair("报\u{1}告"), pair("告\u{1}书"), pair("书\u{1}报")], wordsPerChunk: 1)[1] == [1 << 63])
        #expect(PostgresStore.phraseMatches([pair("告\u{1}书"), pair("书\u{1}报"), pair("报\u{1}告")], wordsPerChunk: 1)[1] == [1 << 4 | 1 << 63])
        #expect(PostgresStore.phraseMatches([pair("报\u{1}告"), pair("x\u{1}y")], wordsPerChunk: 1).isEmpty)
    }

    @Test("a chunk's rows from its vectors: each token once per chunk, its reports as offsets or as a bitmap")
    func chunkRows() {
        var vectors: [(ord: Int32, bytes: ByteBuffer)] = []
        for ord in Int32(64)..<128 {
            var tokens: [PostgresStore.CountedToken] = []
            let title = ord == 70 ? "revenue revenue 报 告" : "revenue q\(ord % 3)"
            vectors.append((ord, ByteBuffer(bytes: PostgresStore.vector([title, "", "revenue", "", ""], tokens: &tokens).bytes)))
        }
        let rows = PostgresStore.postings(of: vectors, chunk: 1, bits: 6)
        #expect(rows.tokens == ["q0", "q1", "q2", "revenue", "报", "报\u{1}告", "告"].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let row = { (token: String) in rows.tokens.firstIndex(of: token).map { Array(rows.ords[$0].readableBytesView) } ?? [] }
        #expect(row("revenue") == [UInt8](repeating: 0xFF, count: 8), "all 64 reports: a bitmap")
        #expect(row("报") == [6, 0], "report 70 alone: its offset")
        var third = [UInt8](repeating: 0, count: 8)
        for i in stride(from: 0, to: 64, by: 3) where i != 6 { third[i >> 3] |= 1 << UInt8(i & 7) }
        #expect(row("q1") == third, "reports 64, 67, …, 127 but 70: a bitmap")
        let positions = { (token: String) in rows.tokens.firstIndex(of: token).map { Array(rows.positions[$0].readableBytesView) } ?? [] }
        #expect(positions("报\u{1}告") == [1, 0, 3, 0, 0, 0], "one position: the title's third")
        #expect(positions("revenue").isEmpty && positions("报").isEmpty, "no positions but for a pair's token")
    }

    @Test("a pair's positions in a chunk's row: for each of its reports, how many, then each field and position")
    func chunkPositions() {
        var vectors: [(ord: Int32, bytes: ByteBuffer)] = []
        for (ord, columns) in [(64, ["报 告 报", "", "", "", "报 告"]), (66, ["告 报", "", "", "", ""]), (67, ["", "", "", "", "a 报 告"])] {
            var tokens: [PostgresStore.CountedToken] = []
            vectors.append((Int32(ord), ByteBuffer(bytes: PostgresStore.vector(columns, tokens: &tokens).bytes)))
        }
        let rows = PostgresStore.postings(of: vectors, chunk: 1, bits: 6)
        let row = { (token: String) in rows.tokens.firstIndex(of: token).map { (Array(rows.ords[$0].readableBytesView), Array(rows.positions[$0].readableBytesView)) } }
        #expect(row("报\u{1}告")?.0 == [0, 0, 3, 0])
        #expect(row("报\u{1}告")?.1 == [2, 0, 1, 0, 0, 0, 1, 0, 4, 0, 1, 0, 2, 0, 4, 0], "report 64: the title at 1, field 5 at 1; report 67: field 5 at 2")
        #expect(row("告\u{1}报")?.1 == [1, 0, 2, 0, 0, 0, 1, 0, 1, 0, 0, 0])
        #expect(row("报")?.1 == [])
        let firsts = { (token: String) in rows.tokens.firstIndex(of: token).map { (rows.firsts[$0], rows.titleFirsts[$0]) } }
        #expect(firsts("报")! == (64, 64) && firsts("告\u{1}报")! == (64, 64))
        #expect(firsts("a")! == (67, Int32.max), "in no title")
        #expect(firsts("告")! == (64, 64) && firsts("报\u{1}告")! == (64, 64))
    }
}

@Suite struct PackedArrayTests {
    /// The bytes of `value` bound as a parameter.
    func encoded<T: PostgresNonThrowingEncodable>(_ value: T) -> ByteBuffer {
        var buffer = ByteBuffer()
        value.encode(into: &buffer, context: .default)
        return buffer
    }

    func same<E: PackedElement>(_ values: [E]) -> Bool {
        encoded(PackedArray(values)) == encoded(values) && PackedArray<E>.psqlType == [E].psqlType
    }

    @Test("an update's arrays written in one pass: the bytes and type of PostgresNIO's own array encoding")
    func packedArraysAreArrays() {
        #expect(same([Int32]()))
        #expect(same([Int32(0), -7, .max, .min]))
        #expect(same([Int64(1) << 40, -1]))
        #expect(same([true, false, true]))
        #expect(same(["", "revenue", "売上 報告", "\u{FFFD}é\u{1}x"]))
        #expect(same([ByteBuffer(bytes: [1, 2, 3]), ByteBuffer(), ByteBuffer(bytes: Array(repeating: 0xFF, count: 3_000))]))
        var tokens: [PostgresStore.CountedToken] = []
        let vectors = [["Q3 revenue", "", "budget", "", "Finance"], ["", "", "", "", ""], ["売上報告", "x", "", "a", ""]].map {
            PostgresStore.vector($0, tokens: &tokens)
        }
        #expect(same(vectors))
    }
}

/// The same tests on PostgreSQL: skipped unless `BUBBLES_TEST_POSTGRES_URL` names a server
/// (scripts/test.sh starts a throw-away one).
@Suite(.enabled(if: TestStore.postgresURL != nil, "no PostgreSQL server (set BUBBLES_TEST_POSTGRES_URL)"))
struct PostgresIndexTests {
    let checks = IndexChecks(store: .postgres)

    @Test func findsAsAReaderExpects() throws { try checks.findsAsAReaderExpects() }
    @Test func hostileQueriesGiveResultsOrNone() throws { try checks.hostileQueriesGiveResultsOrNone() }
    @Test func ranksTitleMatchesFirstAndCountsEveryMatch() throws { try checks.ranksTitleMatchesFirstAndCountsEveryMatch() }
    @Test func keywordsAndSubtreesRestrict() throws { try checks.keywordsAndSubtreesRestrict() }
    @Test func updatesReadOnlyWhatChanged() throws { try checks.updatesReadOnlyWhatChanged() }
    @Test func aSecondUpdaterWaitsThenFails() throws { try checks.aSecondUpdaterWaitsThenFails() }
    @Test func searchesFromManyThreadsWhileAnUpdateRuns() throws { try checks.searchesFromManyThreadsWhileAnUpdateRuns() }
    @Test func aFileThatChangesWhileItIsReadConverges() throws { try checks.aFileThatChangesWhileItIsReadConverges() }
    @Test func aReadOnlyIndexAnswersWithoutWriting() throws { try checks.aReadOnlyIndexAnswersWithoutWriting() }
    @Test func keywordsWithControlCharactersCanBeFiltered() throws { try checks.keywordsWithControlCharactersCanBeFiltered() }
    @Test func findsWordsInsideTokensOfLettersAndDigits() throws { try checks.findsWordsInsideTokensOfLettersAndDigits() }

    /// The keyword rows hold each key's number from `keyword_key`: a key keeps its number from one
    /// update to the next, a key no report holds any more goes at the update's end, a new key is
    /// numbered past the highest; filters and facets answer as the SQLite file's after each.
    @Test func keywordKeysKeepTheirNumbersAndGoWhenNoReportHoldsThem() throws {
        let library = try TestLibrary(name: "keys", store: .postgres)
        defer { library.remove() }
        var reports = TestLibrary.reports
        reports[1].4 = ["forecast", "Quokka Audit"]
        try library.write(reports)
        let sqlite = try ReportIndex.open(at: library.folder + "/keys.index.sqlite")
        let postgres = try ReportIndex.open(at: library.indexPath)
        let store = try #require(postgres.postgres)
        func numbers() throws -> [String: Int32] {
            let rows = try store.withConnection { c in try store.execute(c, "SELECT key, id FROM keyword_key") }
            return Dictionary(uniqueKeysWithValues: try rows.map { (try $0[0].decode(String.self), try $0[1].decode(Int32.self)) })
        }
        func sameAnswers() throws {
            for keywords in [["quokka audit"], ["forecast"], ["Forecast", "lemur"], ["lemur"], ["budget"]] {
                for text in ["", "revenue"] {
                    let options = SearchOptions(keywords: keywords, limit: 20)
                    let expected = try sqlite.search(SearchQuery(text), options: options, withFacets: true)
                    #expect(try postgres.search(SearchQuery(text), options: options, withFacets: true) == expected, "\(text) \(keywords)")
                }
            }
            #expect(try postgres.facets(SearchQuery("")) == sqlite.facets(SearchQuery("")))
        }
        _ = try sqlite.update(with: try library.tree())
        _ = try postgres.update(with: try library.tree())
        try sameAnswers()
        let before = try numbers()
        let quokka = SearchText.keywordKey("Quokka Audit"), forecast = SearchText.keywordKey("forecast"), lemur = SearchText.keywordKey("Lemur")
        #expect(before[quokka] != nil && before[forecast] != nil && before[lemur] == nil)

        // The only report with "Quokka Audit" loses it and gains "Lemur".
        reports[1].4 = ["forecast", "Lemur"]
        try library.write(reports)
        _ = try sqlite.update(with: try library.tree())
        _ = try postgres.update(with: try library.tree())
        try sameAnswers()
        let after = try numbers()
        #expect(after[quokka] == nil)
        #expect(after[forecast] == before[forecast])
        #expect(try #require(after[lemur]) > before.values.max()!)
        #expect(Set(after.keys) == Set(before.keys).subtracting([quokka]).union([lemur]))
    }

    /// The writer sends each report's vector in binary, sorted and merged as the server would
    /// make it of a literal: what the server makes of the literal that lists every word where it
    /// stands (as `tsvectorin` reads it), byte for byte, and what it stores of the binary one.
    @Test func binaryVectorsAreWhatTheServerMakesOfTheLiteral() throws {
        let library = try TestLibrary(name: "vectors", store: .postgres)
        defer { library.remove() }
        let index = try ReportIndex.open(at: library.indexPath)
        let store = try #require(index.postgres)
        let repeated = Array(repeating: "rev", count: 300).joined(separator: " ")  // more positions than a lexeme keeps
        let far = Array(repeating: "x", count: 16_390).joined(separator: " ") + " far y far"  // beyond the last position
        let columnSets = [
            ["revenue q3 revenue", "o'brien back\\slash o'brien", "", "", ""],
            [repeated, "", "", "", repeated],
            [far, "", "", "", ""],
            ["报 告 报 告", "", "", "", "ร า ร า \(SearchText.partsMark) ร"],
            ["b a c a b ab a", "a", "a", "a", "a"],
            ["", "", "", "", ""],
            // Lexemes that share their first bytes, and differ at the eighth (the tag is the first)
            // or after it, or only in length.
            ["abcdefh abcdefg abcdefhz abcdefgz abcdefgy abcdefgzz abcdefgyzzzz abcdefgyzzzy abcdefgz abcdefgyzzzz", "", "abcdefgy", "", "abcdef abcdefg"],
        ]
        for columns in columnSets {
            var keys: [PostgresStore.CountedToken] = []
            let binary = PostgresStore.vector(columns, tokens: &keys)
            let (parsed, stored) = try store.serverForms(literal: Self.everyWord(columns), binary: binary)
            #expect(binary.bytes == parsed, "\(columns.map { $0.prefix(40) })")
            #expect(binary.bytes == stored)
        }
    }

    /// A literal that lists every lexeme where it stands, unsorted and repeated, as the writer
    /// once sent it: each word of each column tagged with its field at its position (the last
    /// 16 383), and each pair of neighbouring characters of an unspaced script at its first's.
    static func everyWord(_ columns: [String]) -> String {
        var out: [String] = []
        for (field, column) in columns.enumerated() {
            var position = 0
            var previous: Substring?
            for word in ReportIndex.words(column) {
                position += 1
                let unit = word.unicodeScalars.first.map(SearchText.isUnitScript) ?? false
                defer { previous = unit ? word : nil }
                if word == SearchText.partsMark { continue }
                func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'" }
                out.append(quoted(PostgresStore.fieldTags[field] + word) + ":\(min(position, 16_383))")
                if unit, let previous {
                    out.append(quoted(String(UnicodeScalar(PostgresStore.pairTags[field])) + previous + "\u{1}" + word) + ":\(min(position - 1, 16_383))")
                }
            }
        }
        return out.joined(separator: " ")
    }

    /// A word in more reports than ``ReportIndex/rankedGroupLimit`` but in fewer titles than a
    /// page: the title group is short, so the other groups (keywords, category titles, anywhere)
    /// are read by a second statement, and a report in two groups comes once. Reports of another
    /// category come first, so the groups begin far from the datasource's start. The same ids,
    /// totals, spans and facets as the SQLite file, with pages smaller and larger than the title
    /// group, in a subtree and under a keyword.
    @Test func groupsPastTheTitleAnswerAsTheSQLiteFileDoes() throws {
        let library = try TestLibrary(name: "groups", store: .postgres)
        defer { library.remove() }
        var reports: [(String, String, [String], Int, [String])] = []
        for i in 0..<600 { reports.append(("cow-\(i)", "Cow Count \(i)", ["farm", "cows"], i % 8, i % 50 == 0 ? ["zebra crossing"] : [])) }
        for i in 0..<1_500 {
            let title = i % 60 == 7 ? "Zebra Stripes Survey \(i)" : "Field Notes \(i)"
            reports.append(("zebra-\(i)", title, ["zoo", "zebras"], i % 8, i % 40 == 1 ? ["zebra crossing", "Stripes"] : ["field"]))
        }
        try library.write(reports)
        let tree = try library.tree()
        let sqlite = try ReportIndex.open(at: library.folder + "/groups.index.sqlite")
        _ = try sqlite.update(with: tree)
        let postgres = try ReportIndex.open(at: library.indexPath)
        _ = try postgres.update(with: tree)
        var short = 0
        for text in ["z", "ze", "zebra", "zebras", "zebra ", "zebra s", "\"zebra crossing\"", "stripes zeb", "field z"] {
            let query = SearchQuery(text)
            for options in [SearchOptions(limit: 20), SearchOptions(limit: 50), SearchOptions(limit: 200), SearchOptions(within: "zebras", limit: 50),
                            SearchOptions(keywords: ["field"], limit: 50)] {
                let expected = try sqlite.search(query, options: options, withFacets: true)
                #expect(try postgres.search(query, options: options, withFacets: true) == expected, "\(text) \(options)")
                let titled = try sqlite.search(query, options: SearchOptions(keywords: options.keywords, within: options.within, limit: 2_000))
                    .results.filter { $0.matches.contains { $0.field == .title } }.count
                if expected.total > ReportIndex.rankedGroupLimit, titled < options.limit { short += 1 }
            }
        }
        #expect(short >= 5, "searches whose title group is short of a page among more matches than the ranked limit")
    }

    /// Words being typed, every prefix (`prefix_count` holds the total of those of up to 16
    /// bytes; the longer ones, as `квартальный` and `προυπολογισμος`, are counted), in Latin, CJK,
    /// Thai, Arabic, Korean, Greek and Cyrillic, alone, after a whole word, in a phrase, finished,
    /// in a subtree (the first and one far into the datasource, where a group's first reports are
    /// read from) and under a keyword: the same ids, totals, spans and facets as the SQLite
    /// file, on a generated library large enough that a one-letter prefix matches more than
    /// ``ReportIndex/rankedGroupLimit`` reports (so the field groups answer).
    @Test func prefixesAnswerAsTheSQLiteFileDoes() throws {
        let folder = NSTemporaryDirectory() + "bubbles-prefixes-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }  // scratch
        let summary = try SampleLibrary.writeSearchLibrary(into: folder, reports: 3_000, pdfs: 26)
        let tree = try LibraryLoader.load(summary.datasource, options: LibraryLoadOptions(checkFiles: false))
        let sqlite = try ReportIndex.open(at: folder + "/library.index.sqlite")
        _ = try sqlite.update(with: tree)
        let library = try TestLibrary(name: "prefixes", store: .postgres)
        defer { library.remove() }
        let postgres = try ReportIndex.open(at: library.indexPath)
        _ = try postgres.update(with: tree)
        var texts: [String] = []
        for word in ["revenue", "board", "umsatze", "geschaftsbericht", "报告书", "財務報告", "รายงาน", "التقرير", "매출", "εκθεση",
                     "προυπολογισμος", "отчет", "квартальный"] {
            var typed = ""
            for (i, character) in word.enumerated() {
                typed.append(character)
                // Beyond five characters, the word alone and finished: the keys of `prefix_count`.
                texts += i < 5 ? [typed, "report " + typed, "\"revenue " + typed, typed + " "] : [typed, typed + " "]
            }
        }
        var many = 0
        for text in texts {
            let query = SearchQuery(text)
            #expect(try postgres.search(query, withFacets: true) == sqlite.search(query, withFacets: true), "\(text)")
            #expect(try postgres.matchingIDs(query) == sqlite.matchingIDs(query), "\(text)")
            for options in [SearchOptions(within: "lang-en", limit: 20), SearchOptions(within: "lang-ru", limit: 20),
                            SearchOptions(keywords: ["forecast"], limit: 20), SearchOptions(limit: 0)] {
                #expect(try postgres.search(query, options: options) == sqlite.search(query, options: options), "\(text) \(options)")
            }
            if try sqlite.search(query, options: SearchOptions(limit: 0)).total > ReportIndex.rankedGroupLimit { many += 1 }
        }
        #expect(many > 0, "some prefix matches more than the ranked limit")
        // The totals of the `posting` table themselves (any query without a keyword, but a phrase
        // of words of a spaced script, is answered by it): true, and the path taken.
        var phrases = 0
        for text in texts {
            let query = SearchQuery(text)
            guard let terms = PostgresStore.postingTerms(query, ReportIndex.Restriction()) else {
                #expect(query.terms.contains { $0.tokens.count > 1 && !PostgresStore.isPair($0) }, "\(text)")
                continue
            }
            if terms.contains(where: { $0.count > 1 }) { phrases += 1 }
            #expect(try postgres.postgres?.postingAnswer(query, ReportIndex.Restriction()) == sqlite.search(query, options: SearchOptions(limit: 0)).total, "\(text)")
        }
        #expect(phrases > 10, "phrases of Chinese, Japanese and Thai characters")
        #expect(try postgres.postgres?.prefixCountProblems() == [])
        #expect(try postgres.postgres?.postingProblems() == [])
        // The facets from `posting` in chunks of 64 reports, every chunk's edge within the library.
        try postgres.postgres?.repartitionPostings(bits: 6)
        #expect(try postgres.postgres?.postingProblems() == [])
        for text in texts {
            let query = SearchQuery(text)
            for options in [SearchOptions(), SearchOptions(within: "lang-ru")] {
                #expect(try postgres.facets(query, options: options) == sqlite.facets(query, options: options), "\(text) \(options)")
            }
        }
        // An update that rewrites and removes reports keeps the prefixes' counts.
        let fewer = try SampleLibrary.writeSearchLibrary(into: folder, reports: 2_500, pdfs: 26)
        let smaller = try LibraryLoader.load(fewer.datasource, options: LibraryLoadOptions(checkFiles: false))
        _ = try sqlite.update(with: smaller)
        _ = try postgres.update(with: smaller)
        #expect(try postgres.postgres?.prefixCountProblems() == [])
        #expect(try postgres.postgres?.postingProblems() == [])
        for text in ["r", "re", "rev", "报", "ร", "รา", "ال", "report r", "revenue f", "报 ร"] {
            #expect(try postgres.search(SearchQuery(text), withFacets: true) == sqlite.search(SearchQuery(text), withFacets: true), "\(text)")
        }
    }
}

@Suite struct SignatureTests {
    /// The first eight bytes (big-endian) of the SHA-256 of the parts serialised: counts and
    /// lengths as 8 little-endian bytes, strings as UTF-8; over a sequence far longer than the
    /// bytes hashed at a time, with a string longer than them, and over nothing.
    @Test func isTheSHA256OfTheLengthPrefixedParts() {
        var expected: [UInt8] = []
        func le(_ n: Int) { withUnsafeBytes(of: Int64(n).littleEndian) { expected.append(contentsOf: $0) } }
        var signature = Signature()
        #expect(Signature().value == Crypto.sha256([])[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) })
        for i in 0..<20_000 {
            let text = i == 7_000 ? String(repeating: "long ", count: 30_000) : "report \(i) · Überblick \(String(repeating: "x", count: i % 37))"
            signature.add(text)
            le(text.utf8.count)
            expected.append(contentsOf: text.utf8)
            if i % 3 == 0 {
                signature.add(Int64(i))
                le(i)
                signature.add(["a", "bé"])
                le(2)
                for s in ["a", "bé"] {
                    le(s.utf8.count)
                    expected.append(contentsOf: s.utf8)
                }
            }
        }
        #expect(signature.value == Crypto.sha256(expected)[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) })
    }
}
