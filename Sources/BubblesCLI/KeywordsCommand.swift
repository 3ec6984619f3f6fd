import ArgumentParser
import Foundation
import PDFMetadata
import BubbleSupport

/// `bubbles keywords FILE|DIR... [--json]`: the title, page count and keywords of PDFs, read by
/// our own poppler-free reader (the PDFMetadata module).
struct Keywords: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the title, page count and keywords of PDF files.",
        discussion: """
            Directories are searched recursively for *.pdf files, in sorted order. One line per \
            file, or with --json one JSON object per line (file, title, author, subject, keywords, \
            pages, encrypted, warnings; error for a file that could not be read). Errors are also \
            written to standard error; the other files are still read. The exit status is 1 if any \
            file failed.
            """)

    @Argument(help: "PDF files or directories.")
    var paths: [String]

    @Flag(help: "Print JSON lines instead of text.")
    var json = false

    @OptionGroup var global: GlobalOptions

    /// One JSON line.
    struct Line: Encodable {
        struct Warning: Encodable {
            var kind: String
            var message: String
            var offset: Int?
        }
        var file: String
        var title: String?
        var author: String?
        var subject: String?
        var keywords: [String]
        var pages: Int?
        var encrypted: Bool?
        var version: String?
        var warnings: [Warning]
        var bytesRead: Int?
        var fileSize: Int?
        var error: String?
        var errorKind: String?
        var errorOffset: Int?
    }

    func run() throws {
        let start = MonotonicClock.seconds()
        defer { Diagnostics.timing(since: start, verbose: global.verbose) }
        var failed = false
        let files = Keywords.collect(paths) { path, message in
            failed = true
            printError("error: \(path): \(message)")
            if json { emit(Line(file: path, keywords: [], warnings: [], error: message)) }
        }
        for file in files {
            do {
                let m = try PDFDocumentInfo.read(contentsOf: file)
                for w in m.warnings {
                    Diagnostics.warn("\(file): \(w.kind.rawValue)\(w.offset.map { " at byte \($0)" } ?? ""): \(w.message)", verbose: global.verbose)
                }
                if json {
                    emit(Line(file: file, title: m.title, author: m.author, subject: m.subject, keywords: m.keywords,
                              pages: m.pageCount, encrypted: m.isEncrypted, version: m.version,
                              warnings: m.warnings.map { .init(kind: $0.kind.rawValue, message: $0.message, offset: $0.offset) },
                              bytesRead: m.bytesRead, fileSize: m.fileSize))
                } else {
                    let pages = m.pageCount.map { "\($0) page\($0 == 1 ? "" : "s")" } ?? "? pages"
                    let kw = m.keywords.isEmpty ? "(no keywords)" : m.keywords.joined(separator: ", ")
                    print("\(file): \(m.title ?? "(no title)") | \(pages) | \(kw)")
                }
            } catch {
                failed = true
                Diagnostics.report(CLIError("\(file): \(error)", details: Diagnostics.details(of: error)), verbose: global.verbose)
                if json {
                    emit(Line(file: file, keywords: [], warnings: [], error: error.message,
                              errorKind: error.kind.rawValue, errorOffset: error.offset))
                }
            }
        }
        if failed { throw ExitCode.failure }
    }

    func emit(_ line: Line) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let data = try? enc.encode(line) { print(String(decoding: data, as: UTF8.self)) }  // strings and numbers always encode
    }

    /// Expands the arguments: files as given, directories recursively to their *.pdf files in
    /// sorted order. Paths that do not exist are reported through `problem`.
    static func collect(_ paths: [String], problem: (String, String) -> Void) -> [String] {
        var out: [String] = []
        let fm = FileManager.default
        for p in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: p, isDirectory: &isDir) else {
                problem(p, "no such file or directory")
                continue
            }
            if !isDir.boolValue {
                out.append(p)
                continue
            }
            var found: [String] = []
            if let e = fm.enumerator(atPath: p) {
                while let rel = e.nextObject() as? String {
                    if rel.lowercased().hasSuffix(".pdf") {
                        let full = (p as NSString).appendingPathComponent(rel)
                        var d: ObjCBool = false
                        if fm.fileExists(atPath: full, isDirectory: &d), !d.boolValue { found.append(full) }
                    }
                }
            }
            out.append(contentsOf: found.sorted())
        }
        return out
    }
}
