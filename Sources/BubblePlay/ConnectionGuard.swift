import BubbleSupport
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Connections open now, in all and per client address; shared by every connection of a server.
final class ConnectionCounts: Sendable {
    struct State {
        var total = 0
        var perAddress: [String: Int] = [:]
        var refused = 0
        var timedOut = 0
    }

    let maxTotal: Int
    let maxPerAddress: Int
    let state = Locked(State())

    init(maxTotal: Int, maxPerAddress: Int) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
    }

    /// Counts a new connection from `address`; false (and counted as refused) when over a bound.
    func open(_ address: String) -> Bool {
        state.withLock { s in
            guard s.total < maxTotal, s.perAddress[address, default: 0] < maxPerAddress else {
                s.refused += 1
                return false
            }
            s.total += 1
            s.perAddress[address, default: 0] += 1
            return true
        }
    }

    func close(_ address: String) {
        state.withLock { s in
            s.total -= 1
            let n = s.perAddress[address, default: 1] - 1
            s.perAddress[address] = n > 0 ? n : nil
        }
    }

    func timedOut() { state.withLock { $0.timedOut += 1 } }
}

/// The first handler of every connection, before HTTP decoding: it bounds connections per client
/// address and in all, and it closes a connection whose HTTP request does not arrive in time.
///
/// - A request (its head up to the blank line, and a `Content-Length` body) must arrive within
///   `requestTimeout` of its first byte (or of the connection's opening): a client that sends
///   its headers a byte a second is closed. The WebSocket upgrade is such a request.
/// - Between requests, a connection may stay silent for `idleTimeout` after the server's last
///   write (while the server works on an answer, no limit runs).
/// - Once the server answers `101 Switching Protocols`, the WebSocket's own limits apply (the
///   session's idle timeout, pings, the slow-reader bound) and this handler only counts.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    let counts: ConnectionCounts
    let requestTimeout: TimeAmount
    let idleTimeout: TimeAmount
    private var address: String?
    private var active = false
    private var upgraded = false
    private var inRequest = false
    private var window: UInt32 = 0
    private var head: [UInt8] = []
    private var bodyLeft = 0
    private var deadline: Scheduled<Void>?

    init(counts: ConnectionCounts, requestTimeout: TimeAmount, idleTimeout: TimeAmount) {
        self.counts = counts
        self.requestTimeout = requestTimeout
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !active, address == nil else { return }
        let a = context.channel.remoteAddress?.ipAddress ?? "unknown"
        guard counts.open(a) else {
            address = ""
            context.close(promise: nil)
            return
        }
        address = a
        active = true
        // The first request must start and end within the request time.
        inRequest = true
        arm(context, requestTimeout)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    private func release() {
        deadline?.cancel()
        deadline = nil
        if active, let address {
            active = false
            counts.close(address)
        }
    }

    private func arm(_ context: ChannelHandlerContext, _ after: TimeAmount) {
        deadline?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let counts = self.counts
        deadline = context.eventLoop.scheduleTask(in: after) {
            counts.timedOut()
            loopBound.value.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard active else { return }
        if !upgraded {
            let buffer = unwrapInboundIn(data)
            buffer.withUnsafeReadableBytes { scan($0, context) }
        }
        context.fireChannelRead(data)
    }

    private func scan(_ bytes: UnsafeRawBufferPointer, _ context: ChannelHandlerContext) {
        for b in bytes {
            if bodyLeft > 0 {
                bodyLeft -= 1
                if bodyLeft == 0 { requestDone(context) }
                continue
            }
            if !inRequest {
                inRequest = true
                arm(context, requestTimeout)
            }
            if head.count < 16_384 { head.append(b) }
            window = window << 8 | UInt32(b)
            if window == 0x0D0A_0D0A {
                bodyLeft = Self.contentLength(head)
                head.removeAll(keepingCapacity: true)
                window = 0
                if bodyLeft == 0 { requestDone(context) }
            }
        }
    }

    /// A whole request is in: no limit while the server answers (its answer can wait for a busy
    /// moment); the silence between requests counts from the server's last write.
    private func requestDone(_ context: ChannelHandlerContext) {
        inRequest = false
        deadline?.cancel()
        deadline = nil
    }

    /// The `Content-Length` of a request head (0 when none or unreadable: the HTTP decoder
    /// refuses such a request anyway).
    static func contentLength(_ head: [UInt8]) -> Int {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        for line in text.split(separator: "\r\n") where line.hasPrefix("content-length:") {
            return min(Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0, 1 << 20)
        }
        return 0
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !upgraded, case .byteBuffer(let buffer) = unwrapOutboundIn(data),
            buffer.readableBytes >= 12, buffer.getString(at: buffer.readerIndex, length: 12) == "HTTP/1.1 101"
        {
            upgraded = true
            deadline?.cancel()
            deadline = nil
        }
        if !upgraded && !inRequest && active { arm(context, idleTimeout) }
        context.write(data, promise: promise)
    }
}

/// A server child channel that puts a `ConnectionGuard` in front of another one's pipeline.
struct GuardedChannel<Base: ServerChildChannel>: ServerChildChannel {
    typealias Value = Base.Value
    let base: Base
    let counts: ConnectionCounts
    let requestTimeout: TimeAmount
    let idleTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(counts: counts, requestTimeout: requestTimeout, idleTimeout: idleTimeout), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return base.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
