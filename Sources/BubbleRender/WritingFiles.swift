import Foundation

/// Errors from rendering and writing frames. Every case that concerns a file names it.
public enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The folder does not exist, is not a folder, or cannot be written to.
    case unwritableFolder(path: String, reason: String)
    /// The disk (or quota) filled up while writing.
    case diskFull(path: String)
    /// Any other failure while writing or renaming the file.
    case writeFailed(path: String, reason: String)
    /// Cairo reported an error status, while producing `file` if known.
    case cairo(file: String?, status: String)
    /// The PNG encoder failed (libdeflate, or a level outside 0...12).
    case encoding(String)
    /// The pinned fonts (`PinnedFonts`) are missing or fontconfig could not load them.
    case fonts(String)

    /// One line naming the file where there is one.
    public var description: String {
        switch self {
        case .unwritableFolder(let path, let reason): return "cannot write \(path): \(reason)"
        case .diskFull(let path): return "cannot write \(path): the disk is full"
        case .writeFailed(let path, let reason): return "cannot write \(path): \(reason)"
        case .cairo(let file, let status):
            return file.map { "Cairo failed while writing \($0): \(status)" } ?? "Cairo failed: \(status)"
        case .encoding(let message): return "PNG encoding failed: \(message)"
        case .fonts(let message): return "fonts: \(message)"
        }
    }
}

/// The system calls through which `AtomicFile` and the export's hard links reach the file system.
///
/// `.system` is the real thing. Tests swap in another set to make a write fail the way a full disk
/// or a broken device does (`diskFull(after:)`), which a real disk cannot be made to do on demand
/// and at a chosen byte. Each call returns 0 (or the bytes written) on success and the error number
/// on failure, like the POSIX call it stands for, so the callers' error handling is the same code
/// for both.
public struct FileSystemCalls: Sendable {
    /// write(2): writes some of `bytes` to `fd`, the temporary file of `destination`; `.written`
    /// bytes, or `errno` when `written < 0`.
    public var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ destination: String) -> (written: Int, errno: Int32)
    /// rename(2): 0, or the error number.
    public var rename: @Sendable (_ from: String, _ to: String) -> Int32
    /// link(2): 0, or the error number.
    public var link: @Sendable (_ existing: String, _ new: String) -> Int32

    /// A set of system calls; `.system` is the real one.
    public init(
        write: @escaping @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ destination: String) -> (written: Int, errno: Int32),
        rename: @escaping @Sendable (_ from: String, _ to: String) -> Int32,
        link: @escaping @Sendable (_ existing: String, _ new: String) -> Int32
    ) {
        self.write = write
        self.rename = rename
        self.link = link
    }

    /// The real system calls.
    public static let system = FileSystemCalls(
        write: { fd, bytes, _ in
            let n = Foundation.write(fd, bytes.baseAddress!, bytes.count)
            return (n, n < 0 ? errno : 0)
        },
        rename: { from, to in Foundation.rename(from, to) == 0 ? 0 : errno },
        link: { existing, new in Foundation.link(existing, new) == 0 ? 0 : errno })

    /// The real calls on a disk that has `limit` bytes left: once that many bytes have been written
    /// through this value (on any thread), every further write fails with `ENOSPC`, after writing
    /// what still fits, as a real full disk does. Hard links and renames, which need no data
    /// blocks, still work.
    public static func diskFull(after limit: Int) -> FileSystemCalls {
        let left = ByteBudget(limit)
        var calls = FileSystemCalls.system
        calls.write = { fd, bytes, _ in
            let allowed = left.take(bytes.count)
            guard allowed > 0 else { return (-1, ENOSPC) }
            let n = Foundation.write(fd, bytes.baseAddress!, allowed)
            return (n, n < 0 ? errno : 0)
        }
        return calls
    }
}

/// Bytes still free on a simulated disk, shared by threads.
final class ByteBudget: @unchecked Sendable {
    private let lock = NSLock()
    private var left: Int
    init(_ bytes: Int) { left = max(0, bytes) }
    /// Up to `wanted` bytes of what is left (0 when the disk is full).
    func take(_ wanted: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let n = min(wanted, left)
        left -= n
        return n
    }
}

/// Writes files so that a failure leaves neither a half-written file nor the temporary file: the
/// bytes go to a hidden temporary file in the same folder (same file system), are flushed, and the
/// temporary file is renamed over the destination.
///
/// Temporary names are `.NAME.tmp-PID-RANDOM`; a process killed between writing and renaming
/// leaves one behind, which the export removes when it next runs in that folder (see
/// `isTemporaryName`).
public enum AtomicFile {
    /// True for a name `write` uses while writing (`.NAME.tmp-PID-RANDOM`).
    public static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), let r = name.range(of: ".tmp-", options: .backwards) else { return false }
        let parts = name[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && Int32(parts[0]) != nil && UInt32(parts[1]) != nil
    }

    /// Writes `bytes` to `path` under a temporary name in its folder, then renames it over `path` (throws `RenderError`, `diskFull` for a full disk).
    public static func write(_ bytes: [UInt8], to path: String, using fs: FileSystemCalls = .system) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir) else {
            throw RenderError.unwritableFolder(path: path, reason: "the folder \(folder) does not exist")
        }
        guard isDir.boolValue else {
            throw RenderError.unwritableFolder(path: path, reason: "\(folder) is not a folder")
        }
        let temp = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let e = errno
            if e == ENOSPC || e == EDQUOT { throw RenderError.diskFull(path: path) }
            throw RenderError.unwritableFolder(path: path, reason: String(cString: strerror(e)))
        }
        func fail(_ e: Int32) -> RenderError {
            close(fd)
            unlink(temp)
            if e == ENOSPC || e == EDQUOT { return .diskFull(path: path) }
            return .writeFailed(path: path, reason: String(cString: strerror(e)))
        }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
            while written < raw.count {
                let (n, e) = fs.write(fd, UnsafeRawBufferPointer(rebasing: raw[written...]), path)
                if n < 0 {
                    if e == EINTR { continue }
                    return e
                }
                if n == 0 { return ENOSPC }
                written += n
            }
            return nil
        }
        if let e = failure { throw fail(e) }
        if fsync(fd) != 0 && errno != EINVAL && errno != EROFS { throw fail(errno) }
        if close(fd) != 0 {
            let e = errno
            unlink(temp)
            if e == ENOSPC || e == EDQUOT { throw RenderError.diskFull(path: path) }
            throw RenderError.writeFailed(path: path, reason: String(cString: strerror(e)))
        }
        let e = fs.rename(temp, path)
        if e != 0 {
            unlink(temp)
            throw RenderError.writeFailed(path: path, reason: "rename failed: " + String(cString: strerror(e)))
        }
    }
}
