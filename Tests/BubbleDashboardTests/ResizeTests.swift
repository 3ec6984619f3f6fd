@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import Foundation
import TestSupport
import Testing

/// `Dashboard.resize(to:)`: a rotation or Split View keeps the user's place, lays the level out
/// again for the new area with the usual transition, and is deterministic.
@Suite struct ResizeTests {
    static let landscape = SceneSize(width: 1024, height: 768)
    static let portrait = SceneSize(width: 768, height: 1024)

    static func onLevel(_ ids: [String]) throws -> Dashboard {
        let d = try Dashboard(tree: sampleTree)
        for id in ids {
            try d.send(.tapBubble(id))
            d.settle(limit: 3000)
        }
        return d
    }

    /// Every bubble inside the new canvas, nothing overlapping, the same focus path, the focus in
    /// the middle of the new bubble area.
    @Test(arguments: [["root"], ["root", "finance"], ["root", "finance", "monthly-close"]])
    func aRotatedLevelFitsTheNewCanvas(path: [String]) throws {
        let d = try Self.onLevel(path)
        let focusPath = d.focusPath
        try d.send(.resize(Self.landscape))
        #expect(d.settle(limit: 3000) < 3000)
        #expect(d.focusPath == focusPath)
        let scene = d.scene()
        #expect(scene.canvasWidth == 1024 && scene.canvasHeight == 768)
        #expect(d.maxOverlap() < 0.5)
        for b in scene.bubbles {
            let r: Double
            switch b.shape {
            case .circle(let radius): r = radius
            case .roundedRect(let w, let h, _): r = max(w, h) / 2
            }
            #expect(b.centre.x - r * b.scale >= -0.5 && b.centre.x + r * b.scale <= 1024.5, "\(b.id) at \(b.centre)")
            #expect(b.centre.y >= 0 && b.centre.y <= 768, "\(b.id) at \(b.centre)")
        }
        let focus = try #require(scene.bubbles.first { $0.kind == .focus })
        #expect(abs(focus.centre.x - 512) < 1)
    }

    /// Portrait → landscape → portrait puts every bubble back exactly where it was.
    @Test func rotatingBackRestoresThePlaces() throws {
        let d = try Self.onLevel(["root", "finance"])
        let before = d.scene().bubbles.map { ($0.id, $0.centre, $0.shape) }
        try d.send(.resize(Self.landscape))
        d.settle(limit: 3000)
        try d.send(.resize(Self.portrait))
        d.settle(limit: 3000)
        let after = d.scene().bubbles.map { ($0.id, $0.centre, $0.shape) }
        #expect(before.count == after.count)
        for (a, b) in zip(before, after) {
            #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2, "\(a.0): \(a.1) → \(b.1)")
        }
    }

    /// The bubbles move in the first frame after the event and never jump.
    @Test func theTransitionIsSmooth() throws {
        let d = try Self.onLevel(["root", "finance"])
        var previous = d.scene()
        try d.send(.resize(Self.landscape))
        d.step()
        #expect(largestJump(previous, d.scene()).0 > 0)
        for _ in 0..<120 {
            previous = d.scene()
            d.step()
            let (jump, id) = largestJump(previous, d.scene())
            #expect(jump < 40, "\(id) jumped \(jump) pt")
        }
    }

    /// An open reports table stays open with its scroll (clamped to the new length).
    @Test func theTableAndItsScrollAreKept() throws {
        let d = try Self.onLevel(["root", "finance", "monthly-close"])
        try d.send(.showReports)
        d.settle(limit: 3000)
        try d.send(.scroll(300))
        d.settle(limit: 3000)
        let offset = d.tableScrollOffset
        #expect(offset > 0)
        try d.send(.resize(Self.landscape))
        d.settle(limit: 3000)
        guard case .reportsTable? = d.scene().overlay else {
            Issue.record("the table closed")
            return
        }
        let maxScroll = d.tableGeometry(rows: 27).maxScroll
        #expect(d.tableScrollOffset == min(offset, maxScroll))
    }

    /// A size outside the canvas range is refused and changes nothing.
    @Test(arguments: [SceneSize(width: 100, height: 768), SceneSize(width: .nan, height: 768), SceneSize(width: 1024, height: 1e9)])
    func badSizesAreRefused(size: SceneSize) throws {
        let d = try Self.onLevel(["root"])
        let hash = d.stateHash
        #expect(throws: DashboardError.self) { try d.send(.resize(size)) }
        #expect(d.stateHash == hash)
        #expect(d.canvasSize == Self.portrait)
    }

    /// The same events give the same states, resize included.
    @Test func resizingIsDeterministic() throws {
        func run() throws -> [UInt64] {
            let d = try Self.onLevel(["root"])
            var hashes: [UInt64] = []
            try d.send(.tapBubble("finance"))
            d.step(count: 10)
            try d.send(.resize(Self.landscape))
            for _ in 0..<60 {
                d.step()
                hashes.append(d.stateHash)
            }
            return hashes
        }
        #expect(try run() == run())
    }

    /// A scenario's `resize` event, and a tap after it that only the new canvas holds.
    @Test func aScenarioRotates() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resize-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/rotate.json"
        let text = """
            {"data": "\(packageRoot)/Data/reports.json", "canvas": [768, 1024], "events": [
              {"at": 0.2, "tap": "root"}, {"at": 1, "resize": [1024, 768]}, {"at": 2, "tap": [1000, 700]}]}
            """
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let scenario = try Scenario.load(file)
        #expect(scenario.script.map(\.label) == ["tap root", "resize to 1024×768", "tap at [1000, 700]"])
        try "{\"data\": \"\(packageRoot)/Data/reports.json\", \"events\": [{\"at\": 1, \"resize\": [20, 768]}]}"
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError.self) { _ = try Scenario.load(file) }
    }
}
