import Foundation
import TestSupport
import Testing

@testable import ReportIndex

/// `bubbles index` and `bubbles search` on a PostgreSQL index: the same answers as the SQLite
/// file, killed indexers, two indexers of one datasource, many searchers with indexers, and the
/// one-line errors. Skipped unless `BUBBLES_TEST_POSTGRES_URL` names a server (scripts/test.sh
/// starts a throw-away one).
@Suite(.enabled(if: PostgresTestServer.url != nil, "no PostgreSQL server (set BUBBLES_TEST_POSTGRES_URL)"))
struct PostgresCommandTests {
    static var serverURL: String? { PostgresTestServer.url }

    /// A datasource of its own in the test database (dropped by `drop`).
    static func url(_ name: String) -> String {
        let url = serverURL ?? "postgres://localhost/none"
        let unique = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        return url + (url.contains("?") ? "&" : "?") + "datasource=c_\(unique)_\(name)"
    }

    static func drop(_ location: String) {
        guard let place = try? PostgresLocation(location) else { return }
        let store = PostgresStore(location: place)
        _ = try? store.withConnection { c in try store.execute(c, "DROP SCHEMA IF EXISTS \(store.quotedSchema) CASCADE") }  // cleanup only
    }

    func scratch(_ name: String) throws -> String {
        let folder = NSTemporaryDirectory() + "bubbles-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func searchAnswersAsTheSQLiteFileDoes() throws {
        let folder = try scratch("pg-same")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let sqlite = folder + "/sample.index.sqlite"
        let postgres = Self.url("same")
        defer { Self.drop(postgres) }
        for index in [sqlite, postgres] {
            let built = try CLIRunner.run(["index", "--index", index, "--json"])
            #expect(built.status == 0, "\(built.stderr)")
        }
        let queries: [[String]] = [
            ["zurich"], ["rev"], ["r"], ["review 2016"], ["\"board minutes\""], ["報告"], ["q"], [""], ["", "--keyword", "zurich"],
            ["review", "--in", "sales"], ["2016", "--limit", "3"], ["NEAR(a b)"], ["*"], ["a OR b"], ["'; DROP TABLE report; --"],
            ["%"], ["\\"], ["pdfannot"], ["corrected"],
        ]
        for query in queries {
            let a = try CLIRunner.run(["search"] + query + ["--index", sqlite, "--json", "--facets"])
            let b = try CLIRunner.run(["search"] + query + ["--index", postgres, "--json", "--facets"])
            #expect(a.status == 0 && b.status == 0, "\(query): \(a.stderr) \(b.stderr)")
            #expect(a.stdout == b.stdout, "\(query)")
        }
        // The password of a URL is never printed.
        let secret = postgres.replacingOccurrences(of: "bubbles@", with: "bubbles:s3cret@")
        let shown = try CLIRunner.run(["index", "--index", secret, "--json"])
        #expect(!shown.stdout.contains("s3cret") && !shown.stderr.contains("s3cret"), "\(shown.stdout) \(shown.stderr)")
    }

    @Test func badLocationsSayWhatToDoInOneLine() throws {
        let base = Self.serverURL ?? ""
        let cases: [(String, String)] = [
            ("postgres://bubbles:hunter2@127.0.0.1:1/bubbles?sslmode=disable", "cannot connect"),
            (base.replacingOccurrences(of: "/bubbles?", with: "/nosuchdb?"), "no database 'nosuchdb'"),
            (base.replacingOccurrences(of: "bubbles@", with: "nobody_here:hunter2@"), "refused"),
            (base + "&datasource=bad-name!", "datasource"),
            (base + "&sslmode=sometimes", "sslmode"),
        ]
        for (url, expected) in cases {
            let result = try CLIRunner.run(["search", "x", "--index", url])
            #expect(result.status == 1, "\(url)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(!result.stderr.contains("hunter2"), "\(result.stderr)")
        }
    }

    @Test func aNewerSchemaIsRefusedAndAnOlderOneMigrated() throws {
        let url = Self.url("versions")
        defer { Self.drop(url) }
        #expect(try CLIRunner.run(["index", "--index", url]).status == 0)
        let store = PostgresStore(location: try PostgresLocation(url))
        _ = try store.withConnection { c in try store.execute(c, "UPDATE meta SET value = '99' WHERE key = 'schema_version'") }
        let newer = try CLIRunner.run(["index", "--index", url])
        #expect(newer.status == 1 && newer.stderr.contains("newer bubbles (schema version 99"), "\(newer.stderr)")
        #expect(newer.stderr.split(separator: "\n").count == 1, "\(newer.stderr)")
        _ = try store.withConnection { c in try store.execute(c, "UPDATE meta SET value = '1' WHERE key = 'schema_version'") }
        let migrated = try CLIRunner.run(["index", "--index", url, "--json"])
        #expect(migrated.status == 0 && migrated.stderr.contains("rebuilding"), "\(migrated.stderr)")
        let search = try CLIRunner.run(["search", "zurich", "--index", url, "--json"])
        #expect(search.status == 0 && search.stdout.contains("\"total\": "), "\(search.stderr)")
    }

    @Test func aReaderRoleWithSelectOnlySearchesAndCannotIndex() throws {
        let url = Self.url("roles")
        defer { Self.drop(url) }
        #expect(try CLIRunner.run(["index", "--index", url]).status == 0)
        let store = PostgresStore(location: try PostgresLocation(url))
        let role = "reader_" + store.location.datasource.suffix(12)
        _ = try store.withConnection { c in
            _ = try store.execute(c, "DROP ROLE IF EXISTS \(role)")
            _ = try store.execute(c, "CREATE ROLE \(role) LOGIN")
            _ = try store.execute(c, "GRANT USAGE ON SCHEMA \(store.quotedSchema) TO \(role)")
            _ = try store.execute(c, "GRANT SELECT ON ALL TABLES IN SCHEMA \(store.quotedSchema) TO \(role)")
        }
        defer {
            _ = try? store.withConnection { c in  // cleanup only
                _ = try store.execute(c, "DROP OWNED BY \(role)")
                _ = try store.execute(c, "DROP ROLE \(role)")
            }
        }
        let asReader = url.replacingOccurrences(of: "://bubbles@", with: "://\(role)@")
        let search = try CLIRunner.run(["search", "zurich", "--index", asReader, "--json"])
        #expect(search.status == 0 && search.stdout.contains("\"total\": 2"), "\(search.stderr)")
        let index = try CLIRunner.run(["index", "--index", asReader])
        #expect(index.status == 1 && index.stderr.contains("may not write the index"), "\(index.stderr)")
    }

    @Test func aSecondIndexerOfOneDatasourceWaitsThenSaysWhy() throws {
        let url = Self.url("locked")
        defer { Self.drop(url) }
        let holder = try ReportIndex.open(at: url)
        let start = Date()
        let result = try CLIRunner.run(["index", "--index", url, "--wait", "0.5"])
        #expect(result.status == 1)
        #expect(Date().timeIntervalSince(start) >= 0.45)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("another process is updating the index"), "\(result.stderr)")
        // Another datasource in the same database is not held up.
        let other = Self.url("free")
        defer { Self.drop(other) }
        let free = try CLIRunner.run(["index", "--index", other, "--wait", "0"])
        #expect(free.status == 0, "\(free.stderr)")
        withExtendedLifetime(holder) {}
    }

    @Test func killedIndexersLeaveTheLastCommitAndTheNextRunFinishes() throws {
        let folder = try scratch("pg-killed")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = try IndexCommandTests().distinctLibrary(in: folder, copies: 4)
        let index = Self.url("killed")
        let clean = Self.url("clean")
        defer { Self.drop(index); Self.drop(clean) }
        let reference = try CLIRunner.run(["index", data, "--index", clean, "--jobs", "1"])
        #expect(reference.status == 0, "\(reference.stderr)")
        var outcomes: [String] = []
        for delay in [0, 30, 60, 100, 150, 250, 400, 700] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.binFolder + "/bubbles")
            process.arguments = ["index", data, "--index", index, "--jobs", "1", "--wait", "5"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(delay * 1000))
            let killed = process.isRunning && kill(process.processIdentifier, SIGKILL) == 0
            process.waitUntilExit()
            outcomes.append(killed && process.terminationReason == .uncaughtSignal ? "killed after \(delay) ms" : "finished before \(delay) ms")
            if outcomes.last!.hasPrefix("finished") { break }
        }
        #expect(outcomes.contains { $0.hasPrefix("killed after") && $0 != "killed after 0 ms" }, "\(outcomes)")
        let resumed = try CLIRunner.run(["index", data, "--index", index, "--json", "--wait", "5"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try dumpIndex(index) == dumpIndex(clean), "\(outcomes)")
    }

    @Test func eightSearchersAndTwoIndexersAtOnce() throws {
        let folder = try scratch("pg-busy")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let data = try IndexCommandTests().distinctLibrary(in: folder, copies: 2)
        let shared = Self.url("busy")
        defer { Self.drop(shared) }
        #expect(try CLIRunner.run(["index", data, "--index", shared]).status == 0)
        let index = try ReportIndex.open(at: shared, mode: .readOnly)
        let failures = Locked(0)
        let finished = DispatchGroup()
        // Threads of their own: concurrentPerform runs no more at once than there are cores.
        for worker in 0..<10 { finished.enter(); Thread { defer { finished.leave() }; Self.busyWorker(worker, folder: folder, data: data, shared: shared, index: index, failures: failures) }.start() }
        finished.wait()
        #expect(failures.value == 0)
    }

    static func busyWorker(_ worker: Int, folder: String, data: String, shared: String, index: ReportIndex, failures: Locked) {
        do {
            if worker < 2 {
                // Two indexers of the one datasource, with its PDFs touched between runs: they take turns.
                for round in 0..<3 {
                    var times = [timespec(tv_sec: 1_600_000_000 + round * 2 + worker, tv_nsec: 0), timespec(tv_sec: 1_600_000_000 + round * 2 + worker, tv_nsec: 0)]
                    if let files = try? FileManager.default.contentsOfDirectory(atPath: folder + "/pdf") {
                        for file in files { utimensat(AT_FDCWD, folder + "/pdf/" + file, &times, 0) }
                    }
                    let run = try? CLIRunner.run(["index", data, "--index", shared, "--wait", "60"])
                    if run?.status != 0 { failures.add(1) }
                }
            } else {
                for i in 0..<40 {
                    let query = ["report", "rev", "r", "2016", "review", "z"][i % 6]
                    guard let found = try? index.search(SearchQuery(query), withFacets: true), found.total >= 0 else {
                        failures.add(1)
                        continue
                    }
                }
            }
        }
    }
}

/// An integer shared between threads.
final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Int
    init(_ value: Int) { stored = value }
    var value: Int { lock.withLock { stored } }
    func add(_ n: Int) { lock.withLock { stored += n } }
}

/// The test server, from `BUBBLES_TEST_POSTGRES_URL` (scripts/test.sh starts one); nil: none.
enum PostgresTestServer {
    static let url: String? = {
        let url = ProcessInfo.processInfo.environment["BUBBLES_TEST_POSTGRES_URL"] ?? ""
        return url.isEmpty ? nil : url
    }()
}
