/// Summary statistics of the benchmarks' samples.
enum BenchStatistics {
    /// The median (the mean of the middle two for an even count); 0 for no samples.
    static func median(_ xs: [Double]) -> Double {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The nearest-rank percentile `p` (0...1): the smallest sample with at least p of them at or
    /// below it; 0 for no samples.
    static func percentile(_ xs: [Double], _ p: Double) -> Double {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s[min(s.count - 1, max(0, Int((Double(s.count) * p).rounded(.up)) - 1))]
    }
}
