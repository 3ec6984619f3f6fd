import Foundation

/// The size and modification time of a file, as `stat` gives them: how the library index tells
/// that a file changed without reading it.
public struct FileStamp: Equatable, Sendable {
    /// Size in bytes.
    public var size: Int
    /// Modification time in nanoseconds since 1970.
    public var modificationTime: Int64

    /// A stamp of these values.
    public init(size: Int, modificationTime: Int64) {
        self.size = size
        self.modificationTime = modificationTime
    }

    /// The stamp of the file at `path`; nil when it cannot be stat'ed (missing, not a file).
    public static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileStamp(size: Int(st.st_size), modificationTime: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }
}
