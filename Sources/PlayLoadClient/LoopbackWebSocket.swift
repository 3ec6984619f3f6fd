import Foundation

#if canImport(Glibc)
import Glibc
import BubbleSupport
#endif

/// Why a load client could not do what it was asked.
public struct PlaySoakError: Error, CustomStringConvertible, Sendable {
    /// Where: `connect`, `upgrade`, `send`, …
    public var place: String
    /// What went wrong, one line.
    public var message: String
    /// `place: message`.
    public var description: String { "\(place): \(message)" }
}

/// A small blocking WebSocket client for the soak (RFC 6455: masked client frames, any length),
/// on loopback only. It chooses every header and every byte, so it can misbehave on purpose.
/// Not thread-safe: one thread uses it. The package's tests drive the server with it too (through
/// TestSupport's `RawWebSocket`), hence `package`.
package final class LoopbackWebSocket {
    /// What `read` got.
    package enum Event: Equatable {
        case text(String)
        case binary(Int)
        /// The server's close frame, with its status code (0 when it gave none).
        case close(Int)
        /// The connection ended without a close frame.
        case ended
        case timeout
    }

    package let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// The server closed the connection (or it broke).
    private var isEnded = false

    /// Opens a TCP connection to 127.0.0.1:`port`; `receiveBuffer` (bytes) is set before
    /// connecting, so that the window the server sees stays that small.
    package static func connect(port: Int, receiveBuffer: Int32? = nil) throws(PlaySoakError) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PlaySoakError(place: "connect", message: "socket: errno \(errno)") }
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            let e = errno
            close(fd)
            throw PlaySoakError(place: "connect", message: "127.0.0.1:\(port): errno \(e)")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Connects and upgrades `/ws` with this server's Origin; throws when refused.
    convenience init(port: Int, timeout: Double = 10) throws(PlaySoakError) {
        try self.init(port: port, path: "/ws", host: nil, origin: "http://127.0.0.1:\(port)", receiveBuffer: nil, timeout: timeout)
    }

    /// Connects and upgrades `path` with these headers (`host` nil: 127.0.0.1:`port`; `origin`
    /// nil: none); throws when refused (place `upgrade`, the server's status line first).
    package init(port: Int, path: String, host: String?, origin: String?, receiveBuffer: Int32?, timeout: Double) throws(PlaySoakError) {
        fd = try Self.connect(port: port, receiveBuffer: receiveBuffer)
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        do {
            try writeAll(Array(request.utf8))
        } catch {
            close(fd)
            throw error
        }
        let deadline = MonotonicClock.seconds() + timeout
        while true {
            if let end = find([13, 10, 13, 10]) {
                let head = String(decoding: buffer[start..<end], as: UTF8.self)
                start = end + 4
                guard head.hasPrefix("HTTP/1.1 101") else {
                    close(fd)
                    throw PlaySoakError(place: "upgrade", message: String(head.prefix(40)))
                }
                return
            }
            let left = deadline - MonotonicClock.seconds()
            guard left > 0, fill(timeout: left) == .data else {
                close(fd)
                throw PlaySoakError(place: "upgrade", message: "no answer")
            }
        }
    }

    deinit { close(fd) }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count - start >= needle.count else { return nil }
        for i in start...(buffer.count - needle.count) where buffer[i] == needle[0] && buffer[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }

    enum Fill { case data, timeout, ended }

    private func fill(timeout: Double) -> Fill {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ms = Int32(max(0, min(timeout, 60)) * 1000)
        let r = poll(&p, 1, ms)
        if r == 0 { return .timeout }
        if r < 0 {
            if errno == EINTR { return .timeout }
            isEnded = true
            return .ended
        }
        if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return .timeout }
        if n <= 0 {
            isEnded = true
            return .ended
        }
        buffer += chunk[0..<n]
        return .data
    }

    package func writeAll(_ bytes: [UInt8]) throws(PlaySoakError) {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw PlaySoakError(place: "send", message: "errno \(errno)") }
            off += n
        }
    }

    package func send(_ text: String) throws(PlaySoakError) { try sendFrame(opcode: 1, Array(text.utf8)) }

    /// One masked frame.
    package func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) throws(PlaySoakError) {
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
        let mask: [UInt8] = [0x5A, 0x17, 0xC3, 0x8E]
        frame += mask
        frame.reserveCapacity(frame.count + n)
        for (i, b) in payload.enumerated() { frame.append(b ^ mask[i & 3]) }
        try writeAll(frame)
    }

    /// The next message (pings are answered), waiting at most `timeout` seconds.
    package func read(timeout: Double) -> Event {
        let deadline = MonotonicClock.seconds() + timeout
        var message: [UInt8] = []
        var opcode: UInt8 = 0
        while true {
            guard let (fin, op, payload) = frame(deadline: deadline) else {
                return isEnded ? .ended : .timeout
            }
            switch op {
            case 8: return .close(payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 0)
            case 9:
                try? sendFrame(opcode: 10, payload)  // a pong to a closing server may fail
                continue
            case 10: continue
            case 0: message += payload
            default:
                opcode = op
                message = payload
            }
            if fin { break }
        }
        return opcode == 1 ? .text(String(decoding: message, as: UTF8.self)) : .binary(message.count)
    }

    private func frame(deadline: Double) -> (Bool, UInt8, [UInt8])? {
        func need(_ n: Int) -> Bool {
            while buffer.count - start < n {
                let left = deadline - MonotonicClock.seconds()
                guard left > 0, fill(timeout: left) == .data else { return false }
            }
            return true
        }
        guard need(2) else { return nil }
        let b0 = buffer[start], b1 = buffer[start + 1]
        var length = Int(b1 & 0x7F)
        var header = 2
        if length == 126 {
            guard need(4) else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            header = 4
        } else if length == 127 {
            guard need(10) else { return nil }
            length = 0
            for k in 0..<8 { length = length << 8 | Int(buffer[start + 2 + k]) }
            header = 10
        }
        guard need(header + length) else { return nil }
        let payload = Array(buffer[(start + header)..<(start + header + length)])
        start += header + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        return (b0 & 0x80 != 0, b0 & 0x0F, payload)
    }
}
