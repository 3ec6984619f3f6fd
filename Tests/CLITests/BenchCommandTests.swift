import Foundation
import Testing

/// `bubbles bench` on two threads reports the same physics as on one (the bits depend on the
/// bands only), and says how many threads it used; `--rounds` pools fresh worlds' steps.
@Suite struct BenchCommandTests {
    func rows(_ threads: Int, _ extra: [String] = []) throws -> [[String: Any]] {
        let r = try CLIRunner.run([
            "bench", "--bodies", "600", "--warmup", "0", "--steps", "3", "--settle-steps", "0", "--json",
            "--threads", "\(threads)",
        ] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    }

    @Test func twoThreadsGiveTheSameWorld() throws {
        let one = try rows(1), two = try rows(2)
        #expect(one.count == 1 && two.count == 1)
        #expect(one[0]["threads"] as? Int == 1 && two[0]["threads"] as? Int == 2)
        // 600 bodies sweep in two bands; after the same steps the deepest overlap is the same
        // double, printed the same way.
        #expect(one[0]["max_overlap_pt"] as? Double == two[0]["max_overlap_pt"] as? Double)
        #expect(one[0]["overlap_at_step"] as? Int == 3 && two[0]["overlap_at_step"] as? Int == 3)
    }

    @Test func roundsPoolStepsOfFreshWorlds() throws {
        let one = try rows(1), three = try rows(1, ["--rounds", "3", "--bodies", "600,700"])
        #expect(three.count == 2)
        #expect(three.map { $0["rounds"] as? Int } == [3, 3])
        #expect(three.map { $0["steps_measured"] as? Int } == [9, 9])
        // The settled physics comes from the first round's world: the same as a single round.
        #expect(three[0]["max_overlap_pt"] as? Double == one[0]["max_overlap_pt"] as? Double)
        #expect(three[0]["overlap_at_step"] as? Int == 3)
        for row in three {
            let lo = try #require(row["ms_per_step_min"] as? Double)
            let mid = try #require(row["ms_per_step_median"] as? Double)
            let hi = try #require(row["ms_per_step_max"] as? Double)
            #expect(lo <= mid && mid <= hi)
        }
    }

    /// The table ends with the scaling check: the largest world's ns per body-step over the
    /// smallest's, from the rows above it.
    @Test func tableEndsWithTheScaling() throws {
        let r = try CLIRunner.run(["bench", "--bodies", "300,100", "--warmup", "0", "--steps", "3", "--settle-steps", "0"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let ns = Dictionary(uniqueKeysWithValues: lines.dropFirst().compactMap { line -> (Int, Double)? in
            let f = line.split(separator: " ")
            guard f.count >= 5, let n = Int(f[0]), let v = Double(f[4]) else { return nil }
            return (n, v)
        })
        let last = try #require(lines.last)
        #expect(last.hasPrefix("scaling: ns per body-step at 300 bodies / at 100 = "), "\(last)")
        let ratio = try #require(Double(last.split(separator: " ").last.map(String.init) ?? ""))
        let want = try #require(ns[300]) / #require(ns[100])
        #expect(abs(ratio - want) <= 0.01 * want + 0.006)
    }

    /// The 100-body world comes to rest at step 60, inside the timed window (steps 21–120): its
    /// resting steps (free) are not timed, and fresh worlds make up the count.
    @Test func onlyMovingStepsAreTimed() throws {
        let r = try CLIRunner.run(["bench", "--bodies", "100", "--warmup", "20", "--steps", "100", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows[0]["steps_to_rest"] as? Int == 60)
        #expect(rows[0]["overlap_at_step"] as? Int == 60)
        #expect(rows[0]["steps_measured"] as? Int == 100)
    }
}

/// `bubbles bench` has one subcommand per benchmark, each with its own help and options; plain
/// `bubbles bench` is `bench physics`, and the flags that chose a benchmark before the
/// subcommands still work for one release, with a one-line notice on standard error.
@Suite struct BenchSubcommandTests {
    static let subcommands = ["physics", "render", "export", "levels", "play", "pdf", "search"]

    /// The help of `bench` lists every benchmark; each benchmark's help shows its own usage, its
    /// own options and --json, and not the others' options.
    @Test func everyBenchmarkHasItsOwnHelp() throws {
        let top = try CLIRunner.run(["bench", "--help"])
        #expect(top.status == 0, "\(top.stderr)")
        for name in Self.subcommands { #expect(top.stdout.contains("  \(name)"), "\(name) missing from \(top.stdout)") }
        let own: [String: [String]] = [
            "physics": ["--bodies", "--threads", "--csv"], "render": ["--input", "--repeats"], "export": ["--input"],
            "levels": ["--children", "--rounds"], "play": ["--input"], "pdf": ["<directories>", "--pikepdf", "--repeats"],
            "search": ["--reports", "--work"],
        ]
        for name in Self.subcommands {
            let r = try CLIRunner.run(["bench", name, "--help"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("USAGE: bubbles bench \(name)"), "\(r.stdout)")
            #expect(r.stdout.contains("--json"), "\(name): \(r.stdout)")
            for option in own[name] ?? [] { #expect(r.stdout.contains(option), "\(name): \(option) missing") }
            if name != "physics" { #expect(!r.stdout.contains("--bodies"), "\(name): \(r.stdout)") }
            if name != "levels" { #expect(!r.stdout.contains("--children"), "\(name): \(r.stdout)") }
        }
    }

    /// `bench physics` is what plain `bench` runs: the same world, the same JSON.
    @Test func physicsIsTheDefault() throws {
        let args = ["--bodies", "600", "--warmup", "0", "--steps", "3", "--settle-steps", "0", "--json"]
        let plain = try CLIRunner.run(["bench"] + args), named = try CLIRunner.run(["bench", "physics"] + args)
        #expect(plain.status == 0 && named.status == 0, "\(plain.stderr)\(named.stderr)")
        #expect(plain.stderr.isEmpty && named.stderr.isEmpty)
        let a = try #require(JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [[String: Any]])
        let b = try #require(JSONSerialization.jsonObject(with: Data(named.stdout.utf8)) as? [[String: Any]])
        #expect(a.count == 1 && b.count == 1)
        #expect(a[0]["max_overlap_pt"] as? Double == b[0]["max_overlap_pt"] as? Double)
        #expect(a[0]["steps_measured"] as? Int == 3 && b[0]["steps_measured"] as? Int == 3)
    }

    /// The flags that chose a benchmark before the subcommands are gone: each is a usage error.
    @Test(arguments: ["render", "export", "levels", "play", "pdf", "search"])
    func oldModeFlagsAreUsageErrors(_ name: String) throws {
        let r = try CLIRunner.run(["bench", "--" + name])
        #expect(r.status == 64, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.hasPrefix("error: bubbles bench: "), "\(r.stderr)")
    }
}
