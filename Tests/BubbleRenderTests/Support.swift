@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation

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

    /// One of each in a list, with names.
    static var all: [(String, Scene)] {
        [
            ("root", level(children: 20, root: true)),
            ("deep-blurred", level(children: 14, seed: 2, blur: 0.8)),
            ("crowded", level(children: 40, seed: 3)),
            ("preview", preview()),
            ("table", table()),
            ("landscape", landscape()),
        ]
    }
}

func temporaryFolder() throws -> String {
    let path = NSTemporaryDirectory() + "bubble-render-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
