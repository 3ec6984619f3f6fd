import Foundation

/// Headless Chromium (Debian package `chromium`), if installed: the browser checks of the review
/// page and the play page. Tests that need it use
/// `.enabled(if: Chromium.path != nil, "...")`, so that without it they report skipped.
public enum Chromium {
    /// The browser's executable, nil when none is installed.
    public static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The flags every run shares: headless, no sandbox, no GPU, sRGB at device scale 1, a fresh
    /// profile in `profile`.
    static func commonArguments(profile: String, width: Int, height: Int) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--force-color-profile=srgb", "--window-size=\(width),\(height)", "--no-first-run", "--no-default-browser-check",
            "--user-data-dir=" + profile,
        ]
    }

    /// Runs headless Chromium once on `url` with `arguments` (`--dump-dom`, `--screenshot=FILE`, …)
    /// at 1000×800, with 5 s of virtual time; returns standard output. Gives up after 90 s.
    public static func run(_ arguments: [String], url: String, profile: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = commonArguments(profile: profile, width: 1000, height: 800) + ["--virtual-time-budget=5000"]
            + arguments + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = DispatchTime.now() + 90
        DispatchQueue.global().asyncAfter(deadline: deadline) { if process.isRunning { process.terminate() } }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts headless Chromium with a DevTools port on `about:blank` and returns the process and
    /// that port. The caller terminates the process.
    public static func launch(profile: String, width: Int = 1100, height: Int = 1200) async throws -> (Process, Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path!)
        process.arguments = commonArguments(profile: profile, width: width, height: height)
            + ["--remote-debugging-port=0", "about:blank"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let file = profile + "/DevToolsActivePort"
        for _ in 0..<300 {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), let line = text.split(separator: "\n").first, let port = Int(line) {
                return (process, port)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw CDPError("Chromium did not publish its DevTools port")
    }

    /// The DevTools WebSocket URL of the page of the Chromium listening on `devtoolsPort`.
    public static func pageWebSocketURL(devtoolsPort: Int) async throws -> String {
        let list = try await rawHTTP(port: devtoolsPort, "GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:\(devtoolsPort)\r\nConnection: close\r\n\r\n")
        let body = list.range(of: "\r\n\r\n").map { String(list[$0.upperBound...]) } ?? list
        let targets = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [[String: Any]] ?? []
        guard let url = targets.first(where: { $0["type"] as? String == "page" })?["webSocketDebuggerUrl"] as? String else {
            throw CDPError("no page among Chromium's DevTools targets: \(body.prefix(300))")
        }
        return url
    }
}

/// A failure of a browser or loopback helper, with what went wrong.
public struct CDPError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// A DevTools-protocol connection to one page over `RawWebSocket`: calls by id, blocking (use it
/// off the cooperative pool, see `onThread`).
public final class CDP: @unchecked Sendable {
    public let ws: RawWebSocket
    var nextID = 0

    /// Connects to `ws://127.0.0.1:PORT/devtools/page/ID`.
    public init(webSocketURL: String) throws {
        let rest = webSocketURL.dropFirst("ws://".count)
        guard let slash = rest.firstIndex(of: "/"), let port = rest[..<slash].split(separator: ":").last.flatMap({ Int($0) }) else {
            throw CDPError("not a DevTools page URL: \(webSocketURL)")
        }
        ws = try RawWebSocket(port: port, path: String(rest[slash...]), host: String(rest[..<slash]), origin: nil)
    }

    /// Calls `method` and returns its `result`.
    @discardableResult
    public func call(_ method: String, _ params: [String: Any] = [:]) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        let data = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": params])
        try ws.send(String(decoding: data, as: UTF8.self))
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            ws.transcript.texts.removeAll()
            guard ws.read(seconds: 5) else { continue }
            for text in ws.transcript.texts {
                let o = jsonObject(text)
                guard o["id"] as? Int == id else { continue }
                if let e = o["error"] { throw CDPError("\(method): \(e)") }
                return o["result"] as? [String: Any] ?? [:]
            }
        }
        throw CDPError("\(method): no reply")
    }

    /// Evaluates a JavaScript expression in the page and returns its value.
    public func evaluate(_ expression: String) throws -> Any? {
        let r = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let e = r["exceptionDetails"] { throw CDPError("\(expression): \(e)") }
        return (r["result"] as? [String: Any])?["value"]
    }

    public func string(_ expression: String) throws -> String { try evaluate(expression) as? String ?? "" }

    /// Waits until a JavaScript condition is true (90 s at most: a loaded machine is slow, and the
    /// wait ends as soon as it holds).
    public func waitFor(_ condition: String, _ what: String) throws {
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            if (try? evaluate("Boolean(\(condition))")) as? Bool == true { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw CDPError("timed out waiting for \(what)")
    }

    public func mouse(_ type: String, _ x: Double, _ y: Double, buttons: Int = 0, modifiers: Int = 0, deltaY: Double = 0) throws {
        var p: [String: Any] = ["type": type, "x": x, "y": y, "modifiers": modifiers, "button": buttons == 0 && type == "mouseMoved" ? "none" : "left", "buttons": buttons, "clickCount": 1]
        if type == "mouseWheel" {
            p["deltaX"] = 0
            p["deltaY"] = deltaY
            p["button"] = "none"
        }
        try call("Input.dispatchMouseEvent", p)
    }

    public func key(_ key: String, code: String, keyCode: Int) throws {
        try call("Input.dispatchKeyEvent", ["type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
        try call("Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": keyCode])
    }
}

/// The JSON object in `text`; empty when it is not one.
public func jsonObject(_ text: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
}
