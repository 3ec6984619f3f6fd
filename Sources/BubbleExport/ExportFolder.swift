import BubbleSupport
import Foundation

/// The export's output folder: made ready before the first file, cleared of the temporary files
/// of killed exports, and read back to check what an earlier export left.
enum ExportFolder {
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

    /// Removes temporary files (`.NAME.tmp-PID-RANDOM`) that an export killed between writing and
    /// renaming left behind, when the process that made them is gone. Files of live processes (another
    /// part exporting into the same folder) are left alone.
    static func removeStaleTemporaries(_ folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }  // no folder: nothing to remove
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

    /// The FNV-1a 64 hash and the size of a file's bytes, or nil if it cannot be read.
    static func hashOfFile(_ path: String) -> (hash: UInt64, bytes: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (data.withUnsafeBytes { FNV1a64.hash($0) }, data.count)
    }
}
