@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import Testing
import RenderFixtures

/// Writes sample frames for a person to look at when BUBBLES_RENDER_LOOK names a folder.
@Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_RENDER_LOOK"] != nil, "set BUBBLES_RENDER_LOOK to a folder to write the frames"))
func writeLookFrames() throws {
    let dir = try #require(ProcessInfo.processInfo.environment["BUBBLES_RENDER_LOOK"])
    let r = SceneRenderer()
    try r.writePNG(SampleScenes.level(categories: 14, reports: 8, root: true), to: dir + "/root.png")
    try r.writePNG(SampleScenes.level(categories: 12, reports: 10, blur: 0.8, seed: 2), to: dir + "/deep-blur.png")
    try r.writePNG(SampleScenes.benchmark(), to: dir + "/bench.png")
    try r.writePNG(SampleScenes.level(seed: 1, overlay: .reportPreview(SampleScenes.report(index: 2, keywordCount: 30))), to: dir + "/preview.png")
    try r.writePNG(SampleScenes.level(seed: 1, overlay: .reportsTable(title: "Accounting", reports: SampleScenes.reports(count: 25))), to: dir + "/table.png")
    try r.writeSVG(SampleScenes.level(categories: 14, reports: 8, root: true), to: dir + "/root.svg")
    try r.writePNG(TestScenes.search(scroll: SceneTableScroll(offset: 30, indicatorOpacity: 1)), to: dir + "/search.png")
    try r.writePNG(TestScenes.search(results: [], message: "No reports match ‘zzz’"), to: dir + "/search-empty.png")
    try r.writePNG(TestScenes.filterSheet(), to: dir + "/filter-sheet.png")
    try r.writePNG(TestScenes.filtered(), to: dir + "/filtered.png")
    try r.writePNG(TestScenes.filteredEmpty(), to: dir + "/filtered-empty.png")
    try r.writePNG(TestScenes.search(text: "التقرير الفصلي للمبيعات في المنطقة الشرقية والغربية والوسطى ٢٠١٨ والربع الثالث من السنة"),
                   to: dir + "/search-arabic-query.png")
    try r.writePNG(TestScenes.search(text: "التقرير الفصلي للمبيعات في المنطقة الشرقية"), to: dir + "/search-arabic-short.png")
}
