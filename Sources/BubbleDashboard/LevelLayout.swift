import BubblePhysics
import BubbleSupport

/// The sizes and the home layout of one level: a focused category and its children.
///
/// Sizes follow documented rules (`DashboardSettings`): category circles grow with the square
/// root of the number of reports below them, report cards are fitted to their titles. If the
/// bubbles would cover more than `fillFactor` of the bubble area, every size (the focus included)
/// shrinks by one common factor, so a crowded level stays inside the canvas instead of spilling.
///
/// The home layout is found by simulation: the children start on rings around the focus in data
/// order, each springs along its own ray towards the focus, and they collide with it and with each
/// other until the world is at rest.
/// The result depends only on the tree and the settings, so it is the same every time a level is
/// entered.
public struct LevelLayout: Sendable {
    /// The focused node.
    public let focus: Int
    /// The focus circle's radius at this level.
    public let focusRadius: Double
    /// The focus' centre (the middle of the bubble area).
    public let centre: Vector2
    /// The children, in data order.
    public let children: [Int]
    /// Each child's visual shape (the collision shape adds `gap / 2` all round).
    public let shapes: [Shape]
    /// Each child's home position.
    public let home: [Vector2]
    /// The common shrink factor applied to this level because it is crowded (1 when everything
    /// fits; above 1, up to `groupGrowth` (1.6), for a level of groups that leaves room); sizes
    /// are also scaled down on canvases smaller than 768 pt.
    public let shrink: Double
    /// Steps the layout simulation took to come to rest.
    public let settleSteps: Int
    /// What each child shows: the part of its title that tells it from its siblings (see
    /// `SiblingLabels`), or, for a group, its range and, on a line of its own, its count
    /// ("2015\n12 reports").
    public let labels: [String]
    /// What the children's titles share, said once for the level ("Month-End Close Pack — …").
    public let caption: String?
    /// How much larger than the bubble area, in each direction, the area the level is laid out in
    /// is: 1 when the level fits the canvas, more for a level that pans (see
    /// `LevelGrouping.Policy.panMaxArea`).
    public let spread: Double
    /// The area the children are laid out in (pt, canvas coordinates before any pan): the bubble
    /// area, or for a level that pans the bubble area scaled by `spread` about its centre.
    public var area: Rect { LevelLayout.area(spread, of: bubbleArea) }
    /// The bubble area the level was laid out for (pt).
    let bubbleArea: Rect
    /// How the children's places follow their order (`children`): see `ReadingOrder`.
    public internal(set) var readingOrder: ReadingOrder = .spiral

    /// How a level's children are placed in their order, so that the eye finds where the sequence
    /// starts and how it runs.
    public enum ReadingOrder: Sendable, Hashable {
        /// On one ring round the focus: the first at twelve o'clock, the rest clockwise, the last
        /// before a wider gap at the top (a level of groups).
        case clockwise
        /// In rows, left to right and top to bottom, each row broken round the focus.
        case rows
        /// On rings round the focus from twelve o'clock, clockwise, each ring beginning where the
        /// one inside it ended; packed towards the focus, so the order is kept only roughly.
        case spiral
    }

    /// `rect` scaled by `spread` about its centre (`rect` itself, bit for bit, at 1).
    static func area(_ spread: Double, of rect: Rect) -> Rect {
        guard spread != 1 else { return rect }
        let c = rect.center
        let w = rect.width * spread, h = rect.height * spread
        return Rect(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h)
    }

    /// The most a level of groups grows when it leaves room (a factor on every size, the focus
    /// included): groups of the largest circle size then still fill about `fillFactor` of the
    /// bubble area.
    static let groupGrowth = 1.6

    /// Computes the layout of the level focused on `focus`, with label sizes from `measurer` (nil:
    /// the character-count estimate of `naturalShape`).
    public static func compute(
        tree: some DashboardHierarchy, focus: Int, settings: DashboardSettings, measurer: (any TextMeasurer)? = nil
    ) throws(DashboardError) -> LevelLayout {
        try compute(tree: tree, focus: focus, settings: settings, measurer: measurer, givingUpBelow: 0)
    }

    /// `compute(tree:focus:settings:measurer:)`, returning as soon as the shrink falls below
    /// `givingUpBelow`, before packing at that shrink: a layout the caller will not use (it
    /// groups the level instead), with no `home` positions.
    static func compute(
        tree: some DashboardHierarchy, focus: Int, settings: DashboardSettings, measurer: (any TextMeasurer)?,
        givingUpBelow giveUp: Double, spread: Double = 1
    ) throws(DashboardError) -> LevelLayout {
        let bubbleArea = settings.contentRect
        let centre = bubbleArea.center
        let content = area(spread, of: bubbleArea)
        let children = tree.nodes[focus].children
        let (labels, caption) = levelLabels(tree, focus)
        let (shapes, focusRadius, areaShrink) = sizes(
            tree: tree, focus: focus, labels: labels, settings: settings, measurer: measurer, spread: spread)
        var shrink = areaShrink
        // An ordered sequence of groups reads like a clock face: on one ring from twelve o'clock,
        // at the size the level's area allows or smaller down to the legibility floor; else in
        // rows from the top left.
        if spread == 1 && shrink >= giveUp && children.count >= 2 && children.allSatisfy({ tree.nodes[$0].kind == .group }) {
            let floor = max(giveUp, settings.sizes.minimumShrink, floorShrink(tree: tree, focus: focus, settings: settings, measurer: measurer))
            var s = shrink
            for _ in 0..<12 {
                let sized = shapes.map { scaled($0, s) }
                if let starts = oneRing(shapes: sized, around: centre, focusRadius: focusRadius * s, gap: settings.sizes.gap, area: bubbleArea) {
                    let (home, steps, pressed) = try place(
                        shapes: sized, at: starts, focusRadius: focusRadius * s, centre: centre, settings: settings, area: bubbleArea)
                    if !pressed {
                        return LevelLayout(
                            focus: focus, focusRadius: focusRadius * s, centre: centre, children: children, shapes: sized,
                            home: home, shrink: s, settleSteps: steps, labels: labels, caption: caption, spread: spread,
                            bubbleArea: bubbleArea, readingOrder: .clockwise)
                    }
                }
                if s <= floor + 1e-9 { break }
                s = max(floor, min(shrink, s) * 0.94)
            }
            let tried = rowShrinks.map { min(shrink, max(floor, shrink * $0)) } + [floor]
            if let rows = try inRows(
                tree: tree, focus: focus, settings: settings, shapes: shapes, focusRadius: focusRadius, labels: labels,
                caption: caption, shrinks: tried) {
                return rows
            }
        }
        // Many cards read in rows, when rows fit on the canvas at this size or a little smaller
        // (a level that pans keeps the spiral).
        if spread == 1 && mayUseRows(tree, focus) {
            let floor = max(giveUp, settings.sizes.minimumShrink, floorShrink(tree: tree, focus: focus, settings: settings, measurer: measurer))
            // Never below the legibility floor: a level at the floor tries rows at that size.
            let tried = rowShrinks.map { min(shrink, max(floor, shrink * $0)) }
            if let rows = try inRows(
                tree: tree, focus: focus, settings: settings, shapes: shapes, focusRadius: focusRadius, labels: labels,
                caption: caption, shrinks: tried) {
                return rows
            }
        }
        // Lay out; if the packed level still reaches past an edge (a long narrow area), shrink a
        // little more and lay out again.
        var attempt = 0
        // The spiral's last ring keeps its bubbles together where the level fits so; where it
        // does not, that ring spread round the focus is tried at the same size before shrinking
        // (a ring kept together on one side makes the pile lopsided). A level that pans keeps it
        // together: its pile may reach past the screen anyway.
        var together = true
        while true {
            let sized = shapes.map { scaled($0, shrink) }
            if shrink < giveUp {
                // The caller groups the level instead: it reads only the shrink, so nothing is
                // packed.
                return LevelLayout(
                    focus: focus, focusRadius: focusRadius * shrink, centre: centre, children: children, shapes: sized,
                    home: [], shrink: shrink, settleSteps: 0, labels: labels, caption: caption, spread: spread,
                    bubbleArea: bubbleArea)
            }
            let (home, steps, pressed) = try pack(
                shapes: sized, focusRadius: focusRadius * shrink, centre: centre, settings: settings, area: content,
                lastRingTogether: together)
            let within = zip(sized, home).allSatisfy { inside($0.0, at: $0.1, content, margin: 0) }
            let fits = within && !pressed
            if !fits && together && spread == 1 && hasPartialLastRing(sized, focusRadius: focusRadius * shrink, gap: settings.sizes.gap) {
                together = false
                continue
            }
            together = true
            attempt += 1
            if fits || attempt >= 8 || shrink <= settings.sizes.minimumShrink {
                return LevelLayout(
                    focus: focus, focusRadius: focusRadius * shrink, centre: centre, children: children, shapes: sized,
                    home: home, shrink: shrink, settleSteps: steps, labels: labels, caption: caption, spread: spread,
                    bubbleArea: bubbleArea)
            }
            // A pile inside the area but pressed against its edges is a few points too large:
            // shrink it a little.
            let next = max(settings.sizes.minimumShrink, shrink * (within ? 0.98 : 0.93))
            // A step that would cross the point of giving up (the legibility floor) tries that
            // point itself first: a level that fits there is not grouped nor panned.
            shrink = next < giveUp && shrink > giveUp + 2e-9 ? giveUp + 1e-9 : next
        }
    }

    /// The physics settings of the layout world: `area` (default: the bubble area) as bounds, and
    /// the engine's default contact friction, which keeps a pile from creeping while it packs.
    static func layoutWorldSettings(_ settings: DashboardSettings, area: Rect? = nil) -> WorldSettings {
        var w = WorldSettings()
        w.bounds = area ?? settings.contentRect
        w.boundsMargin = settings.sizes.gap / 2
        w.boundsSpring = Spring(frequency: 6, dampingRatio: 1)
        // The dashboard settles its levels with its own phases (pack, relax, hold) and snaps
        // bubbles onto their places at rest; it was tuned, and its transitions timed, without the
        // engine's static friction and rest polish, which would stop gliding bubbles short.
        w.staticSpeed = 0
        w.staticFriction = 0
        w.restOverlapTolerance = nil
        // Four sweeps per sub-step, as the engine had when the layouts were tuned: a level holds
        // tens of bubbles, so the sweeps cost nothing, and four give crisper packing in one frame.
        w.iterations = 4
        return w
    }

    /// The physics settings of a layout's packing phase: the layout world's, resting as soon as
    /// nothing moves faster than `packRestSpeed` (the relax and hold phases that follow settle the
    /// last points exactly, at the live world's rest speed).
    static func packWorldSettings(_ settings: DashboardSettings, area: Rect? = nil) -> WorldSettings {
        var w = layoutWorldSettings(settings, area: area)
        w.restSpeed = settings.layout.restSpeed
        return w
    }

    /// The physics settings of the live world: like the layout world but with little contact
    /// friction, so bubbles glide past each other to their own places instead of crawling.
    static func liveWorldSettings(_ settings: DashboardSettings, area: Rect? = nil) -> WorldSettings {
        var w = layoutWorldSettings(settings, area: area)
        w.contactDamping = settings.motion.contactFriction
        return w
    }
}
