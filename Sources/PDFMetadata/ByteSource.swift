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
    let residentBytes: [UInt8]?
    private var blocks: [Int: [UInt8]] = [:]
    private var cachedBytes = 0

    /// Files over `wholeFileLimit` and up to this size keep their blocks in one flat buffer of
    /// the file's size (each block read straight into place, at most once, and a bit per block),
    /// instead of one array per block in a dictionary. It is the cache's cap: for such a file the
    /// cache could never be dropped, so the blocks fetched (and counted) are the same either way.
    /// The buffer is allocated but not touched: only the pages that blocks are read into are used.
    static let flatLimit = cacheCap
    /// The flat buffer (see `flatLimit`), as many bytes as the file had when it was opened; only
    /// the blocks marked in `loaded` hold file bytes. Owned (freed in `deinit`).
    private let flat: UnsafeMutablePointer<UInt8>?
    /// One bit per block of `flat`: block k is loaded when bit k % 64 of word k / 64 is set.
    /// Owned, as `flat`.
    private let loaded: UnsafeMutablePointer<UInt64>?

    /// Opens a file for reading.
    init(path: String) throws(PDFError) {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
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
        let size = Int(st.st_size)
        self.memory = nil
        if size <= ByteSource.wholeFileLimit {
            var failure: Int32 = 0
            let all = Self.readArray(fd, 0, size, failure: &failure)
            close(fd)
            if failure != 0 {
                throw PDFError(.io, "read failed: \(String(cString: strerror(failure)))", offset: all.count)
            }
            self.size = all.count
            self.bytesRead = all.count
            self.residentBytes = all
            self.flat = nil
            self.loaded = nil
            return
        }
        self.fd = fd
        self.size = size
        self.residentBytes = nil
        if size <= ByteSource.flatLimit {
            flat = malloc(size)?.assumingMemoryBound(to: UInt8.self)
            let words = (size / ByteSource.blockSize) / 64 + 1
            loaded = calloc(words, 8)?.assumingMemoryBound(to: UInt64.self)
            if flat == nil || loaded == nil { throw PDFError(.io, "cannot allocate \(size) bytes for \(path)") }
        } else {
            flat = nil
            loaded = nil
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
            flat = nil
            loaded = nil
        } else if bytes.count <= ByteSource.flatLimit {
            residentBytes = nil
            flat = malloc(bytes.count)!.assumingMemoryBound(to: UInt8.self)
            let words = (bytes.count / ByteSource.blockSize) / 64 + 1
            loaded = calloc(words, 8)!.assumingMemoryBound(to: UInt64.self)
        } else {
            residentBytes = nil
            flat = nil
            loaded = nil
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
        free(flat)
        free(loaded)
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
        if flat != nil { return try readFlat(start, end, firstBlock, lastBlock) }
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

    private func isLoaded(_ b: Int) -> Bool {
        loaded.unsafelyUnwrapped[b >> 6] & (1 << UInt64(b & 63)) != 0
    }

    /// `read` for a file kept in `flat`: the missing blocks of the range are read into place, one
    /// `pread` per run of them, and the range is copied out once.
    private func readFlat(_ start: Int, _ end: Int, _ firstBlock: Int, _ lastBlock: Int) throws(PDFError) -> [UInt8] {
        let end = try loadFlat(start, end, firstBlock, lastBlock)
        if start >= end { return [] }
        return Array(UnsafeBufferPointer(start: flat.unsafelyUnwrapped + start, count: end - start))
    }

    /// Calls `body` with the bytes in `offset ..< offset + count`, clipped to the file: fetched and
    /// counted exactly as ``read(_:_:)`` fetches and counts them, but without a copy when the
    /// file is held whole or in the flat buffer. The buffer is valid only inside `body`. Nil when
    /// the bytes cannot be read.
    func withBytes<R>(_ offset: Int, _ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let start = max(0, min(offset, size))
        let end = max(start, min(size, start.addingReportingOverflow(max(0, count)).overflow ? size : start + max(0, count)))
        if start == end { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        if let whole = residentBytes {
            return whole.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< end])) }
        }
        if let flat {
            let bs = ByteSource.blockSize
            guard let stop = try? loadFlat(start, end, start / bs, (end - 1) / bs) else { return nil }
            if start >= stop { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return body(UnsafeBufferPointer(start: flat + start, count: stop - start))
        }
        guard let copy = try? read(offset, count) else { return nil }
        return copy.withUnsafeBufferPointer { body($0) }
    }

    /// Reads the missing blocks of `start ..< end` into `flat`; returns the end of the range,
    /// earlier when the file turned out shorter than it was.
    private func loadFlat(_ start: Int, _ end: Int, _ firstBlock: Int, _ lastBlock: Int) throws(PDFError) -> Int {
        let bs = ByteSource.blockSize
        var b = firstBlock
        var end = end
        while b <= lastBlock {
            if isLoaded(b) { b += 1; continue }
            var runEnd = b
            while runEnd + 1 <= lastBlock && !isLoaded(runEnd + 1) { runEnd += 1 }
            let runStart = b * bs
            let runStop = min(size, (runEnd + 1) * bs)
            let got = try fetchIntoFlat(runStart, runStop - runStart)
            if got < runStop - runStart {
                // The file ended early (it shrank after it was opened): keep what came.
                size = runStart + got
                end = min(end, size)
                if start >= end { return end }
            }
            let loaded = self.loaded.unsafelyUnwrapped
            for k in b ... runEnd {
                loaded[k >> 6] |= 1 << UInt64(k & 63)
            }
            b = runEnd + 1
        }
        return end
    }

    /// Reads `count` bytes at `offset` into `flat` at the same offset; returns how many came.
    private func fetchIntoFlat(_ offset: Int, _ count: Int) throws(PDFError) -> Int {
        let flat = self.flat.unsafelyUnwrapped
        if let memory {
            memory.withUnsafeBufferPointer { m in
                (flat + offset).update(from: m.baseAddress! + offset, count: count)
            }
            bytesRead += count
            return count
        }
        var failure: Int32 = 0
        let got = Self.readFully(fd, into: flat + offset, count: count, at: offset, failure: &failure)
        if failure != 0 {
            throw PDFError(.io, "read failed: \(String(cString: strerror(failure)))", offset: offset + got)
        }
        bytesRead += got
        return got
    }

    /// `count` bytes at `offset` of `fd` (fewer at the end of the file), read straight into
    /// uninitialised storage (no zero fill before the kernel's copy); `failure` as in `readFully`.
    private static func readArray(_ fd: Int32, _ offset: Int, _ count: Int, failure: inout Int32) -> [UInt8] {
        if count <= 0 { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buf, initialized in
            initialized = readFully(fd, into: buf.baseAddress!, count: count, at: offset, failure: &failure)
        }
    }

    /// `pread` until `count` bytes have come, the file ends, or a read fails (then `failure` holds
    /// its errno); an interrupted read is retried. Returns how many bytes came.
    private static func readFully(
        _ fd: Int32, into buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int, failure: inout Int32
    ) -> Int {
        var got = 0
        while got < count {
            let n = pread(fd, buffer + got, count - got, off_t(offset + got))
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            if n == 0 { break }
            got += n
        }
        return got
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
        var failure: Int32 = 0
        let out = Self.readArray(fd, offset, count, failure: &failure)
        if failure != 0 {
            throw PDFError(.io, "read failed: \(String(cString: strerror(failure)))", offset: offset + out.count)
        }
        bytesRead += out.count
        return out
    }
}
