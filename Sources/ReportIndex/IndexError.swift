/// Why the index could not be opened, updated or searched. The message names the index file
/// and, where there is one, the way out (waiting, rebuilding); when keeping the index at another
/// path would get round the failure, `elsewhereHelps` says so, for a host to name its own option.
public struct IndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Equatable {
        /// The index file or its folder cannot be written (a read-only folder): keep it elsewhere.
        case notWritable
        /// Another process is updating the index, and did not finish within the wait.
        case locked
        /// SQLite failed (disk full, I/O error); the database keeps its last committed state.
        case database
        /// The database file is damaged (found while reading it); updating rebuilds it.
        case damaged
        /// `--in` names no category of the index.
        case unknownCategory
    }

    /// The kind of failure.
    public var kind: Kind
    /// The index file concerned.
    public var path: String
    /// What went wrong, in one line.
    public var message: String
    /// Whether keeping the index at another path would get round the failure (its file or folder
    /// cannot be written here). Default false.
    public var elsewhereHelps: Bool

    /// An error of `kind` about the index at `path`; `elsewhereHelps` when another path would do.
    public init(_ kind: Kind, path: String, _ message: String, elsewhereHelps: Bool = false) {
        self.kind = kind
        self.path = path
        self.message = message
        self.elsewhereHelps = elsewhereHelps
    }

    /// `PATH: MESSAGE`.
    public var description: String { "\(path): \(message)" }
}
