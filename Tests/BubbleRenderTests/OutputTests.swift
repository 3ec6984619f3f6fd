@_spi(Testbed) import BubbleDashboard
import BubbleRender
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct OutputTests {
    @Test func fastPNGDecodesToTheSamePixelsAsCairoPNG() throws {
        let image = try SceneRenderer(pixelScale: 1).render(TestScenes.level(children: 20, blur: 0.7))
        let fast = try RenderedImage.decodePNG(try image.fastPNG())
        let cairo = try RenderedImage.decodePNG(try image.cairoPNG())
        #expect(fast.difference(to: cairo)?.maxDelta == 0)
        #expect(fast.difference(to: image)?.maxDelta == 0)
    }

    @Test func fastPNGHandlesTranslucentImages() throws {
        let image = try RenderedImage(width: 97, height: 61)
        image.withPixels { p, stride in
            for y in 0..<61 {
                for x in 0..<97 {
                    let a = UInt32((x * 7 + y * 13) % 256)
                    let r = a * UInt32(x % 5) / 4, g = a * UInt32(y % 3) / 2, b = a / 3
                    let v = a << 24 | r << 16 | g << 8 | b
                    UnsafeMutableRawPointer(p + y * stride).storeBytes(of: v, toByteOffset: 4 * x, as: UInt32.self)
                }
            }
        }
        let fast = try RenderedImage.decodePNG(try image.fastPNG())
        let cairo = try RenderedImage.decodePNG(try image.cairoPNG())
        #expect(fast.difference(to: cairo)?.maxDelta == 0)
        let bytes = try image.fastPNG()
        #expect(bytes[25] == 6)  // colour type RGBA
    }

    @Test func writesPNGAndSVGFiles() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let renderer = SceneRenderer(pixelScale: 1)
        let scene = TestScenes.level(children: 10)
        try renderer.writePNG(scene, to: dir + "/frame.png")
        try renderer.writePNG(scene, to: dir + "/frame-cairo.png", encoder: .cairo)
        try renderer.writeSVG(scene, to: dir + "/frame.svg")
        let a = try RenderedImage.readPNG(path: dir + "/frame.png")
        let b = try RenderedImage.readPNG(path: dir + "/frame-cairo.png")
        #expect(a.width == 768 && a.height == 1024)
        #expect(a.difference(to: b)?.maxDelta == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["frame-cairo.png", "frame.png", "frame.svg"])
    }

    @Test func failedWritesLeaveNoFile() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let renderer = SceneRenderer(pixelScale: 0.25)
        let scene = TestScenes.level(children: 4)
        // A folder that does not exist.
        #expect(throws: RenderError.self) { try renderer.writePNG(scene, to: dir + "/missing/frame.png") }
        do {
            try renderer.writeSVG(scene, to: dir + "/missing/frame.svg")
            Issue.record("expected an error")
        } catch let error as RenderError {
            guard case .unwritableFolder(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == dir + "/missing/frame.svg")
        }
        // A "folder" that is a file.
        #expect(FileManager.default.createFile(atPath: dir + "/file", contents: Data([1])))
        #expect(throws: RenderError.self) { try renderer.writePNG(scene, to: dir + "/file/frame.png") }
        // The destination is a folder: the rename fails after the bytes were written.
        try FileManager.default.createDirectory(atPath: dir + "/taken.png", withIntermediateDirectories: false)
        #expect(throws: RenderError.self) { try renderer.writePNG(scene, to: dir + "/taken.png") }
        // A read-only folder (permissions do not bind root, so only checked for other users).
        if getuid() != 0 {
            try FileManager.default.createDirectory(atPath: dir + "/ro", withIntermediateDirectories: false)
            chmod(dir + "/ro", 0o555)
            #expect(throws: RenderError.self) { try renderer.writePNG(scene, to: dir + "/ro/frame.png") }
            chmod(dir + "/ro", 0o755)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/ro").isEmpty)
        }
        // A folder where nothing can be created, even by root.
        #expect(throws: RenderError.self) { try renderer.writePNG(scene, to: "/proc/bubbles-render-test.png") }
        #expect(!FileManager.default.fileExists(atPath: "/proc/bubbles-render-test.png"))
        // Nothing half-written and no temporary file anywhere.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["file", "taken.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/taken.png").isEmpty)
    }

    @Test func errorsNameTheFile() {
        let e = RenderError.diskFull(path: "/x/frame.png")
        #expect(e.description.contains("/x/frame.png"))
    }

    @Test func svgIsXMLWithTheExpectedShapesAndLabels() throws {
        for (name, scene, blurred) in [
            ("sharp", TestScenes.level(children: 16), false),
            ("blurred", TestScenes.level(children: 16, blur: 1), true),
            ("table", TestScenes.table(rows: 8), false),
        ] {
            let renderer = SceneRenderer()
            let bytes = try renderer.svg(scene)
            let counter = SVGCounter()
            let parser = XMLParser(data: Data(bytes))
            parser.delegate = counter
            #expect(parser.parse(), "\(name): \(parser.parserError.map { "\($0)" } ?? "")")
            #expect(counter.rootName == "svg")
            #expect(counter.width == "768pt" && counter.height == "1024pt")
            // The blurred focus is one embedded raster.
            #expect(counter.images == (blurred ? 1 : 0), "\(name)")
            // Every circle is filled with a gradient, besides four in the chrome (background, two bar
            // shadows, the static area).
            let circles = scene.bubbles.filter {
                if case .circle = $0.shape, !($0.kind == .focus && $0.blur > 0) { return true }
                return false
            }.count
            #expect(counter.linearGradients == circles + 4, "\(name)")
            // Every drawn label line is at least one run of glyphs (a <g> of <use>s; one per font
            // where scripts alternate), and no run has fewer than one glyph; the blurred focus title is
            // in the raster.
            let labels = renderer.layoutLabels(scene).filter { !(blurred && $0.owner == scene.bubbles[0].id) }
            let lines = labels.reduce(0) { $0 + $1.lines.filter { !$0.text.allSatisfy(\.isWhitespace) }.count }
            let glyphs = labels.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.text.unicodeScalars.count } }
            #expect(counter.glyphRuns >= lines && counter.glyphRuns <= glyphs, "\(name): \(counter.glyphRuns) runs for \(lines) lines")
        }
    }
}

final class SVGCounter: NSObject, XMLParserDelegate {
    var rootName: String?
    var width: String?
    var height: String?
    var images = 0
    var linearGradients = 0
    var glyphRuns = 0
    private var stack: [(name: String, uses: Int, others: Int)] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if rootName == nil {
            rootName = name
            width = attributes["width"]
            height = attributes["height"]
        }
        if name == "image" { images += 1 }
        if name == "linearGradient" { linearGradients += 1 }
        if !stack.isEmpty {
            if name == "use", attributes["xlink:href"]?.hasPrefix("#glyph") == true { stack[stack.count - 1].uses += 1 } else {
                stack[stack.count - 1].others += 1
            }
        }
        stack.append((name, 0, 0))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let top = stack.removeLast()
        if top.name == "g" && top.uses > 0 && top.others == 0 { glyphRuns += 1 }
    }
}
