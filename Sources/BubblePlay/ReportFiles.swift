import BubbleSupport
import Foundation
import Hummingbird
import NIOCore
import ReportIndex
import ReportLibrary

/// The reports' PDFs as the play server serves them at `/reports/ID.pdf`, for the preview's
/// "Open PDF": only the files the datasource names, found by report id, never by a path from the
/// request. `application/pdf`, an ETag from the file's SHA-256 (the index's when it is current,
/// else computed once per content and kept), `If-None-Match` → 304, one `Range: bytes=a-b` →
/// 206 (416 when it cannot be met); anything else is a 404.
public final class ReportFiles: Sendable {
    /// The longest request name looked up (bytes, percent-encoded); longer ones are a 404 at once.
    public static let maxNameBytes = 2_048
    /// Bytes read from the file per write to the connection.
    static let chunkBytes = 256 << 10

    /// Report id → the PDF's path as the datasource resolves it.
    let files: [String: String]
    /// Where content hashes are looked up first (nil: computed).
    let index: ReportIndex?
    /// Path → the stamp the ETag was computed for, and the ETag.
    private let etags = Locked<[String: (stamp: FileStamp, etag: String)]>([:])

    /// Serves `files` (report id → PDF path), taking hashes from `index` when it holds them.
    public init(files: [String: String], index: ReportIndex? = nil) {
        self.files = files
        self.index = index
    }

    /// The files of `tree`'s reports (the first report of an id when ids repeat).
    public static func files(of tree: ReportTree) -> [String: String] {
        var files: [String: String] = [:]
        for node in tree.nodes where node.kind == .report {
            if let path = node.resolvedFile, files[node.id] == nil { files[node.id] = path }
        }
        return files
    }

    /// The report id named by the request path `path` (`/reports/ID.pdf`, ID percent-encoded),
    /// when the datasource has such a report with a file; nil otherwise.
    func report(inPath path: String) -> (id: String, file: String)? {
        let prefix = "/reports/"
        guard path.utf8.count <= Self.maxNameBytes + prefix.utf8.count, path.hasPrefix(prefix), path.hasSuffix(".pdf") else { return nil }
        let encoded = path.dropFirst(prefix.count).dropLast(4)
        guard !encoded.isEmpty, !encoded.contains("/"), let id = String(encoded).removingPercentEncoding,
              !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }), let file = files[id]
        else { return nil }
        return (id, file)
    }

    /// The ETag of the file at `path` now (a quoted hex SHA-256), with its stamp; nil when it
    /// cannot be read.
    func etag(_ path: String) -> (etag: String, stamp: FileStamp)? {
        guard let stamp = FileStamp.of(path) else { return nil }
        if let known = etags.withLock({ $0[path] }), known.stamp == stamp { return (known.etag, stamp) }
        var hash: [UInt8]?
        if let record = try? index?.storedFile(atPath: path),  // an index that cannot answer: computed below
           record.size == stamp.size, record.modificationTime == stamp.modificationTime, record.contentHash.count == 32
        {
            hash = record.contentHash
        }
        var taken = stamp
        if hash == nil {
            guard let read = ReportIndex.contentHash(ofFileAt: path) else { return nil }
            hash = read.hash
            taken = read.stamp
        }
        let etag = "\"" + hash!.map { String($0, radix: 16).leftPadded(2) }.joined() + "\""
        etags.withLock { $0[path] = (taken, etag) }
        return (etag, taken)
    }

    /// The response to `request` (GET or HEAD).
    func respond(_ request: Request) -> Response {
        guard let (_, path) = report(inPath: request.uri.path), let (etag, stamp) = etag(path) else { return Self.notFound }
        let size = stamp.size
        var headers: HTTPFields = [
            .contentType: "application/pdf", .eTag: etag, .acceptRanges: "bytes", .cacheControl: "no-cache",
            .contentDisposition: "inline",
        ]
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag) {
            return Response(status: .notModified, headers: headers)
        }
        var range = 0..<size
        var status = HTTPResponse.Status.ok
        if let header = request.headers[.range], request.headers[.ifRange].map({ $0 == etag }) ?? true {
            switch Self.byteRange(header, size: size) {
            case .whole:
                break
            case .part(let part):
                range = part
                status = .partialContent
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
            case .unsatisfiable:
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)", .contentType: "text/plain; charset=utf-8"])
            }
        }
        headers[.contentLength] = String(range.count)
        if request.method == .head { return Response(status: status, headers: headers, body: ResponseBody()) }
        let sent = range
        let body = ResponseBody(contentLength: sent.count) { writer in
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileGone() }
            defer { close(fd) }
            var offset = sent.lowerBound
            while offset < sent.upperBound {
                let want = min(Self.chunkBytes, sent.upperBound - offset)
                var buffer = ByteBuffer()
                buffer.reserveCapacity(want)
                let n = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: want) { raw in
                    max(0, pread(fd, raw.baseAddress, want, off_t(offset)))
                }
                // The file shrank under us: the promised length cannot be sent.
                guard n > 0 else { throw FileGone() }
                offset += n
                try await writer.write(buffer)
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    struct FileGone: Error {}

    static var notFound: Response {
        Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
    }

    /// Whether an `If-None-Match` value names `etag` (or is `*`); weak tags compare by their value.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    /// What a `Range` header asks of a file of `size` bytes.
    enum ByteRange: Equatable {
        /// Not one byte range this server answers with a part (another unit, several ranges, a
        /// malformed value): the whole file, as RFC 9110 allows.
        case whole
        /// One satisfiable range.
        case part(Range<Int>)
        /// One well-formed byte range that starts past the end (or asks for 0 bytes).
        case unsatisfiable
    }

    /// `bytes=a-b`, `bytes=a-` and `bytes=-n` (the last n bytes); `b` past the end is cut to it.
    static func byteRange(_ header: String, size: Int) -> ByteRange {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ s: String) -> Int? {
            guard !s.isEmpty, s.count <= 18, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(s)
        }
        if first.isEmpty {
            guard let n = number(last) else { return .whole }
            if n == 0 || size == 0 { return .unsatisfiable }
            return .part(max(0, size - n)..<size)
        }
        guard let a = number(first) else { return .whole }
        if last.isEmpty {
            return a < size ? .part(a..<size) : .unsatisfiable
        }
        guard let b = number(last), b >= a else { return .whole }
        return a < size ? .part(a..<min(b + 1, size)) : .unsatisfiable
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
