import Foundation
import Testing

@Suite("bubbles render")
struct RenderCommandTests {
    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "bubbles-render-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func rendersALevelToPNGAndSVG() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLIRunner.run([
            "render", "--focus", "finance", "--scale", "0.5", "--png", folder + "/f.png", "--svg", folder + "/f.svg",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let png = try #require(FileManager.default.contents(atPath: folder + "/f.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let svg = try #require(FileManager.default.contents(atPath: folder + "/f.svg"))
        #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
        // Nothing but the two files: temporary names were renamed away.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["f.png", "f.svg"])
    }

    @Test(arguments: [
        (["--focus", "financ"], "--focus financ: unknown id 'financ' in Data/reports.json (nearest: finance"),
        (["--path", "finance/monthly-clos"], "'monthly-clos' is not a category under 'finance' in Data/reports.json (valid: monthly-close"),
        (["--focus", "q1-2016"], "'q1-2016' is a report; use --overlay preview:q1-2016"),
        (["--overlay", "preview:q1-2016", "--focus", "finance"], "report 'q1-2016' is not on the focused level"),
        (["--overlay", "table"], "--overlay must be 'preview:REPORT-ID' or 'reports'"),
    ])
    func badArgumentsGiveOneClearLine(arguments: [String], expected: String) throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLIRunner.run(["render", "--no-pdf", "--png", folder + "/x.png"] + arguments)
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func unwritableOutputIsAnErrorAndLeavesNothing() throws {
        let result = try CLIRunner.run(["render", "--no-pdf", "--png", "/proc/no/such/folder/x.png"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("/proc/no/such/folder/x.png"), "\(result.stderr)")
    }
}
