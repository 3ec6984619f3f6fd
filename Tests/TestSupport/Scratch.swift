import Foundation

/// A fresh temporary folder for one test (`<tmp>/<name>-<UUID>`), removed by `remove()`:
///
///     let s = try Scratch("bubbles-export")
///     defer { s.remove() }
public struct Scratch: Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Creates the folder; `name` starts its name, so a left-over folder says which tests made it.
    public init(_ name: String = "bubbles-test") throws {
        path = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` (UTF-8) to the file `name` in the folder and returns its path.
    @discardableResult
    public func write(_ text: String, _ name: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The names in `folder` (any folder, not only this one), sorted.
    public func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    /// The bytes of `file`; empty if it cannot be read.
    public func bytes(_ file: String) -> [UInt8] {
        FileManager.default.contents(atPath: file).map { [UInt8]($0) } ?? []
    }
}
