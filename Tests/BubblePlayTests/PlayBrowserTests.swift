@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubblePlay
import Foundation
import Synchronization
import TestSupport
import Testing

/// The page driven as a person would: canvas points become window points on the picture.
struct PlayPage {
    let cdp: CDP
    var left = 0.0, top = 0.0, k = 1.0

    mutating func measure() throws {
        let o = object(try cdp.string("JSON.stringify(document.getElementById('picture').getBoundingClientRect())"))
        left = o["left"] as? Double ?? 0
        top = o["top"] as? Double ?? 0
        k = (o["width"] as? Double ?? 768) / 768
    }

    func window(_ p: ScenePoint) -> (Double, Double) { (left + p.x * k, top + p.y * k) }

    func tap(_ p: ScenePoint) throws {
        let (x, y) = window(p)
        try cdp.mouse("mouseMoved", x, y)
        try cdp.mouse("mousePressed", x, y, buttons: 1)
        try cdp.mouse("mouseReleased", x, y)
    }

    func drag(_ a: ScenePoint, by d: (Double, Double), steps: Int) throws {
        let (x, y) = window(a)
        try cdp.mouse("mouseMoved", x, y)
        try cdp.mouse("mousePressed", x, y, buttons: 1)
        for i in 1...steps {
            try cdp.mouse("mouseMoved", x + d.0 * k * Double(i) / Double(steps), y + d.1 * k * Double(i) / Double(steps), buttons: 1)
            Thread.sleep(forTimeInterval: 0.016)
        }
        try cdp.mouse("mouseReleased", x + d.0 * k, y + d.1 * k)
    }

    /// Waits for a frame after the current one, then for the dashboard to rest.
    func settle() throws {
        let frames = Int(try cdp.string("document.body.dataset.frames")) ?? 0
        try cdp.waitFor("Number(document.body.dataset.frames) > \(frames)", "a new frame")
        try cdp.waitFor("document.body.dataset.atRest === 'true'", "the dashboard to rest")
    }

    /// A checksum of the picture's pixels as shown on the page.
    func pictureSum() throws -> String {
        try cdp.string(
            """
            (() => { const c = document.getElementById('picture'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
              let h = 2166136261; for (let i = 0; i < d.length; i += 4) { h = Math.imul(h ^ d[i] ^ (d[i+1] << 8) ^ (d[i+2] << 16), 16777619) >>> 0; }
              return c.width + 'x' + c.height + ':' + h.toString(16); })()
            """)
    }

    /// The debug view's bodies from the last frame header.
    func bodies() throws -> [[String: Any]] {
        let text = try cdp.string("JSON.stringify(header && header.debug ? header.debug.bodies : [])")
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }
}

// Not serialized: each test has its own server, Chromium and profile folder, and they mostly wait
// on the browser, so two at once end about when the longer one does (a parallel run's last
// minute was the second of them, alone on an idle machine).
@Suite("Play page in a browser")
struct PlayBrowserTests {
    @Test(.enabled(if: Chromium.path != nil, "headless Chromium is not installed (Debian package 'chromium'); skipping the browser check"))
    func tapDragPinchReportAndTheRecordingExportsToTheSameHash() async throws {
        let s = try Scratch("bubbles-play-browser")
        defer { s.remove() }
        var options = PlayServerOptions()
        options.recordPath = s.path + "/recording.json"
        let server = try await RunningServer(options: options)
        let r = try await inChromium(server: server, profile: s.path + "/profile") { cdp, origin, results in
            try Self.drive(cdp, origin: origin, results: results)
        }
        #expect(r["failure"] == nil, "\(r["failure"] ?? "")")
        #expect(r["tap"] == "changed", "tapping the root did not change the picture")
        #expect(r["drag"] == "changed", "dragging did not change the picture")
        #expect((Int(r["dragDistance"] ?? "") ?? 0) > 30, "the dragged bubble moved \(r["dragDistance"] ?? "?") pt")
        #expect(r["drill"] == "changed")
        #expect(r["pinch"] == "changed", "the pinch did not go back")
        #expect(r["touchPinch"] == "changed", "the two-finger pinch did not go back")
        #expect(r["open"] == "changed", "the report preview did not open")
        #expect(r["close"] == "same as before", "closing the preview did not bring the level back")
        #expect(r["table"] == "changed", "the Reports button did not open the table")
        #expect(r["escape"] == "same as before", "Escape did not close the table")
        #expect(r["errors"] == "0", "the page showed errors")
        #expect((Int(r["patchFrames"] ?? "") ?? 0) > 10, "frames of changed tiles: \(r["patchFrames"] ?? "?")")
        #expect(r["whole"] == "same as patched", "the picture built from changed tiles differs from the whole picture")
        #expect(!(r["screenshot"] ?? "").isEmpty)

        // The recording, exported, ends on the hash the live session showed.
        let file = s.path + "/recording.json"
        #expect(FileManager.default.fileExists(atPath: file))
        let last = try #require(try lastExportedFrame(of: file, into: s.path + "/out"))
        #expect("\(last["step"] as? Int ?? -1)" == r["recordStep"])
        #expect(last["state_hash"] as? String == r["recordHash"], "export \(last["state_hash"] ?? "?") vs live \(r["recordHash"] ?? "?")")
    }

    /// The person's script: tap the root, drag a bubble, drill in and pinch back, open and close a
    /// report, open the table and close it with Escape, save the recording.
    static func drive(_ cdp: CDP, origin: String, results: Box<[String: String]>) throws {
        func note(_ k: String, _ v: String) { results.withLock { $0[k] = v } }

        try cdp.call("Page.enable")
        try cdp.call("Page.navigate", ["url": origin + "/"])
        try cdp.waitFor("Number(document.body.dataset.frames) >= 1 && document.body.dataset.atRest === 'true'", "the first frame")
        var page = PlayPage(cdp: cdp)
        try page.measure()
        let start = try page.pictureSum()

        // Tap the root: the first level comes in.
        try page.tap(ScenePoint(x: 384, y: 540))
        try page.settle()
        let level = try page.pictureSum()
        note("tap", level != start ? "changed" : "same")

        // Debug on (D), then drag a bubble by 120, -90 pt.
        try cdp.key("d", code: "KeyD", keyCode: 68)
        try cdp.waitFor("header && header.debug", "the debug view")
        let bodies = try page.bodies()
        let child = try #require(bodies.first { $0["kinematic"] as? Bool == false && $0["r"] != nil })
        let from = ScenePoint(x: child["x"] as? Double ?? 0, y: child["y"] as? Double ?? 0)
        try page.drag(from, by: (120, -90), steps: 15)
        try page.settle()
        let dragged = try page.pictureSum()
        note("drag", dragged != level ? "changed" : "same")
        let moved = try page.bodies().first { $0["id"] as? String == child["id"] as? String }
        let dx = (moved?["x"] as? Double ?? from.x) - from.x
        note("dragDistance", "\(Int(dx.rounded()))")

        // Drill into a category (a circle) that holds reports.
        let tree = sampleSource.tree
        let withReports = tree.nodes.indices.filter { c in
            tree.parents[c] == 0 && c != 0 && tree.nodes[c].kind == .category
                && tree.nodes.indices.contains { tree.parents[$0] == c && tree.nodes[$0].kind == .report }
        }.map { tree.nodes[$0].id }
        let category = try #require(try page.bodies().first { withReports.contains($0["id"] as? String ?? "") })
        try page.tap(ScenePoint(x: category["x"] as? Double ?? 0, y: category["y"] as? Double ?? 0))
        try page.settle()
        let inside = try page.pictureSum()
        note("drill", inside != dragged ? "changed" : "same")

        // Open a report (a card) and close it with the sheet's back arrow.
        if let card = try page.bodies().first(where: { $0["w"] != nil }) {
            try page.tap(ScenePoint(x: card["x"] as? Double ?? 0, y: card["y"] as? Double ?? 0))
            try page.settle()
            note("open", try page.pictureSum() != inside ? "changed" : "same")
            let back = PreviewGeometry(canvasWidth: 768, canvasHeight: 1024).backButton
            try page.tap(ScenePoint(x: back.x + back.width / 2, y: back.y + back.height / 2))
            try page.settle()
            note("close", try page.pictureSum() == inside ? "same as before" : "differs")
        } else {
            note("open", "no report card on \(category["id"] ?? "?")")
        }

        // The toolbar's Reports button opens the table; Escape closes it.
        let f = DashboardSettings().chrome.toolbarButtonFrame(.reports, canvasWidth: 768, canvasHeight: 1024)
        try page.tap(ScenePoint(x: f.x + f.width / 2, y: f.y + f.height / 2))
        try page.settle()
        note("table", try page.pictureSum() != inside ? "changed" : "same")
        try cdp.key("Escape", code: "Escape", keyCode: 27)
        try page.settle()
        note("escape", try page.pictureSum() == inside ? "same as before" : "differs")

        // Pinch back with ctrl + wheel (a trackpad pinch in Chromium).
        let (wx, wy) = page.window(ScenePoint(x: 384, y: 500))
        try cdp.mouse("mouseWheel", wx, wy, modifiers: 2, deltaY: 120)
        try page.settle()
        let back = try page.pictureSum()
        note("pinch", back != inside ? "changed" : "same")

        // Into the category again, and out with a two-finger touch pinch.
        try cdp.call("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5])
        let again = try #require(try page.bodies().first { $0["id"] as? String == category["id"] as? String })
        try page.tap(ScenePoint(x: again["x"] as? Double ?? 0, y: again["y"] as? Double ?? 0))
        try page.settle()
        let insideAgain = try page.pictureSum()
        let c = page.window(ScenePoint(x: 384, y: 560))
        func fingers(_ spread: Double) -> [[String: Any]] {
            [["x": c.0 - spread, "y": c.1, "id": 1], ["x": c.0 + spread, "y": c.1, "id": 2]]
        }
        try cdp.call("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": fingers(150)])
        for k in 1...10 {
            try cdp.call("Input.dispatchTouchEvent", ["type": "touchMove", "touchPoints": fingers(150 - 12 * Double(k))])
            Thread.sleep(forTimeInterval: 0.016)
        }
        try cdp.call("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [] as [Any]])
        try page.settle()
        note("touchPinch", try page.pictureSum() != insideAgain ? "changed" : "same")

        // The picture built up from changed tiles equals the whole picture, which a hello asks for.
        let patched = try page.pictureSum()
        note("patchFrames", try cdp.string("String(document.body.dataset.patches || 0)"))
        let frames = Int(try cdp.string("document.body.dataset.frames")) ?? 0
        _ = try cdp.evaluate("send({type: 'hello', scale: Math.min(2, window.devicePixelRatio || 1)})")
        try cdp.waitFor("Number(document.body.dataset.frames) > \(frames)", "the whole picture")
        note("whole", try page.pictureSum() == patched ? "same as patched" : "differs")

        // Save the recording: the page gets it, the server writes --record.
        _ = try cdp.evaluate("document.getElementById('save-recording').click()")
        try cdp.waitFor("document.body.dataset.recordHash", "the recording")
        note("recordStep", try cdp.string("document.body.dataset.recordStep"))
        note("recordHash", try cdp.string("document.body.dataset.recordHash"))
        note("errors", try cdp.string("String(document.body.dataset.errors || 0)"))
        note("screenshot", try cdp.call("Page.captureScreenshot", ["format": "png"])["data"] as? String ?? "")
        }

    /// Where `scripts/play-screenshot.sh` wants the README's screenshot (unset: the test is skipped).
    static let screenshotPath = ProcessInfo.processInfo.environment["BUBBLES_PLAY_SCREENSHOT"]

    @Test(.enabled(if: Chromium.path != nil && screenshotPath != nil, "only for scripts/play-screenshot.sh (BUBBLES_PLAY_SCREENSHOT) with Chromium"))
    func screenshotForTheReadme() async throws {
        let s = try Scratch("bubbles-play-shot")
        defer { s.remove() }
        let server = try await RunningServer()
        let (chromium, devtoolsPort) = try await Chromium.launch(profile: s.path + "/profile", width: 1140, height: 1100)
        defer {
            chromium.terminate()
            chromium.waitUntilExit()
        }
        let pageURL = try await Chromium.pageWebSocketURL(devtoolsPort: devtoolsPort)
        let origin = server.origin
        let png = try await onThread { () -> String in
            let cdp = try CDP(webSocketURL: pageURL)
            try cdp.call("Page.enable")
            try cdp.call("Page.navigate", ["url": origin + "/"])
            try cdp.waitFor("Number(document.body.dataset.frames) >= 1 && document.body.dataset.atRest === 'true'", "the first frame")
            var page = PlayPage(cdp: cdp)
            try page.measure()
            try page.tap(ScenePoint(x: 384, y: 540))
            try page.settle()
            try cdp.key("d", code: "KeyD", keyCode: 68)
            try cdp.waitFor("header && header.debug", "the debug view")
            // Hold a bubble away from its place, so the springs and contacts show.
            let child = try #require(try page.bodies().first { $0["kinematic"] as? Bool == false && $0["r"] != nil })
            let (x, y) = page.window(ScenePoint(x: child["x"] as? Double ?? 0, y: child["y"] as? Double ?? 0))
            try cdp.mouse("mouseMoved", x, y)
            try cdp.mouse("mousePressed", x, y, buttons: 1)
            for i in 1...20 {
                try cdp.mouse("mouseMoved", x + 6 * Double(i) * page.k, y + 4 * Double(i) * page.k, buttons: 1)
                Thread.sleep(forTimeInterval: 0.02)
            }
            Thread.sleep(forTimeInterval: 0.6)
            let shot = try cdp.call("Page.captureScreenshot", ["format": "png"])["data"] as? String ?? ""
            try cdp.mouse("mouseReleased", x + 120 * page.k, y + 80 * page.k)
            return shot
        }
        await server.stop()
        let data = try #require(Data(base64Encoded: png))
        try data.write(to: URL(fileURLWithPath: Self.screenshotPath!))
    }
}
