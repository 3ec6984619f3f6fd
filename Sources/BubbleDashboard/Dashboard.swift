import BubblePhysics
import BubbleSupport

/// The dashboard: navigation state, transitions and drag-coupled motion on a physics world, stepped
/// at a fixed rate. Standard library only, deterministic: the same tree, settings and events at the
/// same steps give the same scenes, bit for bit.
///
/// Drive it with `send(_:)` for events and `advance(to:)` with the host's clock (or `step()` once per
/// 1/60 s), and take `scene(at:)` for each picture: see `Dashboard+Time.swift` and the README's
/// host-loop example.
public final class Dashboard {
    /// The datasource's hierarchy, as given to `init(tree:settings:measurer:)`; never edited.
    public var tree: DashboardTree { levels.source }
    /// The hierarchy shown: the datasource's nodes and the groups made for large levels.
    /// `focusPath`, layouts and scenes index it; an index once shown keeps its meaning.
    public internal(set) var levels: LevelModel
    /// The settings in effect: as created, with the live ones of the last `settings` event and the
    /// canvas of the last `resize(to:)`.
    public internal(set) var settings: DashboardSettings
    /// Sizes labels for the level layouts (nil: the character-count estimate).
    public let measurer: (any TextMeasurer)?
    /// Answers searches and keyword filters (nil: the magnifier and the Filter button say "Search
    /// needs an index").
    public let finder: (any ReportFinder)?
    /// Opens reports' documents for the preview's viewer (nil: the preview draws a stand-in page).
    public let documents: (any ReportDocuments)?
    let world: World
    /// The fixed step, in seconds.
    public var timeStep: Double { world.settings.timeStep }
    /// Steps taken so far.
    public internal(set) var stepCount = 0
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
    /// The pan of a level larger than the bubble area (see `Dashboard+Pan.swift`).
    var pan = CanvasPan()
    /// The pan's shift at the step before the current one (a scene between steps interpolates).
    var previousPanShift = Vector2.zero
    /// Where each level that pans was left, by focus index (looked up only; never iterated).
    var savedPans: [Int: SavedPan] = [:]
    var tablePhysics: TableScrollPhysics
    /// The bubbles leaving and the overlay as the step before the current one left them: a scene
    /// between the two steps shows the ones that finished fading on the current step too.
    var previousGhosts: [Ghost] = []
    var previousOverlay: OverlayState?
    /// The levels whose grouping is decided: laid out at least once (looked up only; never iterated).
    var groupingDecided: Set<Int> = []
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
    /// The search typed so far and its results (kept while the search overlay is shown).
    var searchSession: SearchSession?
    /// The filter sheet's field and the keyword counts it shows (while the sheet is shown).
    var filterSheet: FilterSheetState?
    /// The selected keywords, in the order they were selected (empty: no filter).
    public internal(set) var filterKeywords: [String] = []
    /// How many reports of the library carry every selected keyword.
    var filterMatchTotal = 0
    /// The width of each selected keyword's token in the breadcrumb bar (pt), measured once.
    var filterTokenWidths: [Double] = []
    /// Per view key: the layouts, labels, places and grouping decisions of a view not shown.
    var savedLayouts: [String: ViewLayouts] = [:]
    /// Reports marked by a search pick: the ring's strength over time.
    var marks: [(node: Int, ring: Tween)] = []
    /// A preview to open once its report has landed (after a search pick): node and time (s).
    var pendingPreview: (node: Int, at: Double)?
    /// The open preview's pages, scroll, zoom and swipe (while a preview is shown).
    var viewer: PreviewViewer?
    /// What the host is asked to do (see `takeRequests()`).
    var requests: [DashboardRequest] = []
    /// A short message over the canvas and its fade.
    var notice: (text: String, opacity: Tween)?

    /// Creates the dashboard on its start screen. `measurer` gives the label sizes as the host's
    /// renderer draws them (see `TextMeasurer`); without one, cards are sized from character counts.
    /// `finder` answers searches and keyword filters (see `ReportFinder`); without one the
    /// magnifier and the Filter button show "Search needs an index". `documents` gives the preview
    /// its pages (see `ReportDocuments`); without it the preview draws a stand-in page.
    public init(
        tree: DashboardTree, settings: DashboardSettings = DashboardSettings(), measurer: (any TextMeasurer)? = nil,
        finder: (any ReportFinder)? = nil, documents: (any ReportDocuments)? = nil
    ) throws(DashboardError) {
        try settings.validate()
        self.levels = LevelModel(tree)
        self.settings = settings
        self.measurer = measurer
        self.finder = finder
        self.documents = documents
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

    var startRadius: Double { settings.sizes.startRadius * settings.canvasScale }

    /// The layout of the level focused on `focus` (computed once). A level whose children cannot
    /// all be shown with labels of at least `minimumLabelFontSize` is first given groups.
    public func layout(of focus: Int) throws(DashboardError) -> LevelLayout {
        if let cached = layouts[focus] { return cached }
        // A level is grouped (or not) the first time it is laid out, and keeps that for good: after
        // a resize it is only laid out again.
        // A level that pans is laid out for panning again (the canvas may have changed size).
        let computed: LevelLayout
        if !groupingDecided.contains(focus) {
            computed = try LevelGrouping.layOut(focus, in: &levels, settings: settings, measurer: measurer)
        } else if let panning = try LevelGrouping.panningLayout(focus, in: levels, settings: settings, measurer: measurer) {
            computed = panning
        } else {
            computed = try LevelLayout.compute(tree: levels, focus: focus, settings: settings, measurer: measurer)
        }
        groupingDecided.insert(focus)
        layouts[focus] = computed
        for (child, label) in zip(computed.children, computed.labels) { labels[child] = label }
        return computed
    }

    /// The focused node.
    public var focus: Int { focusPath[focusPath.count - 1] }

    /// True when nothing moves and no animation runs: stepping changes nothing.
    public var isAtRest: Bool {
        world.isAtRest && ghosts.isEmpty && drag == nil && !placesPending && !needsSnap
            && live.allSatisfy { $0.isSettled(at: time) } && (overlay?.opacity.isFinished(at: time) ?? true)
            && tableIsAtRest && pan.isAtRest(at: time) && viewerIsAtRest
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
        viewer?.combine(into: &h, at: time)
        if pan.isActive(at: time) { pan.combine(into: &h, at: time) }
        combineFinding(into: &h)
        return h.value
    }

    /// The deepest overlap between any two bubbles' collision shapes (each is the visual shape plus
    /// half the gap all round), in points: 0 when no two bubbles touch closer than the gap.
    public func maxOverlap() -> Double { world.maxOverlap().depth }

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
        guard let i = levels.index(of: id) else {
            throw .unknownID(id, suggestions: levels.suggestions(for: id))
        }
        return i
    }

    /// Current centre of a live bubble.
    func position(of b: LiveBubble) -> Vector2 {
        world.position(ofHeld: b.body, orElse: settings.contentRect.center)
    }
}

