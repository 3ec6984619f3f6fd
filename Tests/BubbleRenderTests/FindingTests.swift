@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import Testing

/// Search overlay, filter sheet, tokens, badges, the found report's ring and the notice (#30).
@Suite struct FindingTests {
    func labels(_ scene: Scene) -> [String: LabelLayout] {
        var out: [String: LabelLayout] = [:]
        for l in SceneRenderer().layoutLabels(scene) { out[l.owner] = l }
        return out
    }

    func inside(_ l: LabelLayout, _ r: SceneRect) -> Bool {
        !l.lines.isEmpty && l.lines.allSatisfy {
            $0.width > 0 && $0.height > 0 && $0.x >= r.x - 0.01 && $0.x + $0.width <= r.x + r.width + 0.01
                && $0.y >= r.y - 0.01 && $0.y + $0.height <= r.y + r.height + 0.01
        }
    }

    @Test func searchOverlayRecordsItsLabelsInsideTheirFrames() throws {
        let scene = TestScenes.search()
        let g = SearchPanelGeometry(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight, chrome: scene.chrome,
                                    rows: TestScenes.searchResults.count)
        let l = labels(scene)
        #expect(inside(try #require(l["search-field"]), g.field))
        #expect(inside(try #require(l["search-cancel"]), g.cancel))
        #expect(inside(try #require(l["search-total"]), g.card))
        #expect(l["search-total"]?.label == "Best 12 of 37 reports")
        for id in ["q1-2016", "cjk", "arabic", "long"] {
            let row = try #require(l["search-row:\(id)"], "row \(id)")
            #expect(inside(row, g.card), "row \(id)")
            #expect(row.missingCodePoints.isEmpty, "row \(id)")
            #expect(l["search-row:\(id):path"] != nil)
        }
        #expect(l["search-row:long"]?.isTruncated == true)
        #expect(l["search-row:long:path"]?.isTruncated == true)
        #expect(l["search-row:arabic"]?.lines.first?.leadingEdge.map { $0 > l["search-row:arabic"]!.lines[0].x + 1 } == true,
                "an Arabic title starts at its right")
    }

    @Test func emphasisedSpansAreDrawn() throws {
        let renderer = SceneRenderer(pixelScale: 1)
        let plain = TestScenes.searchResults.map { r -> SceneSearchResult in
            var r = r
            r.spans = []
            return r
        }
        let with = try renderer.render(TestScenes.search())
        let without = try renderer.render(TestScenes.search(results: plain))
        let d = try #require(with.difference(to: without, tolerance: 24))
        #expect(d.pixelsOver > 200)
        // Each script's emphasis on its own changes its row.
        for id in ["cjk", "arabic"] {
            let one = TestScenes.searchResults.map { r -> SceneSearchResult in
                var r = r
                if r.id != id { r.spans = [] }
                return r
            }
            let d = try #require(try renderer.render(TestScenes.search(results: one)).difference(to: without, tolerance: 24))
            #expect(d.pixelsOver > 20, "\(id)")
        }
    }

    @Test func aScrolledSearchRecordsOnlyTheRowsInView() throws {
        let many = (0..<50).map { (i: Int) in
            SceneSearchResult(id: "r\(i)", title: "Report \(i)", path: ["A"], pageCount: i, spans: [0..<3])
        }
        let scene = TestScenes.search(results: many, scroll: SceneTableScroll(offset: 400, indicatorOpacity: 1))
        let l = labels(scene)
        #expect(l["search-row:r0"] == nil)
        #expect(l["search-row:r10"] != nil)
        #expect(l["search-row:r49"] == nil)
        #expect(l["search-total"]?.label == "50 reports" || l["search-total"]?.label == "Best 50 of 75 reports")
    }

    @Test func filterSheetDrawsChipsIntoTheirFrames() throws {
        let scene = TestScenes.filterSheet()
        guard case .filterSheet(let sheet) = scene.overlay else { Issue.record("no sheet"); return }
        let l = labels(scene)
        #expect(sheet.chips.count == TestScenes.sheetKeywords.count)
        for chip in sheet.chips {
            let kw = try #require(l["filter-chip:\(chip.keyword)"], "\(chip.keyword)")
            #expect(inside(kw, chip.frame), "\(chip.keyword)")
            #expect(!kw.isTruncated || chip.frame.width >= FilterSheetGeometry.chipRowWidth(canvasWidth: 768) - 0.01, "\(chip.keyword)")
            #expect(inside(try #require(l["filter-chip:\(chip.keyword):count"]), chip.frame))
        }
        #expect(inside(try #require(l["filter-field"]), sheet.geometry.field))
        #expect(inside(try #require(l["filter-clear"]), sheet.geometry.clear))
        #expect(inside(try #require(l["filter-done"]), sheet.geometry.done))
        #expect(l["filter-field"]?.label == "Find a keyword")
        #expect(l["filter-summary"] != nil)
        #expect(l["filter-more"]?.label == "+14 more — type to narrow")
    }

    @Test func chipsAreMeasuredInTheRegularChipFont() {
        let m = PangoTextMeasurer()
        #expect(m.fontSize(for: .chip) == 14)
        let chip = m.measure("finance  212", role: .chip, width: LineBreaks.unwrappedWidth)
        #expect(chip.lineCount == 1 && chip.width > 60 && chip.width < 110)
        #expect(chip.width < m.measure("finance  212", role: .cardTitle, width: LineBreaks.unwrappedWidth).width)
    }

    @Test func tokensBadgesRingAndNotice() throws {
        let scene = TestScenes.filtered()
        let l = labels(scene)
        let tokens = try #require(scene.filter?.tokens)
        #expect(tokens.count == 2)
        for t in tokens {
            let label = try #require(l["filter-token:\(t.keyword)"])
            #expect(inside(label, SceneRect(x: t.frame.x, y: t.frame.y, width: t.frame.width - 24 + 1, height: t.frame.height)))
        }
        #expect(l["filter-token:a very long keyword that will not fit in a token"]?.isTruncated == true)
        // The trail ends left of the first token.
        let firstToken = tokens.map(\.frame.x).min()!
        for label in l.values where label.role == .breadcrumb {
            for line in label.lines { #expect(line.x + line.width <= firstToken, "\(label.owner)") }
        }
        let badged = scene.bubbles.filter { $0.matchCount != nil }
        #expect(!badged.isEmpty)
        for b in badged { #expect(l["badge:\(b.id)"]?.label == SceneSearch.grouped(b.matchCount!)) }
        #expect(l["notice"]?.label == "Search needs an index")

        // The ring is drawn.
        let renderer = SceneRenderer(pixelScale: 1)
        var unmarked = scene
        for i in unmarked.bubbles.indices { unmarked.bubbles[i].marked = 0 }
        let d = try #require(try renderer.render(scene).difference(to: try renderer.render(unmarked), tolerance: 24))
        #expect(d.pixelsOver > 300)
    }

    @Test func anEmptyFilteredLevelSaysSoWithAClearButton() throws {
        let scene = TestScenes.filteredEmpty()
        let l = labels(scene)
        #expect(l["filter-empty"]?.label == "No reports with ‘tax’")
        #expect(inside(try #require(l["filter-empty-clear"]), scene.filter!.clearFrame!))
    }

    @Test func aFilteredTableSaysSo() throws {
        var scene = TestScenes.table(rows: 3)
        scene.filter = SceneFilter(keywords: ["finance", "2016"], matchingReports: 3)
        #expect(labels(scene)["table-count"]?.label == "3 reports · filtered: finance, 2016")
    }

    @Test func emptyAndHugeInputsDoNotBreakAnything() throws {
        let renderer = SceneRenderer(pixelScale: 0.5)
        let huge = String(repeating: "Quarterly 四半期 التقرير ", count: 300)
        let wild = (0..<60).map {
            SceneSearchResult(id: "h\($0)", title: $0 % 2 == 0 ? huge : "", path: $0 % 3 == 0 ? [] : [huge, huge],
                              pageCount: $0 == 1 ? Int.max : nil,
                              spans: [0..<5, 3..<9000, -4..<2, 50_000..<50_010, 7..<7])
        }
        var scenes = [
            TestScenes.search(results: [], text: ""),
            TestScenes.search(results: [], text: huge, message: "No reports match ‘\(huge)’"),
            TestScenes.search(results: wild, text: huge, scroll: SceneTableScroll(offset: 1e9, indicatorOpacity: 1)),
            TestScenes.search(results: wild, scroll: SceneTableScroll(offset: -300, indicatorOpacity: 0.5)),
            TestScenes.filterSheet(keywords: [], hidden: 0),
            TestScenes.filterSheet(keywords: [(huge, Int.max), ("", 0)], query: huge, hidden: Int.max),
            TestScenes.filtered(keywords: [huge, "", "x"]),
            TestScenes.filteredEmpty(),
        ]
        var tiny = TestScenes.search()
        tiny.canvasWidth = 60
        tiny.canvasHeight = 90
        scenes.append(tiny)
        var faded = TestScenes.filtered()
        faded.notice = SceneNotice(text: huge, opacity: 0.4)
        for i in faded.bubbles.indices { faded.bubbles[i].opacity = 0.5; faded.bubbles[i].marked = 0.5 }
        scenes.append(faded)
        for scene in scenes {
            _ = try renderer.render(scene)
            let ours = ["search", "filter", "badge", "notice"]
            for label in renderer.layoutLabels(scene) where ours.contains(where: label.owner.hasPrefix) {
                for line in label.lines { #expect(line.isInside(label.container, tolerance: 0.5), "\(label.owner)") }
            }
        }
    }
}
