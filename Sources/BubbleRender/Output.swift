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
    /// The PNG encoder failed (zlib).
    case encoding(String)

    public var description: String {
        switch self {
        case .unwritableFolder(let path, let reason): return "cannot write \(path): \(reason)"
        case .diskFull(let path): return "cannot write \(path): the disk is full"
        case .writeFailed(let path, let reason): return "cannot write \(path): \(reason)"
        case .cairo(let file, let status):
            return file.map { "Cairo failed while writing \($0): \(status)" } ?? "Cairo failed: \(status)"
        case .encoding(let message): return "PNG encoding failed: \(message)"
        }
    }
}

/// Writes files so that a failure leaves neither a half-written file nor the temporary file: the
/// bytes go to a hidden temporary file in the same folder (same file system), are flushed, and the
/// temporary file is renamed over the destination.
public enum AtomicFile {
    public static func write(_ bytes: [UInt8], to path: String) throws {
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
                let n = Foundation.write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
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
        if rename(temp, path) != 0 {
            let e = errno
            unlink(temp)
            throw RenderError.writeFailed(path: path, reason: "rename failed: " + String(cString: strerror(e)))
        }
    }
}
