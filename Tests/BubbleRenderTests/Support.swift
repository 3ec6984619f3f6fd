@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import RenderFixtures

/// Scenes built by hand for the tests.
enum TestScenes {
    static let longTitles = [
        "Annual Report of the Supervisory Board on Corporate Governance and Compliance Matters",
        "Données financières consolidées — exercice 2016 et perspectives",
        "Über-Regional Sales Analysis for the Nordic and Baltic Markets",
        "IT", "Tax", "Zürich", "Café", "Supercalifragilisticexpialidocious",
    ]

    /// A level like a real one: a focus circle with `children` children of both kinds.
    static func level(children: Int, seed: Int = 0, blur: Double = 0, root: Bool = false,
                      overlay: SceneOverlay? = nil) -> Scene {
        let categories = (children * 3 + 1) / 5
        var scene = SampleScenes.level(categories: categories, reports: children - categories, root: root, blur: blur,
                                       seed: seed, overlay: overlay)
        // Mix in the hardest titles.
        for (i, t) in longTitles.enumerated() where i + 1 < scene.bubbles.count {
            scene.bubbles[1 + (i * 5 + seed) % (scene.bubbles.count - 1)].label = t
        }
        return scene
    }

    static func preview(keywords: Int = 30) -> Scene {
        level(children: 18, seed: 1, overlay: .reportPreview(SampleScenes.report(index: 2, keywordCount: keywords)))
    }

    static func table(rows: Int = 25) -> Scene {
        level(children: 18, seed: 1, overlay: .reportsTable(title: "Accounting", reports: SampleScenes.reports(count: rows)))
    }

    static func landscape() -> Scene {
        SampleScenes.level(categories: 12, reports: 6, seed: 4, canvasWidth: 1024, canvasHeight: 768)
    }

    /// Search results in three scripts: Latin, CJK and Arabic titles with their matches.
    static let searchResults: [SceneSearchResult] = {
        let palette = SampleScenes.palette
        var rows = [
            SceneSearchResult(id: "q1-2016", title: "Quarterly Results Q1 2016", path: ["Finance", "Financial Statements"],
                              pageCount: 12, spans: [0..<9], colour: palette[0]),
            SceneSearchResult(id: "cjk", title: "四半期決算報告 2017年 第3四半期", path: ["財務", "決算"], pageCount: 3,
                              spans: [0..<3], colour: palette[1]),
            SceneSearchResult(id: "arabic", title: "التقرير الفصلي للمبيعات ٢٠١٨", path: ["المبيعات", "التقارير"], pageCount: 1,
                              spans: [8..<14], colour: palette[2]),
            SceneSearchResult(id: "long", title: "Quarterly Review of the Supervisory Board on Corporate Governance and Compliance Matters in All Regions",
                              path: ["Governance", "Board", "Supervisory Board", "Minutes and Reviews of the Supervisory Board", "Archive 2010–2016"], pageCount: 148,
                              spans: [0..<9, 40..<50], colour: palette[3]),
        ]
        for i in 0..<8 {
            rows.append(SceneSearchResult(id: "r\(i)", title: "Quarterly Sales Report \(2010 + i)", path: ["Sales", "Quarterly"],
                                          pageCount: i == 3 ? nil : 4 + i, spans: [0..<9], colour: palette[(i + 4) % palette.count]))
        }
        return rows
    }()

    static func search(results: [SceneSearchResult] = searchResults, text: String = "quarterly", message: String? = nil,
                       scroll: SceneTableScroll = SceneTableScroll()) -> Scene {
        level(children: 18, seed: 1, overlay: .search(SceneSearch(text: text, total: results.count + 25, results: results,
                                                                  scroll: scroll, message: message)))
    }

    /// The sheet's chips laid out as the dashboard lays them out, widths measured by `PangoTextMeasurer`.
    static func filterSheet(keywords: [(String, Int)] = sheetKeywords, selected: Set<String> = ["finance", "2016"],
                            query: String = "", hidden: Int = 14) -> Scene {
        let measurer = PangoTextMeasurer()
        let W = 768.0, H = 1024.0, chrome = SceneChrome()
        let rowWidth = FilterSheetGeometry.chipRowWidth(canvasWidth: W)
        let h = FilterSheetGeometry.chipHeight, gap = FilterSheetGeometry.chipSpacing
        var placed: [(String, Int, Double, Double, Double)] = []
        var x = 0.0, row = 0
        for (k, n) in keywords {
            let tw = measurer.measure(k + "  " + String(n), role: .chip, width: LineBreaks.unwrappedWidth).width
            let w = FilterSheetGeometry.chipWidth(textWidth: tw, rowWidth: rowWidth)
            if x > 0 && x + w > rowWidth { row += 1; x = 0 }
            if row >= FilterSheetGeometry.maxChipRows { break }
            placed.append((k, n, x, Double(row) * (h + gap), w))
            x += w + gap
        }
        let g = FilterSheetGeometry(canvasWidth: W, canvasHeight: H, chrome: chrome, chipRows: row + 1)
        let chips = placed.map {
            SceneChip(keyword: $0.0, count: $0.1, selected: selected.contains($0.0),
                      frame: SceneRect(x: g.chipsArea.x + $0.2, y: g.chipsArea.y + $0.3, width: $0.4, height: h))
        }
        let sheet = SceneFilterSheet(geometry: g, query: query, chips: chips, hiddenChips: hidden,
                                     summary: "Reports with all of: finance, 2016")
        return level(children: 18, seed: 1, overlay: .filterSheet(sheet))
    }

    static let sheetKeywords: [(String, Int)] = [
        ("finance", 212), ("2016", 48), ("quarterly", 131), ("sales", 97), ("budget", 64), ("Germany", 41), ("audit", 38),
        ("Zürich", 12), ("財務", 9), ("المبيعات", 7), ("compliance and governance review", 6), ("IT", 5), ("tax", 4), ("HR", 3),
    ]

    /// Tokens as the dashboard places them at the right of the breadcrumb strip.
    static func tokens(_ keywords: [String], canvasWidth W: Double = 768) -> [SceneToken] {
        let measurer = PangoTextMeasurer()
        let chrome = SceneChrome()
        let height = min(26, chrome.breadcrumbHeight - 8)
        let y = chrome.navigationBarHeight + (chrome.breadcrumbHeight - height) / 2
        var x = W - 12
        var out: [SceneToken] = []
        for k in keywords.reversed() {
            let w = min(160, measurer.measure(k, role: .chip, width: LineBreaks.unwrappedWidth).width) + 12 + 24
            if x - w < W * 0.4 && !out.isEmpty { break }
            x -= w
            out.append(SceneToken(keyword: k, frame: SceneRect(x: x, y: y, width: w, height: height),
                                  closeFrame: SceneRect(x: x + w - 26, y: y, width: 26, height: height)))
            x -= 6
        }
        return out.reversed()
    }

    /// A level under a filter: tokens, badges on the circles, a found report's ring, a notice.
    static func filtered(keywords: [String] = ["finance", "a very long keyword that will not fit in a token"]) -> Scene {
        var scene = level(children: 16, seed: 2)
        scene.filter = SceneFilter(keywords: keywords, matchingReports: 42, tokens: tokens(keywords))
        var markedOne = false
        for i in 1..<scene.bubbles.count {
            switch scene.bubbles[i].shape {
            case .circle: scene.bubbles[i].matchCount = [3, 12, 1, 140, 1204][i % 5]
            case .roundedRect:
                if !markedOne { scene.bubbles[i].marked = 1; markedOne = true }
            }
        }
        scene.notice = SceneNotice(text: "Search needs an index", opacity: 1)
        return scene
    }

    /// A filtered level without a matching report.
    static func filteredEmpty() -> Scene {
        var scene = SampleScenes.level(categories: 0, reports: 0, seed: 2)
        let c = scene.chrome.contentRect(canvasWidth: scene.canvasWidth, canvasHeight: scene.canvasHeight)
        let cx = c.x + c.width / 2, cy = c.y + c.height / 2
        scene.bubbles.removeAll()
        scene.filter = SceneFilter(keywords: ["tax"], matchingReports: 0, tokens: tokens(["tax"]),
                                   emptyMessage: "No reports with ‘tax’",
                                   clearFrame: SceneRect(x: cx - 60, y: cy + 40, width: 120, height: 40))
        return scene
    }

    /// One of each in a list, with names.
    static var all: [(String, Scene)] {
        [
            ("root", level(children: 20, root: true)),
            ("deep-blurred", level(children: 14, seed: 2, blur: 0.8)),
            ("crowded", level(children: 40, seed: 3)),
            ("preview", preview()),
            ("table", table()),
            ("landscape", landscape()),
            ("search", search()),
            ("filter-sheet", filterSheet()),
            ("filtered", filtered()),
        ]
    }
}

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "bubble-render-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
