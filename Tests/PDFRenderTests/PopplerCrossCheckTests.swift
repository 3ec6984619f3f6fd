import Foundation
import PDFRender
import Testing
import TestSupport

/// `pdftoppm` (poppler-utils, a measuring tool only) is the reference the renderer's fidelity
/// targets are stated against: pooled SSIM and ink-F1 on the fixtures and the Cairo-made samples.
/// Reported as skipped where pdftoppm is not installed.
@Suite("Page renderer against pdftoppm", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftoppm")))
struct PopplerCrossCheckTests {
    /// Fixtures where poppler differs from the PDF specification or from PDFium on purpose-built
    /// edge cases, with the reason: they are pinned by the golden hashes instead.
    static let differsOnPurpose: [String: String] = [
        "damaged-content": "poppler stops drawing the page at the damaged syntax; we draw what follows",
        "transparency": "the non-separable blend modes differ between poppler and Cairo",
        "tiling": "poppler anchors tiling patterns half a cell away from PDFium and us (PageRendererTests.tilingPhase)",
    ]

    /// Lower floors, with the reason. poppler draws the standard 14 with URW's fonts (GPL, which the
    /// product must not use); we draw them with Liberation, metric-compatible but another design
    /// (PDFium, with its own fonts, scores 0.971 on this page).
    /// The CCITT images are drawn pixel for pixel; poppler smooths them (PDFium agrees with us to
    /// 1.000, and scores the same 0.934 against poppler).
    static let floors: [String: Double] = ["text-standard14": 0.92, "ccitt-g4": 0.92, "ccitt-g3-2d": 0.92]

    static let files: [String] = pageFixtureNames.filter { differsOnPurpose[$0] == nil }.map { pageFixtures + "/\($0).pdf" }
        + embeddedFontFiles

    @Test("first pages agree with pdftoppm at thumbnail scale", arguments: files)
    func agrees(_ path: String) throws {
        let dir = NSTemporaryDirectory() + "pdfrender-poppler-\(getpid())-" + URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
        p.arguments = ["-r", "96", "-f", "1", "-l", "1", "-cropbox", "-singlefile", path, dir + "/ref"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        let ref = try #require(readPNM(dir + "/ref.ppm"))
        let img = try renderFirstPage(path)
        #expect(abs(ref.width - img.width) <= 1 && abs(ref.height - img.height) <= 1)
        let w = min(ref.width, img.width), h = min(ref.height, img.height)
        let ours = grey(img)
        var a = [Double](), b = [Double]()
        for y in 0 ..< h { for x in 0 ..< w { a.append(ours[y * img.width + x]); b.append(ref.grey[y * ref.width + x]) } }
        let ssim = pooledSSIM(a, b, width: w, height: h), f1 = inkF1(a, b, width: w, height: h)
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        #expect(ssim >= Self.floors[name, default: 0.95], "pooled SSIM \(ssim)")
        #expect(f1 >= 0.9, "ink-F1 \(f1)")
    }
}
