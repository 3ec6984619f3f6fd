import BubblePlay
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A play server on a free loopback port, for one test.
final class RunningServer: Sendable {
    let server: PlayServer
    let task: Task<Void, Never>
    let port: Int

    init(options: PlayServerOptions = PlayServerOptions(), source: PlaySource = sampleSource) async throws {
        var o = options
        o.port = 0
        // The suite runs many servers and a soak in one process on a loaded machine: a request
        // that waits its turn must not meet the 10 s request limit, unless a test is about it.
        let defaults = PlayServerOptions()
        if o.requestTimeout == defaults.requestTimeout { o.requestTimeout = 120 }
        if o.httpIdleTimeout == defaults.httpIdleTimeout { o.httpIdleTimeout = 120 }
        let server = PlayServer(source: source, options: o)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        task = Task {
            do { try await server.run(handleSignals: false) { continuation.yield($0) } } catch {}
            continuation.finish()
        }
        var it = ports.makeAsyncIterator()
        guard let p = await it.next() else { throw POSIXError(.ECONNREFUSED) }
        self.server = server
        self.port = p
    }

    func stop() async {
        task.cancel()
        await task.value
    }

    var origin: String { "http://127.0.0.1:\(port)" }
}

/// Sends raw bytes of an HTTP request to the loopback port and returns everything the server
/// answers before it closes the connection (or 60 s pass: the server shares the cooperative pool
/// with the rest of a parallel test run). The blocking socket calls run on a
/// Dispatch thread, never on the cooperative pool the server's handlers need.
func rawHTTP(port: Int, _ request: String) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try blockingHTTP(port: port, request) })
        }
    }
}

func blockingHTTP(port: Int, _ request: String) throws -> String {
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

/// What a WebSocket client saw.
struct WSTranscript: Sendable {
    var texts: [String] = []
    var binaries: [Int] = []
    var closed = false
    /// The status code of the server's close frame (RFC 6455 section 7.4), if one came.
    var closeCode: Int?

    var errors: [String] { texts.map(object).filter { $0["type"] as? String == "error" }.compactMap { $0["message"] as? String } }
}

/// A small blocking WebSocket client (RFC 6455: masked client frames, any frame length), so that
/// tests choose every header (HummingbirdWSClient always adds its own Origin). Use it off the
/// cooperative pool: see `onThread`.
final class RawWebSocket: @unchecked Sendable {
    let fd: Int32
    var transcript = WSTranscript()
    private var buffer: [UInt8] = []

    /// Connects and upgrades; throws `CDPError` with the status line when the server refuses.
    init(port: Int, path: String = "/ws", host: String? = nil, origin: String?, receiveBuffer: Int32? = nil) throws {
        fd = try connectLoopback(port: port, receiveBuffer: receiveBuffer)
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        try writeAll(Array((request + "\r\n").utf8))
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 4)
                guard head.hasPrefix("HTTP/1.1 101") else {
                    close(fd)
                    throw CDPError("upgrade refused: \(head.split(separator: "\r\n").first ?? "")")
                }
                return
            }
            guard try fill() else {
                close(fd)
                throw CDPError("connection closed during the upgrade")
            }
        }
    }

    deinit { close(fd) }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i] == needle[0] && Array(buffer[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    /// Set when the last read timed out (the connection is still open).
    private var timedOut = false

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { timedOut = true }
        if n <= 0 { return false }
        buffer += chunk[0..<n]
        return true
    }

    func writeAll(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { throw CDPError("send failed") }
            off += n
        }
    }

    /// Sends a text message (masked, one frame).
    func send(_ text: String) throws { try sendFrame(opcode: 1, Array(text.utf8)) }

    func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let n = payload.count
        if n < 126 {
            frame.append(0x80 | UInt8(n))
        } else if n < 65536 {
            frame += [0x80 | 126, UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            for k in (0..<8).reversed() { frame.append(UInt8((n >> (8 * k)) & 0xFF)) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        for (i, b) in payload.enumerated() { frame.append(b ^ mask[i & 3]) }
        try writeAll(frame)
    }

    /// Reads one message into the transcript; false when the connection is closed or `seconds`
    /// pass without one.
    @discardableResult
    func read(seconds: Double = 60) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var message: [UInt8] = []
        var messageOpcode: UInt8 = 0
        while true {
            timedOut = false
            guard let (fin, opcode, payload) = readFrame() else {
                if !timedOut { transcript.closed = true }
                return false
            }
            switch opcode {
            case 8:
                if payload.count >= 2 { transcript.closeCode = Int(payload[0]) << 8 | Int(payload[1]) }
                transcript.closed = true
                return false
            case 9:
                try? sendFrame(opcode: 10, payload)
                continue
            case 10:
                continue
            case 0:
                message += payload
            default:
                messageOpcode = opcode
                message = payload
            }
            if fin { break }
        }
        if messageOpcode == 1 { transcript.texts.append(String(decoding: message, as: UTF8.self)) } else { transcript.binaries.append(message.count) }
        return true
    }

    /// The last text message read.
    var lastText: String? { transcript.texts.last }

    private func readFrame() -> (Bool, UInt8, [UInt8])? {
        func need(_ n: Int) -> Bool {
            while buffer.count < n { guard (try? fill()) == true else { return false } }
            return true
        }
        guard need(2) else { return nil }
        let fin = buffer[0] & 0x80 != 0, opcode = buffer[0] & 0x0F
        let masked = buffer[1] & 0x80 != 0
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = 0
            for k in 0..<8 { length = length << 8 | Int(buffer[2 + k]) }
            header = 10
        }
        if masked { header += 4 }
        guard need(header + length) else { return nil }
        var payload = Array(buffer[header..<(header + length)])
        if masked {
            let mask = Array(buffer[(header - 4)..<header])
            for i in payload.indices { payload[i] ^= mask[i & 3] }
        }
        buffer.removeFirst(header + length)
        return (fin, opcode, payload)
    }

    /// Reads until `condition` holds on the transcript, the connection closes or `seconds` pass.
    @discardableResult
    func read(until condition: (WSTranscript) -> Bool, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(transcript) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 || transcript.closed { return condition(transcript) }
            read(seconds: min(left, 1))
        }
        return true
    }
}

/// A TCP connection to 127.0.0.1:`port`; `receiveBuffer` (bytes) is set before connecting, so
/// that the window the server sees stays that small.
func connectLoopback(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else {
        close(fd)
        throw POSIXError(.ECONNREFUSED)
    }
    return fd
}

/// Runs blocking work on a Dispatch thread, never on the cooperative pool the server needs.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

struct CDPError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}


/// A value behind a lock, shared by reference between tasks.
final class Box<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ v: Value) { value = Mutex(v) }
    func withLock<R: Sendable>(_ body: (inout sending Value) throws -> sending R) rethrows -> R { try value.withLock(body) }
}
