@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import Testing
import RenderFixtures

@Suite struct BenchmarkTests {
    @Test func benchmarkReportsEveryStage() throws {
        let r = try RenderBenchmark.run(scene: TestScenes.level(children: 8, blur: 1), pixelScale: 0.5, runs: 1)
        #expect(r.width == 384 && r.height == 512)
        #expect(r.drawMilliseconds > 0 && r.blurMilliseconds > 0 && r.fastPNGMilliseconds > 0)
        #expect(r.cairoPNGMilliseconds > 0 && r.svgMilliseconds > 0)
        #expect(r.fastPNGBytes > 1000 && r.cairoPNGBytes > 1000 && r.svgBytes > r.svgGlyphBytes && r.svgGlyphBytes > 0)
        #expect(r.summary.contains("ratio"))
    }

    /// The full benchmark at 1536×2048: `BUBBLES_RENDER_BENCH=1 swift test -c release --filter BubbleRenderTests.BenchmarkTests`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_RENDER_BENCH"] == "1", "set BUBBLES_RENDER_BENCH=1 to run the full-frame benchmark"))
    func fullFrameBenchmark() throws {
        let r = try RenderBenchmark.run(scene: SampleScenes.benchmark(), pixelScale: 2, runs: 9)
        print(r.summary)
    }
}
