#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to the bytes of a PDF, with a small block cache and a count of the bytes that
/// were really fetched (the benchmark reports it against the file size).
///
/// Reading is by `pread` on a file descriptor, one block-aligned request per cache miss, so the
/// memory used is bounded by the cache cap, never by the file size.
final class ByteSource {
    /// The size of one cache block; small so that bytes read stays close to bytes needed.
    static let blockSize = 1024
    /// When the cache holds more than this many bytes it is dropped (later reads re-count).
    static let cacheCap = 8 << 20

    /// Files up to this size are read whole, in one `pread`, when opened: the reader needs most
    /// of a small file anyway (head, tail, xref and a few objects), and one call beats a handful.
    /// (Raised to 64 KiB, the 16–64 KiB class read about 10 % slower: copying the whole file
    /// costs more than the three or four block reads it saves.)
    static let wholeFileLimit = 16 << 10

    private(set) var size: Int
    private(set) var bytesRead = 0
    private var fd: Int32 = -1
    private let memory: [UInt8]?
    /// The whole input, when it was small enough to be taken at open (see `wholeFileLimit`):
    /// reads are served from it without the cache, and parsers work on it in place.
    private(set) var residentBytes: [UInt8]? = nil
    private var blocks: [Int: [UInt8]] = [:]
    private var cachedBytes = 0

    /// Opens a file for reading.
    init(path: String) throws(PDFError) {
        let fd = open(path, O_RDONLY)
        if fd < 0 {
            throw PDFError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var st = stat()
        if fstat(fd, &st) != 0 {
            close(fd)
            throw PDFError(.io, "cannot stat \(path)")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw PDFError(.io, "\(path) is a directory")
        }
        self.fd = fd
        self.size = Int(st.st_size)
        self.memory = nil
        if size <= ByteSource.wholeFileLimit {
            let all = try fetch(0, size)
            size = all.count
            residentBytes = all
            close(fd)
            self.fd = -1
        }
    }

    /// Wraps bytes already in memory (for fuzzing and tests); reads of inputs over
    /// `wholeFileLimit` are counted block by block, as for files.
    init(bytes: [UInt8]) {
        self.size = bytes.count
        self.memory = bytes
        // The same rule as for files: a small input is taken whole (and counted once).
        if bytes.count <= ByteSource.wholeFileLimit {
            residentBytes = bytes
            bytesRead = bytes.count
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Returns the bytes in `offset ..< offset + count`, clipped to the file.
    func read(_ offset: Int, _ count: Int) throws(PDFError) -> [UInt8] {
        let start = max(0, min(offset, size))
        let end = max(start, min(size, start.addingReportingOverflow(max(0, count)).overflow ? size : start + max(0, count)))
        if start == end { return [] }
        if let whole = residentBytes { return Array(whole[start ..< end]) }
        let bs = ByteSource.blockSize
        let firstBlock = start / bs
        let lastBlock = (end - 1) / bs
        // Fetch the missing blocks in runs, one pread per contiguous run.
        var b = firstBlock
        while b <= lastBlock {
            if blocks[b] != nil { b += 1; continue }
            var runEnd = b
            while runEnd + 1 <= lastBlock && blocks[runEnd + 1] == nil { runEnd += 1 }
            let runStart = b * bs
            let runStop = min(size, (runEnd + 1) * bs)
            let data = try fetch(runStart, runStop - runStart)
            if cachedBytes + data.count > ByteSource.cacheCap {
                blocks.removeAll(keepingCapacity: false)
                cachedBytes = 0
            }
            var k = b
            var pos = 0
            while pos < data.count {
                let n = min(bs, data.count - pos)
                blocks[k] = Array(data[pos ..< pos + n])
                pos += n
                k += 1
            }
            cachedBytes += data.count
            b = runEnd + 1
        }
        var out = [UInt8]()
        out.reserveCapacity(end - start)
        for blk in firstBlock ... lastBlock {
            guard let data = blocks[blk] else {
                // Evicted while filling (only when a single request exceeds the cap): fetch direct.
                return try fetch(start, end - start)
            }
            let blkStart = blk * bs
            let from = max(start, blkStart) - blkStart
            let to = min(end, blkStart + data.count) - blkStart
            if from < to { out.append(contentsOf: data[from ..< to]) }
        }
        return out
    }

    /// Reads a large range directly, bypassing the cache (used by the repair scan).
    func readUncached(_ offset: Int, _ count: Int) throws(PDFError) -> [UInt8] {
        let start = max(0, min(offset, size))
        let end = min(size, start + max(0, min(count, size - start)))
        if let whole = residentBytes { return Array(whole[start ..< end]) }
        return try fetch(start, end - start)
    }

    private func fetch(_ offset: Int, _ count: Int) throws(PDFError) -> [UInt8] {
        if count <= 0 { return [] }
        if let memory {
            bytesRead += count
            return Array(memory[offset ..< offset + count])
        }
        // Read straight into uninitialised storage: no zero fill before the kernel's copy.
        var failure: Int32 = 0
        let fd = self.fd
        let out = [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
            var got = 0
            while got < count, let base = buf.baseAddress {
                let n = pread(fd, base + got, count - got, off_t(offset + got))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                got += n
            }
            initialized = got
        }
        if failure != 0 {
            throw PDFError(.io, "read failed: \(String(cString: strerror(failure)))", offset: offset + out.count)
        }
        bytesRead += out.count
        return out
    }
}
