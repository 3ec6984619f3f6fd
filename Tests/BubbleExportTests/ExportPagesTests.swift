import BubbleExport
import BubbleSupport
import Foundation
import TestSupport
import Testing

/// Exports of the report viewer draw the real pages, and stay the same bytes whatever the jobs.
@Suite("Export with pages")
struct ExportPagesTests {
    @Test func aScrolledAndZoomedPreviewExportsTheSameBytesWithOneOrTwoJobs() throws {
        let s = try Scratch()
        defer { s.remove() }
        let scenario = try s.scenario("""
            {"at": 0.1, "tap": "root"}, {"at": 0.8, "tap": "finance"}, {"at": 1.5, "tap": "financial-statements"},
            {"at": 2.2, "tap": "quarterly-results"}, {"at": 2.9, "tap": "q1-2016"}, {"at": 3.4, "scroll": 700},
            {"at": 4.0, "zoom": [2.5, 420, 600]}
            """, duration: 4.6, fps: 10, name: "pages")
        func export(_ folder: String, jobs: Int) throws -> [String] {
            var o = options(scenario, s.path + "/" + folder, jobs: jobs, scale: 0.5, formats: [.png, .svg, .json])
            o.pdfMetadata = .readEveryPDF
            o.frames = FrameRange(first: 30, last: 46)
            o.review = false
            _ = try Exporter.run(o)
            return try s.files(s.path + "/" + folder).filter { $0.hasPrefix("frame-") }
        }
        let names = try export("one", jobs: 1)
        #expect(try export("two", jobs: 2) == names)
        #expect(names.count == 17 * 3)
        for name in names {
            let a = s.bytes(s.path + "/one/" + name), b = s.bytes(s.path + "/two/" + name)
            #expect(!a.isEmpty && a == b, "\(name) differs between --jobs 1 and --jobs 2")
        }
        // The last frame shows the viewer zoomed on page 1 or 2, with its pages in the scene.
        let scene = try #require(JSONSerialization.jsonObject(with: Data(s.bytes(s.path + "/one/frame-00046.json"))) as? [String: Any])
        let overlay = try #require(scene["overlay"] as? [String: Any])
        #expect(overlay["type"] as? String == "report_preview")
        #expect((overlay["zoom"] as? Double ?? 0) > 2)
        #expect(!((overlay["pages"] as? [Any]) ?? []).isEmpty)
        #expect(overlay["unavailable"] is NSNull)
        // The SVG frame keeps the page as vectors: its only raster is the blurred focus circle
        // behind the sheet (the sample's PDFs hold no images).
        let svg = String(decoding: s.bytes(s.path + "/one/frame-00046.svg"), as: UTF8.self)
        #expect(svg.components(separatedBy: "<image").count - 1 <= 1, "the page was embedded as a picture")
        #expect(svg.count > 50_000, "no page drawn into the SVG frame")
    }
}
