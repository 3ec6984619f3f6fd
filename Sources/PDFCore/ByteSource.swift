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
/// memory used is bounded by the cache caps (at most the file's size and twice the cache cap for a
/// file up to the cap, the cache cap above it), never by the size of a larger file.
package final class ByteSource {
    /// The size of one cache block; small so that bytes read stays close to bytes needed.
    package static let blockSize = 1024
    /// When the cache holds more than this many bytes it is dropped (later reads re-count).
    package static let cacheCap = 8 << 20

    /// Files up to this size are read whole, in one `pread`, when opened: the reader needs most
    /// of a small file anyway (head, tail, xref and a few objects), and one call beats a handful
    /// (the limit is measured: `Benchmarks/NOTES.md`).
    package static let wholeFileLimit = 16 << 10

    package private(set) var size: Int
    package private(set) var bytesRead = 0
    private var fd: Int32 = -1
    private let memory: [UInt8]?
    /// The whole input, when it was small enough to be taken at open (see `wholeFileLimit`):
    /// reads are served from it without the cache, and parsers work on it in place.
    package let residentBytes: [UInt8]?
    private var blocks: [Int: [UInt8]] = [:]
    private var cachedBytes = 0

    /// Files over `wholeFileLimit` and up to this size keep every block they fetch (each block is
    /// read at most once; the cache is never dropped, so the blocks fetched and counted are those
    /// of the dictionary cache below its cap). A request is served from one *window*, a buffer of
    /// the request's whole blocks: when no window holds all its blocks, a new one is made for it,
    /// its loaded blocks copied from the windows that hold them and the others read in runs, one
    /// `pread` a run. Memory is the bytes requested, not the file's size.
    package static let windowedLimit = cacheCap
    /// For files up to `windowedLimit`: one bit per block, set when the block is loaded (bit k % 64
    /// of word k / 64). Owned (freed in `deinit`).
    private let loaded: UnsafeMutablePointer<UInt64>?
    /// Per loaded block, the index in `windows` of a window that holds it (not initialised for
    /// the other blocks). Owned.
    private let owner: UnsafeMutablePointer<Int32>?
    /// The windows (see `windowedLimit`); behind a pointer, so that using them costs no
    /// exclusivity check. Owned, with the windows' bytes.
    private let windows: UnsafeMutablePointer<Windows>?
    /// The blocks of the file as it was opened (the size of `loaded` and `owner`).
    private let blockCount: Int

    /// Whole blocks `first ..< first + blocks` of the file at `bytes` (`blocks * blockSize` bytes;
    /// those past the end of the file unused).
    private struct Window {
        let first: Int
        let blocks: Int
        let bytes: UnsafeMutablePointer<UInt8>
        /// Whether `bytes` is in the arena (else it was allocated alone).
        let inArena: Bool
    }

    /// The windows in the order they were made, and the arena that the first ones take their
    /// bytes from (one allocation for the few windows a read usually makes).
    ///
    /// Blocks copied into several windows make the windows' total larger than the bytes read;
    /// once it would pass `totalCap`, every loaded block is copied into one buffer of the file's
    /// size (`whole`, at the blocks' own offsets), the windows are freed, and from then on the
    /// missing blocks are read into that buffer in place. Memory stays within `totalCap` plus the
    /// file's size.
    private struct Windows {
        var list: [Window] = []
        var arena: UnsafeMutablePointer<UInt8>? = nil
        var used = 0
        /// The bytes of all windows (the arena counted whole once used).
        var total = 0
        /// The buffer of the file's size, once the windows were given up for it.
        var whole: UnsafeMutablePointer<UInt8>? = nil
        static let arenaSize = 16 << 10
        static let totalCap = 2 * windowedLimit

        mutating func allocate(_ n: Int) -> (UnsafeMutablePointer<UInt8>, Bool) {
            if n <= Windows.arenaSize - used {
                if arena == nil {
                    arena = malloc(Windows.arenaSize)!.assumingMemoryBound(to: UInt8.self)
                    total += Windows.arenaSize
                }
                let p = arena! + used
                used += n
                return (p, true)
            }
            total += n
            return (malloc(n)!.assumingMemoryBound(to: UInt8.self), false)
        }

        /// Gives back the last allocation (`n` bytes at `p`), which no window uses.
        mutating func release(_ p: UnsafeMutablePointer<UInt8>, _ n: Int, inArena: Bool) {
            if inArena {
                used -= n
            } else {
                free(p)
                total -= n
            }
        }

        /// Frees the windows (not `whole`).
        mutating func freeWindows() {
            for w in list where !w.inArena { free(w.bytes) }
            free(arena)
            list = []
            arena = nil
            used = 0
            total = 0
        }
    }

    /// Opens a file for reading.
    package init(path: String) throws(PDFError) {
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
            self.loaded = nil
            self.owner = nil
            self.windows = nil
            self.blockCount = 0
            return
        }
        self.fd = fd
        self.size = size
        self.residentBytes = nil
        if size <= ByteSource.windowedLimit {
            (loaded, owner) = ByteSource.makeOwner(size)
            windows = ByteSource.makeWindows()
            blockCount = size / ByteSource.blockSize + 1
        } else {
            loaded = nil
            owner = nil
            windows = nil
            blockCount = 0
        }
    }

    /// Wraps bytes already in memory (for fuzzing and tests); reads of inputs over
    /// `wholeFileLimit` are counted block by block, as for files.
    package init(bytes: [UInt8]) {
        self.size = bytes.count
        self.memory = bytes
        // The same rule as for files: a small input is taken whole (and counted once).
        if bytes.count <= ByteSource.wholeFileLimit {
            residentBytes = bytes
            bytesRead = bytes.count
            loaded = nil
            owner = nil
            windows = nil
            blockCount = 0
        } else if bytes.count <= ByteSource.windowedLimit {
            residentBytes = nil
            (loaded, owner) = ByteSource.makeOwner(bytes.count)
            windows = ByteSource.makeWindows()
            blockCount = bytes.count / ByteSource.blockSize + 1
        } else {
            residentBytes = nil
            loaded = nil
            owner = nil
            windows = nil
            blockCount = 0
        }
    }

    deinit {
        if fd >= 0 { close(fd) }
        free(loaded)
        free(owner)
        if let windows {
            windows.pointee.freeWindows()
            free(windows.pointee.whole)
            windows.deinitialize(count: 1)
            windows.deallocate()
        }
    }

    private static func makeOwner(_ size: Int) -> (UnsafeMutablePointer<UInt64>, UnsafeMutablePointer<Int32>) {
        let blocks = size / blockSize + 1
        return (calloc(blocks / 64 + 1, 8)!.assumingMemoryBound(to: UInt64.self),
                malloc(blocks * MemoryLayout<Int32>.size)!.assumingMemoryBound(to: Int32.self))
    }

    private static func makeWindows() -> UnsafeMutablePointer<Windows> {
        let p = UnsafeMutablePointer<Windows>.allocate(capacity: 1)
        var w = Windows()
        w.list.reserveCapacity(8) // the fast path's requests make three to five
        p.initialize(to: w)
        return p
    }

    /// Returns the bytes in `offset ..< offset + count`, clipped to the file.
    package func read(_ offset: Int, _ count: Int) throws(PDFError) -> [UInt8] {
        let start = max(0, min(offset, size))
        let end = max(start, min(size, start.addingReportingOverflow(max(0, count)).overflow ? size : start + max(0, count)))
        if start == end { return [] }
        if let whole = residentBytes { return Array(whole[start ..< end]) }
        let bs = ByteSource.blockSize
        let firstBlock = start / bs
        let lastBlock = (end - 1) / bs
        if owner != nil {
            let (bytes, stop) = try window(start, end, firstBlock, lastBlock)
            if start >= stop { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: stop - start))
        }
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

    /// Calls `body` with the bytes in `offset ..< offset + count`, clipped to the file: fetched and
    /// counted exactly as ``read(_:_:)`` fetches and counts them, but without a copy when the
    /// file is held whole or in a window. The buffer is valid only inside `body`. Nil when
    /// the bytes cannot be read.
    package func withBytes<R>(_ offset: Int, _ count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let start = max(0, min(offset, size))
        let end = max(start, min(size, start.addingReportingOverflow(max(0, count)).overflow ? size : start + max(0, count)))
        if start == end { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        if let whole = residentBytes {
            return whole.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< end])) }
        }
        if owner != nil {
            let bs = ByteSource.blockSize
            // nil on a read error: the caller (the fast path) leaves the file to the full reader,
            // whose own read reports the error.
            guard let (bytes, stop) = try? window(start, end, start / bs, (end - 1) / bs) else { return nil }
            if start >= stop { return body(UnsafeBufferPointer(start: nil, count: 0)) }
            return body(UnsafeBufferPointer(start: bytes, count: stop - start))
        }
        guard let copy = try? read(offset, count) else { return nil } // as above
        return copy.withUnsafeBufferPointer { body($0) }
    }

    /// The window that holds blocks `firstBlock ... lastBlock` (those of `start ..< end`), made
    /// when none does: returns where byte `start` is in it and the end of the range, earlier when
    /// the file turned out shorter than it was.
    ///
    /// The missing blocks are read in runs, one `pread` a run, and counted; a run that comes short
    /// (the file shrank after it was opened) shortens the file, and stops the request when nothing
    /// of it is left. The blocks read until a failure or such a stop stay loaded.
    private func window(_ start: Int, _ end: Int, _ firstBlock: Int, _ lastBlock: Int) throws(PDFError) -> (UnsafePointer<UInt8>, Int) {
        let bs = ByteSource.blockSize
        let loaded = self.loaded.unsafelyUnwrapped
        let owner = self.owner.unsafelyUnwrapped
        let windows = self.windows.unsafelyUnwrapped
        func isLoaded(_ k: Int) -> Bool { loaded[k >> 6] & (1 << UInt64(k & 63)) != 0 }
        if let whole = windows.pointee.whole { return try readInPlace(whole, start, end, firstBlock, lastBlock) }
        if isLoaded(firstBlock) {
            let w = windows.pointee.list[Int(owner[firstBlock])]
            if w.first + w.blocks > lastBlock { return (UnsafePointer(w.bytes + (start - w.first * bs)), end) }
        }
        let count = lastBlock - firstBlock + 1
        if windows.pointee.total + count * bs > Windows.totalCap {
            // Give the windows up for one buffer of the file's size (see `Windows`).
            let blocks = blockCount
            let whole = malloc(blocks * bs)!.assumingMemoryBound(to: UInt8.self)
            var k = 0
            while k < blocks {
                if !isLoaded(k) { k += 1; continue }
                let w = windows.pointee.list[Int(owner[k])]
                let n = min(blocks, w.first + w.blocks) - k
                (whole + k * bs).update(from: w.bytes + (k - w.first) * bs, count: n * bs)
                k += n
            }
            windows.pointee.freeWindows()
            windows.pointee.whole = whole
            return try readInPlace(whole, start, end, firstBlock, lastBlock)
        }
        let (bytes, inArena) = windows.pointee.allocate(count * bs)
        var end = end
        var b = firstBlock
        /// Keeps the window with its first `filled` blocks (all of them loaded now).
        func install(_ filled: Int) {
            if filled == 0 { windows.pointee.release(bytes, count * bs, inArena: inArena); return }
            let index = Int32(windows.pointee.list.count)
            windows.pointee.list.append(Window(first: firstBlock, blocks: filled, bytes: bytes, inArena: inArena))
            for k in firstBlock ..< firstBlock + filled {
                owner[k] = index
                loaded[k >> 6] |= 1 << UInt64(k & 63)
            }
        }
        while b <= lastBlock {
            if isLoaded(b) {
                // Loaded: copied from the window that holds it, with the next ones it holds too.
                let w = windows.pointee.list[Int(owner[b])]
                let n = min(lastBlock + 1, w.first + w.blocks) - b
                (bytes + (b - firstBlock) * bs).update(from: w.bytes + (b - w.first) * bs, count: n * bs)
                b += n
                continue
            }
            var runEnd = b
            while runEnd + 1 <= lastBlock && !isLoaded(runEnd + 1) { runEnd += 1 }
            let runStart = b * bs
            let runStop = min(size, (runEnd + 1) * bs)
            let got: Int
            do {
                got = try fetch(into: bytes + (b - firstBlock) * bs, runStart, runStop - runStart)
            } catch {
                install(b - firstBlock)
                throw error
            }
            if got < runStop - runStart {
                // The file ended early (it shrank after it was opened): keep what came.
                size = runStart + got
                end = min(end, size)
                if start >= end {
                    install(b - firstBlock)
                    return (UnsafePointer(bytes), end)
                }
            }
            b = runEnd + 1
        }
        install(count)
        return (UnsafePointer(bytes + (start - firstBlock * bs)), end)
    }

    /// `window` once the windows were given up for `whole`: the missing blocks of the range are
    /// read into place, one `pread` a run.
    private func readInPlace(_ whole: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int,
                             _ firstBlock: Int, _ lastBlock: Int) throws(PDFError) -> (UnsafePointer<UInt8>, Int) {
        let bs = ByteSource.blockSize
        let loaded = self.loaded.unsafelyUnwrapped
        func isLoaded(_ k: Int) -> Bool { loaded[k >> 6] & (1 << UInt64(k & 63)) != 0 }
        var b = firstBlock
        var end = end
        while b <= lastBlock {
            if isLoaded(b) { b += 1; continue }
            var runEnd = b
            while runEnd + 1 <= lastBlock && !isLoaded(runEnd + 1) { runEnd += 1 }
            let runStart = b * bs
            let runStop = min(size, (runEnd + 1) * bs)
            let got = try fetch(into: whole + runStart, runStart, runStop - runStart)
            if got < runStop - runStart {
                // The file ended early (it shrank after it was opened): keep what came.
                size = runStart + got
                end = min(end, size)
                if start >= end { return (UnsafePointer(whole), end) }
            }
            for k in b ... runEnd { loaded[k >> 6] |= 1 << UInt64(k & 63) }
            b = runEnd + 1
        }
        return (UnsafePointer(whole + start), end)
    }

    /// Reads `count` bytes at `offset` into `buffer`; returns how many came.
    private func fetch(into buffer: UnsafeMutablePointer<UInt8>, _ offset: Int, _ count: Int) throws(PDFError) -> Int {
        if let memory {
            memory.withUnsafeBufferPointer { m in
                buffer.update(from: m.baseAddress! + offset, count: count)
            }
            bytesRead += count
            return count
        }
        var failure: Int32 = 0
        let got = Self.readFully(fd, into: buffer, count: count, at: offset, failure: &failure)
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
    package func readUncached(_ offset: Int, _ count: Int) throws(PDFError) -> [UInt8] {
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
