import BubbleRender
import Foundation

/// A duplicate frame's files: hard links to the first frame's, or copies.
enum FrameLinks {
    /// Makes `destination` a hard link to `source`, atomically (a link under a temporary name, then a
    /// rename over the destination); where the file system has no hard links (or `source` is on
    /// another one), an atomic copy instead.
    static func linkOrCopy(from source: String, to destination: String, using fs: FileSystemCalls = .system) throws {
        let url = URL(fileURLWithPath: destination)
        let temp = url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let linked = fs.link(source, temp)
        if linked == 0 {
            let e = fs.rename(temp, destination)
            if e != 0 {
                unlink(temp)
                throw RenderError.writeFailed(path: destination, reason: "rename failed: " + String(cString: strerror(e)))
            }
            // rename(2) does nothing when both names are already links to the same file.
            unlink(temp)
            return
        }
        if linked == ENOSPC || linked == EDQUOT { throw RenderError.diskFull(path: destination) }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw RenderError.writeFailed(path: destination, reason: "cannot read \(source) to copy it")
        }
        try AtomicFile.write([UInt8](data), to: destination, using: fs)
    }
}
