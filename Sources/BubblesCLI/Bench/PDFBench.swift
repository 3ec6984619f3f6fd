import Dispatch
import Foundation
import PDFCore
import PDFMetadata

/// `bubbles bench pdf DIR... [--json]`: the PDF metadata reader's benchmark.
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
///
/// Each read is also timed in CPU time (the thread's, `CLOCK_THREAD_CPUTIME_ID`, less the median
/// cost of the two clock reads themselves, measured before the first pass), and the files
/// are reported by size class (under 16 KiB, 16–64 KiB, 64 KiB–1 MiB, over 1 MiB): files, median
/// CPU and wall time per file in µs, files/s on CPU time, and the CPU time of the system calls
/// alone (``systemCalls(_:)``, timed right after each read: the floor under any reader in this
/// kernel). With `pikepdfPython` (a Python that
/// has pikepdf), pikepdf reads the same files the same number of times right after ours, timed
/// the same way in its own process (open, `/Title`, `/Keywords`, page count, close), and each
/// class shows two ratios: pikepdf's median CPU time ÷ ours (the typical file), and our files/s
/// ÷ pikepdf's (sums, where the slowest files weigh most).
enum PDFBench {
    struct Failure: Error, CustomStringConvertible, LocalizedError {
        var description: String
        var errorDescription: String? { description }
    }

    /// One file's measurements.
    struct FileResult {
        var path: String
        var times: [Double] = []  // ms, one per repeat
        var cpuTimes: [Double] = []  // ms of the thread's CPU time, one per repeat
        var floorTimes: [Double] = []  // ms of CPU time of the system calls alone, one per repeat
        var bytesRead = 0
        var fileSize = 0
        var error: String?
        var warnings = 0

        var median: Double { BenchStatistics.median(times) }
        var cpuMedian: Double { BenchStatistics.median(cpuTimes) }
        var floorMedian: Double { BenchStatistics.median(floorTimes) }
    }

    /// One size class of the report: ours, and pikepdf's when it ran.
    struct SizeClass {
        var name: String
        var files = 0
        var cpuMicrosMedian = 0.0
        var wallMicrosMedian = 0.0
        /// The median CPU time, in µs, of the system calls alone (``PDFBench/systemCalls(_:)``).
        var floorMicrosMedian = 0.0
        /// Files ÷ the sum of the per-file CPU medians.
        var filesPerCPUSecond = 0.0
        var peerFiles = 0
        var peerCPUMicrosMedian: Double?
        var peerFilesPerCPUSecond: Double?
        var peerFailures = 0
        /// Ours ÷ pikepdf, on files per CPU second (sums: the slowest files weigh most).
        var ratio: Double? {
            guard let p = peerFilesPerCPUSecond, p > 0 else { return nil }
            return filesPerCPUSecond / p
        }
        /// pikepdf's median CPU time per file ÷ ours (the typical file).
        var medianRatio: Double? {
            guard let p = peerCPUMicrosMedian, cpuMicrosMedian > 0 else { return nil }
            return p / cpuMicrosMedian
        }
    }

    /// The size classes: (name, lower bound inclusive, upper bound exclusive), in bytes.
    static let classes: [(String, Int, Int)] = [
        ("under 16 KB", 0, 16 << 10), ("16-64 KB", 16 << 10, 64 << 10),
        ("64 KB-1 MB", 64 << 10, 1 << 20), ("over 1 MB", 1 << 20, Int.max),
    ]

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
        var sizeClasses: [SizeClass] = []
        /// The files of each size class (same order as `sizeClasses`).
        var classMembers: [[FileResult]] = []
        var peer: String?
    }

    static let oneMB = 1 << 20

    static func run(directories: [String], json: Bool, repeats: Int = 5, pikepdfPython: String? = nil) throws {
        var summary = try measure(directories: directories, repeats: repeats) { line in
            if !json { printError(line) }
        }
        if let python = pikepdfPython {
            let peer = try measurePikepdf(python: python, files: summary.files == 0 ? [] : try collect(directories), repeats: repeats)
            summary.peer = peer.version
            addPeer(&summary, peer.results)
        }
        print(json ? jsonText(summary) : text(summary), terminator: "")
    }

    /// The thread's CPU time in ms.
    static func threadCPUms() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }

    /// pikepdf's per-file medians (ms): wall, CPU, whether it read the file.
    struct PeerResult { var wall: Double; var cpu: Double; var ok: Bool }

    /// The pikepdf side, in a child Python process: the same files, `repeats` passes.
    static let pikepdfScript = """
    import json, logging, statistics, sys, time
    import pikepdf
    logging.getLogger("pikepdf").setLevel(logging.CRITICAL)
    files = [l for l in open(sys.argv[1]).read().split("\\n") if l]
    reps = int(sys.argv[2])
    wall = {f: [] for f in files}; cpu = {f: [] for f in files}; ok = {f: True for f in files}
    for _ in range(reps):
        for f in files:
            t0 = time.perf_counter_ns(); c0 = time.thread_time_ns()
            try:
                with pikepdf.open(f) as pdf:
                    info = pdf.docinfo
                    str(info.get("/Title", "")); str(info.get("/Keywords", "")); len(pdf.pages)
            except Exception:
                ok[f] = False
            c1 = time.thread_time_ns(); t1 = time.perf_counter_ns()
            wall[f].append((t1 - t0) / 1e6); cpu[f].append((c1 - c0) / 1e6)
    json.dump({"version": pikepdf.__version__, "files": {f: [statistics.median(wall[f]), statistics.median(cpu[f]), ok[f]] for f in files}}, sys.stdout)
    """

    static func measurePikepdf(python: String, files: [String], repeats: Int) throws -> (version: String, results: [String: PeerResult]) {
        let list = NSTemporaryDirectory() + "bubbles-pdfbench-\(getpid()).txt"
        try files.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: list) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: python)
        if !python.contains("/") {
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = [python]
        }
        p.arguments = (p.arguments ?? []) + ["-c", pikepdfScript, list, String(repeats)]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0,
              let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let byFile = obj["files"] as? [String: [Any]] else {
            throw Failure(description: "bench pdf: pikepdf run with \(python) failed (status \(p.terminationStatus))")
        }
        var results: [String: PeerResult] = [:]
        for (f, v) in byFile where v.count == 3 {
            results[f] = PeerResult(wall: (v[0] as? Double) ?? 0, cpu: (v[1] as? Double) ?? 0, ok: (v[2] as? Bool) ?? false)
        }
        return ((obj["version"] as? String) ?? "?", results)
    }

    static func addPeer(_ s: inout Summary, _ peer: [String: PeerResult]) {
        for k in s.sizeClasses.indices {
            let members = s.classMembers[k]
            let rs = members.compactMap { peer[$0.path] }
            s.sizeClasses[k].peerFiles = rs.count
            s.sizeClasses[k].peerFailures = rs.filter { !$0.ok }.count
            guard !rs.isEmpty else { continue }
            s.sizeClasses[k].peerCPUMicrosMedian = BenchStatistics.median(rs.map(\.cpu)) * 1e3
            let sum = rs.reduce(0) { $0 + $1.cpu }
            s.sizeClasses[k].peerFilesPerCPUSecond = sum > 0 ? Double(rs.count) / (sum / 1e3) : nil
        }
    }

    /// Finds the files, reads them and summarises. `progress` receives a line after each pass.
    static func measure(directories: [String], repeats: Int, progress: (String) -> Void = { _ in }) throws -> Summary {
        guard repeats >= 1 else { throw Failure(description: "--repeats must be at least 1") }
        guard !directories.isEmpty else { throw Failure(description: "bench pdf: name at least one directory") }
        let paths = try collect(directories)
        var results = paths.map { FileResult(path: $0) }
        var passSeconds: [Double] = []
        let options = PDFReadOptions()
        // What the two clock reads around a read cost on their own (a system call each): taken
        // off every CPU time below.
        var clockCosts: [Double] = []
        for _ in 0 ..< 201 {
            let a = threadCPUms()
            clockCosts.append(threadCPUms() - a)
        }
        let clockCost = BenchStatistics.median(clockCosts)
        for pass in 1...repeats {
            let passStart = DispatchTime.now().uptimeNanoseconds
            for i in results.indices {
                let c0 = threadCPUms()
                let t0 = DispatchTime.now().uptimeNanoseconds
                let outcome: Result<PDFDocumentMetadata, PDFError>
                do {
                    outcome = .success(try PDFDocumentInfo.read(contentsOf: results[i].path, options: options))
                } catch {
                    outcome = .failure(error)
                }
                let t1 = DispatchTime.now().uptimeNanoseconds
                let c1 = threadCPUms()
                results[i].times.append(Double(t1 &- t0) / 1e6)
                results[i].cpuTimes.append(max(0, c1 - c0 - clockCost))
                let f0 = threadCPUms()
                systemCalls(results[i].path)
                let f1 = threadCPUms()
                results[i].floorTimes.append(max(0, f1 - f0 - clockCost))
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

    /// The system calls that any reader of the file makes, and nothing else: open it, learn its
    /// size, read it (a file up to 16 KiB whole, in one `pread`, as the reader does; a larger one
    /// its first and its last KiB, the header and `startxref`), close it. Its CPU time is the
    /// floor under a read in this kernel, whatever the parsing costs.
    static func systemCalls(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return }
        let size = Int(st.st_size)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 << 10) { buf in
            if size <= 16 << 10 {
                _ = pread(fd, buf.baseAddress, size, 0)
            } else {
                _ = pread(fd, buf.baseAddress, 1024, 0)
                _ = pread(fd, buf.baseAddress, 1024, off_t(size - 1024))
            }
        }
    }

    /// Every `*.pdf` under the given paths, each directory's files in sorted order. A directory
    /// with no PDF, or a path that does not exist, is an error.
    static func collect(_ directories: [String]) throws -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        for dir in directories {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: dir, isDirectory: &isDir) else {
                throw Failure(description: "bench pdf: \(dir): no such file or directory")
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
                throw Failure(description: "bench pdf: no *.pdf files under \(dir)")
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
        s.passSecondsMedian = BenchStatistics.median(passSeconds)
        s.filesPerSecondWall = s.passSecondsMedian > 0 ? Double(results.count) / s.passSecondsMedian : 0
        s.msPerFileMedian = BenchStatistics.median(medians)
        s.msPerFileMean = medians.isEmpty ? 0 : sumMedians / Double(medians.count)
        if let worst = results.indices.max(by: { medians[$0] < medians[$1] }) {
            s.msPerFileWorst = medians[worst]
            s.worstFile = results[worst].path
        }
        for (name, lo, hi) in classes {
            let members = results.filter { $0.fileSize >= lo && $0.fileSize < hi }
            var c = SizeClass(name: name)
            c.files = members.count
            if !members.isEmpty {
                c.cpuMicrosMedian = BenchStatistics.median(members.map(\.cpuMedian)) * 1e3
                c.wallMicrosMedian = BenchStatistics.median(members.map(\.median)) * 1e3
                c.floorMicrosMedian = BenchStatistics.median(members.map(\.floorMedian)) * 1e3
                let sum = members.reduce(0) { $0 + $1.cpuMedian }
                c.filesPerCPUSecond = sum > 0 ? Double(members.count) / (sum / 1e3) : 0
            }
            s.sizeClasses.append(c)
            s.classMembers.append(members)
        }
        let ok = results.filter { $0.error == nil }
        s.failures = results.compactMap { r in r.error.map { (r.path, $0) } }
        s.filesWithWarnings = ok.filter { $0.warnings > 0 }.count
        if !ok.isEmpty {
            s.bytesReadMean = Double(ok.reduce(0) { $0 + $1.bytesRead }) / Double(ok.count)
            s.bytesReadMedian = BenchStatistics.median(ok.map { Double($0.bytesRead) })
            s.fileSizeMedian = BenchStatistics.median(ok.map { Double($0.fileSize) })
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
        out += "by size (medians per file; files/s on CPU time)" + (s.peer.map { ", against pikepdf \($0) in the same run" } ?? "") + ":\n"
        out += "  class          files   CPU µs  wall µs   files/s  calls µs" + (s.peer == nil ? "" : "   pikepdf CPU µs   files/s   ×, median   ×, files/s   ÷ 10") + "\n"
        for c in s.sizeClasses where c.files > 0 {
            var line = "  " + c.name.padding(toLength: 13, withPad: " ", startingAt: 0)
                + String(format: "%6d %8.1f %8.1f %9.0f %9.1f", c.files, c.cpuMicrosMedian, c.wallMicrosMedian, c.filesPerCPUSecond,
                         c.floorMicrosMedian)
            if s.peer != nil, let pm = c.peerCPUMicrosMedian, let pf = c.peerFilesPerCPUSecond {
                line += String(format: " %16.1f %9.0f %11.1f %11.1f %7.1f", pm, pf, c.medianRatio ?? 0, c.ratio ?? 0, pm / 10)
            }
            out += line + "\n"
        }
        out += "  (calls µs: open, fstat, one read of a file up to 16 KiB or of the first and last KiB, close, and nothing else"
            + (s.peer == nil ? ")\n" : "; ÷ 10: pikepdf's median ÷ 10, the most a read may take for 10×)\n")
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
            "peer": s.peer.map { "pikepdf " + $0 as Any } ?? NSNull(),
            "size_classes": s.sizeClasses.map { c -> [String: Any] in
                [
                    "class": c.name, "files": c.files, "cpu_us_median": c.cpuMicrosMedian, "wall_us_median": c.wallMicrosMedian,
                    "system_calls_cpu_us_median": c.floorMicrosMedian,
                    "files_per_cpu_second": c.filesPerCPUSecond,
                    "pikepdf_cpu_us_median": c.peerCPUMicrosMedian.map { $0 as Any } ?? NSNull(),
                    "pikepdf_files_per_cpu_second": c.peerFilesPerCPUSecond.map { $0 as Any } ?? NSNull(),
                    "pikepdf_failures": c.peerFailures,
                    "ratio_files_per_second": c.ratio.map { $0 as Any } ?? NSNull(),
                    "ratio_median": c.medianRatio.map { $0 as Any } ?? NSNull(),
                ]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
