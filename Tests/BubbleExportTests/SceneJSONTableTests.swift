@_spi(Testbed) import BubbleDashboard
import BubbleExport
import Foundation
import Testing

/// The `reports_table` overlay of a frame's scene JSON says how far it is scrolled and which rows
/// are in view, as `ReportsTableGeometry` lays the table out.
@Suite("Scene JSON: reports table")
struct SceneJSONTableTests {
    static func reports(_ n: Int) -> [SceneReport] {
        (0..<n).map { SceneReport(id: "r\($0)", title: "Report \($0)", author: nil, pageCount: 2, keywords: [], colour: nil) }
    }

    static func table(_ json: [UInt8]) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        return try #require(object["overlay"] as? [String: Any])
    }

    @Test func scrollRowsAndVisibleRows() throws {
        let g = ReportsTableGeometry(canvasWidth: 768, canvasHeight: 1024, chrome: SceneChrome(), rows: 100)
        for (offset, first, last) in [(0.0, 0, 14), (22.0, 0, 15), (g.maxScroll, 85, 99), (-30.0, 0, 14), (g.maxScroll + 40, 85, 99), (g.maxScroll + 50, 86, 99)] {
            let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [], breadcrumbs: ["All"],
                              overlay: .reportsTable(title: "All", reports: Self.reports(100),
                                                     scroll: SceneTableScroll(offset: offset, indicatorOpacity: 0.5)))
            let t = try Self.table(SceneJSON.encode(scene, frame: 3, time: 0.05))
            #expect(t["type"] as? String == "reports_table")
            #expect(t["rows"] as? Int == 100)
            #expect((t["scroll"] as? NSNumber)?.doubleValue == offset)
            #expect(t["first_visible_row"] as? Int == first && t["last_visible_row"] as? Int == last, "\(offset): \(String(describing: t["first_visible_row"]))…\(String(describing: t["last_visible_row"]))")
            #expect((t["scroll_indicator"] as? NSNumber)?.doubleValue == 0.5)
            #expect((t["reports"] as? [Any])?.count == 100)
        }
        let empty = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [], breadcrumbs: ["All"],
                          overlay: .reportsTable(title: "All", reports: []))
        let t = try Self.table(SceneJSON.encode(empty, frame: 0, time: 0))
        #expect(t["rows"] as? Int == 0)
        #expect(t["first_visible_row"] is NSNull && t["last_visible_row"] is NSNull)
    }
}
