import BubbleRender
import Foundation

enum FileOps {
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

    /// Removes temporary files (`.NAME.tmp-PID-RANDOM`) that an export killed between writing and
    /// renaming left behind, when the process that made them is gone. Files of live processes (another
    /// part exporting into the same folder) are left alone.
    static func removeStaleTemporaries(_ folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") {
            guard let r = name.range(of: ".tmp-", options: .backwards) else { continue }
            let base = name[name.index(after: name.startIndex)..<r.lowerBound]
            guard base.hasPrefix("frame-") || base.hasPrefix("manifest") || base.hasPrefix("contact-sheet") || base.hasPrefix("index")
            else { continue }
            let parts = name[r.upperBound...].split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// Checks that `folder` exists (creating it and its parents) and can be written to.
    static func prepareFolder(_ folder: String) throws(ExportError) {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDir) {
            guard isDir.boolValue else { throw .unwritableFolder(path: folder, reason: "it is a file, not a folder") }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
                throw .unwritableFolder(path: folder, reason: "cannot create the folder (\(reason))")
            }
        }
        if access(folder, W_OK | X_OK) != 0 {
            throw .unwritableFolder(path: folder, reason: String(cString: strerror(errno)))
        }
    }
}

/// The path of the executable `name` in the first folder of `searchPath` (a colon-separated
/// list; default: the `PATH` environment variable, or `/usr/bin:/bin` without one) that holds an
/// executable file of that name; nil if none does. The tool's one program finder (ffmpeg for
/// `--video`, pdfinfo for `bubbles bench search`).
public func findProgram(_ name: String, searchPath: String? = nil) -> String? {
    let paths = (searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for dir in paths where !dir.isEmpty {
        let candidate = String(dir) + "/" + name
        var isFolder: ObjCBool = false
        if access(candidate, X_OK) == 0, FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder),
           !isFolder.boolValue {
            return candidate
        }
    }
    return nil
}
