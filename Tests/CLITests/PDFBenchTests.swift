import Foundation
import Testing

/// `bubbles bench pdf` reports the files by size class; `--pikepdf` compares with pikepdf in
/// the same run when a Python with pikepdf is at hand (`BUBBLES_PIKEPDF_PYTHON`).
@Suite struct PDFBenchTests {
    @Test func sizeClassesInJSON() throws {
        let r = try CLIRunner.run(["bench", "pdf", "Tests/PDFMetadataTests/Fixtures", "--repeats", "1", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let obj = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let classes = try #require(obj["size_classes"] as? [[String: Any]])
        #expect(classes.map { $0["class"] as? String } == ["under 16 KB", "16-64 KB", "64 KB-1 MB", "over 1 MB"])
        // Every fixture falls in a class; without --pikepdf there is no peer.
        #expect(classes.reduce(0) { $0 + (($1["files"] as? Int) ?? 0) } == obj["files"] as? Int)
        #expect(obj["peer"] is NSNull)
        for c in classes where (c["files"] as? Int ?? 0) > 0 {
            #expect((c["cpu_us_median"] as? Double ?? -1) >= 0)
            #expect((c["system_calls_cpu_us_median"] as? Double ?? -1) >= 0)
            #expect(c["ratio_median"] is NSNull)
        }
    }

    static let pikepdfPython = ProcessInfo.processInfo.environment["BUBBLES_PIKEPDF_PYTHON"]

    @Test(.enabled(if: pikepdfPython != nil, "set BUBBLES_PIKEPDF_PYTHON to a Python that has pikepdf"))
    func pikepdfInTheSameRun() throws {
        let python = try #require(Self.pikepdfPython)
        let r = try CLIRunner.run(["bench", "pdf", "Tests/PDFMetadataTests/Fixtures/cairo-basic.pdf", "--repeats", "1",
                                   "--json", "--pikepdf", python])
        #expect(r.status == 0, "\(r.stderr)")
        let obj = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((obj["peer"] as? String)?.hasPrefix("pikepdf ") == true)
        let classes = try #require(obj["size_classes"] as? [[String: Any]])
        let small = try #require(classes.first)
        #expect(small["files"] as? Int == 1)
        #expect(small["ratio_median"] is Double)
    }
}
