@_spi(Testbed) import BubbleDashboard
import BubblePlay
import Foundation
import TestSupport
import Testing

/// `GET /reports/ID.pdf`: the report's own PDF for "Open PDF", and nothing else.
@Suite("Play server report files")
struct PlayReportFileTests {
    func get(_ s: RunningServer, _ path: String, _ extra: String = "", method: String = "GET") async throws -> String {
        try await rawHTTP(port: s.port, "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(s.port)\r\n\(extra)Connection: close\r\n\r\n")
    }

    func header(_ response: String, _ name: String) -> String? {
        let head = response.components(separatedBy: "\r\n\r\n").first ?? ""
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    func body(_ response: String) -> String {
        guard let r = response.range(of: "\r\n\r\n") else { return "" }
        return String(response[r.upperBound...])
    }

    @Test func servesAReportsPDFWithAnETagAndRanges() async throws {
        let s = try await RunningServer()
        let file = packageRoot + "/Data/reports/q1-2016.pdf"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        let r = try await get(s, "/reports/q1-2016.pdf")
        #expect(r.hasPrefix("HTTP/1.1 200"), "\(r.prefix(200))")
        #expect(header(r, "Content-Type") == "application/pdf")
        #expect(header(r, "Content-Length") == String(bytes.count))
        #expect(header(r, "Accept-Ranges") == "bytes")
        #expect(body(r).hasPrefix("%PDF-"))
        let etag = try #require(header(r, "ETag"))
        #expect(etag.count == 66 && etag.hasPrefix("\"") && etag.hasSuffix("\""))

        // The same ETag again (kept), and a 304 for it.
        #expect(header(try await get(s, "/reports/q1-2016.pdf", method: "HEAD"), "ETag") == etag)
        let unchanged = try await get(s, "/reports/q1-2016.pdf", "If-None-Match: \(etag)\r\n")
        #expect(unchanged.hasPrefix("HTTP/1.1 304"), "\(unchanged.prefix(120))")
        #expect(try await get(s, "/reports/q1-2016.pdf", "If-None-Match: W/\(etag), \"x\"\r\n").hasPrefix("HTTP/1.1 304"))
        #expect(try await get(s, "/reports/q1-2016.pdf", "If-None-Match: \"00\"\r\n").hasPrefix("HTTP/1.1 200"))

        // HEAD: the headers, no body.
        let head = try await get(s, "/reports/q1-2016.pdf", method: "HEAD")
        #expect(head.hasPrefix("HTTP/1.1 200") && header(head, "Content-Length") == String(bytes.count) && body(head).isEmpty)

        // One range.
        let part = try await get(s, "/reports/q1-2016.pdf", "Range: bytes=0-4\r\n")
        #expect(part.hasPrefix("HTTP/1.1 206"), "\(part.prefix(200))")
        #expect(header(part, "Content-Range") == "bytes 0-4/\(bytes.count)")
        #expect(body(part) == "%PDF-")
        let tail = try await get(s, "/reports/q1-2016.pdf", "Range: bytes=-6\r\n")
        #expect(header(tail, "Content-Range") == "bytes \(bytes.count - 6)-\(bytes.count - 1)/\(bytes.count)")
        #expect(body(tail) == String(decoding: bytes.suffix(6), as: UTF8.self))
        let open = try await get(s, "/reports/q1-2016.pdf", "Range: bytes=\(bytes.count - 3)-\r\n")
        #expect(open.hasPrefix("HTTP/1.1 206") && header(open, "Content-Length") == "3")
        let past = try await get(s, "/reports/q1-2016.pdf", "Range: bytes=\(bytes.count)-\(bytes.count + 10)\r\n")
        #expect(past.hasPrefix("HTTP/1.1 416") && header(past, "Content-Range") == "bytes */\(bytes.count)", "\(past.prefix(200))")
        // Several ranges, another unit, nonsense: the whole file.
        for value in ["bytes=0-1,4-5", "pages=1-2", "bytes=x-y", "bytes=5-1"] {
            let whole = try await get(s, "/reports/q1-2016.pdf", "Range: \(value)\r\n")
            #expect(whole.hasPrefix("HTTP/1.1 200") && header(whole, "Content-Length") == String(bytes.count), "\(value)")
        }
        await s.stop()
    }

    @Test func everythingElseIsNotFound() async throws {
        let s = try await RunningServer()
        let attempts = [
            "/reports/../Package.swift", "/reports/..%2f..%2fPackage.swift", "/reports/%2e%2e%2f%2e%2e%2fData%2freports.json",
            "/reports/%2e%2e/%2e%2e/etc/passwd.pdf", "/reports/..%2F..%2FData%2Freports%2Fq1-2016.pdf", "/reports//etc/passwd.pdf",
            "/reports/%2Fetc%2Fpasswd.pdf", "/reports/" + packageRoot + "/Data/reports/q1-2016.pdf",
            "/reports/q1-2016.pdf%00.pdf", "/reports/q1-2016%00.pdf", "/reports/q1-2016", "/reports/q1-2016.PDF",
            "/reports/q1-2016.pdf/", "/reports/Q1-2016.pdf", "/reports/nope.pdf", "/reports/finance.pdf", "/reports/root.pdf",
            "/reports/.pdf", "/reports/", "/reports", "/reports/%.pdf", "/reports/%zz.pdf", "/reports/q1-2016.pdf?x=../../x",
            "/reports/" + String(repeating: "a", count: 5_000) + ".pdf", "/reports/" + String(repeating: "%2e", count: 2_000) + ".pdf",
            "/reports/..\\..\\Package.swift.pdf", "/Data/reports/q1-2016.pdf", "/reports/q1-2016.pdf/../../Package.swift",
        ]
        for path in attempts where !path.contains("?") {
            let r = try await get(s, path)
            #expect(r.hasPrefix("HTTP/1.1 404"), "\(path.prefix(80)): \(r.prefix(120))")
            #expect(!r.contains("%PDF-") && !r.contains("swift-tools-version") && !r.contains("root:x:0"), "\(path.prefix(80)) leaked a file")
        }
        // A query is not part of the name: the report's file.
        #expect(try await get(s, "/reports/q1-2016.pdf?x=../../x").hasPrefix("HTTP/1.1 200"))
        // A foreign Host is refused as for the page.
        let foreign = try await rawHTTP(port: s.port, "GET /reports/q1-2016.pdf HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n")
        #expect(foreign.hasPrefix("HTTP/1.1 403"), "\(foreign.prefix(80))")
        let post = try await get(s, "/reports/q1-2016.pdf", "Content-Length: 0\r\n", method: "POST")
        #expect(!post.hasPrefix("HTTP/1.1 2"))
        await s.stop()
    }

    @Test func anIdIsFoundByItsPercentEncodingAndAMissingFileIsNotFound() async throws {
        let folder = NSTemporaryDirectory() + "bubbles-play-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/pdf", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: packageRoot + "/Data/reports/q1-2016.pdf", toPath: folder + "/pdf/a.pdf")
        let files = ReportFiles(files: ["Ünïcode id": folder + "/pdf/a.pdf", "gone": folder + "/pdf/gone.pdf"])
        var source = sampleSource
        source.files = files
        let s = try await RunningServer(source: source)
        #expect(try await get(s, "/reports/%C3%9Cn%C3%AFcode%20id.pdf").hasPrefix("HTTP/1.1 200"))
        #expect(try await get(s, "/reports/gone.pdf").hasPrefix("HTTP/1.1 404"))
        #expect(try await get(s, "/reports/q1-2016.pdf").hasPrefix("HTTP/1.1 404"), "only the source's files")
        // A file that changed gets a new ETag.
        let before = header(try await get(s, "/reports/%C3%9Cn%C3%AFcode%20id.pdf", method: "HEAD"), "ETag")
        let handle = try #require(FileHandle(forWritingAtPath: folder + "/pdf/a.pdf"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("%more\n".utf8))
        try handle.close()
        let after = header(try await get(s, "/reports/%C3%9Cn%C3%AFcode%20id.pdf", method: "HEAD"), "ETag")
        #expect(before != nil && after != nil && before != after)
        await s.stop()
    }

    @Test func openPDFAsksThePageToOpenAURLThisServerServes() async throws {
        // With the PDFs read, so that the preview has pages and its Open PDF button acts.
        var settings = DashboardSettings()
        settings.canvasWidth = 768
        settings.canvasHeight = 1024
        let source = try PlaySource.load(dataPath: packageRoot + "/Data/reports.json", settings: settings, readPDFs: true)
        let session = try PlaySession(source: source, scale: 1, now: 0)
        for id in ["root", "finance", "financial-statements", "quarterly-results", "q1-2016"] {
            try session.dashboard.send(.tapBubble(id))
            session.dashboard.settle()
        }
        let button = session.dashboard.previewGeometry.openButton
        let replies = session.handle(.tap(ScenePoint(x: button.x + button.width / 2, y: button.y + button.height / 2)), now: 1)
        let open = try #require(replies.map(object).first { $0["type"] as? String == "open" }, "\(replies)")
        #expect(open["report"] as? String == "q1-2016")
        let url = try #require(open["url"] as? String)
        #expect(url == "/reports/q1-2016.pdf")
        let s = try await RunningServer(source: source)
        let r = try await get(s, url)
        #expect(r.hasPrefix("HTTP/1.1 200") && body(r).hasPrefix("%PDF-"), "\(r.prefix(120))")
        await s.stop()
    }
}
