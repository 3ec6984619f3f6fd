@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleRender
import Foundation
import Testing
import RenderFixtures

@Suite struct RenderTests {
    @Test func sameSceneRendersToIdenticalPixelsTwice() throws {
        for (name, scene) in TestScenes.all {
            let renderer = SceneRenderer(pixelScale: 1)
            let a = try renderer.render(scene)
            let b = try renderer.render(scene)  // warm caches
            let c = try SceneRenderer(pixelScale: 1).render(scene)  // a fresh renderer
            #expect(a.difference(to: b)?.maxDelta == 0, "\(name): cached frame differs")
            #expect(a.difference(to: c)?.maxDelta == 0, "\(name): fresh renderer differs")
        }
    }

    @Test func defaultScaleIsTwoTimes() throws {
        let image = try SceneRenderer().render(TestScenes.level(children: 12))
        #expect(image.width == 1536 && image.height == 2048)
    }

    @Test func blurredFocusIsCachedUntilItChanges() throws {
        let renderer = SceneRenderer(pixelScale: 1)
        var scene = TestScenes.level(children: 12, blur: 1)
        _ = try renderer.render(scene)
        _ = try renderer.render(scene)
        #expect(renderer.blurComputations == 1)
        #expect(renderer.blurCacheHits == 1)
        scene.bubbles[0].blur = 0.5
        _ = try renderer.render(scene)
        #expect(renderer.blurComputations == 2)
    }

    /// A filter toggled among four keywords and cleared gives five foci of slightly different
    /// radii, again and again: each is blurred once.
    @Test func fiveFociTakenInTurnAreEachBlurredOnce() throws {
        let renderer = SceneRenderer(pixelScale: 1)
        let base = TestScenes.level(children: 12, blur: 1)
        guard case .circle(let r) = base.bubbles[0].shape else { Issue.record("focus is not a circle"); return }
        for _ in 0..<3 {
            for k in 0..<5 {
                var scene = base
                scene.bubbles[0].shape = .circle(radius: r + Double(k) * 0.01)
                _ = try renderer.render(scene)
            }
        }
        #expect(renderer.blurComputations == 5)
    }

    @Test func blurActuallyBlurs() throws {
        // Along a horizontal line through the focus edge, a sharp circle has a big step between
        // neighbouring pixels; a blurred one changes gradually.
        let sharp = TestScenes.level(children: 0)
        var blurred = sharp
        blurred.bubbles[0].blur = 1
        let focus = sharp.bubbles[0]
        guard case .circle(let r) = focus.shape else { Issue.record("focus is not a circle"); return }
        func largestStep(_ scene: Scene) throws -> Int {
            let image = try SceneRenderer(pixelScale: 1).render(scene)
            let y = Int(focus.centre.y)
            var step = 0
            var previous = image.pixel(x: Int(focus.centre.x - r - 40), y: y)
            for x in Int(focus.centre.x - r - 39)...Int(focus.centre.x - r + 30) {
                let p = image.pixel(x: x, y: y)
                step = max(step, abs(Int(p.r) - Int(previous.r)), abs(Int(p.g) - Int(previous.g)), abs(Int(p.b) - Int(previous.b)))
                previous = p
            }
            return step
        }
        #expect(try largestStep(sharp) > 40)
        #expect(try largestStep(blurred) < 12)
    }

    @Test func scaleAndOpacityComeFromTheScene() throws {
        var scene = TestScenes.level(children: 6)
        let renderer = SceneRenderer(pixelScale: 1)
        let full = try renderer.render(scene)
        let i = 1
        let c = scene.bubbles[i].centre
        scene.bubbles[i].opacity = 0.4
        let faded = try renderer.render(scene)
        scene.bubbles[i].opacity = 1
        scene.bubbles[i].scale = 0
        let vanished = try renderer.render(scene)
        scene.bubbles.remove(at: i)
        let absent = try renderer.render(scene)
        #expect(full.pixel(x: Int(c.x), y: Int(c.y) - 3) != faded.pixel(x: Int(c.x), y: Int(c.y) - 3))
        #expect(vanished.difference(to: absent)?.maxDelta == 0)
    }

    @Test func everyLabelLineLiesInsideItsShape() throws {
        let renderer = SceneRenderer()
        var checked = 0
        var scenes = TestScenes.all.map(\.1)
        // Every title of the samples in every circle and card size the samples use, plus scaled bubbles.
        for seed in 0..<8 { scenes.append(TestScenes.level(children: 12 + seed * 4, seed: seed)) }
        var scaled = TestScenes.level(children: 16)
        for i in scaled.bubbles.indices { scaled.bubbles[i].scale = 0.35 + 0.1 * Double(i % 8) }
        scenes.append(scaled)
        for scene in scenes {
            for label in renderer.layoutLabels(scene) {
                for line in label.lines {
                    #expect(line.isInside(label.container), "\(label.owner): “\(line.text)” spills out of its shape")
                    checked += 1
                }
            }
        }
        #expect(checked > 500)
    }

    @Test func bubbleTitlesWrapShrinkAndTruncate() throws {
        let renderer = SceneRenderer()
        let title = "Annual Report of the Supervisory Board on Corporate Governance and Compliance Matters"
        func layout(radius: Double) -> LabelLayout {
            let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [
                SceneBubble(id: "c", kind: .category, shape: .circle(radius: radius), centre: ScenePoint(x: 384, y: 500),
                            scale: 1, opacity: 1, label: title, colour: SampleScenes.palette[0]),
            ], breadcrumbs: ["Root"])
            return renderer.layoutLabels(scene).first { $0.owner == "c" }!
        }
        let big = layout(radius: 120)
        #expect(!big.isTruncated)
        #expect(big.lines.count >= 3)
        #expect(big.lines.map(\.text).joined(separator: " ") == title)
        let small = layout(radius: 40)
        #expect(small.isTruncated)
        #expect(small.lines.last!.text.hasSuffix("…"))
        #expect(small.fontSize == RenderStyle().minimumCircleTitleFontSize)
    }

    /// A card title too long for its card even at the minimum size loses whole words from its
    /// middle, so the words that tell apart titles sharing a beginning stay readable.
    @Test func cardTitlesKeepTheirLastWords() throws {
        let renderer = SceneRenderer()
        let title = "Month-End Close Pack — September 2017"
        func layout(width: Double, height: Double) -> LabelLayout {
            let scene = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [
                SceneBubble(id: "r", kind: .report, shape: .roundedRect(width: width, height: height, cornerRadius: 14),
                            centre: ScenePoint(x: 384, y: 500), scale: 1, opacity: 1, label: title,
                            colour: SampleScenes.palette[0], pageCount: 2),
            ], breadcrumbs: ["Root"])
            return renderer.layoutLabels(scene).first { $0.owner == "r" && $0.role == .bubbleTitle }!
        }
        let roomy = layout(width: 188, height: 100)
        #expect(!roomy.isTruncated)
        #expect(roomy.lines.map(\.text).joined(separator: " ") == title)
        let tight = layout(width: 124, height: 58)
        #expect(tight.isTruncated)
        let text = tight.lines.map(\.text).joined(separator: " ")
        #expect(text.hasSuffix("September 2017"), "\(text)")
        #expect(text.hasPrefix("Month-End") && text.contains("…"), "\(text)")
    }

    @Test func everyLabelHasEnoughContrast() throws {
        let renderer = SceneRenderer()
        var scenes = TestScenes.all.map(\.1)
        // Every palette colour, light and dark extremes and mid-tones that need adjusting.
        let colours = SampleScenes.palette + [
            SceneColour(red: 255, green: 255, blue: 0), SceneColour(red: 0x80, green: 0x80, blue: 0x80),
            SceneColour(red: 0x76, green: 0x76, blue: 0x76), SceneColour(red: 255, green: 255, blue: 255),
            SceneColour(red: 0, green: 0, blue: 0), SceneColour(red: 0xFF, green: 0x40, blue: 0x40),
        ]
        var scene = TestScenes.level(children: colours.count * 2)
        for i in 1..<scene.bubbles.count { scene.bubbles[i].colour = colours[i % colours.count] }
        scenes.append(scene)
        var pairs = 0
        for scene in scenes {
            for pair in renderer.labelColours(scene) {
                #expect(pair.contrastRatio >= 4.5, "“\(pair.label)”: \(pair.textColour) on \(pair.backgroundColour) is \(pair.contrastRatio)")
                pairs += 1
            }
        }
        #expect(pairs > 100)
    }

    @Test func contrastFormulaMatchesWCAG() {
        let white = SceneColour(red: 255, green: 255, blue: 255), black = SceneColour(red: 0, green: 0, blue: 0)
        #expect(abs(Contrast.ratio(white, black) - 21) < 1e-9)
        #expect(abs(Contrast.ratio(white, SceneColour(red: 0x76, green: 0x76, blue: 0x76)) - 4.54) < 0.01)
    }

    @Test func breadcrumbsElideFromTheLeft() throws {
        let crumbs = ["All Reports", "Finance and Controlling", "Accounting", "Monthly Close", "Regional Subsidiaries",
                      "Europe, Middle East and Africa", "Zürich Office", "Q1 2016 Results of the Swiss Entities"]
        var scene = TestScenes.level(children: 6)
        scene.breadcrumbs = crumbs
        let labels = SceneRenderer().layoutLabels(scene).filter { $0.role == .breadcrumb }
        let texts = labels.flatMap(\.lines).map(\.text)
        #expect(texts.first == "…")
        #expect(labels.contains { $0.label == crumbs.last! && !$0.isTruncated })
        #expect(!texts.contains("All Reports"))
        for l in labels { for line in l.lines { #expect(line.x + line.width <= scene.canvasWidth - 15.9) } }
        scene.breadcrumbs = ["All Reports", "Finance"]
        let short = SceneRenderer().layoutLabels(scene).filter { $0.role == .breadcrumb }.flatMap(\.lines).map(\.text)
        #expect(short.first == "All Reports")
    }

    @Test func overlaysShowKeywordsAndRows() throws {
        let renderer = SceneRenderer()
        let preview = renderer.layoutLabels(TestScenes.preview(keywords: 40))
        #expect(preview.contains { $0.role == .keywordChip && $0.label.hasPrefix("+") && $0.label.hasSuffix("more") })
        let few = renderer.layoutLabels(TestScenes.preview(keywords: 3)).filter { $0.role == .keywordChip }
        #expect(few.count == 3)
        let table = renderer.layoutLabels(TestScenes.table(rows: 60))
        #expect(table.contains { $0.owner == "table-header:title" })
        let small = renderer.layoutLabels(TestScenes.table(rows: 3))
        // One title cell per row, named by the report's id (`table-row:ID`).
        func titleCells(_ labels: [LabelLayout]) -> [String] {
            labels.filter { $0.owner.hasPrefix("table-row:") && $0.owner.split(separator: ":").count == 2 }.map(\.owner)
        }
        #expect(titleCells(small).count == 3)
        // 60 rows: those in view at the top, no summary row (the table scrolls).
        let reports = SampleScenes.reports(count: 60)
        #expect(titleCells(table) == reports[0...14].map { "table-row:" + $0.id })
    }

    @Test func aScrolledTableRecordsOnlyTheRowsInView() throws {
        let renderer = SceneRenderer()
        let reports = SampleScenes.reports(count: 60)
        let g = ReportsTableGeometry(canvasWidth: 768, canvasHeight: 1024, chrome: SceneChrome(), rows: 60)
        for offset in [0.0, 22, 440, g.maxScroll, g.maxScroll + 30, -25] {
            let scene = TestScenes.level(children: 18, seed: 1, overlay: .reportsTable(
                title: "Accounting", reports: reports, scroll: SceneTableScroll(offset: offset, indicatorOpacity: 1)))
            let labels = renderer.layoutLabels(scene)
            let rows = labels.filter { $0.owner.hasPrefix("table-row:") && $0.owner.split(separator: ":").count == 2 }
            let visible = try #require(g.visibleRows(scroll: offset))
            // Every recorded row is in view, wholly, and inside its container; a row whose text is
            // cut by the viewport's edge is drawn clipped but not recorded.
            for label in rows {
                let i = try #require(reports.firstIndex { "table-row:" + $0.id == label.owner })
                #expect(visible.contains(i), "\(offset): row \(i) is out of view")
                for line in label.lines {
                    #expect(line.y >= g.viewportTop - 0.5 && line.y + line.height <= g.viewportTop + g.viewportHeight + 0.5)
                    #expect(line.isInside(label.container, tolerance: 0.5), "\(offset): row \(i) spills out")
                }
            }
            let wholly = visible.filter { i in
                let top = g.rowTop(i, scroll: offset)
                return top + 10 >= g.viewportTop && top + ReportsTableGeometry.rowHeight - 10 <= g.viewportTop + g.viewportHeight
            }
            #expect(Set(rows.map(\.owner)).isSuperset(of: wholly.map { "table-row:" + reports[$0].id }), "\(offset)")
            #expect(labels.contains { $0.owner == "table-header:title" }, "the header stays")
        }
    }
}

@Suite struct OverlayCoverTests {
    /// Bubbles under an overlay's opaque card are skipped, and the dimming and the card's shadow
    /// stop at its inside; the picture is the same to the bit, with the overlay open and in the
    /// middle of its slide.
    @Test func skippingWorkUnderACardChangesNoPixel() throws {
        var skipped = 0
        for (name, base) in [("search", TestScenes.search()), ("table", TestScenes.table()),
                             ("filter-sheet", TestScenes.filterSheet()), ("preview", TestScenes.preview())] {
            for opacity in [1.0, 0.55, 0.1] {
                var scene = base
                scene.overlayOpacity = opacity
                // Marks and match badges on some bubbles, which reach past their shapes.
                for i in scene.bubbles.indices where i % 3 == 1 {
                    scene.bubbles[i].marked = 0.8
                    scene.bubbles[i].matchCount = 120 + i
                }
                let skipping = SceneRenderer(pixelScale: 1)
                let drawing = SceneRenderer(pixelScale: 1)
                drawing.skipsWorkUnderCards = false
                let a = try skipping.render(scene), b = try drawing.render(scene)
                #expect(a.difference(to: b)?.maxDelta == 0, "\(name) at overlay opacity \(opacity)")
                #expect(drawing.bubblesUnderCards == 0)
                skipped += skipping.bubblesUnderCards
            }
        }
        // The search, table and sheet cover most of the canvas: many bubbles were skipped.
        #expect(skipped > 20)
    }
}
