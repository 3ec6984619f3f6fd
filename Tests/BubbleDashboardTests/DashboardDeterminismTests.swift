@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import TestSupport
import Testing

/// The scenarios give the same bits in every build configuration: `scripts/test.sh` runs this
/// suite in a release build as well as in the debug build. If a deliberate change to the physics
/// or the dashboard moves the values, re-pin them from the failure message (in both builds).
@Suite("Dashboard Determinism")
struct DashboardDeterminismTests {
    /// A digest of the state hash at every frame, the final state hash and the step at which the
    /// dashboard came to rest after the scenario's last event.
    static func fingerprint(_ name: String) throws -> (frames: UInt64, final: UInt64, restStep: Int, scene: Scene) {
        let scenario = try Scenario.load(packageRoot + "/Data/scenarios/\(name).json")
        // The scenarios that search or filter run over the library index, as `bubbles export` does.
        let run = name.hasPrefix("search") ? try { () throws -> ScenarioRun in
            let (tree, finder) = try indexed(scenario)
            return try ScenarioRun(scenario, tree: tree, finder: finder)
        }() : try ScenarioRun(scenario)
        var digest = FNV1a64()
        for h in run.hashes { digest.fold(h) }
        return (digest.value, run.dashboard.stateHash, run.restStep ?? -1, run.dashboard.scene())
    }

    /// The bit patterns of a bubble's centre in the scene of the scenario's last frame.
    struct PositionPin: Sendable {
        let id: String
        let x: UInt64
        let y: UInt64
    }

    /// Exact centres of three bubbles at the end of each scenario, beside the hashes (as
    /// d3-force's tests pin positions): when a hash moves, these say which bubble moved and how far.
    static let positionPins: [String: [PositionPin]] = [
        "tour": [
            PositionPin(id: "executive", x: 0x407c10ccafc184c9, y: 0x408882135ec8c693),
            PositionPin(id: "legal-compliance", x: 0x4073d75798dfcbd5, y: 0x407595cd5a9e7c6b),
            PositionPin(id: "sales", x: 0x4081ec5001931ffb, y: 0x407f56f2657ce6b3),
        ],
        "interrupts": [
            PositionPin(id: "executive", x: 0x407c10e3eafe19a4, y: 0x408882450ecfc2fd),
            PositionPin(id: "legal-compliance", x: 0x4073d73c6384198a, y: 0x4075958bab7fc3fa),
            PositionPin(id: "sales", x: 0x4081ec55fc0ce77d, y: 0x407f56f21bc09ddd),
        ],
        // After the filter is cleared at the top level, every bubble is back where the tour has it.
        "search-filter": [
            PositionPin(id: "executive", x: 0x407c10ccafc184c9, y: 0x408882135ec8c693),
            PositionPin(id: "legal-compliance", x: 0x4073d75798dfcbd5, y: 0x407595cd5a9e7c6b),
            PositionPin(id: "sales", x: 0x4081ec5001931ffb, y: 0x407f56f2657ce6b3),
        ],
        "table-scroll": [
            PositionPin(id: "close-2015-10", x: 0x407d09046e57b315, y: 0x4075727fb14f17ad),
            PositionPin(id: "close-2016-12", x: 0x40743dab5878cc88, y: 0x408721200c47550a),
            PositionPin(id: "monthly-close", x: 0x4078000000000000, y: 0x407fa00000000000),
        ],
        // The Monatsberichte, panned to their top left corner, come back so after a pinch and a tap.
        "pan": [
            PositionPin(id: "monatsbericht-2013-01", x: 0x40800d6d62804867, y: 0x407c03a8313b9a55),
            PositionPin(id: "monatsbericht-2015-07", x: 0x4082d90ef343c97d, y: 0x408ab32c68d18ca0),
            PositionPin(id: "monatsberichte", x: 0x407c7895f2dbaa04, y: 0x4081ad55b631362a),
        ],
    ]

    @Test(arguments: [
        ("tour", UInt64(7_533_117_916_643_247_149), UInt64(8_733_989_526_596_985_151), 843),
        ("interrupts", UInt64(14_050_085_112_171_119_319), UInt64(17_848_844_994_153_397_732), 393),
        ("table-scroll", UInt64(243_021_852_674_107_406), UInt64(9_562_176_999_503_964_297), 588),
        ("search-filter", UInt64(1_810_319_045_627_655_349), UInt64(17_909_672_530_734_331_810), 688),
        ("pan", UInt64(6_444_472_734_014_208_176), UInt64(8_416_952_802_586_221_107), 727),
    ])
    func scenarioFingerprintIsPinned(name: String, frames: UInt64, final: UInt64, restStep: Int) throws {
        let f = try Self.fingerprint(name)
        #expect(f.frames == frames && f.final == final && f.restStep == restStep, "\(name): (\(f.frames), \(f.final), \(f.restStep))")
        // The first, middle and last bubble by id, among ids shown once.
        let counts = Dictionary(f.scene.bubbles.map { ($0.id, 1) }, uniquingKeysWith: +)
        let live = f.scene.bubbles.filter { counts[$0.id] == 1 }.sorted { $0.id < $1.id }
        let chosen = live.isEmpty ? [] : [live[0], live[live.count / 2], live[live.count - 1]]
        let source = chosen.map { "PositionPin(id: \"\($0.id)\", x: 0x\(String($0.centre.x.bitPattern, radix: 16)), y: 0x\(String($0.centre.y.bitPattern, radix: 16)))" }
            .joined(separator: ", ")
        let pins = Self.positionPins[name] ?? []
        #expect(pins.map(\.id) == chosen.map(\.id), "pinned bubbles of \(name): [\(source)]")
        for pin in pins {
            guard let b = f.scene.bubbles.first(where: { $0.id == pin.id }) else {
                Issue.record("\(name): bubble \(pin.id) is not in the last frame")
                continue
            }
            guard b.centre.x.bitPattern != pin.x || b.centre.y.bitPattern != pin.y else { continue }
            let wx = Double(bitPattern: pin.x), wy = Double(bitPattern: pin.y)
            let d = ((b.centre.x - wx) * (b.centre.x - wx) + (b.centre.y - wy) * (b.centre.y - wy)).squareRoot()
            Issue.record("""
                \(name): bubble \(pin.id) ends at (\(b.centre.x), \(b.centre.y)), pinned (\(wx), \(wy)): moved \(d) pt. \
                Pins now: [\(source)]
                """)
        }
    }
}
