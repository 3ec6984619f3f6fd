@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubbleRender
import Foundation
import Testing
import RenderFixtures

/// `frame-NNNNN.labels.json` and `bubbles render --labels`.
@Suite struct LabelsJSONTests {
    /// The labels JSON has the documented fields, with lines as drawn.
    @Test func labelsJSONHasTheDocumentedFields() throws {
        let scene = SampleScenes.level(categories: 10, reports: 8, seed: 2)
        let labels = SceneRenderer().layoutLabels(scene)
        let bytes = LabelsJSON.encode(labels)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
        #expect(array.count == labels.count)
        for (object, label) in zip(array, labels) {
            #expect(Set(object.keys) == ["id", "role", "text", "lines", "font_size_pt", "shortened", "missing_glyphs", "box"])
            #expect(object["id"] as? String == label.owner)
            #expect((object["lines"] as? [String]) == label.lines.map(\.text))
            #expect((object["box"] as? [Double])?.count == (label.lines.isEmpty ? nil : 4))
        }
        #expect(LabelsJSON.encode(labels) == bytes)
    }

    @Test func missingGlyphsAreNamed() throws {
        let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [
            SceneBubble(id: "b", kind: .report, shape: .roundedRect(width: 188, height: 100, cornerRadius: 14),
                        centre: ScenePoint(x: 384, y: 500), scale: 1, opacity: 1, label: "Unassigned \u{0378} here",
                        colour: nil, pageCount: 3),
        ], breadcrumbs: ["Root"])
        let json = String(decoding: LabelsJSON.encode(SceneRenderer().layoutLabels(scene)), as: UTF8.self)
        #expect(json.contains("{\"id\": \"b\", \"role\": \"bubbleTitle\""))
        #expect(json.contains("\"missing_glyphs\": [\"U+0378\"]"))
    }
}
