import Foundation
import ReportLibrary
import Testing

/// A datasource of `categories` × `reportsPerCategory` reports under the root, as JSON bytes.
func generatedLibrary(categories: Int, reportsPerCategory: Int) -> [UInt8] {
    var text = #"{"id": "root", "title": "All Reports", "children": ["#
    for c in 0 ..< categories {
        if c > 0 { text += "," }
        text += "\n" + ##"{"id": "c\##(c)", "title": "Category \##(c)", "colour": "#1E6FD9", "children": ["##
        for r in 0 ..< reportsPerCategory {
            if r > 0 { text += "," }
            text += #"{"id": "r\#(c)-\#(r)", "title": "Report \#(r) of category \#(c)", "file": "reports/r\#(c)-\#(r).pdf", "keywords": ["k\#(r % 7)"]}"#
        }
        text += "]}"
    }
    text += "]}\n"
    return Array(text.utf8)
}

/// A chain of categories `depth` levels below the root.
func chainLibrary(depth: Int) -> [UInt8] {
    var text = ""
    for i in 0 ..< depth { text += #"{"id": "n\#(i)", "title": "Level \#(i)", "children": ["# }
    text += #"{"id": "leaf", "title": "Leaf", "children": []}"#
    text += String(repeating: "]}", count: depth)
    return Array(text.utf8)
}

/// Big and deep datasources (the Datasource format article, *Limits*: the measured time and memory).
@Suite("Datasource resource limits")
struct LibraryResourceLimitTests {
    @Test("100 000 reports load (the file checks are skipped: no PDFs exist)")
    func hundredThousandReports() throws {
        let bytes = generatedLibrary(categories: 250, reportsPerCategory: 400)
        let tree = try LibraryLoader.parse(
            bytes, file: "big.json", dataFolder: "big", options: LibraryLoadOptions(checkFiles: false))
        let stats = tree.statistics
        #expect(stats.reports == 100_000)
        #expect(stats.categories == 251)
        #expect(stats.largestCategory == 400)
        #expect(tree.node("r249-399")?.jsonPath == "children[249].children[399]")
        #expect(tree.node("r17-3")?.branchColour?.description == "#1E6FD9")
    }

    @Test("a tree 1 000 levels deep is refused at the first node below the depth limit")
    func thousandLevelsDeep() throws {
        let bytes = chainLibrary(depth: 1000)
        #expect {
            _ = try LibraryLoader.parse(bytes, file: "deep.json", dataFolder: ".", options: LibraryLoadOptions(checkFiles: false))
        } throws: { error in
            guard let error = error as? LibraryError else { return false }
            let nodePath = Array(repeating: "children[0]", count: 65).joined(separator: ".")
            return error.kind == .limitExceeded && error.jsonPath == nodePath
                && error.message == "the tree is deeper than the limit of 64 levels"
                // The node `n65` starts at that position.
                && error.position?.offset == bytes.firstRange(of: Array(#"{"id": "n65""#.utf8))?.lowerBound
                && error.description.hasPrefix("deep.json:1:")
        }
        // The same node is named when the depth is just over the limit (found by the tree
        // builder rather than the parser's nesting guard).
        let justOver = chainLibrary(depth: 65)
        #expect {
            _ = try LibraryLoader.parse(justOver, file: "deep.json", dataFolder: ".", options: LibraryLoadOptions(checkFiles: false))
        } throws: { error in
            (error as? LibraryError)?.jsonPath == Array(repeating: "children[0]", count: 65).joined(separator: ".")
        }
    }

    @Test("a raised depth limit cannot make the parser recurse past its ceiling")
    func raisedDepthLimitStaysBounded() throws {
        var limits = LibraryLimits()
        limits.maxDepth = 1_000_000
        let bytes = chainLibrary(depth: 100_000)
        #expect {
            _ = try LibraryLoader.parse(
                bytes, file: "deep.json", dataFolder: ".", options: LibraryLoadOptions(checkFiles: false, limits: limits))
        } throws: { error in
            guard let error = error as? LibraryError else { return false }
            return error.kind == .limitExceeded && error.message.contains("nesting deeper than \(JSONParser.maxNestingCeiling) levels")
                && error.jsonPath.hasPrefix("children[0].children[0]")
        }
    }

    @Test("nesting that is not a chain of children is named where it goes too deep")
    func deepNestingOutsideChildren() throws {
        let json = #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "a.pdf", "keywords": "# + String(repeating: "[", count: 1000)
        #expect {
            _ = try LibraryLoader.parse(Array(json.utf8), file: "k.json", dataFolder: ".", options: LibraryLoadOptions(checkFiles: false))
        } throws: { error in
            guard let error = error as? LibraryError else { return false }
            return error.kind == .limitExceeded && error.jsonPath.hasPrefix("children[0].keywords[0][0]")
        }
    }

    @Test("the JSON parser refuses 100 000 levels of nesting without deep recursion")
    func parserNestingCeiling() {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        for limit in [JSONParser.defaultMaxNesting, Int.max] {
            do {
                _ = try JSONParser.parse(deep, maxNesting: limit)
                Issue.record("accepted")
            } catch {
                #expect(error.isNestingLimit)
                #expect(error.nestingPath.count == JSONParser.maxNestingCeiling)
                #expect(error.offset == JSONParser.maxNestingCeiling)
                #expect(error.path.hasPrefix("[0][0][0]"))
            }
        }
        // Exactly at the ceiling is fine.
        let atCeiling = String(repeating: "[", count: JSONParser.maxNestingCeiling)
            + String(repeating: "]", count: JSONParser.maxNestingCeiling)
        #expect(throws: Never.self) { try JSONParser.parse(Array(atCeiling.utf8)) }
    }

    @Test("a colour must be six hexadecimal digits (a sign is not one)")
    func colourDigits() {
        #expect(RGBColour(hex: "#+F+F+F") == nil)
        #expect(RGBColour(hex: "#-0-0-0") == nil)
        #expect(RGBColour(hex: "#1e6fD9")?.description == "#1E6FD9")
    }

    @Test("suggestions for a very long unknown id stay cheap")
    func nearestIDsOfLongID() throws {
        let tree = try LibraryLoader.parse(
            generatedLibrary(categories: 10, reportsPerCategory: 10), file: "s.json", dataFolder: ".",
            options: LibraryLoadOptions(checkFiles: false))
        let long = "r1-" + String(repeating: "x", count: 4 << 20)
        #expect(tree.nearestIDs(to: long).count == 3)
    }
}
