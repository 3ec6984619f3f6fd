import Foundation

/// Where a PostgreSQL index lives: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE?PARAMS`.
///
/// Parameters: `sslmode` (`disable`, `prefer` (default), `require`, `verify-full`), `host` (a
/// folder holding the server's Unix socket, in place of the URL's host), `port` (the port, also
/// naming the socket), `datasource` (the name the
/// datasource's tables live under, as the schema `bubbles_NAME`), `pool_size` (connections kept
/// per process, default 4). The password comes from the URL, else `PGPASSWORD`, else the file
/// `PGPASSFILE` (default `~/.pgpass`) in libpq's format; it is never printed.
struct PostgresLocation: Sendable {
    var user: String
    var password: String?
    var host: String?
    var port: Int
    var socketFolder: String?
    var database: String
    var sslMode: String
    var datasource: String
    var poolSize: Int
    /// The URL as given, without its password.
    var redacted: String

    /// Whether `location` names a PostgreSQL index rather than an SQLite file.
    static func isURL(_ location: String) -> Bool {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
    }

    /// The URL without its password (`postgres://user:secret@host/db` → `postgres://user@host/db`).
    static func redact(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else {
            // Not a URL: drop anything between "://" and "@".
            if let scheme = url.range(of: "://"), let at = url.range(of: "@", range: scheme.upperBound..<url.endIndex),
               let colon = url.range(of: ":", range: scheme.upperBound..<at.lowerBound) {
                return String(url[..<colon.lowerBound]) + String(url[at.lowerBound...])
            }
            return url
        }
        parts.password = nil
        return parts.string ?? url
    }

    /// The characters a datasource name may hold (it names a schema).
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 50
            && name.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" }
    }

    /// The datasource name a datasource file gets unless the URL gives one: its file name without
    /// `.json`, lower case, other characters than letters and digits as `_`.
    static func defaultName(forDatasource datasource: String) -> String {
        var base = (datasource as NSString).lastPathComponent
        if base.hasSuffix(".json") { base = String(base.dropLast(5)) }
        let name = String(String.UnicodeScalarView(base.lowercased().unicodeScalars.map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? scalar : "_"
        }).prefix(50))
        return name.isEmpty ? "default" : name
    }

    init(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(IndexError) {
        redacted = Self.redact(url)
        let fail = { (message: String) in IndexError(.database, path: Self.redact(url), message) }
        guard let parts = URLComponents(string: url), parts.scheme == "postgres" || parts.scheme == "postgresql" else {
            throw fail("not a PostgreSQL URL; write postgres://USER@HOST:PORT/DATABASE")
        }
        var query: [String: String] = [:]
        for item in parts.queryItems ?? [] { query[item.name] = item.value ?? "" }
        user = parts.user ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        host = parts.host.flatMap { $0.isEmpty ? nil : $0 }
        port = parts.port ?? Int(query["port"] ?? "") ?? Int(environment["PGPORT"] ?? "") ?? 5432
        socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if socketFolder != nil { host = nil }
        if host == nil && socketFolder == nil { socketFolder = environment["PGHOST"].flatMap { $0.hasPrefix("/") ? $0 : nil } }
        if host == nil && socketFolder == nil { host = "localhost" }
        var path = parts.path
        if path.hasPrefix("/") { path.removeFirst() }
        database = path.isEmpty ? user : path
        sslMode = query["sslmode"] ?? "prefer"
        guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(sslMode) else {
            throw fail("sslmode '\(sslMode)' is not one of disable, prefer, require, verify-full")
        }
        datasource = (query["datasource"] ?? "default").lowercased()
        guard Self.isValidName(datasource) else {
            throw fail("datasource '\(datasource)' must be 1 to 50 ASCII letters, digits and '_'")
        }
        poolSize = Int(query["pool_size"] ?? "") ?? 4
        guard (1...256).contains(poolSize) else { throw fail("pool_size must be within 1...256") }
        password = parts.password ?? environment["PGPASSWORD"]
        if password == nil {
            let file = environment["PGPASSFILE"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.pgpass")
            password = Self.passFileEntry(file, host: host ?? "localhost", port: port, database: database, user: user)
        }
    }

    /// The password for these coordinates in a libpq password file (`host:port:db:user:password`,
    /// `*` matching anything, `\:` and `\\` escaped), or nil.
    static func passFileEntry(_ file: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }  // no file: no password
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = []
            var field = ""
            var escaped = false
            for c in line {
                if escaped {
                    field.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == ":" && fields.count < 4 {
                    fields.append(field)
                    field = ""
                } else {
                    field.append(c)
                }
            }
            fields.append(field)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The schema a datasource's tables live in.
    var schema: String { "bubbles_" + datasource }
}
