import Foundation
import ReportLibrary
import Testing

/// A scratch data folder with one valid PDF (`reports/a.pdf`) and one file that is not a PDF.
struct DataFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "bubbles-library-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/reports", withIntermediateDirectories: true)
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: path + "/reports/a.pdf"))
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: path + "/reports/b.pdf"))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path + "/reports/not-a-pdf.pdf"))
    }

    func write(_ json: String, name: String = "reports.json") throws -> String {
        let file = path + "/" + name
        try Data(json.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Loads `json` from a fresh data folder and returns the error it must produce.
func loadError(_ json: String, options: LibraryLoadOptions = LibraryLoadOptions()) throws -> LibraryError {
    let folder = try DataFolder()
    defer { folder.remove() }
    let file = try folder.write(json)
    do {
        _ = try LibraryLoader.load(file, options: options)
    } catch {
        return error
    }
    Issue.record("expected an error for \(json)")
    throw CancellationError()
}

@Suite("Datasource loading")
struct LibraryLoaderTests {
    @Test func validTreeKeepsOrderAndInheritsColour() throws {
        let folder = try DataFolder()
        defer { folder.remove() }
        let file = try folder.write(
            """
            {"id": "root", "title": "All Reports", "children": [
              {"id": "finance", "title": "Finance", "colour": "#1e6fd9", "children": [
                {"id": "q1-2016", "title": " Q1 2016 ", "file": "reports/a.pdf", "keywords": ["board", " pack "]},
                {"id": "empty", "title": "Empty", "children": []}
              ]},
              {"id": "hr", "title": "HR", "children": [{"id": "hc", "title": "Headcount", "file": "reports/b.pdf"}]}
            ]}
            """)
        let tree = try LibraryLoader.load(file)
        #expect(tree.nodes.map(\.id) == ["root", "finance", "q1-2016", "empty", "hr", "hc"])
        #expect(tree.root.children.map { tree.nodes[$0].id } == ["finance", "hr"])
        let report = try #require(tree.node("q1-2016"))
        #expect(report.kind == .report)
        #expect(report.title == "Q1 2016")
        #expect(report.keywords == ["board", "pack"])
        #expect(report.branchColour?.description == "#1E6FD9")
        #expect(report.jsonPath == "children[0].children[0]")
        #expect(report.resolvedFile == folder.path + "/reports/a.pdf")
        #expect(tree.node("hc")?.branchColour == nil)
        #expect(tree.ancestry(of: tree.index(of: "q1-2016")!).map { tree.nodes[$0].id } == ["root", "finance", "q1-2016"])
        #expect(tree.reportCount(under: 0) == 2)
        #expect(tree.statistics == .init(categories: 4, reports: 2, depth: 2, largestCategory: 2))
    }

    /// Each case: the JSON, the error kind, the JSON path and the line it must name.
    static let badInputs: [(name: String, json: String, kind: LibraryError.Kind, path: String, line: Int)] = [
        ("malformed JSON", "{\"id\": \"root\",\n \"title\": \"R\",\n \"children\": [,]}", .malformedJSON, "", 3),
        ("trailing garbage", "{\"id\": \"root\", \"title\": \"R\", \"children\": []} x", .malformedJSON, "", 1),
        ("document not an object", "[1, 2]", .wrongType, "", 1),
        ("id of wrong type", #"{"id": 7, "title": "R", "children": []}"#, .wrongType, "id", 1),
        ("missing id", "{\"id\": \"root\", \"title\": \"R\",\n \"children\": [\n {\"title\": \"x\", \"children\": []}]}", .missingField, "children[0].id", 3),
        ("missing title", #"{"id": "root", "children": []}"#, .missingField, "title", 1),
        ("empty title", "{\"id\": \"root\", \"title\": \"R\", \"children\": [\n{\"id\": \"a\", \"title\": \"   \", \"children\": []}]}", .emptyTitle, "children[0].title", 2),
        ("children not an array", #"{"id": "root", "title": "R", "children": {}}"#, .wrongType, "children", 1),
        ("category without children", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A"}]}"#, .missingField, "children[0].children", 1),
        ("unknown field", #"{"id": "root", "titel": "R", "children": []}"#, .unknownField, "titel", 1),
        ("keywords on a category", #"{"id": "root", "title": "R", "keywords": [], "children": []}"#, .unknownField, "keywords", 1),
        ("invalid id", #"{"id": "root", "title": "R", "children": [{"id": "a/b", "title": "A", "children": []}]}"#, .invalidValue, "children[0].id", 1),
        ("bad colour", #"{"id": "root", "title": "R", "colour": "blue", "children": []}"#, .invalidValue, "colour", 1),
        (
            "duplicate id",
            "{\"id\": \"root\", \"title\": \"R\", \"children\": [\n{\"id\": \"a\", \"title\": \"A\", \"children\": [\n{\"id\": \"a\", \"title\": \"A2\", \"file\": \"reports/a.pdf\"}]}]}",
            .duplicateID, "children[0].children[0].id", 3
        ),
        (
            "report with children", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/a.pdf", "children": []}]}"#,
            .reportWithChildren, "children[0].children", 1
        ),
        ("missing PDF", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/nope.pdf"}]}"#, .missingFile, "children[0].file", 1),
        ("not a PDF", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/not-a-pdf.pdf"}]}"#, .unreadableFile, "children[0].file", 1),
        ("directory as PDF", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports"}]}"#, .unreadableFile, "children[0].file", 1),
        ("path escaping the data folder", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/../../etc/passwd"}]}"#, .pathEscapesData, "children[0].file", 1),
        ("absolute path", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "/etc/passwd"}]}"#, .pathEscapesData, "children[0].file", 1),
        ("keyword of wrong type", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/a.pdf", "keywords": ["x", 3]}]}"#, .wrongType, "children[0].keywords[1]", 1),
        ("root is a report", #"{"id": "root", "title": "R", "file": "reports/a.pdf"}"#, .wrongType, "file", 1),
        ("duplicate member name", "{\"id\": \"root\",\n\"id\": \"again\", \"title\": \"R\", \"children\": []}", .malformedJSON, "", 2),
        ("control character in a string", "{\"id\": \"root\", \"title\": \"R\u{1}\", \"children\": []}", .malformedJSON, "", 1),
    ]

    @Test(arguments: badInputs.indices)
    func badInputNamesKindAndPath(_ index: Int) throws {
        let (name, json, kind, path, line) = Self.badInputs[index]
        let error = try loadError(json)
        #expect(error.kind == kind, "\(name): \(error)")
        #expect(error.jsonPath == path, "\(name): \(error)")
        #expect(error.position?.line == line, "\(name): \(error)")
        #expect(!error.description.contains("\n"), "\(name): one line")
        #expect(error.description.contains("reports.json:"), "\(name): names the file")
    }

    @Test func duplicateIDNamesBothPaths() throws {
        let error = try loadError(
            #"{"id": "root", "title": "R", "children": [{"id": "x", "title": "A", "children": []}, {"id": "x", "title": "B", "children": []}]}"#)
        #expect(error.kind == .duplicateID)
        #expect(error.jsonPath == "children[1].id")
        #expect(error.otherPath == "children[0]")
        #expect(error.description.contains("children[0]"))
    }

    @Test func malformedJSONGivesLineAndColumn() throws {
        let error = try loadError("{\n  \"id\": \"root\",\n  \"title\": \"R\"\n  \"children\": []\n}")
        #expect(error.kind == .malformedJSON)
        #expect(error.position?.line == 4)
        #expect(error.position?.column == 3)
        #expect(error.description.hasSuffix("reports.json:4:3: malformed JSON: unexpected character '\"', expected ',' or '}'"))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let error = try loadError(#"{"id": "root", "title": "Zürich", "children": [1]}"#)
        #expect(error.kind == .wrongType)
        #expect(error.position?.column == 48)
    }

    /// Titles, keywords and ids are limited in characters, not bytes: at the limit in a script of
    /// three-byte characters (and of a letter and a combining mark) they load; one more
    /// character is an error that names the field.
    @Test func lengthLimitsCountCharacters() throws {
        var limits = LibraryLimits()
        limits.maxTitleLength = 20
        limits.maxKeywordLength = 10
        func library(title: String, keyword: String) -> String {
            #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "\#(title)", "file": "reports/a.pdf", "keywords": ["k", "\#(keyword)"]}]}"#
        }
        let folder = try DataFolder()
        defer { folder.remove() }
        for letter in ["報", "e\u{301}"] {
            let file = try folder.write(library(title: String(repeating: letter, count: 20), keyword: String(repeating: letter, count: 10)))
            let tree = try LibraryLoader.load(file, options: LibraryLoadOptions(limits: limits))
            #expect(tree.nodes[1].title.count == 20)
            let title = try loadError(library(title: String(repeating: letter, count: 21), keyword: "k"), options: LibraryLoadOptions(limits: limits))
            #expect(title.kind == .invalidValue && title.jsonPath == "children[0].title", "\(title)")
            let keyword = try loadError(library(title: "T", keyword: String(repeating: letter, count: 11)), options: LibraryLoadOptions(limits: limits))
            #expect(keyword.kind == .invalidValue && keyword.jsonPath == "children[0].keywords[1]", "\(keyword)")
        }
    }

    @Test func depthLimit() throws {
        var limits = LibraryLimits()
        limits.maxDepth = 3
        var json = #"{"id": "n0", "title": "T", "children": []}"#
        for i in 1...4 {
            json = #"{"id": "n\#(i)", "title": "T", "children": [\#(json)]}"#
        }
        let error = try loadError(json, options: LibraryLoadOptions(limits: limits))
        #expect(error.kind == .limitExceeded)
        #expect(error.jsonPath == "children[0].children[0].children[0].children[0]")

        // Far deeper than the JSON nesting allowance: still a clear depth error, not a crash.
        let hostile = String(repeating: #"{"id": "x", "title": "T", "children": ["#, count: 100_000)
        let deep = try loadError(hostile)
        #expect(deep.kind == .limitExceeded)
        #expect(deep.message.contains("deeper than the limit of 64"))
    }

    @Test func nodeLimit() throws {
        var limits = LibraryLimits()
        limits.maxNodes = 10
        let children = (0..<20).map { #"{"id": "c\#($0)", "title": "C", "children": []}"# }.joined(separator: ",")
        let error = try loadError(#"{"id": "root", "title": "R", "children": [\#(children)]}"#, options: LibraryLoadOptions(limits: limits))
        #expect(error.kind == .limitExceeded)
        #expect(error.jsonPath == "children[9]")
    }

    @Test func fileSizeLimit() throws {
        var limits = LibraryLimits()
        limits.maxFileBytes = 10
        let error = try loadError(#"{"id": "root", "title": "R", "children": []}"#, options: LibraryLoadOptions(limits: limits))
        #expect(error.kind == .limitExceeded)
        #expect(error.jsonPath == "")
    }

    @Test func missingSourceFile() {
        #expect {
            try LibraryLoader.load("/nonexistent/reports.json")
        } throws: { error in
            (error as? LibraryError)?.kind == .unreadableSource
        }
    }

    @Test func symbolicLinkOutOfDataFolderIsRefused() throws {
        let folder = try DataFolder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/reports/link.pdf", withDestinationPath: "/etc/hostname")
        let file = try folder.write(#"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/link.pdf"}]}"#)
        #expect {
            try LibraryLoader.load(file)
        } throws: { error in
            (error as? LibraryError)?.kind == .pathEscapesData
        }
    }

    @Test func skippingFileChecksAcceptsMissingPDFs() throws {
        let folder = try DataFolder()
        defer { folder.remove() }
        let file = try folder.write(#"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "reports/nope.pdf"}]}"#)
        let tree = try LibraryLoader.load(file, options: LibraryLoadOptions(checkFiles: false))
        #expect(tree.statistics.reports == 1)
    }
}
