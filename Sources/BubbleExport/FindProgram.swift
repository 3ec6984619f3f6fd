import Foundation

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
