import Foundation
import PDFCore
import PDFMetadata
import ReportLibrary

/// What the index keeps of one PDF file: how to tell that it changed, and what the reader found.
public struct PDFFileRecord: Sendable, Equatable {
    /// The path as the datasource resolves it.
    public var path: String
    /// Size in bytes when read.
    public var size: Int
    /// Modification time when read, in nanoseconds since 1970 (-1: changed while being read, so
    /// the next update reads it again).
    public var modificationTime: Int64
    /// SHA-256 of the bytes read (32 bytes; empty when the file could not be read at all).
    public var contentHash: [UInt8]
    /// The PDF's title (Info or XMP), if any.
    public var title: String?
    /// The PDF's author, if any.
    public var author: String?
    /// The PDF's keywords, in the reader's order.
    public var keywords: [String]
    /// The page count, if the page tree could be read.
    public var pageCount: Int?
    /// The reader's warnings (repairs, fallbacks), one line each.
    public var warnings: [String]
    /// Why the file could not be read as a PDF, if it could not: the reader's error as text.
    public var readError: String?

    /// A record of `path` with nothing read yet.
    public init(
        path: String, size: Int = 0, modificationTime: Int64 = 0, contentHash: [UInt8] = [], title: String? = nil,
        author: String? = nil, keywords: [String] = [], pageCount: Int? = nil, warnings: [String] = [],
        readError: String? = nil
    ) {
        self.path = path
        self.size = size
        self.modificationTime = modificationTime
        self.contentHash = contentHash
        self.title = title
        self.author = author
        self.keywords = keywords
        self.pageCount = pageCount
        self.warnings = warnings
        self.readError = readError
    }
}

extension PDFFileRecord {
    /// The record of the file at `path` read now, as an index update reads it (stamp, SHA-256,
    /// metadata; `readError` when it cannot be read as a PDF), with no index involved: what
    /// `--no-index` shows, the same as the index gives.
    public static func read(_ path: String) -> PDFFileRecord { PDFFileReader.read(path) }
}

enum PDFFileReader {
    /// How often a file that changes while it is read is read again before it is recorded as
    /// changing (and read once more by the next update).
    static let attempts = 3

    /// Reads the file once: its stamp before and after, its bytes, their hash and the metadata.
    /// When the bytes hash as `previous` recorded (only the time moved), `previous` is kept with
    /// the new stamp instead of parsing again. Never throws: a file that cannot be read is a
    /// record with `readError`, as the datasource loader would report it.
    static func read(_ path: String, previous: PDFFileRecord? = nil) -> PDFFileRecord {
        var record = PDFFileRecord(path: path)
        for attempt in 1...attempts {
            guard let (bytes, before) = readBytes(path) else {
                // Size -1 marks a file that is not there: it is read again once it is.
                if FileStamp.of(path) == nil { record.size = -1 }
                // The reader's own error for it, word for word, as without the index.
                do {
                    _ = try PDFDocumentInfo.read(contentsOf: path)
                    record.readError = "cannot read \(path)"
                } catch {
                    record.readError = "\(error)"
                }
                return record
            }
            let after = FileStamp.of(path)
            let hash = Crypto.sha256(bytes)
            if let previous, previous.size >= 0, previous.modificationTime >= 0, !previous.contentHash.isEmpty, hash == previous.contentHash {
                record = previous
                record.size = before.size
                record.modificationTime = before.modificationTime
            } else {
                record = metadata(of: bytes, hash: hash, path: path, stamp: before)
            }
            if after == before { return record }
            if attempt == attempts {
                record.modificationTime = -1
                record.warnings.append("the file changed while it was read; it is read again by the next update")
            }
        }
        return record
    }

    /// The record for `bytes` read from `path`.
    static func metadata(of bytes: [UInt8], hash: [UInt8], path: String, stamp: FileStamp) -> PDFFileRecord {
        var record = PDFFileRecord(path: path, size: stamp.size, modificationTime: stamp.modificationTime, contentHash: hash)
        do {
            let meta = try PDFDocumentInfo.read(data: bytes)
            record.title = meta.title
            record.author = meta.author
            record.keywords = meta.keywords
            record.pageCount = meta.pageCount
            record.warnings = meta.warnings.map(\.description)
        } catch {
            record.readError = "\(error)"
        }
        return record
    }

    /// The whole file and its stamp (taken from the open descriptor before reading).
    static func readBytes(_ path: String) -> ([UInt8], FileStamp)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            errno = EISDIR
            return nil
        }
        let stamp = FileStamp(size: Int(st.st_size), modificationTime: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        var bytes = [UInt8](repeating: 0, count: max(stamp.size, 0))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: [UInt8](repeating: 0, count: max(4096, bytes.count / 2))) }
            let n = bytes.withUnsafeMutableBytes { buffer in
                Foundation.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeSubrange(filled...)
        return (bytes, stamp)
    }
}
