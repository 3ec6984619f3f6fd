@_spi(Testbed) import BubbleDashboard
import BubbleExport
import BubblePlay
@_spi(Testbed) import BubbleScenario
import Foundation
import TestSupport
import Testing

extension PlayBrowserTests {
    /// The keyboard in the search field: typed keys (the shortcuts among them stay text), text an
    /// input method commits (never the half-composed word), Backspace, Enter (the first result),
    /// Escape; the filter sheet's field; then the recording exports to the live hash.
    @Test(.enabled(if: Chromium.path != nil, "headless Chromium is not installed (Debian package 'chromium'); skipping the browser check"))
    func typingInTheSearchAndFilterFields() async throws {
        let s = try Scratch("bubbles-play-search")
        defer { s.remove() }
        let (source, metadata) = try PlaySearchTests.indexedSource(in: s.path)
        let server = try await RunningServer(source: source)
        let r = try await inChromium(server: server, profile: s.path + "/profile") { cdp, origin, results in
            try Self.type(cdp, origin: origin, results: results)
        }
        #expect(r["failure"] == nil, "\(r["failure"] ?? "")")
        #expect(r["focused"] == "field", "the hidden field did not take the keyboard: \(r["focused"] ?? "?")")
        #expect(r["typed"] == "incr", "typed keys: \(r["typed"] ?? "?")")
        #expect(r["debugOff"] == "true", "a shortcut fired while typing")
        #expect(r["composing"] == "inc", "half-composed text reached the server: \(r["composing"] ?? "?")")
        #expect(r["committed"] == "inc東京", "committed text: \(r["committed"] ?? "?")")
        #expect(r["edited"] == "income", "after Backspace: \(r["edited"] ?? "?")")
        #expect(r["picked"] == "closed")
        #expect(r["escape"] == "closed")
        #expect(r["filterText"] == "quar")
        #expect(r["errors"] == "0", "the page showed errors: \(r["lastError"] ?? "")")

        let file = s.path + "/recording.json"
        try Data((r["recording"] ?? "").utf8).write(to: URL(fileURLWithPath: file))
        let text = r["recording"] ?? ""
        #expect(text.contains("\"search\": \"inc東京\"") && text.contains("\"search_pick\": 0") && text.contains("\"filter_query\": \"quar\""))
        // "inc東" only after "inc東京" (Backspace), never while it was being composed.
        let committed = text.range(of: "\"inc東京\"")?.lowerBound
        let composing = text.range(of: "\"inc東\"")?.lowerBound
        #expect(committed != nil && (composing == nil || composing! > committed!), "a half-composed text was recorded")
        let last = try #require(try lastExportedFrame(of: file, into: s.path + "/out", pdfMetadata: metadata))
        #expect("\(last["step"] as? Int ?? -1)" == r["recordStep"])
        #expect(last["state_hash"] as? String == r["recordHash"], "export \(last["state_hash"] ?? "?") vs live \(r["recordHash"] ?? "?")")
    }

    static func type(_ cdp: CDP, origin: String, results: Box<[String: String]>) throws {
        func note(_ k: String, _ v: String) { results.withLock { $0[k] = v } }
        func char(_ c: String) throws {
            try cdp.call("Input.dispatchKeyEvent", ["type": "keyDown", "key": c, "text": c, "unmodifiedText": c])
            try cdp.call("Input.dispatchKeyEvent", ["type": "keyUp", "key": c])
        }
        /// A key without text (Backspace, Enter, Escape), as Puppeteer sends one.
        func press(_ key: String, _ keyCode: Int) throws {
            try cdp.call("Input.dispatchKeyEvent", ["type": "rawKeyDown", "key": key, "code": key, "windowsVirtualKeyCode": keyCode])
            try cdp.call("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": key, "windowsVirtualKeyCode": keyCode])
        }
        /// Waits for the dashboard to rest (a frame may or may not come first).
        func rest() throws {
            Thread.sleep(forTimeInterval: 0.3)
            try cdp.waitFor("document.body.dataset.atRest === 'true'", "the dashboard to rest")
        }
        /// Waits until the frame header's field text is `text` (the server holds it).
        func serverText(_ text: String) throws {
            try cdp.waitFor("header && header.text === \(jsString(text))", "the server's text '\(text)'")
        }
        try cdp.call("Page.enable")
        try cdp.call("Emulation.setFocusEmulationEnabled", ["enabled": true])
        try cdp.call("Page.navigate", ["url": origin + "/"])
        try cdp.waitFor("Number(document.body.dataset.frames) >= 1 && document.body.dataset.atRest === 'true'", "the first frame")
        var page = PlayPage(cdp: cdp)
        try page.measure()
        try page.tap(ScenePoint(x: 384, y: 540))
        try page.settle()

        // The magnifier: the field takes the keyboard.
        let m = DashboardSettings().chrome.searchButtonFrame(canvasWidth: 768)
        try page.tap(ScenePoint(x: m.x + m.width / 2, y: m.y + m.height / 2))
        try cdp.waitFor("document.body.dataset.overlay === 'search'", "the search")
        note("focused", try cdp.string("document.activeElement ? document.activeElement.id : ''"))
        // Keys, "r" (restart) and "d" (debug) among them, are text here.
        for c in ["i", "n", "c", "r"] { try char(c) }
        try serverText("incr")
        note("typed", try cdp.string("header.text"))
        note("debugOff", try cdp.string("String(!document.getElementById('debug').checked)"))
        try press("Backspace", 8)
        try serverText("inc")
        // An input method composes 東 (nothing is sent), then commits 東京.
        try cdp.call("Input.imeSetComposition", ["text": "東", "selectionStart": 1, "selectionEnd": 1])
        Thread.sleep(forTimeInterval: 0.5)
        note("composing", try cdp.string("header.text"))
        try cdp.call("Input.insertText", ["text": "東京"])
        try serverText("inc東京")
        note("committed", try cdp.string("header.text"))
        try press("Backspace", 8)
        try press("Backspace", 8)
        for c in ["o", "m", "e"] { try char(c) }
        try serverText("income")
        note("edited", try cdp.string("header.text"))
        // Enter takes the first result: the search closes.
        try press("Enter", 13)
        try cdp.waitFor("document.body.dataset.overlay === ''", "the pick")
        note("picked", "closed")
        try rest()
        try press("Escape", 27)  // the preview
        try rest()

        // Escape closes the search.
        try page.tap(ScenePoint(x: m.x + m.width / 2, y: m.y + m.height / 2))
        try cdp.waitFor("document.body.dataset.overlay === 'search'", "the search again")
        try char("x")
        try serverText("x")
        try press("Escape", 27)
        try cdp.waitFor("document.body.dataset.overlay === ''", "Escape")
        note("escape", "closed")
        try rest()

        // The filter sheet's field.
        let f = DashboardSettings().chrome.toolbarButtonFrame(.filter, canvasWidth: 768, canvasHeight: 1024)
        try page.tap(ScenePoint(x: f.x + f.width / 2, y: f.y + f.height / 2))
        try cdp.waitFor("document.body.dataset.overlay === 'filter'", "the filter sheet")
        for c in ["q", "u", "a", "r"] { try char(c) }
        try serverText("quar")
        note("filterText", try cdp.string("header.text"))
        try press("Enter", 13)  // Done
        try cdp.waitFor("document.body.dataset.overlay === ''", "Done")
        try rest()

        _ = try cdp.evaluate("document.getElementById('save-recording').click()")
        try cdp.waitFor("document.body.dataset.recordHash", "the recording")
        note("recordStep", try cdp.string("document.body.dataset.recordStep"))
        note("recordHash", try cdp.string("document.body.dataset.recordHash"))
        note("recording", try cdp.string("document.body.dataset.lastDownloadText"))
        note("errors", try cdp.string("String(document.body.dataset.errors || 0)"))
        note("lastError", try cdp.string("document.body.dataset.lastError || ''"))
    }

    /// A JavaScript string literal.
    static func jsString(_ s: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [s]), as: UTF8.self).dropFirst().dropLast().description
    }
}
