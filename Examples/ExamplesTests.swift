import BubbleDashboard
import BubblePhysics
import BubbleRender
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import Foundation
import PDFMetadata
import PDFRender
import ReportIndex
import ReportLibrary
import TestSupport
import Testing

/// The repository's root folder (TestSupport's `packageRoot`).
let repositoryRoot = URL(fileURLWithPath: packageRoot)

/// The sample library's dashboard tree (PDFs not read: the examples need only the hierarchy).
func sampleTree() throws -> DashboardTree {
    let path = repositoryRoot.appendingPathComponent("Data/reports.json").path
    let library = try LibraryLoader.load(path, options: LibraryLoadOptions(checkFiles: false))
    return try LibraryBridge.dashboardTree(library)
}

/// The centre of a bubble in the latest scene.
func centre(of id: String, in scene: Scene) throws -> ScenePoint {
    try #require(scene.bubbles.first { $0.id == id }, "no bubble '\(id)' in the scene").centre
}

/// The code shown in README.md and in the DocC articles, run as an app would run it.
@Suite("Examples")
struct ExamplesTests {
    /// README: "Embedding the dashboard". A tap on the root circle brings in the first level, and
    /// frames at 120 Hz reach a dashboard at rest showing it.
    @Test func embeddingInBriefBringsInTheFirstLevel() throws {
        let nodes = [
            DashboardNode(id: "root", title: "All Reports", kind: .category, colour: nil, children: [1, 2], reportCount: 2),
            DashboardNode(id: "finance", title: "Finance", kind: .category, colour: nil, children: [3], reportCount: 1),
            DashboardNode(id: "q1", title: "Q1 Results", kind: .report, colour: nil, children: [], reportCount: 1),
            DashboardNode(id: "q1-2016", title: "Q1 2016 Income Statement", kind: .report, colour: nil, children: [], reportCount: 1),
        ]
        let host = try DashboardHost(nodes: nodes)
        var scenes: [Scene] = []
        host.draw = { scenes.append($0) }
        host.frame(at: 0)
        let root = try centre(of: "root", in: try #require(scenes.last))
        host.tapped(x: root.x, y: root.y)
        var frame = 1
        while !host.dashboard.isAtRest && frame < 120 * 10 {
            host.frame(at: Double(frame) / 120)
            frame += 1
        }
        #expect(host.dashboard.isAtRest, "not at rest after \(frame) frames")
        #expect(!host.dashboard.isStartScreen)
        let shown = Set(try #require(scenes.last).bubbles.map(\.id))
        #expect(shown.isSuperset(of: ["root", "finance", "q1"]), "\(shown)")
        #expect(scenes.count == frame)
    }

    /// The article "Embedding the dashboard in an app": a display link at 120 Hz with an
    /// arbitrary start time, then a tap, a drag and a pinch by touches.
    @Test func hostLoopFollowsTouches() throws {
        let view = try DashboardView(tree: try sampleTree())
        var last: Scene?
        var refusals: [DashboardError] = []
        view.draw = { last = $0 }
        view.refused = { refusals.append($0) }
        var timestamp = 5_000.25  // a display link's clock does not start at 0
        func run(seconds: Double) {
            for _ in 0..<Int(seconds * 120) {
                view.displayLinkFired(targetTimestamp: timestamp)
                timestamp += 1.0 / 120
            }
        }
        func untilRest() {
            for _ in 0..<20 where !view.canPauseDisplayLink { run(seconds: 0.5) }
        }
        run(seconds: 0.1)
        #expect(view.dashboard.time < 0.11)  // time counts from the first frame

        // A tap on the root circle: the first level comes in.
        let root = try centre(of: "root", in: try #require(last))
        view.touchBegan(at: root)
        view.touchEnded(at: root)
        untilRest()
        #expect(view.canPauseDisplayLink)
        let firstLevel = view.dashboard.visibleIDs
        #expect(firstLevel.count > 2)

        // A drag: the bubble follows the finger and stays where it is let go.
        let id = try #require(firstLevel.first { $0 != "root" })
        let from = try centre(of: id, in: try #require(last))
        let to = ScenePoint(x: from.x + 60, y: from.y + 40)
        view.touchBegan(at: from)
        for k in 1...30 {
            let f = Double(k) / 30
            view.touchMoved(to: ScenePoint(x: from.x + 60 * f, y: from.y + 40 * f))
            run(seconds: 1.0 / 60)
        }
        view.touchEnded(at: to)
        untilRest()
        let moved = try centre(of: id, in: try #require(last))
        #expect(abs(moved.x - to.x) < 30 && abs(moved.y - to.y) < 30, "\(id) at \(moved), let go at \(to)")
        #expect(refusals.isEmpty, "\(refusals)")

        // A pinch on the first level goes back to the start screen's level; a tap on empty
        // canvas is refused and changes nothing.
        let hash = view.dashboard.stateHash
        view.touchBegan(at: ScenePoint(x: 2, y: 400))
        view.touchEnded(at: ScenePoint(x: 2, y: 400))
        #expect(refusals.count == 1)
        #expect(view.dashboard.stateHash == hash)
        view.pinched()
        untilRest()
        #expect(view.canPauseDisplayLink)
    }

    /// The BubbleRender landing page: a dashboard measured by Pango, a frame written as a PNG.
    @Test func renderingAFrameWritesThePicture() throws {
        let dashboard = try makeDashboard(tree: try sampleTree())
        try dashboard.send(.tapBubble("root"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("frame.png").path
        try writeFrame(of: dashboard, at: 2, to: path)
        let image = try RenderedImage.readPNG(path: path)
        #expect(image.width == 2 * 768 && image.height == 2 * 1024)
        #expect(dashboard.time >= 2 && dashboard.visibleIDs.count > 2)
    }

    /// The BubblePhysics landing page: overlapping circles are pushed apart and come to rest
    /// side by side.
    @Test func threeCirclesSettleSideBySide() throws {
        let world = try settleThreeCircles()
        #expect(world.isAtRest)
        #expect(world.maxOverlap().depth < 0.5)
        let xs = try world.bodyIDs.map { try world.position(of: $0).x }.sorted()
        // Touching neighbours: centres about two radii apart.
        #expect(abs((xs[1] - xs[0]) - 40) < 2 && abs((xs[2] - xs[1]) - 40) < 2, "\(xs)")
    }

    /// The PDFMetadata landing page: a sample report's summary, and a missing file's error.
    @Test func pdfSummaryNamesTitlePagesAndKeywords() throws {
        let folder = repositoryRoot.appendingPathComponent("Data/reports").path
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first { $0.hasSuffix(".pdf") })
        let path = folder + "/" + first
        let info = try PDFDocumentInfo.read(contentsOf: path)
        let line = summary(ofPDF: path)
        #expect(line.hasPrefix(try #require(info.title) + ", \(try #require(info.pageCount)) pages"), "\(line)")
        let missing = summary(ofPDF: folder + "/no-such.pdf")
        #expect(missing.hasPrefix(folder + "/no-such.pdf: ") && missing != folder + "/no-such.pdf: ", "\(missing)")
    }

    /// The PDFRender landing page: a sample report's first page drawn at 96 dpi, with ink on it.
    @Test func firstPageIsDrawn() throws {
        let folder = repositoryRoot.appendingPathComponent("Data/reports").path
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first { $0.hasSuffix(".pdf") })
        let image = try drawFirstPage(of: folder + "/" + first)
        #expect(image.width == 794 && image.height == 1123)
        let dark = stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count
        #expect(dark > 1_000)
    }

    /// The "Searching a library" article: the sample, searched without accents, through an index
    /// in a scratch folder.
    @Test func searchingALibrary() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("examples-index-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sample = repositoryRoot.appendingPathComponent("Data/reports.json").path
        let ids = try searchLibrary(datasource: sample, index: folder + "/sample.index.sqlite", typed: "zurich lea")
        #expect(ids.first == "zurich-office-lease-review")
    }

    /// The embedding article's finder: a typed text finds reports by title, a pick brings in its
    /// level, and a keyword filter narrows the level; without a finder the magnifier says so.
    @Test func suppliedFinderSearchesAndFilters() throws {
        let tree = try sampleTree()
        let dashboard = try searchableDashboard(tree: tree)
        try dashboard.send(.tapBubble("root"))
        dashboard.settle(limit: 3000)
        try dashboard.send(.search("income statement"))
        let hits = dashboard.searchResults
        #expect(!hits.isEmpty && hits.allSatisfy { tree.nodes[$0.report].title.lowercased().contains("income") })
        try dashboard.send(.searchPick(0))
        dashboard.settle(limit: 3000)
        #expect(!dashboard.isSearching)
        let keyword = try #require(tree.nodes.first { !$0.keywords.isEmpty }?.keywords.first)
        try dashboard.send(.filter([keyword.uppercased()]))
        #expect(dashboard.filterKeywords == [keyword])
        let plain = try Dashboard(tree: tree)
        #expect(throws: DashboardError.searchUnavailable) { try plain.send(.search("income")) }
    }

    /// The ReportLibrary landing page: the sample library's size, and a duplicate id's error line.
    @Test func libraryDescriptionAndErrorLine() throws {
        let sample = repositoryRoot.appendingPathComponent("Data/reports.json").path
        let tree = try LibraryLoader.load(sample)
        #expect(describeLibrary(at: sample) == "\(tree.statistics.reports) reports in \(tree.statistics.categories) categories")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("examples-duplicate-\(getpid()).json")
        try Data(#"{"id": "root", "title": "R", "children": [{"id": "a", "title": "A", "children": []}, {"id": "a", "title": "B", "children": []}]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let line = describeLibrary(at: file.path)
        #expect(line.hasPrefix("error: \(file.path):1:") && line.contains("children[1].id: duplicate id 'a'"), "\(line)")
    }
}

/// The Swift code blocks of README.md and of the DocC articles are copies of the files in this
/// folder, so what the documentation shows is what the tests compile and run.
@Suite("Documentation")
struct DocumentationTests {
    /// The ```swift blocks of a Markdown file.
    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Every Markdown file of the DocC catalogs, relative to the root.
    static func catalogArticles() throws -> [String] {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        var found: [String] = []
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = "Sources/\(target)/\(target).docc"
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent(catalog).path)
            else { continue }
            found += files.sorted().filter { $0.hasSuffix(".md") }.map { "\(catalog)/\($0)" }
        }
        return found
    }

    @Test func documentedSwiftIsTheCompiledExamples() throws {
        let examples = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot.appendingPathComponent("Examples").path)
            .sorted().filter { $0.hasSuffix(".swift") && $0 != "ExamplesTests.swift" }
            .map { "\n" + (try Self.read("Examples/\($0)")) }
        let documents = ["README.md"] + (try Self.catalogArticles())
        var blocksSeen: [String: Int] = [:]
        for document in documents {
            let blocks = Self.swiftBlocks(try Self.read(document))
            blocksSeen[document] = blocks.count
            for (n, block) in blocks.enumerated() {
                // A block is whole lines of one example file.
                let found = examples.contains { $0.contains("\n" + block + "\n") }
                #expect(found, "\(document): Swift block \(n + 1) is not a copy of lines of a file in Examples/:\n\(block)")
            }
        }
        #expect(blocksSeen["README.md", default: 0] >= 1)
        #expect(blocksSeen["Sources/BubbleDashboard/BubbleDashboard.docc/EmbeddingTheDashboard.md", default: 0] >= 1)
    }

    /// The ```json blocks of a Markdown file, also those indented in a list item.
    static func jsonBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        var indent = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if current == nil, trimmed == "```json" {
                current = []
                indent = line.count - trimmed.count
            } else if current != nil, trimmed == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(String(line.dropFirst(min(indent, line.count - trimmed.count))))
            }
        }
        return blocks
    }

    /// The datasource and scenario examples of the README and the format articles load: they
    /// show the formats as the loaders read them.
    @Test func formatExamplesLoad() throws {
        let data = repositoryRoot.appendingPathComponent("Data").path
        func datasource(_ json: String, _ file: String) throws -> ReportTree {
            try LibraryLoader.parse(Array(json.utf8), file: file, dataFolder: data, options: LibraryLoadOptions(checkFiles: false))
        }
        func scenario(_ json: String) throws -> Scenario {
            // As if the file were in Data/scenarios/, where its "../reports.json" is the sample library.
            try Scenario.parse(Array(json.utf8), file: data + "/scenarios/example.json") { path throws(LibraryError) in
                (try LibraryLoader.load(path, options: LibraryLoadOptions(checkFiles: false)), [])
            }
        }
        let readme = Self.jsonBlocks(try Self.read("README.md"))
        try #require(readme.count == 3)
        #expect(try datasource(readme[0], "README.md").nodes.map(\.id) == ["root", "finance", "q1-2016"])
        #expect(try scenario(readme[1]).script.count == 3)
        #expect(try scenario(readme[2]).script.count == 5)

        let datasourceArticle = Self.jsonBlocks(try Self.read("Sources/ReportLibrary/ReportLibrary.docc/DatasourceFormat.md"))
        #expect(try datasource(try #require(datasourceArticle.first), "DatasourceFormat.md").statistics.reports == 1)
        let scenarioArticle = Self.jsonBlocks(try Self.read("Sources/BubbleDashboard/BubbleDashboard.docc/ScenarioFormat.md"))
        #expect(try scenario(try #require(scenarioArticle.first)).script.count == 12)
        try #require(scenarioArticle.count == 2)
        #expect(try scenario(scenarioArticle[1]).script.count == 12)
    }

    /// Relative links in README.md and docs/*.md lead to files or folders that exist.
    @Test func relativeLinksResolve() throws {
        var documents = ["README.md"]
        let docs = repositoryRoot.appendingPathComponent("docs")
        documents += ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []).sorted()
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        var checked = 0
        for document in documents {
            let text = try Self.read(document)
            let folder = repositoryRoot.appendingPathComponent(document).deletingLastPathComponent()
            // Markdown links and images: ](target) or ](target "title").
            var rest = text[...]
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                var target = String(rest[..<close])
                if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }
                if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
                if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { continue }
                let path = folder.appendingPathComponent(target).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: path), "\(document): broken link '\(target)'")
                checked += 1
            }
        }
        #expect(checked >= 10, "only \(checked) relative links found")
    }
}
