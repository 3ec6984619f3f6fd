@testable import BubblePlay
import Foundation
import Testing
import TestSupport

/// The play page's files: the script parses, and what the server sends is the files as written.
@Suite("Play page assets")
struct PlayAssetTests {
    static let page = packageRoot + "/Sources/BubblePlay/Page"

    /// The node binary on PATH, if any.
    static let node: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    @Test("play.js parses (node --check)", .enabled(if: node != nil, "needs node on PATH"))
    func scriptParses() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.node!)
        process.arguments = ["--check", Self.page + "/play.js"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test func servedAssetsAreTheFiles() throws {
        let read = { (name: String) in try String(contentsOfFile: Self.page + "/" + name, encoding: .utf8) }
        #expect(PlayAssets.script == (try read("play.js")))
        #expect(PlayAssets.css == (try read("play.css")))
        let html = try read("play.html")
        #expect(html.contains(PlayAssets.shortcutsPlaceholder))
        #expect(!PlayAssets.html.contains(PlayAssets.shortcutsPlaceholder))
        #expect(PlayAssets.html.contains("<dt>Esc</dt><dd>close the overlay</dd>"))
    }
}
