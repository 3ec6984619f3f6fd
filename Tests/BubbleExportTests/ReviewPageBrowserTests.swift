import BubbleExport
import BubbleRender
import Foundation
import TestSupport
import Testing

@Suite("Review page in a browser")
struct ReviewPageBrowserTests {
    @Test(.enabled(if: Chromium.path != nil, "headless Chromium is not installed (Debian package 'chromium'); skipping the browser check"))
    func pageShowsTheFrameNamedInTheURL() throws {
        let s = try Scratch("bubbles-export-browser")
        defer { s.remove() }
        let scenario = try s.shortScenario()
        let out = s.path + "/out"
        _ = try Exporter.run(options(scenario, out))
        let list = frames(try manifest(out))
        let target = 42
        let shown = (list[target]["duplicate_of"] as? Int) ?? target
        let url = "file://" + out + "/index.html#frame=\(target)"

        // What the page says it shows, and where the image is.
        let dom = try Chromium.run(["--dump-dom"], url: url, profile: s.path + "/profile-dom")
        func attribute(_ name: String) -> String? {
            guard let r = dom.range(of: name + "=\"") else { return nil }
            return String(dom[r.upperBound...].prefix { $0 != "\"" })
        }
        #expect(attribute("data-frame") == "\(target)", "\(dom.prefix(400))")
        #expect(attribute("data-img-src") == String(format: "frame-%05d.png", shown))
        #expect(dom.contains("<span id=\"frameno\">\(target)</span>"))
        #expect(dom.contains("<span id=\"time\">1.400 s</span>"))
        let rect = try #require(attribute("data-img-rect")?.split(separator: ",").compactMap { Int($0) })
        try #require(rect.count == 4, "no image rectangle published: \(dom.prefix(400))")
        #expect(rect[2] == 192 && rect[3] == 256, "the frame is drawn at \(rect), expected its natural size 192×256")

        // The screenshot shows that frame's pixels, and not another frame's. Headless Chromium lays the
        // page out for --dump-dom and --screenshot at slightly different heights, so the image is looked
        // for around the published position rather than assumed exactly there.
        let shot = s.path + "/shot.png"
        _ = try Chromium.run(["--screenshot=" + shot], url: url, profile: s.path + "/profile-shot")
        let screen = try Pixels(RenderedImage.readPNG(path: shot))
        #expect(screen.width == 1000 && screen.height == 800)
        let expected = try Pixels(RenderedImage.readPNG(path: out + String(format: "/frame-%05d.png", shown)))
        let samples = (0..<97).map { k in ((k * 37) % expected.width, (k * 53) % expected.height) }
        var best = (x: 0, y: 0, bad: Int.max)
        for y in 0...(screen.height - expected.height) {
            for x in max(0, rect[0] - 4)...min(screen.width - expected.width, rect[0] + 4) {
                var bad = 0
                for (sx, sy) in samples where Pixels.distance(expected[sx, sy], screen[x + sx, y + sy]) > 8 {
                    bad += 1
                    if bad >= best.bad { break }
                }
                if bad < best.bad { best = (x, y, bad) }
            }
        }
        func mismatch(_ image: Pixels) -> Double {
            var bad = 0
            for y in 0..<image.height {
                for x in 0..<image.width where Pixels.distance(image[x, y], screen[best.x + x, best.y + y]) > 8 { bad += 1 }
            }
            return Double(bad) / Double(image.width * image.height)
        }
        let right = mismatch(expected)
        #expect(right < 0.01, "\(Int(right * 100)) % of the pixels differ from frame \(shown) at its best place \(best)")
        for other in [0, 30, 45] {
            let image = try Pixels(RenderedImage.readPNG(path: out + String(format: "/frame-%05d.png", other)))
            #expect(mismatch(image) > 0.02, "frame \(other) looks the same as frame \(target)")
        }
    }
}

/// An image's pixels as 0xAARRGGBB values.
struct Pixels {
    let width: Int
    let height: Int
    let values: [UInt32]

    init(_ image: RenderedImage) {
        width = image.width
        height = image.height
        var v = [UInt32](repeating: 0, count: image.width * image.height)
        image.withPixels { p, stride in
            for y in 0..<image.height {
                let row = UnsafeRawPointer(p + y * stride)
                for x in 0..<image.width { v[y * image.width + x] = row.load(fromByteOffset: 4 * x, as: UInt32.self) }
            }
        }
        values = v
    }

    subscript(x: Int, y: Int) -> UInt32 { values[y * width + x] }

    /// The largest difference of the red, green and blue channels.
    static func distance(_ a: UInt32, _ b: UInt32) -> Int {
        var d = 0
        for shift in [0, 8, 16] as [UInt32] {
            d = max(d, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)))
        }
        return d
    }
}
