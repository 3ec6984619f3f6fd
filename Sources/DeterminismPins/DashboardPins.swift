@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import Foundation

/// Pinned dashboard results: the shipped scenarios (`Data/scenarios/`) give the same bits in every
/// build configuration. If a deliberate change to the physics or the dashboard moves the values,
/// re-pin them from the failure message (it gives both the numbers and the positions to paste).
public enum DashboardPins {
    /// A scenario's pinned fingerprint.
    public struct Pin: Sendable {
        /// The scenario's name in `Data/scenarios/` (without `.json`).
        public let name: String
        /// A digest (FNV-1a 64) of the state hash at every frame.
        public let frames: UInt64
        /// The state hash at the last frame.
        public let final: UInt64
        /// The step at which the dashboard came to rest after the scenario's last event.
        public let restStep: Int
    }

    /// The bit patterns of a bubble's centre in the scene of the scenario's last frame.
    public struct PositionPin: Sendable {
        /// The bubble's id.
        public let id: String
        /// `centre.x.bitPattern`.
        public let x: UInt64
        /// `centre.y.bitPattern`.
        public let y: UInt64
    }

    /// The pinned scenarios.
    public static let pins: [Pin] = [
        Pin(name: "tour", frames: 6_422_511_048_705_277_958, final: 15_175_523_834_598_474_886, restStep: 847),
        Pin(name: "interrupts", frames: 5_904_072_736_441_288_012, final: 4_658_071_419_447_505_598, restStep: 397),
        Pin(name: "table-scroll", frames: 11_259_189_827_879_375_510, final: 14_668_529_780_940_908_169, restStep: 588),
        Pin(name: "search-filter", frames: 10_411_054_400_986_093_149, final: 8_802_805_754_745_012_713, restStep: 686),
        Pin(name: "pan", frames: 2_252_297_711_692_954_615, final: 957_766_047_217_491_593, restStep: 727),
    ]

    /// Exact centres of three bubbles at the end of each scenario, beside the hashes (as
    /// d3-force's tests pin positions): when a hash moves, these say which bubble moved and how far.
    public static let positionPins: [String: [PositionPin]] = [
        "tour": [
            PositionPin(id: "executive", x: 0x405dc743dd837266, y: 0x40739235b34b26db),
            PositionPin(id: "legal-compliance", x: 0x406d81eb979e1812, y: 0x4078d28b76fb35e6),
            PositionPin(id: "sales", x: 0x40811241897dffb4, y: 0x40797ffb0b4cae27),
        ],
        "interrupts": [
            PositionPin(id: "executive", x: 0x405dc6c106a79f5a, y: 0x4073921de2744652),
            PositionPin(id: "legal-compliance", x: 0x406d81e7d71c0c5c, y: 0x4078d28a15a751bb),
            PositionPin(id: "sales", x: 0x4081124356121a41, y: 0x40797ff8df04960c),
        ],
        // After the filter is cleared at the top level, every bubble is back where the tour has it.
        "search-filter": [
            PositionPin(id: "executive", x: 0x405dc743dd837266, y: 0x40739235b34b26db),
            PositionPin(id: "legal-compliance", x: 0x406d81eb979e1812, y: 0x4078d28b76fb35e6),
            PositionPin(id: "sales", x: 0x40811241897dffb4, y: 0x40797ffb0b4cae27),
        ],
        "table-scroll": [
            PositionPin(id: "close-2015-10", x: 0x40554740da740da8, y: 0x40735333331bb63e),
            PositionPin(id: "close-2016-12", x: 0x408573a8697b89d8, y: 0x407b86666658fa6c),
            PositionPin(id: "monthly-close", x: 0x4078000000000000, y: 0x407fa00000000000),
        ],
        // The Branches, panned to their top left corner, come back so after a pinch and a tap.
        "pan": [
            PositionPin(id: "branch-amsterdam", x: 0x407c27be74da60a4, y: 0x407bd7074e9f08e2),
            PositionPin(id: "branch-malmo", x: 0x4083eb858c9dbd57, y: 0x407467d102f3f5ce),
            PositionPin(id: "branches-staffing", x: 0x408b18a85e22b1f7, y: 0x40806e9fd523b096),
        ],
    ]

    /// A digest of the state hash at every frame, the final state hash, the step at which the
    /// dashboard came to rest after the scenario's last event, and the last frame's scene.
    public static func fingerprint(_ name: String) throws -> (frames: UInt64, final: UInt64, restStep: Int, scene: Scene) {
        let scenario = try Scenario.load(PinInputs.packageRoot + "/Data/scenarios/\(name).json")
        // The scenarios that search or filter run over the library index, as `bubbles export` does.
        let run: ScenarioRun
        if name.hasPrefix("search") {
            let folder = NSTemporaryDirectory() + "bubbles-pins-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let (tree, finder) = try ScenarioRun.indexed(scenario, indexPath: folder + "/index.sqlite")
            run = try ScenarioRun(scenario, tree: tree, finder: finder, trackMotion: false)
        } else {
            run = try ScenarioRun(scenario, trackMotion: false)
        }
        var digest = FNV1a64()
        for h in run.hashes { digest.fold(h) }
        return (digest.value, run.dashboard.stateHash, run.restStep ?? -1, run.dashboard.scene())
    }

    /// Runs a pinned scenario and compares its fingerprint and the positions of three bubbles.
    public static func check(_ pin: Pin) throws -> PinResult {
        let f = try fingerprint(pin.name)
        let name = pin.name
        var problems: [String] = []
        if f.frames != pin.frames || f.final != pin.final || f.restStep != pin.restStep {
            problems.append("\(name): (frames: \(f.frames), final: \(f.final), restStep: \(f.restStep)), pinned (\(pin.frames), \(pin.final), \(pin.restStep))")
        }
        // The first, middle and last bubble by id, among ids shown once.
        let counts = Dictionary(f.scene.bubbles.map { ($0.id, 1) }, uniquingKeysWith: +)
        let live = f.scene.bubbles.filter { counts[$0.id] == 1 }.sorted { $0.id < $1.id }
        let chosen = live.isEmpty ? [] : [live[0], live[live.count / 2], live[live.count - 1]]
        let source = chosen.map { "PositionPin(id: \"\($0.id)\", x: 0x\(String($0.centre.x.bitPattern, radix: 16)), y: 0x\(String($0.centre.y.bitPattern, radix: 16)))" }
            .joined(separator: ", ")
        let pins = positionPins[name] ?? []
        if pins.map(\.id) != chosen.map(\.id) { problems.append("pinned bubbles of \(name): [\(source)]") }
        for pin in pins {
            guard let b = f.scene.bubbles.first(where: { $0.id == pin.id }) else {
                problems.append("\(name): bubble \(pin.id) is not in the last frame")
                continue
            }
            guard b.centre.x.bitPattern != pin.x || b.centre.y.bitPattern != pin.y else { continue }
            let wx = Double(bitPattern: pin.x), wy = Double(bitPattern: pin.y)
            let d = ((b.centre.x - wx) * (b.centre.x - wx) + (b.centre.y - wy) * (b.centre.y - wy)).squareRoot()
            problems.append("""
                \(name): bubble \(pin.id) ends at (\(b.centre.x), \(b.centre.y)), pinned (\(wx), \(wy)): moved \(d) pt. \
                Pins now: [\(source)]
                """)
        }
        return PinResult("scenario \(name)", problems: problems)
    }

    /// Every dashboard pin, in order.
    public static func checkAll() throws -> [PinResult] {
        try pins.map(check)
    }
}
