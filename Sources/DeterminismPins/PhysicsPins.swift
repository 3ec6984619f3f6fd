import BubblePhysics
import BubbleThreads
import PhysicsFixtures

/// Pinned physics results: the same scene and calls must give the same bits in debug and release
/// builds. If a deliberate change to the solver alters them, re-pin all of them in the same commit
/// and say why (each failure prints the values to paste).
public enum PhysicsPins {
    /// A scene run to rest: the step at which it came to rest, its state hash and three positions.
    public struct Pin: Sendable {
        /// The scene's name (see `run(_:)`).
        public let scene: String
        /// `World.restStep` after the run.
        public let restStep: Int
        /// `World.stateHash` after the run.
        public let hash: UInt64
        /// Exact positions at the rest step, beside the hash (as d3-force's tests pin positions):
        /// when the hash moves, these say which body moved and how far.
        public var positions: [PositionPin] = []
    }

    /// The bit patterns of the x and y of the body at `index` in `World.bodyIDs`.
    public struct PositionPin: Sendable {
        /// The body's place in `World.bodyIDs`.
        public let index: Int
        /// `x.bitPattern`.
        public let x: UInt64
        /// `y.bitPattern`.
        public let y: UInt64
    }

    /// The bodies whose positions are pinned: the first, the middle and the last.
    static func pinnedIndices(_ w: World) -> [Int] {
        let n = w.bodyIDs.count
        return [0, n / 2, n - 1]
    }

    /// Compares a world's positions with the pins; a problem names the body, the pinned and the
    /// actual position and the distance between them, and gives the pins to paste when re-pinning.
    static func positionProblems(_ w: World, _ pins: [PositionPin], _ name: String) throws -> [String] {
        let ids = w.bodyIDs
        var actual: [PositionPin] = []
        for i in pinnedIndices(w) {
            let p = try w.position(of: ids[i])
            actual.append(PositionPin(index: i, x: p.x.bitPattern, y: p.y.bitPattern))
        }
        let source = actual.map { "PositionPin(index: \($0.index), x: 0x\(String($0.x, radix: 16)), y: 0x\(String($0.y, radix: 16)))" }
            .joined(separator: ", ")
        var problems: [String] = []
        if pins.map(\.index) != actual.map(\.index) { problems.append("positions of \(name): [\(source)]") }
        for (pin, got) in zip(pins, actual) where pin.x != got.x || pin.y != got.y {
            let want = Vector2(Double(bitPattern: pin.x), Double(bitPattern: pin.y))
            let have = Vector2(Double(bitPattern: got.x), Double(bitPattern: got.y))
            problems.append("""
                \(name): body \(pin.index) at step \(w.stepCount) is at (\(have.x), \(have.y)), pinned (\(want.x), \(want.y)): \
                moved \((have - want).length) pt. Pins now: [\(source)]
                """)
        }
        return problems
    }

    /// The pinned scenes.
    public static let pins: [Pin] = [
        // standard-1000 and standard-10000 sweep in two row bands (worlds of 512 bodies and
        // more), share their pair lists between a step's sub-steps and size the lists' margin
        // to their speeds (`World.step()`).
        Pin(scene: "circles", restStep: 363, hash: 4392859975857088133,
            positions: [
                PositionPin(index: 0, x: 0xc04c8e801d45228c, y: 0x4041095425421f6a),
                PositionPin(index: 12, x: 0x405185b670e076f2, y: 0xc043aed48c7c02a9),
                PositionPin(index: 23, x: 0xc0316b613d98b18e, y: 0xc05620668e24ee5e),
            ]),
        Pin(scene: "mixed", restStep: 279, hash: 3225421640924145065,
            positions: [
                PositionPin(index: 0, x: 0xc032be4f6341c97a, y: 0x40364c1af7424435),
                PositionPin(index: 15, x: 0xc0403eaf3c53a84a, y: 0x404916f3ed2229bf),
                PositionPin(index: 29, x: 0x403f7b69fafdcfef, y: 0xc038a0262754aa82),
            ]),
        Pin(scene: "huge", restStep: 57, hash: 3912598708988624372,
            positions: [
                PositionPin(index: 0, x: 0x3fd511adabdb6723, y: 0xbfd81c9d4bfea2cf),
                PositionPin(index: 25, x: 0xc05d5aa223665ca1, y: 0x405b0142394c8c17),
                PositionPin(index: 50, x: 0xc064acbc87ef9b37, y: 0x403838a6b22bc738),
            ]),
        Pin(scene: "drag", restStep: 258, hash: 15795841286137919295,
            positions: [
                PositionPin(index: 0, x: 0x4058a4ef2ebb4a9d, y: 0xc052cee3612016af),
                PositionPin(index: 8, x: 0x4056ecd9e9440fa2, y: 0xc047cfc3560c57a2),
                PositionPin(index: 15, x: 0x404eb20a862366b5, y: 0xc044df37526cbda9),
            ]),
        Pin(scene: "standard-1000", restStep: 230, hash: 8322397901920721244,
            positions: [
                PositionPin(index: 0, x: 0x4070074f8af35b43, y: 0xc0745440125ed0f4),
                PositionPin(index: 500, x: 0x4003bfb34e2a85b3, y: 0x40664a139dc4fae4),
                PositionPin(index: 999, x: 0xc077aca75cea262a, y: 0xc06bb40de9436add),
            ]),
        // The 10 000-body standard pile, which never rests without the drive allowance (it still
        // flows at 50 pt/s after 3 000 steps).
        Pin(scene: "standard-10000", restStep: 87, hash: 10390609345310091485,
            positions: [
                PositionPin(index: 0, x: 0x407395c33d94faf0, y: 0x40846b2bcc3841df),
                PositionPin(index: 5000, x: 0x4099ee2a8e47ab12, y: 0xc07bbf7bd470a26a),
                PositionPin(index: 9999, x: 0xc068752146809641, y: 0xc072735477873cea),
            ]),
    ]

    /// Builds the named scene and runs it to rest (or its step limit).
    public static func run(_ scene: String) throws -> World {
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

    /// Runs a pinned scene and compares it with its pin: at rest, settled overlap at most 0.5 pt,
    /// the rest step, the state hash and the positions.
    public static func check(_ pin: Pin) throws -> PinResult {
        let w = try run(pin.scene)
        var problems: [String] = []
        if !w.isAtRest { problems.append("\(pin.scene) is not at rest after step \(w.stepCount)") }
        let overlap = w.maxOverlap().depth
        if overlap > 0.5 { problems.append("settled overlap of \(pin.scene): \(overlap) pt (at most 0.5)") }
        if w.restStep != pin.restStep {
            problems.append("rest step of \(pin.scene): \(w.restStep.map(String.init) ?? "none"), pinned \(pin.restStep)")
        }
        if w.stateHash != pin.hash {
            problems.append("state hash of \(pin.scene): \(w.stateHash) (0x\(String(w.stateHash, radix: 16))), pinned \(pin.hash)")
        }
        problems += try positionProblems(w, pin.positions, pin.scene)
        return PinResult("physics \(pin.scene)", problems: problems)
    }

    /// A world of `World.bandMinBodies` bodies or more sweeps in row bands; the bits depend on
    /// `settings.bands` only, never on the executor or its thread count.
    public static let bandedPins: [(bands: Int, hash: UInt64, positions: [PositionPin])] = [
        (2, 0xceb2_1e96_7b90_fa47, [
            PositionPin(index: 0, x: 0xc09497dfe9b7be38, y: 0xc0924d2eef368beb),
            PositionPin(index: 2500, x: 0xc075cbb806f18a71, y: 0xc03df85fdbda85be),
            PositionPin(index: 4999, x: 0xc08e5af96ebaff7f, y: 0xc07ab54e3f4bd699),
        ]),
        (3, 0x958a_9d33_c17c_41a5, [
            PositionPin(index: 0, x: 0xc09198bf27b65dc8, y: 0xc09066de7b4042a4),
            PositionPin(index: 2500, x: 0xc07206d7824a1e57, y: 0xc03ece8730906338),
            PositionPin(index: 4999, x: 0xc08fcdb6470c70bd, y: 0xc07b4951c1463a76),
        ]),
    ]

    /// The 5 000-body standard scene (seed 7) in `bands` row bands, 30 steps on `threads` threads.
    public static func banded(bands: Int, threads: Int) throws -> World {
        var settings = WorldSettings()
        settings.bands = bands
        let w = try BenchmarkScene.standard(count: 5000, seed: 7).makeWorld(settings: settings)
        let pool = threads > 1 ? WorkerPool(threads: threads) : nil
        w.executor = pool?.executor
        w.step(count: 30)
        w.executor = nil
        return w
    }

    /// Each banded pin on one thread (hash and positions), and the same bits on 2 and 3 threads.
    public static func checkBanded() throws -> [PinResult] {
        try bandedPins.map { pin in
            let alone = try banded(bands: pin.bands, threads: 1)
            var problems: [String] = []
            if alone.stateHash != pin.hash {
                problems.append("bands \(pin.bands): state hash 0x\(String(alone.stateHash, radix: 16)), pinned 0x\(String(pin.hash, radix: 16))")
            }
            problems += try positionProblems(alone, pin.positions, "bands \(pin.bands)")
            for threads in [2, 3] {
                let w = try banded(bands: pin.bands, threads: threads)
                if w.stateHash != alone.stateHash {
                    problems.append("bands \(pin.bands), \(threads) threads: state hash 0x\(String(w.stateHash, radix: 16)), one thread 0x\(String(alone.stateHash, radix: 16))")
                }
            }
            return PinResult("physics \(pin.bands) bands on 1, 2 and 3 threads", problems: problems)
        }
    }

    /// The same calls twice give the same bits (the `mixed` scene).
    public static func checkSameCallsSameBits() throws -> PinResult {
        let a = try run("mixed"), b = try run("mixed")
        let same = a.stateHash == b.stateHash && a.restStep == b.restStep
        return PinResult("physics mixed twice", problems: same ? [] : [
            "mixed twice: state hashes 0x\(String(a.stateHash, radix: 16)) and 0x\(String(b.stateHash, radix: 16)), rest steps \(String(describing: a.restStep)) and \(String(describing: b.restStep))"
        ])
    }

    /// Every physics pin, in order.
    public static func checkAll() throws -> [PinResult] {
        try pins.map(check) + checkBanded() + [checkSameCallsSameBits()]
    }
}
