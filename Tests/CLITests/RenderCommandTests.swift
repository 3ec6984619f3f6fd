import Foundation
import TestSupport
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

    /// `--labels` writes the labels as drawn; a character no font has gives one warning line naming
    /// the node and the code point, in `validate` and `render`, and the output is still written.
    @Test func labelsAndMissingGlyphWarnings() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/Data/reports/q1-2016.pdf", toPath: folder + "/q1.pdf")
        let pdf = "q1.pdf"
        let data = folder + "/data.json"
        let json = """
            {"id": "root", "title": "All", "children": [
              {"id": "odd", "title": "Unassigned \u{0378} here", "file": "\(pdf)"},
              {"id": "fine", "title": "דוח רבעוני 2016", "file": "\(pdf)"}]}
            """
        try json.write(toFile: data, atomically: true, encoding: .utf8)
        let validate = try CLIRunner.run(["validate", data])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") && $0.contains("'odd'") && $0.contains("U+0378") }.count == 1,
                "\(validate.stderr)")
        let render = try CLIRunner.run(["render", "--data", data, "--no-pdf", "--png", folder + "/x.png", "--labels", folder + "/x.labels.json"])
        #expect(render.status == 0, "\(render.stderr)")
        let warnings = render.stderr.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 1 && warnings[0].contains("'odd'") && warnings[0].contains("U+0378"), "\(render.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/x.png"))
        // The outputs, and the library index that validate left beside the datasource.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            == ["data.index.sqlite", "data.index.sqlite.lock", "data.json", "q1.pdf", "x.labels.json", "x.png"])
        let labels = try #require(FileManager.default.contents(atPath: folder + "/x.labels.json"))
        let array = try #require(try JSONSerialization.jsonObject(with: labels) as? [[String: Any]])
        let odd = try #require(array.first { $0["id"] as? String == "odd" })
        #expect(odd["missing_glyphs"] as? [String] == ["U+0378"])
        let fine = try #require(array.first { $0["id"] as? String == "fine" })
        #expect(fine["lines"] as? [String] == ["דוח רבעוני 2016"] && fine["shortened"] as? Bool == false)
        #expect(fine["font_size_pt"] as? Double == 14)
    }

    @Test(arguments: [
        (["--focus", "financ"], "--focus financ: unknown id 'financ' in Data/reports.json (nearest: finance"),
        (["--path", "finance/monthly-clos"], "'monthly-clos' is not a category under 'finance' in Data/reports.json (valid: monthly-close"),
        (["--focus", "q1-2016"], "'q1-2016' is a report; use --overlay preview:q1-2016"),
        (["--overlay", "preview:q1-2016", "--focus", "finance"], "report 'q1-2016' is not on the focused level"),
        (["--overlay", "table"], "--overlay must be 'preview:REPORT-ID', 'reports', 'search:TEXT' or 'filter'"),
        (["--data", "Data/large.json", "--path", "stores/stores~n1-50"],
         "'stores~n1-50' is not a group of 'stores' in Data/large.json (its groups: stores~n101-150, "),
        (["--path", "finance/finance~x"], "'finance~x' is not a group of 'finance' in Data/reports.json (that level is not grouped)"),
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

    /// A path may go on into a large category's groups, by the ids the dashboard gives them; the
    /// default file name is the group's id.
    @Test func aPathIntoAGroup() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CLIRunner.run([
            "render", "--no-pdf", "--data", "Data/large.json", "--path", "store-pnl/store-pnl~n101-101", "--scale", "0.5",
            "--labels", folder + "/l.json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let labels = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/l.json"))) as? [[String: Any]])
        // Store #101's 52 weeks: the cards show the week, the caption the rest.
        let texts = labels.compactMap { $0["text"] as? String }
        #expect(texts.contains("52") && texts.contains("Store #101 weekly P&L wk … FY2021"), "\(texts.prefix(8))")
    }

    @Test func unwritableOutputIsAnErrorAndLeavesNothing() throws {
        let result = try CLIRunner.run(["render", "--no-pdf", "--png", "/proc/no/such/folder/x.png"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("/proc/no/such/folder/x.png"), "\(result.stderr)")
    }
}
