import Foundation

/// Process memory readings for the benchmark.
enum BenchMemory {
    /// Peak resident set size of this process so far (VmHWM), bytes; 0 if unavailable.
    static func peakResidentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }  // no /proc: 0, as documented
        for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
        }
        return 0
    }
}
