import Foundation
import Testing

@Suite("bubbles validate")
struct ValidateCommandTests {
    @Test func shippedSampleIsValid() throws {
        let result = try CLIRunner.run(["validate", "Data/reports.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Data/reports.json: valid"))
        #expect(result.stdout.contains("PDFs found"))
        #expect(result.stderr.isEmpty)
    }

    /// Bad datasources: the CLI prints exactly one line naming file, place and problem, and fails.
    @Test(arguments: [
        ("{\"id\": \"root\",\n  \"title\": 5, \"children\": []}", "reports.json:2:12: title: 'title' must be a string, found a number"),
        ("{\"id\": \"root\", \"title\": \"R\", \"children\": [\n  {\"id\": \"a\", \"title\": \"A\", \"file\": \"missing.pdf\"}]}", "reports.json:2:37: children[0].file: PDF 'missing.pdf' does not exist"),
        ("{\"id\": \"root\", \"title\": \"R\" \"children\": []}", "reports.json:1:29: malformed JSON: unexpected character '\"', expected ',' or '}'"),
        ("{\"id\": \"root\", \"title\": \"R\", \"children\": [{\"id\": \"root\", \"title\": \"A\", \"children\": []}]}", "children[0].id: duplicate id 'root', first used at the root"),
    ])
    func badDataPrintsOneLineAndFails(json: String, expected: String) throws {
        let folder = NSTemporaryDirectory() + "bubbles-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/reports.json"))

        let result = try CLIRunner.run(["validate", "reports.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    /// `--max-nodes` raises the node limit, as for `bubbles index`: three nodes fail at 2 and load
    /// at 3; 0 is a malformed command line.
    @Test func maxNodesRaisesTheLimit() throws {
        let folder = NSTemporaryDirectory() + "bubbles-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "children": []}, {"id": "b", "title": "B", "children": []}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/reports.json"))
        let over = try CLIRunner.run(["validate", "reports.json", "--max-nodes", "2"], in: folder)
        #expect(over.status == 1)
        #expect(over.stderr.contains("children[1]: more than the limit of 2 nodes"), "\(over.stderr)")
        let within = try CLIRunner.run(["validate", "reports.json", "--max-nodes", "3"], in: folder)
        #expect(within.status == 0, "\(within.stderr)")
        #expect(within.stdout.contains("categories  3"))
        #expect(try CLIRunner.run(["validate", "reports.json", "--max-nodes", "0"], in: folder).status == 64)
    }

    @Test func unreadablePDFIsReportedOnItsOwnLine() throws {
        let folder = NSTemporaryDirectory() + "bubbles-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("%PDF-1.4\nnot really a PDF\n".utf8).write(to: URL(fileURLWithPath: folder + "/broken.pdf"))
        let json = #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "broken.pdf"}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/reports.json"))
        let result = try CLIRunner.run(["validate", "reports.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: reports.json: children[0].file: PDF 'broken.pdf' cannot be read: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.contains("1 unreadable PDF"))
    }

    @Test func missingFileFails() throws {
        let result = try CLIRunner.run(["validate", "no/such/reports.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: no/such/reports.json: cannot read: No such file or directory\n")
    }

    @Test func helpWorksEverywhere() throws {
        for arguments in [["--help"], ["validate", "--help"], ["help", "validate"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.contains("USAGE"), "\(arguments)")
        }
    }
}
