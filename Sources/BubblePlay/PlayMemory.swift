#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The process's memory as the play server reports and manages it (Linux; elsewhere the readings
/// are 0 and `returnFreedMemory` does nothing).
public enum PlayMemory {
    /// Resident set size of this process, in bytes (`/proc/self/statm`).
    public static func residentBytes() -> Int {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }  // no /proc: 0, as documented
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    /// Bytes malloc has handed out and not had back (glibc's `malloc_info`: the arenas' current
    /// system bytes plus mmapped blocks, less their free chunks).
    public static func mallocInUseBytes() -> Int {
        guard let m = mallocInfo() else { return 0 }
        return m.system + m.mmapped - m.free
    }

    /// Bytes free inside malloc's arenas, not yet returned to the system.
    public static func mallocFreeBytes() -> Int { mallocInfo()?.free ?? 0 }

    /// Gives the allocator's free memory back to the system (glibc `malloc_trim(0)`, which also
    /// releases free pages inside every arena). Costs a few milliseconds; the server calls it
    /// when a session closes.
    public static func returnFreedMemory() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(f, to: Trim.self)(0)
        #endif
    }

    /// glibc's totals from `malloc_info` (XML; `malloc.h` is not in Swift's Glibc module, so the
    /// function is looked up by name). nil elsewhere.
    static func mallocInfo() -> (system: Int, mmapped: Int, free: Int)? {
        #if os(Linux)
        typealias Info = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let f = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        _ = unsafeBitCast(f, to: Info.self)(0, stream)
        fclose(stream)
        guard let buffer else { return nil }
        defer { free(buffer) }
        let xml = String(cString: buffer)
        // The process-wide totals follow the last </heap>.
        guard let end = xml.range(of: "</heap>", options: .backwards) else { return nil }
        let tail = xml[end.upperBound...]
        func sizeAfter(_ marker: String) -> Int {
            guard let r = tail.range(of: marker) else { return 0 }
            let rest = tail[r.upperBound...]
            guard let s = rest.range(of: "size=\""), let e = rest[s.upperBound...].firstIndex(of: "\"") else { return 0 }
            return Int(rest[s.upperBound..<e]) ?? 0
        }
        let fast = sizeAfter("<total type=\"fast\""), restFree = sizeAfter("<total type=\"rest\""), mmap = sizeAfter("<total type=\"mmap\"")
        return (sizeAfter("<system type=\"current\""), mmap, fast + restFree)
        #else
        return nil
        #endif
    }
}
