import ArgumentParser
import BubbleRender
import Foundation
import PDFRender

/// `bubbles page FILE.pdf`: draws PDF pages to PNG or SVG with the engine's own renderer.
struct Page: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw pages of a PDF to PNG or SVG (the engine's own renderer, like pdftoppm).",
        discussion: """
            One page by default (the first). --output names the file; with several pages it is a \
            pattern with %d for the page number (default FILE-%d.png beside the current folder). Each \
            error is one line naming the file, page, object and byte offset; the other pages are still \
            drawn. With --json, one JSON object per page: file, page, width, height, seconds, output, \
            label, and warnings (kind, object, offset, message); error and errorKind when the page \
            failed. Every feature the renderer skips or approximates is a warning.
            """)

    @Argument(help: "The PDF file.")
    var file: String

    @Option(help: "The page to draw (1-based).")
    var page: Int?

    @Option(help: "A range of pages, A-B.")
    var pages: String?

    @Flag(help: "Draw every page.")
    var all = false

    @Option(help: "Resolution in dots per inch (default 96).")
    var dpi: Double?

    @Option(help: "Width in pixels (the height follows the page's shape).")
    var width: Int?

    @Option(help: "Height in pixels (the width follows the page's shape).")
    var height: Int?

    @Option(help: "png or svg (default: from --output's extension, else png).")
    var format: String?

    @Option(help: "Output file, or a pattern with %d for several pages.")
    var output: String?

    @Option(help: "The user password of an encrypted PDF.")
    var password: String?

    @Option(help: "white (default) or transparent.")
    var background: String = "white"

    @Option(help: "Seconds one page may take before drawing stops with a warning (default 10).")
    var timeout: Double = 10

    @Flag(help: "Print one JSON object per page.")
    var json = false

    @OptionGroup var global: GlobalOptions

    struct Line: Encodable {
        struct Warning: Encodable {
            var kind: String
            var object: Int?
            var offset: Int?
            var message: String
        }
        var file: String
        var page: Int
        var label: String?
        var width: Int?
        var height: Int?
        var seconds: Double?
        var output: String?
        var warnings: [Warning]
        var error: String?
        var errorKind: String?
    }

    func validate() throws {
        if [page != nil, pages != nil, all].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --page, --pages and --all")
        }
        if [dpi != nil, width != nil, height != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give one of --dpi, --width and --height")
        }
        if let dpi, !(dpi > 0 && dpi <= 2400) { throw ValidationError("--dpi must be between 0 and 2400") }
        if let width, !(width > 0 && width <= 32768) { throw ValidationError("--width must be between 1 and 32768") }
        if let height, !(height > 0 && height <= 32768) { throw ValidationError("--height must be between 1 and 32768") }
        if let format, format != "png" && format != "svg" { throw ValidationError("--format must be png or svg") }
        if background != "white" && background != "transparent" { throw ValidationError("--background must be white or transparent") }
        if !(timeout > 0) { throw ValidationError("--timeout must be positive") }
        if let pages, Page.parseRange(pages) == nil { throw ValidationError("--pages must be A-B with 1 ≤ A ≤ B") }
    }

    static func parseRange(_ s: String) -> ClosedRange<Int>? {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 1, b >= a else { return nil }
        return a ... b
    }

    func run() throws {
        var options = PDFRenderOptions()
        options.password = password ?? ""
        options.whiteBackground = background == "white"
        options.timeout = .milliseconds(Int64(timeout * 1000))
        let doc: PDFPageDocument
        do {
            doc = try PDFPageDocument(path: file, options: options)
        } catch {
            printError("error: \(file): \(error)")
            if json { emit(Line(file: file, page: page ?? 1, warnings: [], error: error.description, errorKind: error.kind.rawValue)) }
            throw ExitCode(1)
        }
        var list: [Int]
        if all { list = Array(1 ... doc.pageCount) }
        else if let pages, let r = Page.parseRange(pages) { list = Array(r.lowerBound ... min(r.upperBound, max(r.lowerBound, doc.pageCount))) }
        else { list = [page ?? 1] }
        let fmt = format ?? ((output?.lowercased().hasSuffix(".svg") ?? false) ? "svg" : "png")
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        var failed = false
        for p in list {
            let start = ContinuousClock.now
            var line = Line(file: file, page: p, label: doc.pageLabel(p), warnings: [])
            do {
                let (w, h) = try size(doc, p)
                line.width = w
                line.height = h
                let out: String
                if let output {
                    out = list.count > 1 || output.contains("%d") ? output.replacingOccurrences(of: "%d", with: String(p)) : output
                } else {
                    out = list.count > 1 ? "\(stem)-\(p).\(fmt)" : "\(stem).\(fmt)"
                }
                let warnings: [PDFRenderWarning]
                if fmt == "svg" {
                    warnings = try doc.writeSVG(page: p, width: w, height: h, to: out)
                } else {
                    let img = try doc.render(page: p, width: w, height: h)
                    let png = try img.pixels.withUnsafeBufferPointer { b in
                        try PNGEncoder().encode(argb32: b.baseAddress!, width: img.width, height: img.height, stride: img.stride)
                    }
                    try AtomicFile.write(png, to: out)
                    warnings = img.warnings
                }
                line.output = out
                line.warnings = warnings.map { Line.Warning(kind: $0.kind.rawValue, object: $0.object, offset: $0.offset, message: $0.message) }
                if global.verbose { for w in warnings { printError("  warning: \(file): page \(p): \(w)") } }
            } catch let e as PDFRenderError {
                failed = true
                var placed = e
                placed.page = placed.page ?? p
                printError("error: \(file): \(placed)")
                line.error = placed.description
                line.errorKind = e.kind.rawValue
            } catch {
                failed = true
                printError("error: \(file): page \(p): \(error)")
                line.error = "\(error)"
                line.errorKind = "output"
            }
            let d = ContinuousClock.now - start
            line.seconds = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
            if json { emit(line) }
        }
        if failed { throw ExitCode(1) }
    }

    func size(_ doc: PDFPageDocument, _ p: Int) throws -> (Int, Int) {
        let (pw, ph) = try doc.pageInfo(p).size
        // Page boxes are bounded (PDFPageInfo), so these ratios are finite.
        if let width { return (width, max(1, min(32768, Int((Double(width) * ph / pw).rounded())))) }
        if let height { return (max(1, min(32768, Int((Double(height) * pw / ph).rounded()))), height) }
        return try doc.pixelSize(page: p, dpi: dpi ?? 96)
    }

    func emit(_ line: Line) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? enc.encode(line) { print(String(decoding: data, as: UTF8.self)) }
    }
}
