import Hummingbird
import HummingbirdCore

/// The play server's checks of who is asking, as one Hummingbird middleware: on a loopback
/// address every HTTP request must name this server in its `Host` (no DNS rebinding), and a
/// WebSocket upgrade must also come with an `Origin` of that same host (no cross-site WebSocket
/// hijacking). On any other address the `Host` is not checked; the `Origin` still is.
///
/// The router runs `handle` for the page, its assets and `/stats`; the WebSocket upgrade is
/// decided before the router, by the upgrade channel, which asks `upgradeAllowed`.
struct HostOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The address the server listens on (`PlayServerOptions.host`).
    let listenHost: String
    /// Whether that address is a loopback one (`PlayServerOptions.isLoopback`).
    let isLoopback: Bool
    /// The port the server listens on: the bound port once running.
    let port: @Sendable () -> Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard hostAllowed(request.head.authority) else { return PlayServer.plain(.forbidden, "host not allowed") }
        return try await next(request, context)
    }

    /// The Host values this server answers to on a loopback address.
    func hostAllowed(_ host: String?) -> Bool {
        guard isLoopback else { return true }
        guard let host else { return false }
        let port = self.port()
        let names = ["127.0.0.1", "localhost", "[::1]", listenHost.contains(":") ? "[\(listenHost)]" : listenHost]
        return names.contains { host == "\($0):\(port)" || (port == 80 && host == $0) }
    }

    /// A WebSocket upgrade needs an allowed Host and an Origin of `http://` that same host.
    func upgradeAllowed(_ request: HTTPRequest) -> Bool {
        guard let host = request.authority, hostAllowed(host) else { return false }
        guard let origin = request.headerFields[.origin] else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }
}
