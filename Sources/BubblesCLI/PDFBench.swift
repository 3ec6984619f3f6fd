import Dispatch
import Foundation
import PDFMetadata

/// `bubbles bench --pdf DIR... [--json]`: the PDF metadata reader's benchmark.
///
/// Finds every `*.pdf` under the given directories (recursively, sorted; a path naming a file is
/// taken as it is) and reads each one `repeats` times with ``PDFDocumentInfo/read(contentsOf:options:)``,
/// pass after pass over the whole list (so a file's repeats are not back to back). Each read is
/// timed on the monotonic clock, from opening the file to the result or the error.
///
/// Reported: files per second (files ÷ the sum of the per-file median times, and files ÷ the
/// median wall-clock time of one full pass), the median and the worst per-file median time (with
/// the worst file's path), bytes read per file (mean, median) and bytes read ÷ file size (mean over
/// all files, mean over files larger than 1 MB, and the corpus total). A file that fails to read is
/// a failure: it is timed like the others but left out of the byte statistics, and the run goes
/// on. Bytes read are block-granular (the reader fetches 1 KB blocks).
enum PDFBench {
    struct Failure: Error, CustomStringConvertible, LocalizedError {
        var description: String
        var errorDescription: String? { description }
    }

    /// One file's measurements.
    struct FileResult {
        var path: String
        var times: [Double] = []  // ms, one per repeat
        var bytesRead = 0
        var fileSize = 0
        var error: String?
        var warnings = 0

        var median: Double { PDFBench.median(times) }
    }

    /// The aggregate over one run.
    struct Summary {
        var directories: [String] = []
        var files = 0
        var totalBytes = 0
        var repeats = 0
        var filesPerSecond = 0.0
        var filesPerSecondWall = 0.0
        var passSecondsMedian = 0.0
        var msPerFileMedian = 0.0
        var msPerFileMean = 0.0
        var msPerFileWorst = 0.0
        var worstFile = ""
        var bytesReadMean = 0.0
        var bytesReadMedian = 0.0
        var fileSizeMedian = 0.0
        var readFractionMean = 0.0
        var readFractionTotal = 0.0
        var filesOver1MB = 0
        var readFractionMeanOver1MB: Double?
        var bytesReadMeanOver1MB: Double?
        var filesWithWarnings = 0
        var failures: [(file: String, error: String)] = []
    }

    static let oneMB = 1 << 20

    static func run(directories: [String], json: Bool, repeats: Int = 5) throws {
        let summary = try measure(directories: directories, repeats: repeats) { line in
            if !json { printError(line) }
        }
        print(json ? jsonText(summary) : text(summary), terminator: "")
    }

    /// Finds the files, reads them and summarises. `progress` receives a line after each pass.
    static func measure(directories: [String], repeats: Int, progress: (String) -> Void = { _ in }) throws -> Summary {
        guard repeats >= 1 else { throw Failure(description: "--repeats must be at least 1") }
        guard !directories.isEmpty else { throw Failure(description: "bench --pdf: name at least one directory") }
        let paths = try collect(directories)
        var results = paths.map { FileResult(path: $0) }
        var passSeconds: [Double] = []
        let options = PDFReadOptions()
        for pass in 1...repeats {
            let passStart = DispatchTime.now().uptimeNanoseconds
            for i in results.indices {
                let t0 = DispatchTime.now().uptimeNanoseconds
                let outcome: Result<PDFMetadata, PDFError>
                do {
                    outcome = .success(try PDFDocumentInfo.read(contentsOf: results[i].path, options: options))
                } catch {
                    outcome = .failure(error)
                }
                let t1 = DispatchTime.now().uptimeNanoseconds
                results[i].times.append(Double(t1 &- t0) / 1e6)
                if pass == 1 {
                    switch outcome {
                    case .success(let m):
                        results[i].bytesRead = m.bytesRead
                        results[i].fileSize = m.fileSize
                        results[i].warnings = m.warnings.count
                    case .failure(let e):
                        results[i].error = e.description
                        results[i].fileSize = fileSize(results[i].path)
                    }
                }
            }
            passSeconds.append(Double(DispatchTime.now().uptimeNanoseconds &- passStart) / 1e9)
            progress("pass \(pass)/\(repeats): \(results.count) files in \(String(format: "%.3f", passSeconds.last!)) s")
        }
        return summarize(results, passSeconds: passSeconds, directories: directories, repeats: repeats)
    }

    /// Every `*.pdf` under the given paths, each directory's files in sorted order. A directory
    /// with no PDF, or a path that does not exist, is an error.
    static func collect(_ directories: [String]) throws -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        for dir in directories {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: dir, isDirectory: &isDir) else {
                throw Failure(description: "bench --pdf: \(dir): no such file or directory")
            }
            if !isDir.boolValue {
                out.append(dir)
                continue
            }
            var found: [String] = []
            if let e = fm.enumerator(atPath: dir) {
                for case let rel as String in e where rel.lowercased().hasSuffix(".pdf") {
                    let p = dir.hasSuffix("/") ? dir + rel : dir + "/" + rel
                    // Directories named *.pdf are skipped; anything else (a dangling link, a file
                    // that cannot be opened) is kept and counts as a failure.
                    var sub: ObjCBool = false
                    if !(fm.fileExists(atPath: p, isDirectory: &sub) && sub.boolValue) { found.append(p) }
                }
            }
            if found.isEmpty {
                throw Failure(description: "bench --pdf: no *.pdf files under \(dir)")
            }
            out.append(contentsOf: found.sorted())
        }
        return out
    }

    static func summarize(_ results: [FileResult], passSeconds: [Double], directories: [String], repeats: Int) -> Summary {
        var s = Summary()
        s.directories = directories
        s.files = results.count
        s.repeats = repeats
        s.totalBytes = results.reduce(0) { $0 + $1.fileSize }
        let medians = results.map(\.median)
        let sumMedians = medians.reduce(0, +)
        s.filesPerSecond = sumMedians > 0 ? Double(results.count) / (sumMedians / 1e3) : 0
        s.passSecondsMedian = median(passSeconds)
        s.filesPerSecondWall = s.passSecondsMedian > 0 ? Double(results.count) / s.passSecondsMedian : 0
        s.msPerFileMedian = median(medians)
        s.msPerFileMean = medians.isEmpty ? 0 : sumMedians / Double(medians.count)
        if let worst = results.indices.max(by: { medians[$0] < medians[$1] }) {
            s.msPerFileWorst = medians[worst]
            s.worstFile = results[worst].path
        }
        let ok = results.filter { $0.error == nil }
        s.failures = results.compactMap { r in r.error.map { (r.path, $0) } }
        s.filesWithWarnings = ok.filter { $0.warnings > 0 }.count
        if !ok.isEmpty {
            s.bytesReadMean = Double(ok.reduce(0) { $0 + $1.bytesRead }) / Double(ok.count)
            s.bytesReadMedian = median(ok.map { Double($0.bytesRead) })
            s.fileSizeMedian = median(ok.map { Double($0.fileSize) })
            func fraction(_ r: FileResult) -> Double { r.fileSize > 0 ? Double(r.bytesRead) / Double(r.fileSize) : 0 }
            s.readFractionMean = ok.reduce(0) { $0 + fraction($1) } / Double(ok.count)
            let totalSize = ok.reduce(0) { $0 + $1.fileSize }
            s.readFractionTotal = totalSize > 0 ? Double(ok.reduce(0) { $0 + $1.bytesRead }) / Double(totalSize) : 0
            let big = ok.filter { $0.fileSize > oneMB }
            s.filesOver1MB = big.count
            if !big.isEmpty {
                s.readFractionMeanOver1MB = big.reduce(0) { $0 + fraction($1) } / Double(big.count)
                s.bytesReadMeanOver1MB = Double(big.reduce(0) { $0 + $1.bytesRead }) / Double(big.count)
            }
        }
        return s
    }

    static func median(_ xs: [Double]) -> Double {
        if xs.isEmpty { return 0 }
        let s = xs.sorted()
        let n = s.count
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
    }

    static func fileSize(_ path: String) -> Int {
        var st = stat()
        return stat(path, &st) == 0 ? Int(st.st_size) : 0
    }

    static func text(_ s: Summary) -> String {
        func f(_ x: Double, _ d: Int) -> String { String(format: "%.\(d)f", x) }
        func pct(_ x: Double?) -> String { x.map { f($0 * 100, 2) + " %" } ?? "-" }
        var out = ""
        out += "files:                  \(s.files) (\(s.totalBytes) bytes) in \(s.directories.joined(separator: ", "))\n"
        out += "repeats:                \(s.repeats) (per-file time = median of the repeats)\n"
        out += "files/s:                \(f(s.filesPerSecond, 1)) (files ÷ sum of per-file medians)\n"
        out += "files/s, wall:          \(f(s.filesPerSecondWall, 1)) (one full pass: \(f(s.passSecondsMedian * 1e3, 2)) ms, median of \(s.repeats))\n"
        out += "ms per file, median:    \(f(s.msPerFileMedian, 4))\n"
        out += "ms per file, mean:      \(f(s.msPerFileMean, 4))\n"
        out += "ms per file, worst:     \(f(s.msPerFileWorst, 4)) (\(s.worstFile))\n"
        out += "bytes read, mean:       \(f(s.bytesReadMean, 0))\n"
        out += "bytes read, median:     \(f(s.bytesReadMedian, 0)) (median file size \(f(s.fileSizeMedian, 0)))\n"
        out += "read fraction, mean:    \(pct(s.readFractionMean)) (corpus total \(pct(s.readFractionTotal)))\n"
        out += "read fraction, > 1 MB:  \(pct(s.readFractionMeanOver1MB)) over \(s.filesOver1MB) files"
            + (s.bytesReadMeanOver1MB.map { " (mean \(f($0, 0)) bytes read)" } ?? "") + "\n"
        out += "with warnings:          \(s.filesWithWarnings)\n"
        out += "failures:               \(s.failures.count)\n"
        for (file, error) in s.failures { out += "  \(file): \(error)\n" }
        return out
    }

    static func jsonText(_ s: Summary) -> String {
        let obj: [String: Any] = [
            "directories": s.directories,
            "files": s.files,
            "total_bytes": s.totalBytes,
            "repeats": s.repeats,
            "files_per_second": s.filesPerSecond,
            "files_per_second_wall": s.filesPerSecondWall,
            "pass_seconds_median": s.passSecondsMedian,
            "ms_per_file_median": s.msPerFileMedian,
            "ms_per_file_mean": s.msPerFileMean,
            "ms_per_file_worst": s.msPerFileWorst,
            "worst_file": s.worstFile,
            "bytes_read_mean": s.bytesReadMean,
            "bytes_read_median": s.bytesReadMedian,
            "file_size_median": s.fileSizeMedian,
            "read_fraction_mean": s.readFractionMean,
            "read_fraction_total": s.readFractionTotal,
            "files_over_1mb": s.filesOver1MB,
            "read_fraction_mean_over_1mb": s.readFractionMeanOver1MB.map { $0 as Any } ?? NSNull(),
            "bytes_read_mean_over_1mb": s.bytesReadMeanOver1MB.map { $0 as Any } ?? NSNull(),
            "files_with_warnings": s.filesWithWarnings,
            "failures": s.failures.count,
            "failed_files": s.failures.map { ["file": $0.file, "error": $0.error] },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
