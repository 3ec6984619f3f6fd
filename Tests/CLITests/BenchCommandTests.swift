import Foundation
import Testing

/// `bubbles bench` on two threads reports the same physics as on one (the bits depend on the
/// bands only), and says how many threads it used.
@Suite struct BenchCommandTests {
    func rows(_ threads: Int) throws -> [[String: Any]] {
        let r = try CLIRunner.run([
            "bench", "--bodies", "600", "--warmup", "0", "--steps", "3", "--settle-steps", "0", "--json",
            "--threads", "\(threads)",
        ])
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
}
