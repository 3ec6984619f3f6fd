@_spi(Testbed) import BubbleDashboard
import BubblePhysics
import Foundation
import PropertyBased
import TestSupport
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
        case 0, 1, 2: event = .tapBubble(id)
        case 3: event = .pressBubble(id, at: ScenePoint(x: x, y: y))
        // A finger moves a little per event; now and then it is reported somewhere absurd.
        case 4:
            event = extreme > 1
                ? .move(to: ScenePoint(x: x * extreme, y: -y * extreme))
                : .move(to: ScenePoint(x: finger.x + x.truncatingRemainder(dividingBy: 20), y: finger.y + y.truncatingRemainder(dividingBy: 20)))
        case 5: event = .release
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
        var random = SeededRandom(seed: 0x5EED_DA5B_0A8D)
        func next() -> Int { random.nonNegative() }
        for _ in 0..<25 {
            Self.property((0..<(10 + next() % 51)).map { _ in next() })
        }
    }

    /// New random sequences (swift-property-based picks a seed per run and prints it with a
    /// failing input): not part of the suite, so CI stays repeatable; run it by hand with
    /// `BUBBLES_RANDOM_PROPERTIES=1 swift test --filter randomEventSequences`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_RANDOM_PROPERTIES"] == "1", "set BUBBLES_RANDOM_PROPERTIES=1 for new random cases"), .shrinking(false))
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
            var track = FingerTrack(finger: ScenePoint(x: 0, y: 0))
            var recent: [String] = []
            for code in codes {
                let (event, wait) = Self.event(code, visible: d.visibleIDs, finger: track.finger)
                recent.append("\(d.stepCount): \(event)")
                if recent.count > 6 { recent.removeFirst() }
                let before = d.stateHash
                var refused: DashboardError? = nil
                do {
                    try d.send(event)
                } catch {
                    refused = error
                    #expect(d.stateHash == before, "a refused event changed the state: \(event) → \(error)")
                }
                // Where the finger teleports (no real finger does; a refused drag-begin leaves the
                // finger where it was), the bubble under it jumps with it and the others catch up
                // fast: no jump check for the next two seconds.
                if refused == nil { track.accepted(event, atStep: d.stepCount) }
                let teleported = d.stepCount < track.uncheckedUntil
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
            try? d.send(.release)
            try? d.send(.closeOverlay)
            d.settle(limit: 2000)
            #expect(d.isAtRest)
            let scene = d.scene()
            let focus = d.focusPath.last!
            let expected = d.isStartScreen
                ? [d.levels.nodes[0].id]
                : [d.levels.nodes[focus].id] + d.levels.nodes[focus].children.map { d.levels.nodes[$0].id }
            #expect(scene.bubbles.map(\.id) == expected)
            #expect(d.maxOverlap() <= 0.5)
        }
    }
}

/// Long random runs: thousands of events of every kind at random moments, on small, iPad and huge
/// canvases, with unknown ids, far-off and non-finite fingers. Besides the per-frame checks of the
/// short sequences (no NaN, no doubled bubble, no jump), every few hundred events the dashboard
/// is let settle and must show exactly the focus and its children, inside the canvas; and a run
/// repeated from its seed must end in the same state hash after the same trace of hashes.
///
/// The default is a few fixed seeds (repeatable CI); `BUBBLES_RANDOM_PROPERTIES=1` adds runs from
/// new seeds (printed with any failure), `BUBBLES_PROPERTY_RUNS=N` sets how many and
/// `BUBBLES_PROPERTY_EVENTS=N` how long each is.
@Suite("Dashboard long random runs")
struct DashboardLongRunTests {
    /// A canvas the runs use: the iPad's, the smallest accepted (160 pt wide, the bars plus 80 pt
    /// of bubble area high), and the largest.
    struct Canvas: Sendable, CustomStringConvertible {
        var width: Double
        var height: Double
        var description: String { "\(Int(width))×\(Int(height))" }
    }

    static let ipad = Canvas(width: 768, height: 1024)
    static let small = Canvas(width: 160, height: 292)
    static let huge = Canvas(width: 16_384, height: 16_384)

    /// What a run did, and the hashes that prove it the same when repeated.
    struct Outcome: Equatable, CustomStringConvertible {
        var events = 0
        var refused = 0
        var steps = 0
        var settles = 0
        /// Kinds of event applied (not refused), by `kindNames` index.
        var applied = [Int](repeating: 0, count: DashboardLongRunTests.kindNames.count)
        /// FNV-style fold of the state hash after every event and step.
        var trace = FNV1a64()
        var finalHash: UInt64 = 0
        /// Every event sent, with the step it was sent at (refused ones too): `replay` runs them again.
        var log: [(step: Int, event: DashboardEvent)] = []

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.events == b.events && a.refused == b.refused && a.steps == b.steps && a.trace.value == b.trace.value && a.finalHash == b.finalHash
        }

        var description: String {
            "\(events) events (\(refused) refused), \(steps) steps, \(settles) settles; applied: "
                + zip(DashboardLongRunTests.kindNames, applied).map { "\($0) \($1)" }.joined(separator: ", ")
        }
    }

    static let kindNames = ["tap", "drag begin", "drag move", "far drag move", "drag end", "recenter", "pinch", "top", "reports", "close"]

    static let invalidIDs = ["no-such-id", "", "ROOT", " root", "finance/", String(repeating: "x", count: 300)]
    static let nonFinite = [Double.nan, .infinity, -.infinity, -Double.nan, .signalingNaN]

    /// Runs `events` random events from `seed` on `canvas`. With `check`, every frame is checked
    /// (a failure names the seed, the event number and the last events); without, only the hashes
    /// are computed (for the determinism comparison).
    static func run(seed: UInt64, events: Int, canvas: Canvas, check: Bool = true) -> Outcome {
        var settings = DashboardSettings()
        settings.canvasWidth = canvas.width
        settings.canvasHeight = canvas.height
        let d = try! Dashboard(tree: sampleTree, settings: settings)
        var random = SeededRandom(seed: seed)
        var outcome = Outcome()
        func fold(_ h: UInt64) { outcome.trace.fold(h) }
        var previous = d.scene()
        var track = FingerTrack(finger: ScenePoint(x: canvas.width / 2, y: canvas.height / 2))
        var dragging = false
        var recent: [String] = []
        let place = { "seed \(seed) on \(canvas), event \(outcome.events)" }
        let ids = sampleTree.nodes.map(\.id)

        for n in 0..<events {
            outcome.events = n + 1
            // Pick an event; most name a bubble on screen, at a point on it.
            let scene = d.scene()
            let onScreen = scene.bubbles.filter { d.visibleIDs.contains($0.id) }
            // While a finger is down, it mostly moves a little, a few frames apart, then lifts.
            let roll = dragging && random.below(100) < 75 ? (random.below(10) < 8 ? 40 : 65) : random.below(100)
            var kind = 0
            let event: DashboardEvent
            func someID() -> String {
                let r = random.below(10)
                if r == 0 { return invalidIDs[random.below(invalidIDs.count)] }
                if r == 1 || onScreen.isEmpty { return ids[random.below(ids.count)] }
                return onScreen[random.below(onScreen.count)].id
            }
            switch roll {
            case 0..<22:
                event = .tapBubble(someID())
            case 22..<32:
                kind = 1
                let id = someID()
                let at = onScreen.first { $0.id == id }?.centre ?? ScenePoint(x: random.double(in: 0...canvas.width), y: random.double(in: 0...canvas.height))
                event = .pressBubble(id, at: ScenePoint(x: at.x + random.double(in: -12...12), y: at.y + random.double(in: -12...12)))
            case 32..<50:
                kind = 2
                event = .move(to: ScenePoint(x: track.finger.x + random.double(in: -18...18), y: track.finger.y + random.double(in: -18...18)))
            case 50..<59:
                kind = 3
                let far = [1e6, -1e6, 1e300, -1e300, 4 * canvas.width]
                event = .move(to: ScenePoint(x: far[random.below(far.count)], y: far[random.below(far.count)]))
            case 59..<63:
                // Non-finite points are refused, with or without a drag in progress.
                kind = 2
                let bad = nonFinite[random.below(nonFinite.count)]
                let p = random.below(2) == 0 ? ScenePoint(x: bad, y: track.finger.y) : ScenePoint(x: track.finger.x, y: bad)
                event = random.below(2) == 0 ? .move(to: p) : .pressBubble(someID(), at: p)
            case 63..<73: kind = 4; event = .release
            case 73..<78: kind = 5; event = .recenter
            case 78..<86: kind = 6; event = .pinch
            case 86..<89: kind = 7; event = .top
            case 89..<94: kind = 8; event = .showReports
            default: kind = 9; event = .closeOverlay
            }
            recent.append("\(d.stepCount): \(event)")
            if recent.count > 8 { recent.removeFirst() }

            let before = d.stateHash
            outcome.log.append((d.stepCount, event))
            do {
                try d.send(event)
                outcome.applied[kind] += 1
                track.accepted(event, atStep: d.stepCount)
                switch event {
                case .pressBubble: dragging = true
                case .release: dragging = false
                default: break
                }
            } catch {
                outcome.refused += 1
                if case .noDragInProgress = error { dragging = false }
                if check {
                    #expect(d.stateHash == before, "a refused event changed the state: \(event) → \(error), \(place())")
                    // A non-finite finger is refused as such (a drag-begin may name a bad id first).
                    switch (event, error) {
                    case (.move(let p), _) where !p.x.isFinite || !p.y.isFinite:
                        guard case .invalidNumber = error else {
                            Issue.record("a non-finite point gave \(error), not invalidNumber, \(place())")
                            break
                        }
                    case (.pressBubble(_, let p), .unknownID), (.pressBubble(_, let p), .notVisible), (.pressBubble(_, let p), .invalidNumber):
                        _ = p
                    case (.pressBubble(_, let p), _) where !p.x.isFinite || !p.y.isFinite:
                        Issue.record("a non-finite point gave \(error), \(place())")
                    default: break
                    }
                }
            }
            fold(d.stateHash)

            // Wait: mostly a few frames, now and then long enough for things to come to rest.
            let wait = dragging ? random.below(4) : random.below(20) == 0 ? 60 + random.below(180) : random.below(30)
            let teleported = d.stepCount < track.uncheckedUntil
            for _ in 0...wait {
                d.step()
                outcome.steps += 1
                fold(d.stateHash)
                guard check else { continue }
                let scene = d.scene()
                var seen = Set<String>()
                for b in scene.bubbles {
                    if !(b.centre.x.isFinite && b.centre.y.isFinite && b.scale.isFinite && b.opacity.isFinite && b.blur.isFinite) {
                        Issue.record("\(b.id) has a non-finite value at step \(d.stepCount), \(place()): \(recent)")
                    }
                    if !seen.insert(b.id + "/" + b.kind.rawValue).inserted {
                        Issue.record("\(b.id) twice at step \(d.stepCount), \(place())")
                    }
                    if !teleported, b.scale * b.opacity > 0.05,
                       let a = previous.bubbles.first(where: { $0.id == b.id && $0.kind == b.kind }), a.scale * a.opacity > 0.05 {
                        let dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y
                        if dx * dx + dy * dy >= 40 * 40 {
                            Issue.record("\(b.id) jumped \(Int((dx * dx + dy * dy).squareRoot())) pt at step \(d.stepCount), \(place()), after \(recent.joined(separator: " | "))")
                        }
                    }
                }
                // The focus is always on screen.
                let focusID = d.levels.nodes[d.focus].id
                if !scene.bubbles.contains(where: { $0.id == focusID }) {
                    Issue.record("the focus \(focusID) is not on screen at step \(d.stepCount), \(place())")
                }
                previous = scene
            }

            // Every 250 events: let go, close, settle; then exactly the focus and its children rest
            // on the canvas, apart.
            if n % 250 == 249 {
                try? d.send(.release)
                try? d.send(.closeOverlay)
                let steps = d.settle(limit: 3000)
                outcome.steps += steps
                outcome.settles += 1
                fold(d.stateHash)
                if check { expectTidy(d, canvas: canvas, place()) }
                previous = d.scene()
                track.uncheckedUntil = 0
            }
        }
        try? d.send(.release)
        try? d.send(.closeOverlay)
        outcome.steps += d.settle(limit: 3000)
        if check { expectTidy(d, canvas: canvas, place()) }
        outcome.finalHash = d.stateHash
        return outcome
    }

    static func expectTidy(_ d: Dashboard, canvas: Canvas, _ place: String) {
        #expect(d.isAtRest, "not at rest after settling, \(place)")
        let scene = d.scene()
        let focus = d.focus
        let expected = d.isStartScreen
            ? [d.levels.nodes[0].id]
            : [d.levels.nodes[focus].id] + d.levels.nodes[focus].children.map { d.levels.nodes[$0].id }
        #expect(scene.bubbles.map(\.id) == expected, "lost or extra bubbles after settling, \(place)")
        #expect(d.maxOverlap() <= 0.5, "overlap \(d.maxOverlap()) after settling, \(place)")
        for b in scene.bubbles {
            #expect(b.centre.x >= 0 && b.centre.x <= canvas.width && b.centre.y >= 0 && b.centre.y <= canvas.height,
                    "\(b.id) rests off the canvas at \(b.centre), \(place)")
            #expect(b.opacity == 1 && b.scale > 0, "\(b.id) rests half faded, \(place)")
        }
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Fixed seeds: two long runs on the iPad canvas, one each on the smallest and the largest.
    @Test(arguments: [
        (0x5EED_0001, ipad), (0x5EED_0002, ipad), (0x5EED_0003, small), (0x5EED_0004, huge),
    ] as [(UInt64, Canvas)])
    func seededLongRun(seed: UInt64, canvas: Canvas) {
        let events = Self.environment["BUBBLES_PROPERTY_EVENTS"].flatMap(Int.init) ?? 1500
        let outcome = Self.run(seed: seed, events: events, canvas: canvas)
        // Every kind of event was tried and taken.
        #expect(outcome.applied.allSatisfy { $0 > 0 }, "\(outcome)")
        #expect(outcome.refused > 0)
        // The same seed again, without the checks: the same trace of states and the same end.
        let again = Self.run(seed: seed, events: events, canvas: canvas, check: false)
        #expect(again.trace.value == outcome.trace.value && again.finalHash == outcome.finalHash, "seed \(seed) is not deterministic")
    }

    /// New seeds each time (opt-in).
    @Test(.enabled(if: environment["BUBBLES_RANDOM_PROPERTIES"] == "1", "set BUBBLES_RANDOM_PROPERTIES=1 for the long random runs"))
    func randomLongRuns() {
        let runs = Self.environment["BUBBLES_PROPERTY_RUNS"].flatMap(Int.init) ?? 8
        let events = Self.environment["BUBBLES_PROPERTY_EVENTS"].flatMap(Int.init) ?? 5000
        for k in 0..<runs {
            let seed = UInt64.random(in: 0...UInt64.max)
            let canvas = [Self.ipad, Self.small, Self.huge, Canvas(width: 1024, height: 768)][k % 4]
            let outcome = Self.run(seed: seed, events: events, canvas: canvas)
            let again = Self.run(seed: seed, events: events, canvas: canvas, check: false)
            #expect(again.trace.value == outcome.trace.value && again.finalHash == outcome.finalHash, "seed \(seed) on \(canvas) is not deterministic")
            print("long run: seed \(seed) on \(canvas): \(outcome)")
        }
    }

    /// Sends `log`'s events at their steps, checking every frame for jumps, and settles.
    static func replay(_ log: [(step: Int, event: DashboardEvent)], canvas: Canvas = ipad, extraSteps: Int = 240) {
        var settings = DashboardSettings()
        settings.canvasWidth = canvas.width
        settings.canvasHeight = canvas.height
        let d = try! Dashboard(tree: sampleTree, settings: settings)
        var previous = d.scene()
        var k = 0
        var track = FingerTrack(finger: ScenePoint(x: 0, y: 0))
        let end = (log.last?.step ?? 0) + extraSteps
        while d.stepCount < end {
            while k < log.count && log[k].step == d.stepCount {
                if (try? d.send(log[k].event)) != nil { track.accepted(log[k].event, atStep: d.stepCount) }
                k += 1
            }
            d.step()
            let scene = d.scene()
            for b in scene.bubbles where b.scale * b.opacity > 0.05 && d.stepCount > track.uncheckedUntil {
                guard let a = previous.bubbles.first(where: { $0.id == b.id && $0.kind == b.kind }), a.scale * a.opacity > 0.05 else { continue }
                let dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y
                #expect(dx * dx + dy * dy < 40 * 40, "\(b.id) jumped \(Int((dx * dx + dy * dy).squareRoot())) pt at step \(d.stepCount)")
            }
            previous = scene
        }
        d.settle(limit: 3000)
        expectTidy(d, canvas: canvas, "replay")
    }

    /// Found by the long runs (seed 0x5EED_0002, event 24): a drag begun while the level glides
    /// home after a re-centre, and released before the glides end. The released bubble's new place
    /// was relaxed only against the bubbles at rest, so the gliding ones landed on it and were
    /// shoved off in one frame (41 and 82 pt). Fixed: gliding children take part in the relax with
    /// their destinations and glide to their relaxed places.
    @Test func releaseDuringARecentreGlide() {
        Self.replay([
            (0, .recenter), (4, .tapBubble("root")),
            (10, .pressBubble("sales", at: ScenePoint(x: 580.4075610644741, y: 497.7104289003426))),
            (14, .move(to: ScenePoint(x: 570.5846396783376, y: 496.54077862580226))),
            (15, .move(to: ScenePoint(x: 567.0822066375137, y: 486.5248424585341))),
            (18, .move(to: ScenePoint(x: -1000000.0, y: -1000000.0))),
            (22, .move(to: ScenePoint(x: -1000000.4025501044, y: -1000009.3743450764))),
            (26, .move(to: ScenePoint(x: -1000018.0373331944, y: -1000011.8853937897))),
            (29, .move(to: ScenePoint(x: -1000014.7581263308, y: -999998.3679550242))),
            (31, .release),
            (46, .move(to: ScenePoint(x: -1000025.1886259615, y: -1000002.9313759152))),
            (69, .move(to: ScenePoint(x: 3072.0, y: -1000000.0))),
            (73, .move(to: ScenePoint(x: -1000029.2161481471, y: -999986.9737316455))),
            (87, .pressBubble("legal-compliance", at: ScenePoint(x: 79.95907073095765, y: 681.6491913435137))),
            (88, .move(to: ScenePoint(x: 87.30312700924587, y: 692.2604818699065))),
            (89, .move(to: ScenePoint(x: 88.41820858355145, y: 709.0353318895761))),
            (90, .move(to: ScenePoint(x: 72.77558656853596, y: 715.5245573676016))),
            (93, .release), (103, .showReports),
            (256, .move(to: ScenePoint(x: 70.33307878415576, y: 720.4552452631741))),
            (261, .recenter),
            (276, .pressBubble("legal-compliance", at: ScenePoint(x: 265.7779107705961, y: 405.58407030938866))),
            (277, .pinch), (281, .release),
        ])
    }

    /// Found by the long runs, kept as the generator's seeds and lengths (the first sequences of
    /// `seededLongRun`, checked here on their own):
    /// - seed 0x5EED_0001, 1129 events: a re-centre sends bubbles home along crossing paths; one
    ///   that arrived first became a dynamic body under one still gliding past and was shoved 43 pt.
    ///   Fixed: a bubble whose glide ends under a travelling one stays kinematic at its place until
    ///   the other has passed.
    /// - seed 0x5EED_0004 on the largest canvas, 291 events: pinch while the focus is still on its
    ///   way out; the old focus, caught from its fade-out far below the middle, swept through its
    ///   growing children, pushed one onto a sibling, and it was shoved 122 pt. Fixed: children wait
    ///   for a caught focus to reach the middle before they grow.
    @Test(arguments: [(0x5EED_0001, 1129, ipad), (0x5EED_0004, 291, huge)] as [(UInt64, Int, Canvas)])
    func sequencesFoundByLongRuns(seed: UInt64, events: Int, canvas: Canvas) {
        _ = Self.run(seed: seed, events: events, canvas: canvas)
    }

    /// Canvases that cannot hold a dashboard are refused with a typed error naming the field.
    @Test(arguments: [
        (0.0, 0.0, "canvasWidth"), (768, 0, "canvasHeight"), (.nan, 1024, "canvasWidth"), (768, .infinity, "canvasHeight"),
        (-768, 1024, "canvasWidth"), (1e9, 1024, "canvasWidth"), (159, 1024, "canvasWidth"), (768, 16_385, "canvasHeight"), (320, 291, "canvasHeight"),
    ] as [(Double, Double, String)])
    func unusableCanvasesAreRefused(width: Double, height: Double, field: String) {
        var settings = DashboardSettings()
        settings.canvasWidth = width
        settings.canvasHeight = height
        #expect {
            _ = try Dashboard(tree: sampleTree, settings: settings)
        } throws: { error in
            switch error as? DashboardError {
            case .invalidNumber(let f, _)?, .invalidSetting(let f, _, _)?: return f.hasPrefix(field)
            default: return false
            }
        }
    }
}

/// Where the finger of the accepted drag events is, and until which step frame-to-frame jumps
/// are not checked: a finger that teleports (more than 30 pt between moves; no real finger does)
/// takes the bubble under it along, and the others catch up fast, for two seconds.
struct FingerTrack {
    var finger: ScenePoint
    var uncheckedUntil = 0

    mutating func accepted(_ event: DashboardEvent, atStep step: Int) {
        switch event {
        case .pressBubble(_, let p):
            finger = p
        case .move(let p):
            if (p.x - finger.x) * (p.x - finger.x) + (p.y - finger.y) * (p.y - finger.y) > 30 * 30 {
                uncheckedUntil = step + 120
            }
            finger = p
        default:
            break
        }
    }
}
