@_spi(Testbed) import BubbleScenario
import Foundation
import ReportLibrary
import TestSupport
import Testing

/// Hostile scenario files: each ends in a `ScenarioError` naming the place, quickly. Parsed from
/// memory against a small in-memory datasource (`Scenario.parse`), as the fuzz target does.
@Suite("Scenario input limits")
struct ScenarioInputTests {
    static let library: (tree: ReportTree, bytes: [UInt8]) = {
        let bytes = Array(#"{"id": "root", "title": "All", "children": [{"id": "finance", "title": "Finance", "children": [{"id": "q1", "title": "Q1", "file": "q1.pdf"}]}]}"#.utf8)
        return (try! LibraryLoader.parse(bytes, file: "lib.json", dataFolder: ".", options: LibraryLoadOptions(checkFiles: false)), bytes)
    }()

    func parse(_ text: String) throws(ScenarioError) -> Scenario {
        try Scenario.parse(Array(text.utf8), file: "s.json") { _ throws(LibraryError) in Self.library }
    }

    func error(_ text: String) -> ScenarioError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func validScenarioFromMemory() throws {
        let scenario = try parse(#"{"data": "lib.json", "events": [{"at": 1, "tap": "root"}, {"at": 2, "tap": "finance"}]}"#)
        #expect(scenario.script.count == 2)
        #expect(scenario.duration == 5)
        #expect(scenario.dataPath == "lib.json")
    }

    @Test func deepNestingNamesThePath() {
        let text = #"{"data": "lib.json", "events": [{"at": 1, "drag": "finance", "path": "# + String(repeating: "[", count: 10_000)
        let e = error(text)
        #expect(e?.jsonPath == "events[0].path[0][0][0][0][0][0][0][0][0][0][0][0][0]")
        #expect(e?.message == "nesting deeper than \(Scenario.maxNesting) levels")
        #expect(e?.position?.line == 1)
    }

    @Test func oversizedFileIsRefusedBeforeParsing() {
        let bytes = Array(#"{"data": "lib.json", "events": []}"#.utf8) + [UInt8](repeating: 0x20, count: Scenario.maxFileBytes)
        #expect {
            _ = try Scenario.parse(bytes, file: "s.json") { _ throws(LibraryError) in Self.library }
        } throws: { error in
            (error as? ScenarioError)?.message.contains("more than the limit of \(Scenario.maxFileBytes)") == true
        }
    }

    @Test func longUnknownIDIsRefusedQuickly() {
        let id = String(repeating: "q", count: 1 << 20)
        let e = error(#"{"data": "lib.json", "events": [{"at": 1, "tap": ""# + id + #""}]}"#)
        #expect(e?.jsonPath == "events[0].tap")
        #expect(e?.message.contains("nearest: q1") == true)
    }

    @Test func datasourceErrorIsReportedAtData() {
        do {
            _ = try Scenario.parse(Array(#"{"data": "x.json", "events": []}"#.utf8), file: "s.json") { path throws(LibraryError) in
                throw LibraryError(kind: .unreadableSource, file: path, message: "no such file")
            }
            Issue.record("accepted")
        } catch {
            #expect(error.jsonPath == "data")
            #expect(error.message.contains("x.json: no such file"))
        }
    }

    @Test func aSymbolicLinkToAScenarioIsFollowed() throws {
        let folder = NSTemporaryDirectory() + "bubbles-scenario-link-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/scenarios", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/scenarios/tour.json", withDestinationPath: packageRoot + "/Data/scenarios/tour.json")
        // Beside the link there is no ../reports.json: reaching the datasource error shows the
        // scenario file itself was read.
        #expect {
            _ = try Scenario.load(folder + "/scenarios/tour.json")
        } throws: { error in
            (error as? ScenarioError)?.jsonPath == "data"
        }
        #expect {
            _ = try Scenario.load(folder + "/missing.json")
        } throws: { error in
            "\(error)".hasSuffix("no such file")
        }
    }

    @Test func aFolderIsNotAScenarioFile() {
        #expect {
            _ = try Scenario.load(NSTemporaryDirectory())
        } throws: { error in
            "\(error)".hasSuffix("not a regular file")
        }
    }
}
