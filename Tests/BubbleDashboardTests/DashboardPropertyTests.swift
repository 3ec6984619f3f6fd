import BubbleDashboard
import Foundation
import PropertyBased
import Testing

/// Random event sequences at random moments: whatever happens, no NaN, no lost or doubled bubble,
/// no jump between frames, and a tidy level once things settle.
@Suite("Dashboard properties")
struct DashboardPropertyTests {
    static let ids = sampleTree.nodes.map(\.id) + ["no-such-id", ""]

    /// Decodes one random number into an event and a number of steps to wait after it; most taps
    /// and drags name a bubble on screen, the rest any id (often refused).
    static func event(_ code: Int, visible: [String], finger: ScenePoint) -> (DashboardEvent, Int) {
        let wait = (code >> 8) % 24
        let candidates = (code >> 60) % 4 == 0 || visible.isEmpty ? ids : visible
        let id = candidates[(code >> 16) % candidates.count]
        let x = Double((code >> 24) % 1400) - 300
        let y = Double((code >> 36) % 1600) - 300
        let extreme = (code >> 48) % 11 == 0 ? 1e9 : 1
        let event: DashboardEvent
        switch code % 11 {
        case 0, 1, 2: event = .tap(id)
        case 3: event = .dragBegin(id, at: ScenePoint(x: x, y: y))
        // A finger moves a little per event; now and then it is reported somewhere absurd.
        case 4:
            event = extreme > 1
                ? .dragMove(to: ScenePoint(x: x * extreme, y: -y * extreme))
                : .dragMove(to: ScenePoint(x: finger.x + x.truncatingRemainder(dividingBy: 20), y: finger.y + y.truncatingRemainder(dividingBy: 20)))
        case 5: event = .dragEnd
        case 6: event = .recenter
        case 7: event = .pinch
        case 8: event = .top
        case 9: event = .showReports
        default: event = .closeOverlay
        }
        return (event, wait)
    }

    /// 25 sequences from a fixed seed, so CI is repeatable.
    @Test func seededEventSequencesKeepTheDashboardSound() {
        var state: UInt64 = 0x5EED_DA5B_0A8D
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) >> 1)
        }
        for _ in 0..<25 {
            Self.property((0..<(10 + next() % 51)).map { _ in next() })
        }
    }

    /// New random sequences (swift-property-based picks a seed per run and prints it with a
    /// failing input): not part of the suite, so CI stays repeatable; run it by hand with
    /// `BUBBLES_RANDOM_PROPERTIES=1 swift test --filter randomEventSequences`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_RANDOM_PROPERTIES"] == "1"), .shrinking(false))
    func randomEventSequencesKeepTheDashboardSound() async {
        await Self.check(count: 25)
    }

    /// Found by a random run: tapping a category while its fading copy as the focus is still on
    /// screen (top, then the same category at once) made the focus appear 185 pt away. Fixed by
    /// bringing that focus back; kept as a regression test.
    @Test func focusCaughtWhileFadingDoesNotJump() {
        Self.property([6493303548858663719, 8841433001993246736, 5567822678694254537, 2808049406322035058, 9044503007446782685, 5802274899762178562, 4576911722875256094, 8368817666848709557, 1641276248428872438, 3524457765747909649, 4454259857149786793, 1743322975266020896, 6863855311583069503, 3094792110296900985, 5813332387757149752, 7772514736773471912, 1257394990498989253, 598554100764138986, 4745409036961283144, 6307366976538204690, 2673584879892944126, 2359393117781140254, 6217508825173600396, 3734039574486554061, 7520020179984112192, 3354198176690604207, 6301184572473104094, 3560868042902719182, 7938694116481437852, 9006236568814450651, 1360756302009640312, 4333808889945941648, 31098177396404960, 8940015009865126184, 3069814012592884227, 6897268543888201478, 1509474864464042529, 5495796134216495768, 3977829665577967702, 1688339039893498383, 8712870533963386635, 8982748268762881508, 7422308494113204140, 6239289106932082494, 3302689104524807928, 9211734421922607875, 2859470824243410824, 2783198203251342272, 4731199993670402422, 6151931216448382424, 3019056589081182258, 4208944625381718075, 5158581141839971996, 6108500668576042095, 2237994739165554327, 6784225696953996513, 740268457933638924, 2263554178023500629, 673848343075945302])
    }

    static func check(count: Int) async {
        await propertyCheck(count: count, input: Gen.int(in: 0...Int.max).array(of: 10...60)) { codes in
            property(codes)
        }
    }

    static func property(_ codes: [Int]) {
        do {
            let d = try! Dashboard(tree: sampleTree)
            var previous = d.scene()
            var finger = ScenePoint(x: 0, y: 0)
            var uncheckedUntil = 0
            var recent: [String] = []
            for code in codes {
                let (event, wait) = Self.event(code, visible: d.visibleIDs, finger: finger)
                recent.append("\(d.stepCount): \(event)")
                if recent.count > 6 { recent.removeFirst() }
                let before = d.stateHash
                var refused: DashboardError? = nil
                do {
                    try d.send(event)
                } catch {
                    refused = error as? DashboardError ?? .noDragInProgress
                    #expect(d.stateHash == before, "a refused event changed the state: \(event) → \(error)")
                }
                // Where the finger teleports (no real finger does; a refused drag-begin leaves the
                // finger where it was), the bubble under it jumps with it and the others catch up
                // fast: no jump check for the next two seconds.
                if refused == nil {
                    switch event {
                    case .dragBegin(_, let p): finger = p
                    case .dragMove(let p):
                        if (p.x - finger.x) * (p.x - finger.x) + (p.y - finger.y) * (p.y - finger.y) > 30 * 30 {
                            uncheckedUntil = d.stepCount + 120
                        }
                        finger = p
                    default: break
                    }
                }
                let teleported = d.stepCount < uncheckedUntil
                for _ in 0...wait {
                    d.step()
                    let scene = d.scene()
                    for b in scene.bubbles {
                        #expect(b.centre.x.isFinite && b.centre.y.isFinite && b.scale.isFinite && b.opacity.isFinite)
                        // Motion that can be seen: bubbles visible in both frames.
                        if !teleported, b.scale * b.opacity > 0.05,
                           let a = previous.bubbles.first(where: { $0.id == b.id && $0.kind == b.kind }), a.scale * a.opacity > 0.05 {
                            let dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y
                            #expect(dx * dx + dy * dy < 40 * 40, "\(b.id) jumped at step \(d.stepCount) after \(recent.joined(separator: " | "))")
                        }
                    }
                    var seen = Set<String>()
                    for b in scene.bubbles {
                        #expect(seen.insert(b.id + "/" + b.kind.rawValue).inserted, "\(b.id) twice")
                    }
                    previous = scene
                }
            }
            // Let go and let it settle: exactly the focus and its children remain, tidily.
            try? d.send(.dragEnd)
            try? d.send(.closeOverlay)
            d.settle(limit: 2000)
            #expect(d.isAtRest)
            let scene = d.scene()
            let focus = d.focusPath.last!
            let expected = d.isStartScreen
                ? [sampleTree.nodes[0].id]
                : [sampleTree.nodes[focus].id] + sampleTree.nodes[focus].children.map { sampleTree.nodes[$0].id }
            #expect(scene.bubbles.map(\.id) == expected)
            #expect(d.maxOverlap() <= 0.5)
        }
    }
}
