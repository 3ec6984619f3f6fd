import PlayLoadClient
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes of an HTTP request to the loopback port and returns everything the server
/// answers before it closes the connection (or 60 s pass: a server may share the cooperative pool
/// with the rest of a parallel test run). The blocking socket calls run on a Dispatch thread,
/// never on the cooperative pool a server's handlers need.
public func rawHTTP(port: Int, _ request: String) async throws -> String {
    try await onThread { try blockingHTTP(port: port, request) }
}

/// `rawHTTP` on the calling thread.
public func blockingHTTP(port: Int, _ request: String) throws -> String {
    let fd = try connectLoopback(port: port)
    defer { close(fd) }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(request.utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 { break }
        out += buffer[0..<n]
        if out.count > 4_000_000 { break }
    }
    return String(decoding: out, as: UTF8.self)
}

/// A TCP connection to 127.0.0.1:`port`; `receiveBuffer` (bytes) is set before connecting, so
/// that the window the server sees stays that small.
public func connectLoopback(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
    do {
        return try LoopbackWebSocket.connect(port: port, receiveBuffer: receiveBuffer)
    } catch {
        throw POSIXError(.ECONNREFUSED)
    }
}

/// Runs blocking work on a Dispatch thread, never on the cooperative pool a server needs.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// What a WebSocket client saw.
public struct WSTranscript: Sendable {
    public var texts: [String] = []
    /// The sizes of the binary messages.
    public var binaries: [Int] = []
    public var closed = false
    /// The status code of the server's close frame (RFC 6455 section 7.4), if one came with one.
    public var closeCode: Int?

    /// The `message` of every `{"type": "error"}` text message.
    public var errors: [String] {
        texts.map(jsonObject).filter { $0["type"] as? String == "error" }.compactMap { $0["message"] as? String }
    }
}

/// A blocking WebSocket client for tests that choose every header (HummingbirdWSClient always
/// adds its own Origin): the play server's own loopback client (`LoopbackWebSocket`, the soak's)
/// with a transcript of what it read. Use it off the cooperative pool: see `onThread`.
public final class RawWebSocket: @unchecked Sendable {
    let client: LoopbackWebSocket
    public var transcript = WSTranscript()

    /// Connects and upgrades `path`; throws `CDPError("upgrade refused: <status line>")` when the
    /// server refuses. `origin` nil sends no Origin header; `host` nil sends this port's.
    public init(port: Int, path: String = "/ws", host: String? = nil, origin: String?, receiveBuffer: Int32? = nil) throws {
        do {
            client = try LoopbackWebSocket(port: port, path: path, host: host, origin: origin, receiveBuffer: receiveBuffer, timeout: 60)
        } catch let error {
            switch error.place {
            case "upgrade" where error.message.hasPrefix("HTTP/"):
                throw CDPError("upgrade refused: " + (error.message.split(separator: "\r\n").first.map(String.init) ?? error.message))
            case "upgrade": throw CDPError("connection closed during the upgrade")
            default: throw CDPError("\(error)")
            }
        }
    }

    /// The socket.
    public var fd: Int32 { client.fd }

    public func writeAll(_ bytes: [UInt8]) throws { try client.writeAll(bytes) }

    /// Sends a text message (masked, one frame).
    public func send(_ text: String) throws { try client.send(text) }

    /// Sends one masked frame.
    public func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) throws {
        try client.sendFrame(opcode: opcode, payload, fin: fin)
    }

    /// Reads one message into the transcript (pings are answered); false when the connection is
    /// closed or `seconds` pass without one.
    @discardableResult
    public func read(seconds: Double = 60) -> Bool {
        switch client.read(timeout: seconds) {
        case .text(let text):
            transcript.texts.append(text)
            return true
        case .binary(let count):
            transcript.binaries.append(count)
            return true
        case .close(let code):
            if code != 0 { transcript.closeCode = code }
            transcript.closed = true
            return false
        case .ended:
            transcript.closed = true
            return false
        case .timeout:
            return false
        }
    }

    /// The last text message read.
    public var lastText: String? { transcript.texts.last }

    /// Reads until `condition` holds on the transcript, the connection closes or `seconds` pass.
    @discardableResult
    public func read(until condition: (WSTranscript) -> Bool, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(transcript) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || transcript.closed { return condition(transcript) }
            read(seconds: min(left, 1))
        }
        return true
    }
}
