@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import Testing

/// Compares frames with committed reference PNGs in `References/`, rendered at scale 0.5 to keep the
/// files small. A pixel counts as different when a channel differs by more than 24 (font rasterisers
/// differ slightly between FreeType versions); at most 0.5% of pixels may differ.
///
/// Re-record after an intended change of the look:
///
///     BUBBLES_RECORD_REFERENCES=1 swift test --filter BubbleRenderTests
///
/// and look at every file in `Tests/BubbleRenderTests/References/` before committing them.
@Suite struct ReferenceImageTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References").path
    static let record = ProcessInfo.processInfo.environment["BUBBLES_RECORD_REFERENCES"] == "1"

    @Test(arguments: TestScenes.all.map(\.0))
    func matchesReference(name: String) throws {
        let scene = TestScenes.all.first { $0.0 == name }!.1
        let image = try SceneRenderer(pixelScale: 0.5).render(scene)
        let path = Self.folder + "/\(name).png"
        if Self.record {
            try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
            try AtomicFile.write(try image.cairoPNG(), to: path)
            return
        }
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("missing reference \(path); record with BUBBLES_RECORD_REFERENCES=1 swift test --filter BubbleRenderTests")
            return
        }
        let reference = try RenderedImage.readPNG(path: path)
        guard let d = image.difference(to: reference, tolerance: 24) else {
            Issue.record("\(name): size \(image.width)×\(image.height) differs from the reference \(reference.width)×\(reference.height)")
            return
        }
        let allowed = image.width * image.height / 200
        #expect(d.pixelsOver <= allowed, "\(name): \(d.pixelsOver) pixels differ by more than 24 (max delta \(d.maxDelta))")
    }
}
