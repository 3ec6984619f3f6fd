import BubbleSupport
import Dispatch
import Foundation
import ReportIndex

/// `bubbles bench search --index postgres://…`: the PostgreSQL store against the SQLite file in
/// the same run, on the same generated library: a cold `bubbles index` (reports per second), the
/// keystrokes and facets, and 8 searching threads while 2 `bubbles index` processes build two other
/// datasources' indexes from nothing (latency median and p99, errors).
extension SearchBench {
    /// The keystrokes of ``queries``, each prefix once.
    static var keystrokes: [String] {
        var all: [String] = []
        for query in queries {
            var typed = ""
            for character in query {
                typed.append(character)
                all.append(typed)
            }
        }
        return all
    }

    /// Search and facet milliseconds of every keystroke on `index`, and the slowest of each.
    static func typing(_ index: ReportIndex) throws -> (search: [Double], facets: [Double], slowest: String, slowestFacets: String) {
        var times: [Double] = []
        var facetTimes: [Double] = []
        var slowest: [(Double, String, Int)] = []
        var slowestFacets: [(Double, String)] = []
        for typed in keystrokes {
            let q = SearchQuery(typed)
            let t0 = MonotonicClock.seconds()
            let found = try index.search(q, options: SearchOptions(limit: 50))
            times.append((MonotonicClock.seconds() - t0) * 1000)
            slowest.append((times.last!, typed, found.total))
            let t1 = MonotonicClock.seconds()
            _ = try index.facets(q, options: SearchOptions(facetLimit: 50))
            facetTimes.append((MonotonicClock.seconds() - t1) * 1000)
            slowestFacets.append((facetTimes.last!, typed))
        }
        slowest.sort { $0.0 > $1.0 }
        slowestFacets.sort { $0.0 > $1.0 }
        return (times, facetTimes, slowest.prefix(8).map { "'\($0.1)' \(fmt($0.0)) ms (\($0.2) matches)" }.joined(separator: ", "),
                slowestFacets.prefix(5).map { "'\($0.1)' \(fmt($0.0)) ms" }.joined(separator: ", "))
    }

    /// 8 threads searching every keystroke in turn on `index` while `indexers` run as processes;
    /// the searches' milliseconds and the errors of both.
    static func underLoad(_ index: ReportIndex, indexers: [[String]]) -> (times: [Double], errors: Int, indexerSeconds: [Double]) {
        let times = LockedList()
        let errors = LockedCount()
        let done = LockedCount()
        let seconds = LockedList()
        let strokes = keystrokes
        // Threads of their own (concurrentPerform runs no more at once than there are cores).
        let finished = DispatchGroup()
        for worker in 0..<(8 + indexers.count) {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                if worker >= 8 {
                    do {
                        seconds.append(try timeProcess(indexers[worker - 8]))
                    } catch {
                        errors.add()
                    }
                    done.add()
                    return
                }
                var i = worker * 17
                // At least one pass over the keystrokes, and on until the indexers are done.
                var passes = 0
                while passes < strokes.count || done.value < indexers.count {
                    let t0 = MonotonicClock.seconds()
                    if (try? index.search(SearchQuery(strokes[i % strokes.count]), options: SearchOptions(limit: 50))) == nil { errors.add() }
                    times.append((MonotonicClock.seconds() - t0) * 1000)
                    i += 1
                    passes += 1
                }
            }
            thread.start()
        }
        finished.wait()
        return (times.values.sorted(), errors.value, seconds.values)
    }

    /// The comparison rows, appended to `row`.
    static func compareStores(
        postgres url: String, library datasource: String, sqlite: String, reports: Int, work: String,
        row: inout [(String, String)], quick: Bool = false, progress: (String) -> Void
    ) throws {
        func named(_ name: String) -> String {
            var parts = URLComponents(string: url)!
            parts.queryItems = (parts.queryItems ?? []).filter { $0.name != "datasource" } + [URLQueryItem(name: "datasource", value: name)]
            return parts.string!
        }
        let main = named("bench")
        // `--typing-only`: the index of an earlier run is kept (the "cold" run is then an update).
        if !quick { try ReportIndex.remove(at: main) }
        let cold = try timeProcess(["index", datasource, "--index", main, "--no-thumbnails", "--json"] + nodeLimit(reports))
        var warm: [Double] = []
        for _ in 0..<3 { warm.append(try timeProcess(["index", datasource, "--index", main, "--no-thumbnails", "--json"] + nodeLimit(reports))) }
        row += [("pg_cold_index_s", fmt(cold)), ("pg_cold_reports_per_s", fmt(Double(reports) / cold)),
                ("pg_warm_index_s", fmt(BenchStatistics.median(warm)))]
        progress("  postgres index: cold \(fmt(cold)) s (\(fmt(Double(reports) / cold)) reports/s), warm \(fmt(BenchStatistics.median(warm))) s")

        let pg = try ReportIndex.open(at: main, mode: .readOnly)
        let lite = try ReportIndex.open(at: sqlite, mode: .readOnly)
        // Both stores answer alike (the ids, totals, spans and facets of every keystroke).
        var differ = 0
        for typed in keystrokes {
            let q = SearchQuery(typed)
            if try pg.search(q, withFacets: true) != lite.search(q, withFacets: true) { differ += 1 }
        }
        row.append(("stores_differ_keystrokes", String(differ)))
        for (name, index) in [("sqlite", lite), ("pg", pg)] {
            let (times, facets, slowest, slowestFacets) = try typing(index)
            progress("  \(name), slowest keystrokes: \(slowest); slowest facets: \(slowestFacets)")
            row += [("\(name)_p50_ms", fmt(BenchStatistics.median(times))), ("\(name)_p99_ms", fmt(BenchStatistics.percentile(times, 0.99))),
                    ("\(name)_facets_p50_ms", fmt(BenchStatistics.median(facets))), ("\(name)_facets_p99_ms", fmt(BenchStatistics.percentile(facets, 0.99)))]
            progress("  \(name): keystrokes median \(fmt(BenchStatistics.median(times))) ms, p99 \(fmt(BenchStatistics.percentile(times, 0.99))) ms; facets median \(fmt(BenchStatistics.median(facets))) ms, p99 \(fmt(BenchStatistics.percentile(facets, 0.99))) ms")
        }
        if quick { return }
        // 8 searchers and 2 indexers building two other datasources from nothing.
        let sqliteOthers = [work + "/load-1.index.sqlite", work + "/load-2.index.sqlite"]
        let pgOthers = [named("bench_load_1"), named("bench_load_2")]
        for (name, index, others) in [("sqlite", lite, sqliteOthers), ("pg", pg, pgOthers)] {
            for other in others { try ReportIndex.remove(at: other) }
            let load = underLoad(index, indexers: others.map { ["index", datasource, "--index", $0, "--no-thumbnails", "--json"] + nodeLimit(reports) })
            row += [("\(name)_load_searches", String(load.times.count)), ("\(name)_load_p50_ms", fmt(BenchStatistics.median(load.times))),
                    ("\(name)_load_p99_ms", fmt(BenchStatistics.percentile(load.times, 0.99))), ("\(name)_load_errors", String(load.errors)),
                    ("\(name)_load_index_s", fmt(load.indexerSeconds.max() ?? 0))]
            progress("  \(name), 8 searchers + 2 indexers: \(load.times.count) searches, median \(fmt(BenchStatistics.median(load.times))) ms, p99 \(fmt(BenchStatistics.percentile(load.times, 0.99))) ms, \(load.errors) errors; indexers \(load.indexerSeconds.map(fmt).joined(separator: ", ")) s")
            for other in others { try ReportIndex.remove(at: other) }
        }
    }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Double] = []
    func append(_ x: Double) { lock.withLock { stored.append(x) } }
    var values: [Double] { lock.withLock { stored } }
}

final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    func add() { lock.withLock { stored += 1 } }
    var value: Int { lock.withLock { stored } }
}
