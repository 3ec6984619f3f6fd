// Where the per-body cost of a step grows with the world. The same kind of 1 000-body pile is
// stepped four ways for each K, beside the standard scene of K × 1 000 bodies:
//   copies:   K copies of one 1 000-body world (seed 2016) stepped in turn: K times the memory,
//             but the same branch outcomes K times over;
//   separate: K independent 1 000-body worlds (seeds 2016, 2017, ...) stepped in turn: the same
//             physics and memory as the copies, but K different patterns of branch outcomes;
//   tiles:    the same K piles as tiles of one world, each springing to its own centre;
//   one pile: the standard scene of K × 1 000 bodies.
// No world comes to rest inside the window (`restSteps` at its maximum): a world at rest steps
// for free, and the piles of different seeds come to rest at different steps.
// Prints ns per body-step, the median over steps 21–120, each the median over interleaved rounds.
//
//   swift run --package-path Benchmarks --scratch-path .build-bench -c release ScalingProbe [K ...] [--rounds R]
import BubblePhysics
import PhysicsFixtures
import Glibc

var ks: [Int] = []
var rounds = 3
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    if a == "--rounds", let r = args.popFirst().flatMap({ Int($0) }), r > 0 { rounds = r; continue }
    guard let k = Int(a), k > 0 else {
        print("usage: ScalingProbe [K ...] [--rounds R]")
        exit(64)
    }
    ks.append(k)
}
if ks.isEmpty { ks = [1, 2, 16, 100] }

/// Median ns per body-step over steps 21–120 of stepping `worlds` in turn.
func measure(_ worlds: [World]) -> Double {
    let bodies = worlds.reduce(0) { $0 + $1.bodyCount }
    for w in worlds { w.step(count: 20) }
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<100 {
        let d = clock.measure { for w in worlds { w.step() } }
        times.append(Double(d.components.seconds) * 1e9 + Double(d.components.attoseconds) * 1e-9)
    }
    times.sort()
    return times[times.count / 2] / Double(bodies)
}

/// Settings under which no world comes to rest inside the measured window.
let restless: WorldSettings = {
    var s = WorldSettings()
    s.restSteps = 10_000
    return s
}()

func copies(_ k: Int) throws -> [World] {
    try (0..<k).map { _ in try BenchmarkScene.standard(count: 1000, seed: 2016).makeWorld(settings: restless) }
}

func separate(_ k: Int) throws -> [World] {
    try (0..<k).map { try BenchmarkScene.standard(count: 1000, seed: UInt64(2016 + $0)).makeWorld(settings: restless) }
}

func tiles(_ k: Int) throws -> [World] {
    let side = Int(Double(k).squareRoot().rounded(.up))
    let w = try World(settings: restless)
    w.reserveCapacity(k * 1000)
    for t in 0..<k {
        let centre = Vector2(Double(t % side) * 2000, Double(t / side) * 2000)
        for b in BenchmarkScene.standard(count: 1000, seed: UInt64(2016 + t)).bodies {
            _ = try w.createBody(BodyDefinition(
                shape: b.shape, position: Vector2(b.position.x + centre.x, b.position.y + centre.y),
                target: centre, spring: BenchmarkScene.spring))
        }
    }
    return [w]
}

func onePile(_ k: Int) throws -> [World] {
    [try BenchmarkScene.standard(count: k * 1000).makeWorld(settings: restless)]
}

let kinds: [(String, (Int) throws -> [World])] = [
    ("copies", copies), ("separate", separate), ("tiles", tiles), ("one pile", onePile),
]
var results = Array(repeating: Array(repeating: [Double](), count: kinds.count), count: ks.count)
for round in 1...rounds {
    for (i, k) in ks.enumerated() {
        for (j, kind) in kinds.enumerated() {
            results[i][j].append(measure(try kind.1(k)))
        }
    }
    print("round \(round) of \(rounds) done")
}
func median(_ v: [Double]) -> Double { let s = v.sorted(); return s[s.count / 2] }
print("K\tbodies\t" + kinds.map(\.0).joined(separator: "\t") + "\t(ns per body-step)")
for (i, k) in ks.enumerated() {
    print("\(k)\t\(k * 1000)\t" + results[i].map { String(Int(median($0).rounded())) }.joined(separator: "\t"))
}
