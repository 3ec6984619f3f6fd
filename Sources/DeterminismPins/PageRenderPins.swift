import Foundation
import PDFRender

/// Golden renders: the first page of every renderer fixture at 96 dpi, pinned by a hash of its
/// pixels in `Tests/PDFRenderTests/Fixtures/golden.json` (with the pinned Debian fonts and
/// libraries). `PDFRENDER_RECORD=1` in the environment writes that file anew instead of checking it.
public enum PageRenderPins {
    /// The renderer's fixtures (written by scripts/make-page-fixtures.py).
    public static let fixtures = PinInputs.packageRoot + "/Tests/PDFRenderTests/Fixtures"

    /// Every fixture name, sorted, without `.pdf`.
    public static let fixtureNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures)) ?? [])
        .filter { $0.hasSuffix(".pdf") }.map { String($0.dropLast(4)) }.sorted()

    /// Cairo-made PDFs with embedded TrueType fonts from elsewhere in the repository.
    public static let embeddedFontFiles = [
        PinInputs.packageRoot + "/Tests/PDFMetadataTests/Fixtures/cairo-basic.pdf",
        PinInputs.packageRoot + "/Data/reports/annual-report-2015.pdf",
    ]

    /// The pinned pixel hashes, by file name.
    public static let goldenPath = fixtures + "/golden.json"

    /// The files whose first page is pinned.
    public static let files: [String] = fixtureNames.map { fixtures + "/\($0).pdf" } + embeddedFontFiles

    /// Renders page 1 of a file at `dpi`.
    public static func renderFirstPage(_ path: String, dpi: Double = 96, options: PDFRenderOptions = PDFRenderOptions()) throws -> PDFPageImage {
        let doc = try PDFPageDocument(path: path, options: options)
        let (w, h) = try doc.pixelSize(page: 1, dpi: dpi)
        return try doc.render(page: 1, width: w, height: h)
    }

    /// FNV-1a 64 of the pixels, as 16 hex digits.
    public static func pixelHash(_ img: PDFPageImage) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in img.pixels { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// Whether `PDFRENDER_RECORD=1` asks to re-pin.
    public static var recording: Bool { ProcessInfo.processInfo.environment["PDFRENDER_RECORD"] == "1" }

    /// Draws every pinned file and compares each with `golden.json`: one result for the set of
    /// files and one for each file. With `record`, writes the hashes to `golden.json` instead and
    /// returns one result naming the file written.
    public static func checkGolden(record: Bool = recording) throws -> [PinResult] {
        var hashes: [String: String] = [:]
        for f in files {
            hashes[URL(fileURLWithPath: f).lastPathComponent] = pixelHash(try renderFirstPage(f))
        }
        if record {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            try enc.encode(hashes).write(to: URL(fileURLWithPath: goldenPath))
            return [PinResult("page golden.json recorded (\(hashes.count) files)", problems: [])]
        }
        let pinned = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: URL(fileURLWithPath: goldenPath)))
        var results: [PinResult] = []
        let missing = Set(hashes.keys).subtracting(pinned.keys).sorted(), stale = Set(pinned.keys).subtracting(hashes.keys).sorted()
        results.append(PinResult("page fixture set (\(hashes.count) files)", problems:
            missing.map { "\($0) is drawn but not pinned" } + stale.map { "\($0) is pinned but no longer drawn" }))
        for (name, hash) in hashes.sorted(by: { $0.key < $1.key }) {
            results.append(PinResult("page \(name)", problems:
                pinned[name] == hash ? [] : ["\(name): drew \(hash), pinned \(pinned[name] ?? "nothing")"]))
        }
        return results
    }

    /// The same file and size give the same bits twice, and on two threads at once.
    public static func checkSameBitsTwice() async throws -> PinResult {
        let f = fixtures + "/transparency.pdf", g = fixtures + "/text-standard14.pdf"
        let a = pixelHash(try renderFirstPage(f))
        async let b = Task.detached { pixelHash(try renderFirstPage(f)) }.value
        async let c = Task.detached { pixelHash(try renderFirstPage(g)) }.value
        let (bb, cc) = try await (b, c)
        let c2 = pixelHash(try renderFirstPage(g))
        var problems: [String] = []
        if bb != a { problems.append("transparency.pdf: \(a), then \(bb) on another thread") }
        if cc != c2 { problems.append("text-standard14.pdf: \(cc) on another thread, then \(c2)") }
        return PinResult("page same bits twice and on two threads", problems: problems)
    }
}
