import Foundation
import PDFMetadata
import PDFCore
import Testing

/// Runs poppler's `pdfinfo` and returns its fields (multi-line values joined with "\n"), or nil
/// when pdfinfo cannot read the file.
func pdfinfo(_ tool: String, _ file: String) -> [String: String]? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = ["-enc", "UTF-8", file]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { return nil }
    var fields: [String: String] = [:]
    var last: String?
    for line in String(decoding: data, as: UTF8.self).components(separatedBy: "\n") {
        if let colon = line.firstIndex(of: ":"), line[..<colon].allSatisfy({ $0.isLetter || $0 == " " }),
           line[line.index(after: colon)...].hasPrefix(" ") {
            let key = String(line[..<colon])
            fields[key] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            last = key
        } else if let k = last, !line.isEmpty || fields[k] != nil {
            fields[k, default: ""] += "\n" + line // a value with line breaks
        }
    }
    if let k = last { fields[k] = fields[k]?.trimmingCharacters(in: .newlines) }
    return fields
}

let pdfinfoTool = which("pdfinfo")

/// The fixtures compared with pdfinfo: those expected.json does not mark "skip" and that we read
/// without an error (the others are not run, rather than reported as passed).
let crossCheckedFixtures = fixtureNames.filter { expectations[$0]?.pdfinfo != "skip" && expectations[$0]?.error == nil }

@Suite("Cross-check against pdfinfo (poppler-utils)",
       .enabled(if: pdfinfoTool != nil, "pdfinfo is not on PATH: install poppler-utils to run the cross-check"))
struct PdfinfoCrossCheckTests {
    @Test("Title, Keywords and page count agree with pdfinfo", arguments: crossCheckedFixtures)
    func agree(_ name: String) throws {
        let tool = try #require(pdfinfoTool)
        let e = try #require(expectations[name])
        guard let info = pdfinfo(tool, fixturePath(name)) else {
            // pdfinfo gives up on some damaged fixtures that we repair: nothing to compare.
            return
        }
        let ours = try PDFDocumentInfo.read(contentsOf: fixturePath(name))
        let theirKeywords = PDFKeywords.split(info["Keywords"] ?? "")
        if e.pdfinfo.hasPrefix("pages differ") {
            // pdfinfo prints the page tree root's /Count; we count the pages: only that differs.
            #expect(ours.pageCount != info["Pages"].flatMap { Int($0) }, "expected a page count difference (\(e.pdfinfo))")
            #expect(ours.title == info["Title"], "title differs from pdfinfo")
            #expect(ours.keywords == theirKeywords, "keywords differ from pdfinfo")
            return
        }
        #expect(ours.pageCount == info["Pages"].flatMap { Int($0) }, "pages differ from pdfinfo")
        if e.pdfinfo == "agree-pages" { return }
        if e.pdfinfo == "agree" {
            #expect(ours.title == info["Title"], "title differs from pdfinfo")
            #expect(ours.keywords == theirKeywords, "keywords differ from pdfinfo")
        } else {
            // They differ on purpose; check that they really do, for the stated reason.
            let differs = ours.title != info["Title"] || ours.keywords != theirKeywords
            #expect(differs, "expected a difference (\(e.pdfinfo)) but pdfinfo agrees")
            if e.pdfinfo.contains("XMP") {
                #expect(theirKeywords.isEmpty || ours.sources["title"] == .xmp,
                        "pdfinfo should not see XMP-only fields: \(e.pdfinfo)")
            }
        }
    }
}
