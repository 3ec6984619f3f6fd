import Foundation
import CZlib
import PDFMetadata
import PDFCore

/// The fixture folder, found beside this file (no bundle resources needed).
let fixturesDirectory: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
}()

/// What `scripts/pdf_fixtures.py` says each fixture must give (Fixtures/expected.json).
struct Expectation: Decodable, Sendable {
    var title: String?
    var keywords: [String]
    var pages: Int?
    var encrypted: Bool
    var warnings: [String]
    var error: String?
    /// "agree", "agree-pages", "skip", "pages differ: <reason>" (only the page count differs: pdfinfo
    /// prints the root's /Count), or the reason why pdfinfo differs on purpose.
    var pdfinfo: String
    var author: String?
    var subject: String?
    var version: String?
    var creationDate: String?
}

let expectations: [String: Expectation] = {
    let url = URL(fileURLWithPath: fixturesDirectory).appendingPathComponent("expected.json")
    guard let data = try? Data(contentsOf: url),
          let e = try? JSONDecoder().decode([String: Expectation].self, from: data) else { return [:] }
    return e
}()

let fixtureNames: [String] = expectations.keys.sorted()

func fixturePath(_ name: String) -> String { fixturesDirectory + "/" + name }

func fixtureBytes(_ name: String) -> [UInt8] {
    (try? Data(contentsOf: URL(fileURLWithPath: fixturePath(name)))).map { [UInt8]($0) } ?? []
}

/// The absolute path of an executable on PATH, if any.
func which(_ tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
        let p = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

/// zlib-compresses `bytes` (level 9), or nil if zlib fails.
func zlibCompress(_ bytes: [UInt8]) -> [UInt8]? {
    var size = compressBound(uLong(bytes.count))
    var out = [UInt8](repeating: 0, count: Int(size))
    let rc = out.withUnsafeMutableBufferPointer { o in
        bytes.withUnsafeBufferPointer { i in compress2(o.baseAddress, &size, i.baseAddress, uLong(i.count), 9) }
    }
    guard rc == Z_OK else { return nil }
    return Array(out[0 ..< Int(size)])
}
