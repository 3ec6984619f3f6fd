import BubblePhysics
import BubbleThreads
import Testing

/// Pinned results: the same scene and calls must give the same bits in debug and release builds
/// (CI runs `swift test --filter Determinism` in both). If a deliberate change to the solver
/// alters them, re-pin all of them in the same commit and say why.
@Suite struct Determinism {
    struct Pin: CustomTestStringConvertible, Sendable {
        let scene: String
        let restStep: Int
        let hash: UInt64
        var testDescription: String { scene }
    }

    static let pins: [Pin] = [
        // standard-1000 and standard-10000 sweep in two row bands (worlds of 512 bodies and
        // more), share their pair lists between a step's sub-steps and size the lists' margin
        // to their speeds (`World.step()`).
        Pin(scene: "circles", restStep: 363, hash: 4392859975857088133),
        Pin(scene: "mixed", restStep: 279, hash: 3225421640924145065),
        Pin(scene: "huge", restStep: 57, hash: 3912598708988624372),
        Pin(scene: "drag", restStep: 258, hash: 15795841286137919295),
        Pin(scene: "standard-1000", restStep: 230, hash: 8322397901920721244),
        // The 10 000-body standard pile, which never rests without the drive allowance (it still
        // flows at 50 pt/s after 3 000 steps).
        Pin(scene: "standard-10000", restStep: 87, hash: 10390609345310091485),
    ]

    static func run(_ scene: String) throws -> World {
        switch scene {
        case "circles":
            let w = try Scenes.circles(24)
            w.step(count: 3000, untilRest: true)
            return w
        case "mixed":
            let w = try Scenes.mixed(30)
            w.step(count: 3000, untilRest: true)
            return w
        case "standard-1000":
            // The benchmark's standard scene (`bubbles bench`): 1 000 bodies from a heavily
            // overlapping start; the target is rest within 300 steps.
            let w = try BenchmarkScene.standard(count: 1000).makeWorld(settings: WorldSettings())
            w.step(count: 300, untilRest: true)
            return w
        case "standard-10000":
            let w = try BenchmarkScene.standard(count: 10_000).makeWorld(settings: WorldSettings())
            w.step(count: 300, untilRest: true)
            return w
        case "huge":
            let w = try Scenes.hugeAmongSmall(50)
            w.step(count: 3000, untilRest: true)
            return w
        default:
            // A drag: one body becomes kinematic, moves along a path with coupled followers,
            // is released and the layout settles, then one body is removed and one added.
            let w = try Scenes.mixed(16, seed: 5)
            let ids = w.bodyIDs
            w.step(count: 30)
            try w.setKinematic(ids[0], true)
            var couplings: [CouplingID] = []
            let p0 = try w.position(of: ids[0])
            for id in ids.dropFirst().prefix(5) {
                let off = try w.position(of: id) - p0
                couplings.append(try w.addCoupling(
                    from: ids[0], to: id, offset: off, spring: Spring(frequency: 3, dampingRatio: 1)))
            }
            for k in 1...40 {
                try w.moveKinematic(ids[0], to: p0 + Vector2(Double(k) * 3, Double(k) * -1.5))
                w.step()
            }
            for c in couplings { try w.removeCoupling(c) }
            try w.setKinematic(ids[0], false)
            try w.setTarget(of: ids[0], to: .zero)
            try w.removeBody(ids[3])
            _ = try w.createBody(BodyDefinition(
                shape: .circle(radius: 15), position: Vector2(0, 0), target: .zero, spring: Scenes.spring))
            w.step(count: 3000, untilRest: true)
            return w
        }
    }

    @Test(arguments: pins)
    func pinnedRestStepAndHash(pin: Pin) throws {
        let w = try Self.run(pin.scene)
        #expect(w.isAtRest)
        #expect(w.maxOverlap().depth <= 0.5, "settled overlap of \(pin.scene)")
        #expect(w.restStep == pin.restStep, "rest step of \(pin.scene)")
        #expect(w.stateHash == pin.hash, "state hash of \(pin.scene): 0x\(String(w.stateHash, radix: 16))")
    }

    /// A world of `World.bandMinBodies` bodies or more sweeps in row bands; the bits depend on
    /// `settings.bands` only, never on the executor or its thread count.
    static let bandedPins: [(bands: Int, hash: UInt64)] = [(2, 0xceb2_1e96_7b90_fa47), (3, 0x958a_9d33_c17c_41a5)]

    static func banded(bands: Int, threads: Int) throws -> World {
        var settings = WorldSettings()
        settings.bands = bands
        let w = try BenchmarkScene.standard(count: 5000, seed: 7).makeWorld(settings: settings)
        let pool = threads > 1 ? WorkerPool(threads: threads) : nil
        w.executor = pool?.executor
        w.step(count: 30)
        w.executor = nil
        return w
    }

    @Test func bandedSweepsSameBitsOnAnyThreads() throws {
        for pin in Self.bandedPins {
            let alone = try Self.banded(bands: pin.bands, threads: 1)
            #expect(alone.stateHash == pin.hash, "bands \(pin.bands): 0x\(String(alone.stateHash, radix: 16))")
            for threads in [2, 3] {
                let w = try Self.banded(bands: pin.bands, threads: threads)
                #expect(w.stateHash == alone.stateHash, "bands \(pin.bands), \(threads) threads")
            }
        }
    }

    @Test func sameCallsSameBits() throws {
        let a = try Self.run("mixed"), b = try Self.run("mixed")
        #expect(a.stateHash == b.stateHash && a.restStep == b.restStep)
    }
}
