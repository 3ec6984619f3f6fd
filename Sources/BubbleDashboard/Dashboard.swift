import BubblePhysics

/// A user action. Every event is accepted at any moment, also in the middle of a transition.
public enum DashboardEvent: Sendable, Hashable {
    /// Tap a bubble: the centre circle on the start screen, a category (drill in) or a report
    /// (open its preview).
    case tap(String)
    /// Press on a bubble at a canvas point.
    case dragBegin(String, at: ScenePoint)
    /// Move the finger of the current drag.
    case dragMove(to: ScenePoint)
    /// Lift the finger of the current drag.
    case dragEnd
    /// Toolbar button 2: every bubble back to its home position.
    case recenter
    /// Pinch: back one level.
    case pinch
    /// Toolbar button 1: straight to the top level.
    case top
    /// Toolbar button 3: the table of the current level's reports.
    case showReports
    /// Close whichever overlay is open.
    case closeOverlay
    /// Tap at a canvas point, as a finger does: whatever is there takes it (a bubble as `tap` by
    /// its id, a toolbar button, a row of the reports table, the dimmed backdrop of an overlay).
    case tapAt(ScenePoint)
    /// Press at a canvas point: on the reports table's rows the finger scrolls them; on a bubble
    /// it drags that bubble (as `dragBegin`). Then `dragMove` and `dragEnd` as for any drag.
    case dragBeginAt(ScenePoint)
    /// Scroll the open reports table by this many points (negative: up), with momentum: a fling
    /// that comes to rest this far on, bouncing at an end.
    case scroll(Double)
    /// New motion settings (springs, durations, drag coupling, table scrolling) from now on; the
    /// sizes and the canvas must stay as they are (see `Dashboard.updateFeel(_:)`).
    case settings(DashboardSettings)
}

/// The dashboard: navigation state, transitions and drag-coupled motion on a physics world, stepped
/// at a fixed rate. Standard library only, deterministic: the same tree, settings and events at the
/// same steps give the same scenes, bit for bit.
///
/// Drive it with `send(_:)` for events and `advance(to:)` with the host's clock (or `step()` once per
/// 1/60 s), and take `scene(at:)` for each picture: see `Dashboard+Time.swift` and the README's
/// host-loop example.
public final class Dashboard {
    /// The hierarchy: the datasource's nodes, and the groups the dashboard added for large levels.
    public private(set) var tree: DashboardTree
    public internal(set) var settings: DashboardSettings
    /// Sizes labels for the level layouts (nil: the character-count estimate).
    public let measurer: (any TextMeasurer)?
    let world: World
    /// The fixed step, in seconds.
    public var timeStep: Double { world.settings.timeStep }
    /// Steps taken so far.
    public private(set) var stepCount = 0
    /// Time of the current state, in seconds (`stepCount · timeStep`).
    public var time: Double { Double(stepCount) * timeStep }

    /// True on the start screen: only the root circle is shown.
    public internal(set) var isStartScreen = true
    /// The focus stack, root first: the last entry is the focused category.
    public internal(set) var focusPath: [Int] = [0]

    var live: [LiveBubble] = []
    var ghosts: [Ghost] = []
    var drag: DragState?
    var overlay: OverlayState?
    /// The reports table's scroll (reset whenever a table opens).
    var table = TableScroll()
    var tablePhysics: TableScrollPhysics
    /// The bubbles leaving and the overlay as the step before the current one left them: a scene
    /// between the two steps shows the ones that finished fading on the current step too.
    var previousGhosts: [Ghost] = []
    var previousOverlay: OverlayState?
    /// Layouts computed so far, by focus index (looked up only; never iterated).
    var layouts: [Int: LevelLayout] = [:]
    /// What each child of a laid-out level shows, by node (looked up only; never iterated).
    var labels: [Int: String] = [:]
    /// Where each level's children are to be (targets), by focus index: home until dragged.
    var places: [Int: [Vector2]] = [:]
    /// Set when a drag ended: once the world rests, the places are taken from where bubbles lie.
    var placesPending = false
    /// Set by every event: once the world rests, children are put exactly on their places.
    var needsSnap = false

    /// Creates the dashboard on its start screen. `measurer` gives the label sizes as the host's
    /// renderer draws them (see `TextMeasurer`); without one, cards are sized from character counts.
    public init(
        tree: DashboardTree, settings: DashboardSettings = DashboardSettings(), measurer: (any TextMeasurer)? = nil
    ) throws(DashboardError) {
        try settings.validate()
        self.tree = tree
        self.settings = settings
        self.measurer = measurer
        do {
            world = try World(settings: LevelLayout.liveWorldSettings(settings))
        } catch {
            throw .physics(error.description)
        }
        tablePhysics = TableScrollPhysics(settings: settings.tableScroll, timeStep: world.settings.timeStep)
        let centre = settings.contentRect.center
        let radius = startRadius
        let body = try createBody(BodyDefinition(shape: .circle(radius: radius), position: centre, isKinematic: true))
        live.append(
            LiveBubble(
                node: 0, body: body, role: .focus, shape: .circle(radius: radius), scale: .constant(1), opacity: .constant(1),
                blur: .constant(0), transit: nil))
        _ = world.step(count: world.settings.restSteps + 1, untilRest: true)
    }

    var startRadius: Double { settings.startRadius * settings.canvasScale }

    /// The layout of the level focused on `focus` (computed once). A level whose children cannot
    /// all be shown with labels of at least `minimumLabelFontSize` is first given groups.
    public func layout(of focus: Int) throws(DashboardError) -> LevelLayout {
        if let cached = layouts[focus] { return cached }
        groupIfCrowded(focus)
        var computed = try LevelLayout.compute(tree: tree, focus: focus, settings: settings, measurer: measurer)
        // The packing may have had to shrink the level further than its area promised: then fewer
        // bubbles (more groups, or fewer of them), until the labels are above the floor again.
        var share = 0.8
        for _ in 0..<4 {
            let floor = LevelLayout.floorShrink(tree: tree, focus: focus, settings: settings, measurer: measurer)
            guard computed.shrink < floor - 1e-9, computed.children.count > 2 else { break }
            let grouped = tree.nodes[computed.children[0]].kind == .group
            if grouped { tree.removeGroups(under: focus) }
            groupIfCrowded(focus, force: true, roomShare: grouped ? share : 0.85)
            share *= 0.8
            computed = try LevelLayout.compute(tree: tree, focus: focus, settings: settings, measurer: measurer)
        }
        layouts[focus] = computed
        for (child, label) in zip(computed.children, computed.labels) { labels[child] = label }
        return computed
    }

    /// Replaces the children of `focus` by groups when they cannot all be shown above the
    /// legibility floor: with as many groups as fit above it.
    func groupIfCrowded(_ focus: Int, force: Bool = false, roomShare: Double = 0.85) {
        let children = tree.nodes[focus].children
        guard children.count > 2 else { return }
        let floor = LevelLayout.floorShrink(tree: tree, focus: focus, settings: settings, measurer: measurer)
        let content = settings.contentRect
        let atFloor = content.width * content.height * settings.fillFactor / (floor * floor)
        let k = settings.canvasScale, pad = settings.gap
        // No level holds more of the smallest bubbles than this: decide without measuring them.
        let smallest = min(
            LevelLayout.paddedArea(.roundedRect(width: settings.cardMinWidth * k, height: (settings.cardBaseHeight + settings.cardLineHeight) * k, cornerRadius: 0), pad),
            LevelLayout.paddedArea(.circle(radius: settings.categoryRadiusMin * k), pad))
        if !force && Double(children.count) * smallest <= atFloor {
            let (labels, _) = LevelLayout.levelLabels(tree, focus)
            // Clearly too many when even their least areas need shrinking below the floor: then
            // the titles are not wrapped for a layout that would not be used.
            var least = LevelLayout.paddedArea(.circle(radius: settings.focusRadius * k), pad)
            if let measurer {
                for (child, label) in zip(children, labels) {
                    var node = tree.nodes[child]
                    node.title = label
                    least += LevelLayout.leastPaddedArea(of: node, settings, measurer)
                }
            }
            if measurer == nil || least <= atFloor || settings.minimumShrink >= floor - 1e-9 {
                let shrink = LevelLayout.sizes(tree: tree, focus: focus, labels: labels, settings: settings, measurer: measurer).shrink
                if shrink >= floor - 1e-9 { return }
            }
        }
        // As many groups as fit above the floor (the circles' floor: the level will show circles),
        // checked on the group circles themselves before they are made.
        let circleFloor = settings.minimumLabelFontSize / (measurer?.fontSize(for: .categoryTitle) ?? 14)
        let room = content.width * content.height * settings.fillFactor / (circleFloor * circleFloor) * roomShare
        let largest = LevelLayout.paddedArea(.circle(radius: settings.categoryRadiusMax * k), pad)
        let focusArea = LevelLayout.paddedArea(.circle(radius: settings.focusRadius * k), pad)
        var maxGroups = min(30, max(2, Int(((room - focusArea) / largest).rounded(.down))))
        let titles = children.map { tree.nodes[$0].title }
        let keys = titles.map(TitleKey.init)
        // How many children a group's level shows without grouping again (of the smallest bubbles,
        // with room to spare for longer titles).
        let capacity = max(4, Int(atFloor / smallest * 0.6))
        var plans = LevelGrouping.plan(titles: titles, keys: keys, maxGroups: maxGroups, capacity: capacity)
        for _ in 0..<6 {
            var area = focusArea
            for plan in plans {
                let members = children[plan.range]
                let group = DashboardNode(
                    id: "", title: LevelLayout.groupLabel(title: plan.title, tree: tree, members: members), kind: .group,
                    colour: nil, children: Array(members), reportCount: members.reduce(0) { $0 + tree.nodes[$1].reportCount },
                    count: members.count)
                area += LevelLayout.paddedArea(LevelLayout.shape(of: group, settings, measurer), pad)
            }
            if area <= room || plans.count <= 2 { break }
            maxGroups = max(2, min(plans.count - 1, Int(Double(plans.count) * room / area)))
            plans = LevelGrouping.plan(titles: titles, keys: keys, maxGroups: maxGroups, capacity: capacity)
        }
        guard plans.count >= 2 else { return }
        tree.insertGroups(under: focus, plans)
    }

    /// The focused node.
    public var focus: Int { focusPath[focusPath.count - 1] }

    /// True when nothing moves and no animation runs: stepping changes nothing.
    public var isAtRest: Bool {
        world.isAtRest && ghosts.isEmpty && drag == nil && !placesPending && !needsSnap
            && live.allSatisfy { $0.isSettled(at: time) } && (overlay?.opacity.isFinished(at: time) ?? true)
            && tableIsAtRest
    }

    /// A 64-bit hash of the whole state: the physics world's and the dashboard's own (navigation,
    /// animations), as bit patterns. Equal hashes after the same events prove determinism.
    public var stateHash: UInt64 {
        var h = FNV1a64()
        h.combine(world.stateHash)
        h.combine(UInt64(stepCount))
        h.combine(UInt64(isStartScreen ? 1 : 0))
        for f in focusPath { h.combine(UInt64(f)) }
        for b in live {
            h.combine(UInt64(b.node))
            h.combine(b.displayScale(at: time))
            h.combine(b.opacity.value(at: time))
            h.combine(b.blur.value(at: time))
        }
        for g in ghosts {
            h.combine(UInt64(g.node))
            let p = g.position(at: time)
            h.combine(p.x)
            h.combine(p.y)
            h.combine(g.scale.value(at: time))
            h.combine(g.opacity.value(at: time))
        }
        if let overlay {
            h.combine(UInt64(overlay.kindCode))
            h.combine(overlay.opacity.value(at: time))
        }
        table.combine(into: &h, at: time)
        return h.value
    }

    /// The deepest overlap between any two bubbles' collision shapes (each is the visual shape plus
    /// half the gap all round), in points: 0 when no two bubbles touch closer than the gap.
    public func maxOverlap() -> Double { world.maxOverlap().depth }

    /// Advances one fixed step (1/60 s).
    public func step() {
        for i in live.indices { live[i].previous = position(of: live[i]) }
        previousGhosts = ghosts
        previousOverlay = overlay
        stepCount += 1
        let now = time
        for i in live.indices {
            let lands = live[i].transit.map { $0.endsDynamic && $0.isFinished(at: now) } ?? false
            applyAnimation(&live[i], at: now, hold: lands && landsUnderTraveller(i, at: now))
        }
        if let drag {
            try? world.moveKinematic(drag.body, to: drag.finger + drag.grab)
        }
        world.step()
        ghosts.removeAll { $0.isFinished(at: now) }
        if let o = overlay, o.closing, o.opacity.isFinished(at: now) { overlay = nil }
        advanceTable(at: now)
        if drag == nil && world.isAtRest && live.allSatisfy({ $0.transit == nil }) {
            if placesPending {
                commitPlaces()
            } else if needsSnap {
                needsSnap = false
                snapToPlaces()
            }
        }
    }

    /// Once the world rests, a child within a point of its place is put exactly on it, so a level
    /// comes back to the very same positions every time (the last hundredth of a point a spring
    /// would take seconds to close).
    func snapToPlaces() {
        for b in live where b.role == .child {
            guard let state = try? world.state(of: b.body), state.position != state.target else { continue }
            let d = state.position - state.target
            if d.lengthSquared < 1 {
                try? world.setPosition(of: b.body, to: state.target)
                try? world.setVelocity(of: b.body, to: .zero)
            }
        }
    }

    /// Steps `count` times.
    public func step(count: Int) {
        for _ in 0..<max(0, count) { step() }
    }

    /// Steps until the dashboard is at rest, at most `limit` steps; returns the steps taken.
    @discardableResult
    public func settle(limit: Int = 1200) -> Int {
        var n = 0
        while n < limit && !isAtRest {
            step()
            n += 1
        }
        return n
    }

    // MARK: - Per-step animation

    /// True when live bubble `i`, ending its glide, would land under a bubble that is still
    /// travelling (a kinematic glide, or the dragged bubble): as a dynamic body it would be shoved
    /// off that one in a single step, so it stays kinematic at its place until the other has
    /// passed. (Bounding circles: a card may wait a frame or two longer than it needs to.)
    func landsUnderTraveller(_ i: Int, at now: Double) -> Bool {
        guard let t = live[i].transit else { return false }
        let r = boundingRadius(live[i].shape) * live[i].displayScale(at: now)
        for (j, other) in live.enumerated() where j != i {
            let p: Vector2
            if let o = other.transit, !o.isFinished(at: now) {
                p = o.position(at: now)
            } else if let drag, drag.body == other.body {
                p = drag.finger + drag.grab
            } else {
                continue
            }
            let reach = r + boundingRadius(other.shape) * other.displayScale(at: now) + settings.gap
            if (p - t.to).lengthSquared < reach * reach { return true }
        }
        return false
    }

    func boundingRadius(_ shape: Shape) -> Double {
        switch shape {
        case .circle(let r): r
        case .roundedRect(let w, let h, _): 0.5 * (w * w + h * h).squareRoot()
        }
    }

    /// Pushes a bubble's animated values (scale, size, travel) into the world. With `hold`, a
    /// glide that has ended keeps the bubble kinematic at its place for this step.
    func applyAnimation(_ b: inout LiveBubble, at now: Double, hold: Bool = false) {
        let scale = max(0, min(b.displayScale(at: now), 4))
        if let current = try? world.scale(of: b.body), current != scale {
            try? world.setScale(of: b.body, to: scale)
        }
        if var transit = b.transit {
            let p = transit.position(at: now)
            let r = transit.radius.value(at: now)
            try? world.moveKinematic(b.body, to: p)
            if case .circle = b.shape {
                b.shape = .circle(radius: r)
                try? world.setShape(of: b.body, to: .circle(radius: r + settings.gap / 2))
            }
            if transit.isFinished(at: now) && !hold {
                if transit.endsDynamic {
                    try? world.setKinematic(b.body, false)
                    try? world.setTarget(of: b.body, to: transit.to)
                    try? world.setSpring(of: b.body, to: settings.placeSpring)
                    b.transit = nil
                } else {
                    transit.from = transit.to
                    b.transit = nil
                }
            }
        }
    }

    // MARK: - Helpers

    func createBody(_ definition: BodyDefinition) throws(DashboardError) -> BodyID {
        do {
            return try world.createBody(definition)
        } catch {
            throw .physics(error.description)
        }
    }

    func liveIndex(of node: Int) -> Int? { live.firstIndex { $0.node == node } }

    func nodeIndex(_ id: String) throws(DashboardError) -> Int {
        guard let i = tree.index(of: id) else {
            throw .unknownID(id, suggestions: tree.suggestions(for: id))
        }
        return i
    }

    /// Current centre of a live bubble.
    func position(of b: LiveBubble) -> Vector2 {
        (try? world.position(of: b.body)) ?? settings.contentRect.center
    }
}

