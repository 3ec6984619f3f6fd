@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import TestSupport
import Testing

/// Text is never drawn over text: in every frame of the shipped scenarios, no two bubble titles'
/// boxes overlap while both bubbles are drawn at an opacity above 0.3 and sharp (a blurred focus
/// behind its level draws its title as a soft shape, not as text to read).
@Suite("Label overlap in transitions")
struct LabelOverlapTests {
    /// The scenarios in `Data/scenarios/`, by file name.
    static let scenarios: [String] = {
        let folder = packageRoot + "/Data/scenarios"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// Every overlap in every frame of a scenario, at its own frame rate, run as `bubbles export`
    /// runs it (over a library index made in a scratch folder): (frame, ids, area in pt²).
    static func overlaps(_ name: String) throws -> [(frame: Int, a: String, b: String, area: Double)] {
        let scenario = try Scenario.load(packageRoot + "/Data/scenarios/" + name)
        let settings = scenario.dashboardSettings(width: scenario.canvasWidth, height: scenario.canvasHeight)
        let scratch = try Scratch("bubbles-overlap")
        defer { scratch.remove() }
        let path = scratch.path + "/index.sqlite"
        let details = LibraryBridge.details(for: scenario.library, source: .index(path: path))
        let tree = try LibraryBridge.dashboardTree(scenario.library, details: details)
        let finder = LibraryBridge.finder(for: scenario.library, dashboardTree: tree, indexPath: path)
        let d = try Dashboard(tree: tree, settings: settings, measurer: PangoTextMeasurer(), finder: finder)
        let player = ScenarioPlayer(dashboard: d, script: scenario.script)
        let renderer = SceneRenderer(pixelScale: 1)
        var found: [(Int, String, String, Double)] = []
        let frames = Int((scenario.duration * scenario.fps).rounded())
        for frame in 0...frames {
            let t = Double(frame) / scenario.fps
            _ = player.advance(toStep: player.step(atTime: t))
            let scene = d.scene(at: t)
            found += Self.overlaps(in: scene, renderer).map { (frame, $0.a, $0.b, $0.area) }
        }
        return found
    }

    /// The pairs of sharp bubble titles drawn at an opacity above 0.3 whose boxes overlap by more
    /// than a point each way, with the overlap's area (pt²).
    static func overlaps(in scene: Scene, _ renderer: SceneRenderer) -> [(a: String, b: String, area: Double)] {
        var opacity: [String: Double] = [:]
        for b in scene.bubbles where b.blur < 0.5 { opacity[b.id] = max(opacity[b.id] ?? 0, b.opacity) }
        let titles = renderer.layoutLabels(scene).filter { $0.role == .bubbleTitle && (opacity[$0.owner] ?? 0) > 0.3 }
        var found: [(String, String, Double)] = []
        for i in titles.indices {
            guard let a = titles[i].box else { continue }
            for j in titles.indices where j > i {
                guard let b = titles[j].box, titles[i].owner != titles[j].owner else { continue }
                let w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
                let h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
                if w > 1 && h > 1 { found.append((titles[i].owner, titles[j].owner, w * h)) }
            }
        }
        return found
    }

    @Test("the check finds two titles drawn over each other")
    func checkCanFail() {
        func card(_ id: String, _ x: Double, opacity: Double = 1) -> SceneBubble {
            SceneBubble(id: id, kind: .report, shape: .roundedRect(width: 150, height: 70, cornerRadius: 12),
                        centre: ScenePoint(x: x, y: 500), scale: 1, opacity: opacity, label: "Quarterly report \(id)", colour: nil)
        }
        let renderer = SceneRenderer(pixelScale: 1)
        let stacked = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [card("a", 380), card("b", 400)], breadcrumbs: ["All"])
        #expect(Self.overlaps(in: stacked, renderer).map { [$0.a, $0.b] } == [["a", "b"]])
        let faint = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [card("a", 380), card("b", 400, opacity: 0.2)], breadcrumbs: ["All"])
        #expect(Self.overlaps(in: faint, renderer).isEmpty)
        let apart = Scene(canvasWidth: 768, canvasHeight: 1024, bubbles: [card("a", 200), card("b", 500)], breadcrumbs: ["All"])
        #expect(Self.overlaps(in: apart, renderer).isEmpty)
    }

    @Test(arguments: scenarios)
    func noTitleOverTitle(_ name: String) throws {
        let found = try Self.overlaps(name)
        let frames = Set(found.map(\.frame)).sorted()
        let worst = found.max { $0.area < $1.area }
        #expect(found.isEmpty, "\(name): titles overlap in \(frames.count) frames (\(frames.prefix(12))…); worst: \(worst.map { "frame \($0.frame): \($0.a) over \($0.b), \(Int($0.area)) pt²" } ?? "")")
    }
}
