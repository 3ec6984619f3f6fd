#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's one monotonic clock, for durations, deadlines and time-outs: it never goes back
/// and the wall clock's changes do not move it.
public enum MonotonicClock {
    /// Seconds since an unspecified moment of this boot (`CLOCK_MONOTONIC`), with nanosecond
    /// resolution. Only differences between two readings mean something.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
