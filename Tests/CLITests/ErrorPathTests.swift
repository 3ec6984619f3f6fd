import Foundation
import TestSupport
import Testing

/// Every error of every subcommand: one `error:` line on standard error that names the input and
/// the place, a non-zero exit status (1 for a failed command, 64 for a malformed command line), and
/// no output file left behind. `--verbose` adds indented detail lines after that same line.
@Suite("CLI error paths")
struct ErrorPathTests {
    /// A folder with one of each kind of bad input. `$T` in arguments stands for it.
    struct Inputs {
        let folder: String
        init() throws {
            folder = NSTemporaryDirectory() + "bubbles-errors-\(UUID().uuidString)"
            let fm = FileManager.default
            try fm.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
            func write(_ name: String, _ text: String) throws {
                try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            }
            let data = packageRoot + "/Data/reports.json"
            try write("malformed.json", "{\"id\": \"root\",\n \"title\": \"R\" \"children\": []}")
            try write("data/broken.pdf", "%PDF-1.4\nnot really a PDF\n")
            try write("data/reports.json", #"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "file": "broken.pdf"}]}"#)
            try write("nan.json", "{\"data\": \"\(data)\",\n \"canvas\": [NaN, 1024], \"events\": []}")
            try write("huge.json", "{\"data\": \"\(data)\", \"events\": [\n {\"at\": 0.5, \"drag\": \"root\", \"path\": [[1e400, 0]]}]}")
            try write("unknown-id.json", "{\"data\": \"\(data)\", \"events\": [\n {\"at\": 0.5, \"tap\": \"financ\"}]}")
            try write("bad-canvas.json", "{\"data\": \"\(data)\", \"canvas\": [0, 0], \"events\": []}")
            try write("good.json", "{\"data\": \"\(data)\", \"fps\": 10, \"duration\": 0.5, \"events\": []}")
            try write("a-file", "not a folder")
            try write("scene.json", #"{"target": [0, 0], "bodies": [{"x": 1, "y": 2}]}"#)
        }
        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    struct Case: Sendable, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        /// What the one line must contain (`$T` is the inputs' folder).
        var expected: String
        var description: String { arguments.joined(separator: " ") }
        init(_ arguments: [String], _ status: Int32, _ expected: String) {
            self.arguments = arguments
            self.status = status
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        // validate
        Case(["validate", "$T/missing.json"], 1, "error: $T/missing.json: cannot read: No such file or directory"),
        Case(["validate", "$T/malformed.json"], 1, "error: $T/malformed.json:2:15: malformed JSON: unexpected character '\"'"),
        Case(["validate", "$T/data/reports.json"], 1,
             "error: $T/data/reports.json: children[0].file: PDF 'broken.pdf' cannot be read: brokenStructure at byte 0"),
        // render
        Case(["render", "--data", "$T/missing.json", "--png", "$T/out.png"], 1, "error: $T/missing.json: cannot read"),
        Case(["render", "--data", "$T/malformed.json", "--png", "$T/out.png"], 1, "error: $T/malformed.json:2:15: malformed JSON"),
        Case(["render", "--size", "0x0", "--png", "$T/out.png"], 64, "error: bubbles render: --size must be WIDTHxHEIGHT in points, each within 160...8192 (e.g. 768x1024), not '0x0'"),
        Case(["render", "--size", "100000x100000", "--png", "$T/out.png"], 64, "not '100000x100000'"),
        Case(["render", "--size", "nanxnan", "--png", "$T/out.png"], 64, "not 'nanxnan'"),
        Case(["render", "--size", "8192x8192", "--scale", "8", "--png", "$T/out.png"], 64,
             "error: bubbles render: --size 8192x8192 at --scale 8 is 65536×65536 px; at most 16384 px a side"),
        Case(["render", "--scale", "0", "--png", "$T/out.png"], 64, "--scale must be within (0, 8], not 0.0"),
        Case(["render", "--focus", "financ", "--no-pdf", "--png", "$T/out.png"], 1,
             "error: --focus financ: unknown id 'financ' in Data/reports.json (nearest: finance"),
        Case(["render", "--path", "finance/nope", "--no-pdf", "--png", "$T/out.png"], 1,
             "error: --path finance/nope: 'nope' is not a category under 'finance' in Data/reports.json"),
        Case(["render", "--overlay", "preview:nope", "--no-pdf", "--png", "$T/out.png"], 1,
             "error: --overlay preview:nope: unknown report id 'nope' in Data/reports.json"),
        Case(["render", "--no-pdf", "--png", "$T/a-file/out.png"], 1, "error: cannot write $T/a-file/out.png: $T/a-file is not a folder"),
        Case(["render", "--no-pdf", "--svg", "$T/no/such/folder/out.svg"], 1,
             "error: cannot write $T/no/such/folder/out.svg: the folder $T/no/such/folder does not exist"),
        Case(["render", "--bogus"], 64, "error: bubbles render: Unknown option '--bogus'"),
        // keywords
        Case(["keywords", "$T/data/broken.pdf"], 1, "error: $T/data/broken.pdf: brokenStructure at byte 0: "),
        Case(["keywords", "$T/missing.pdf"], 1, "error: $T/missing.pdf: no such file or directory"),
        Case(["keywords"], 64, "error: bubbles keywords: Missing expected argument '<paths> ...'"),
        // bench
        Case(["bench", "--bodies", "0"], 64, "error: bubbles bench: --bodies must be positive integers"),
        Case(["bench", "--steps", "0"], 64, "error: bubbles bench: --steps must be at least 1"),
        Case(["bench", "--threads", "0"], 64, "error: bubbles bench: --threads must be in 1...64"),
        Case(["bench", "--rounds", "0"], 64, "error: bubbles bench: --rounds must be in 1...1000"),
        Case(["bench", "--bands", "17"], 64, "error: bubbles bench: --bands must be in 1...16"),
        Case(["bench", "--drive-allowance", "101"], 64, "error: bubbles bench: --drive-allowance must be in 0...100"),
        Case(["bench", "--polish-sweeps", "20000"], 64, "error: bubbles bench: --polish-sweeps must be in 0...10000"),
        Case(["bench", "--scene", "$T/missing.json"], 1, "error: $T/missing.json: cannot read: No such file or directory"),
        Case(["bench", "--scene", "$T/malformed.json"], 1, "error: $T/malformed.json: malformed JSON"),
        Case(["bench", "--scene", "$T/scene.json"], 1, "error: $T/scene.json: bodies[0] needs r, or w and h"),
        Case(["bench", "pdf", "$T/nothing-here"], 1, "error: bench pdf: $T/nothing-here: no such file or directory"),
        Case(["bench", "pdf"], 64, "error: bubbles bench pdf: Missing expected argument '<directories> ...'"),
        Case(["bench", "physics", "--bodies", "0"], 64, "error: bubbles bench physics: --bodies must be positive integers"),
        Case(["bench", "levels", "--children", "10,x"], 64,
             "error: bubbles bench levels: --children must be whole numbers within 1...1000000"),
        Case(["bench", "levels", "--rounds", "0"], 64, "error: bubbles bench levels: --rounds must be in 1...1000"),
        Case(["bench", "search", "--reports", "5"], 64, "error: bubbles bench search: --reports must be within 100...10000000"),
        Case(["bench", "render", "--repeats", "0"], 64, "error: bubbles bench render: --repeats must be at least 1"),
        // Each benchmark takes only its own options.
        Case(["bench", "render", "--bodies", "10"], 64, "error: bubbles bench render: Unknown option '--bodies'"),
        Case(["bench", "physics", "--children", "10"], 64, "error: bubbles bench physics: Unknown option '--children'"),
        // export
        Case(["export", "$T/missing.json", "--out", "$T/out"], 1, "error: $T/missing.json: no such file"),
        Case(["export", "$T/malformed.json", "--out", "$T/out"], 1, "error: $T/malformed.json:2:15: malformed JSON"),
        Case(["export", "$T/nan.json", "--out", "$T/out"], 1, "error: $T/nan.json:2:13: malformed JSON: unexpected character 'N'"),
        Case(["export", "$T/huge.json", "--out", "$T/out"], 1, "error: $T/huge.json:2:40: malformed JSON: number 1e400 is out of range"),
        Case(["export", "$T/unknown-id.json", "--out", "$T/out"], 1,
             "error: $T/unknown-id.json:2:21: events[0].tap: unknown id 'financ' (nearest: finance"),
        Case(["export", "$T/bad-canvas.json", "--out", "$T/out"], 1, "error: $T/bad-canvas.json:1:"),
        Case(["export", "$T/good.json", "--out", "$T/out", "--size", "0x0"], 64, "error: bubbles export: --size must be WIDTHxHEIGHT"),
        Case(["export", "$T/good.json", "--out", "$T/out", "--size", "8192x8192", "--scale", "4"], 64, "32768×32768 px"),
        Case(["export", "$T/good.json", "--out", "$T/out", "--fps", "nan"], 64, "error: bubbles export: --fps must be within 1...240, not nan"),
        Case(["export", "$T/good.json", "--out", "$T/out", "--jobs", "0"], 64, "--jobs must be within 1...256, not 0"),
        Case(["export", "$T/good.json", "--out", "$T/out", "--frames", "9..99"], 1,
             "error: --frames 9..99 is outside the scenario's frames 0..5"),
        Case(["export", "$T/good.json", "--out", "$T/out", "--format", "gif"], 1, "error: --format takes png, svg, json and/or labels"),
        Case(["export", "$T/good.json", "--out", "$T/a-file/out"], 1, "error: cannot write to $T/a-file/out: "),
        Case(["export", "$T/good.json", "--out", "$T/a-file"], 1, "error: cannot write to $T/a-file: it is a file, not a folder"),
        Case(["export"], 64, "error: bubbles export: Missing expected argument '<scenario>'"),
    ]

    @Test(arguments: cases)
    func oneLineNamingThePlace(_ c: Case) throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let t = inputs.folder
        let before = FileChecks.names(t)
        let result = try CLIRunner.run(c.arguments.map { $0.replacingOccurrences(of: "$T", with: t) })
        let expected = c.expected.replacingOccurrences(of: "$T", with: t)
        #expect(result.status == c.status, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(expected), "\(result.stderr)")
        // Nothing written: no output file, no temporary file.
        #expect(FileChecks.names(t) == before)
    }

    /// `--verbose` (also before the subcommand) keeps the same first line and adds indented
    /// detail: the error's kind, its byte offset, the command's time.
    @Test(arguments: [
        (["validate", "$T/malformed.json"], ["  kind: LibraryError.malformedJSON", "  byte offset: 29"]),
        (["keywords", "$T/data/broken.pdf"], ["  kind: PDFError.brokenStructure", "  byte offset: 0"]),
        (["render", "--size", "0x0"], ["  kind: usage (exit status 64)", "  Usage: bubbles render "]),
        (["export", "$T/nan.json", "--out", "$T/out"], ["  kind: ExportError.scenario"]),
        (["export", "$T/good.json", "--out", "$T/a-file"], ["  kind: ExportError.unwritableFolder"]),
        (["bench", "--scene", "$T/scene.json"], ["  time: "]),
    ])
    func verboseAddsDetail(arguments: [String], details: [String]) throws {
        let inputs = try Inputs()
        defer { inputs.remove() }
        let t = inputs.folder
        let args = arguments.map { $0.replacingOccurrences(of: "$T", with: t) }
        let quiet = try CLIRunner.run(args)
        for verbose in [args + ["--verbose"], ["-v"] + args] {
            let loud = try CLIRunner.run(verbose)
            #expect(loud.status == quiet.status)
            let lines = loud.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first.map { $0 + "\n" } == quiet.stderr, "\(loud.stderr)")
            for d in details { #expect(lines.contains { $0.hasPrefix(d) }, "\(d) missing from \(loud.stderr)") }
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") || $0.hasPrefix("warning: ") }, "\(loud.stderr)")
        }
    }

    @Test func verboseWorksOnSuccessToo() throws {
        let result = try CLIRunner.run(["validate", "--verbose", "Data/reports.json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("  time: "), "\(result.stderr)")
        let keywords = try CLIRunner.run(["keywords", "-v", "Tests/PDFMetadataTests/Fixtures"])
        // The damaged fixtures are repaired with warnings, which --verbose shows with their byte offsets.
        #expect(keywords.stderr.contains("warning: Tests/PDFMetadataTests/Fixtures/"), "\(keywords.stderr.prefix(500))")
        #expect(keywords.stderr.contains(" at byte "))
    }
}
