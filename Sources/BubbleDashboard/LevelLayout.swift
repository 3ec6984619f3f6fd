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

    /// The children's labels and the level's caption.
    static func levelLabels(_ tree: some DashboardHierarchy, _ focus: Int) -> ([String], String?) {
        let children = tree.nodes[focus].children
        if children.contains(where: { tree.nodes[$0].kind == .group }) {
            // Groups: their range and count. The caption is what the grouped titles share, word by
            // word, read from the titles at the groups' edges (reading every title of a huge level
            // would cost more than the whole layout).
            let labels = children.map { groupLabel(tree, $0) }
            var edges: [String] = []
            for g in children where tree.nodes[g].kind == .group {
                let members = tree.nodes[g].children
                if let a = members.first { edges.append(tree.nodes[a].title) }
                if let b = members.last, members.count > 1 { edges.append(tree.nodes[b].title) }
            }
            return (labels, captionAddingTo(labels, SiblingLabels.fieldCaption(edges)))
        }
        let first = (tree as? LevelModel)?.firstPosition(of: focus) ?? 0
        let sibling = SiblingLabels(titles: children.map { tree.nodes[$0].title }, firstNumber: first + 1)
        return (sibling.labels, sibling.caption)
    }

    /// A grouped level's caption, or nil when every word of it is on every group's label already
    /// ("Department …" over "Department 1 – 10", "Department 11 – 20", …: it would say nothing).
    static func captionAddingTo(_ labels: [String], _ caption: String?) -> String? {
        guard let caption, !labels.isEmpty else { return caption }
        let words = caption.split(separator: " ").filter { $0 != "…" }
        let names = labels.map { label in label.split(separator: "\n").first.map { $0.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }) } ?? [] }
        let said = words.allSatisfy { word in names.allSatisfy { $0.contains(word) } }
        return said ? nil : caption
    }

    /// "2015\n12 reports", "A – F\n40 categories", "1 – 50\n50 items": the name or range, then on
    /// a line of its own the count (a renderer draws it smaller; see `SceneBubble.label`).
    static func groupLabel(_ tree: some DashboardHierarchy, _ node: Int) -> String {
        let n = tree.nodes[node]
        guard n.kind == .group else { return n.title }
        if let kinds = (tree as? LevelModel)?.memberKinds(ofGroup: node) { return groupLabel(title: n.title, reports: kinds.reports, others: kinds.others) }
        return groupLabel(title: n.title, tree: tree, members: n.children[...])
    }

    static func groupLabel(title: String, tree: some DashboardHierarchy, members: ArraySlice<Int>) -> String {
        var reports = 0, others = 0
        for m in members { if tree.nodes[m].kind == .report { reports += 1 } else { others += 1 } }
        return groupLabel(title: title, reports: reports, others: others)
    }

    /// A group's label from how many of its members are reports and how many are not.
    static func groupLabel(title: String, reports: Int, others: Int) -> String {
        let noun = others == 0 ? "report" : (reports == 0 ? "category" : "item")
        let count = reports + others
        let plural = count == 1 ? noun : (noun == "category" ? "categories" : noun + "s")
        // The count is one unit on its own line ("12 reports" never splits).
        return "\(title)\n\(count)\u{00A0}\(plural)"
    }

    /// The children's shapes before packing, the focus radius, and the common shrink the area rule
    /// gives (before any extra shrink the packing may need).
    static func sizes(
        tree: some DashboardHierarchy, focus: Int, labels: [String], settings: DashboardSettings, measurer: (any TextMeasurer)?,
        spread: Double = 1
    ) -> (shapes: [Shape], focusRadius: Double, shrink: Double) {
        let (shapes, focusRadius, shrink, _) = sizesAndArea(
            tree: tree, focus: focus, labels: labels, settings: settings, measurer: measurer, spread: spread)
        return (shapes, focusRadius, shrink)
    }

    /// `sizes`, and the padded area of the level's bubbles at scale 1 (pt²).
    static func sizesAndArea(
        tree: some DashboardHierarchy, focus: Int, labels: [String], settings: DashboardSettings, measurer: (any TextMeasurer)?,
        spread: Double = 1
    ) -> (shapes: [Shape], focusRadius: Double, shrink: Double, area: Double) {
        let content = settings.contentRect
        let children = tree.nodes[focus].children
        var shapes: [Shape] = []
        shapes.reserveCapacity(children.count)
        for (child, label) in zip(children, labels) {
            var node = tree.nodes[child]
            node.title = label
            shapes.append(shape(of: node, settings, measurer))
        }
        let focusRadius = settings.sizes.focusRadius * settings.canvasScale
        let pad = settings.sizes.gap
        var area = paddedArea(.circle(radius: focusRadius), pad)
        for shape in shapes { area += paddedArea(shape, pad) }
        let available = content.width * content.height * spread * spread * settings.sizes.fillFactor
        var shrink = 1.0
        if area > available {
            shrink = max(settings.sizes.minimumShrink, (available / area).squareRoot())
        } else if !children.isEmpty && children.allSatisfy({ tree.nodes[$0].kind == .group }) {
            // A level of groups grows to use the screen (up to `groupGrowth`): a group is a way in,
            // not a bubble among hundreds, and a few small circles in the middle waste the canvas.
            shrink = min(groupGrowth, (available / area).squareRoot())
        }
        return (shapes, focusRadius, shrink, area)
    }

    /// The shape of a bubble showing `node.title` on this canvas, before any shrinking: measured,
    /// or from the character estimate without a measurer.
    static func shape(of node: DashboardNode, _ settings: DashboardSettings, _ measurer: (any TextMeasurer)?) -> Shape {
        scaled(measurer.map { measuredShape(node, settings, $0) } ?? naturalShape(node, settings), settings.canvasScale)
    }

    /// The smallest common shrink at which every label of the level is still at least
    /// `minimumLabelFontSize` at scale 1: the label sizes the shapes were made for, scaled down.
    static func floorShrink(tree: some DashboardHierarchy, focus: Int, settings: DashboardSettings, measurer: (any TextMeasurer)?) -> Double {
        var floor = 0.0
        var seen = (report: false, circle: false)
        if let kinds = (tree as? LevelModel)?.sourceChildKinds(focus) {
            seen = (kinds & ChildKinds.report != 0, kinds & ChildKinds.circle != 0)
        } else {
            for child in tree.nodes[focus].children {
                if tree.nodes[child].kind == .report { seen.report = true } else { seen.circle = true }
                if seen.report && seen.circle { break }
            }
        }
        if seen.report { floor = max(floor, settings.sizes.minimumLabelFontSize / (measurer?.fontSize(for: .cardTitle) ?? 14)) }
        if seen.circle { floor = max(floor, settings.sizes.minimumLabelFontSize / (measurer?.fontSize(for: .categoryTitle) ?? 14)) }
        return floor
    }

    /// Whether `shape` centred at `p` lies inside `rect`, `margin` points in from its edges.
    static func inside(_ shape: Shape, at p: Vector2, _ rect: Rect, margin: Double) -> Bool {
        let (hw, hh, _) = shape.halfExtents
        return p.x - hw >= rect.minX + margin - 0.25 && p.x + hw <= rect.maxX - margin + 0.25
            && p.y - hh >= rect.minY + margin - 0.25 && p.y + hh <= rect.maxY - margin + 0.25
    }

    /// Packs bubbles of `shapes` around a focus of `focusRadius`: the home positions, the steps
    /// the simulation took, and whether the pile is pressed against the bounds. A home is a rest
    /// of the live world with every bubble on its place: no bubble overlaps another or lies
    /// where the soft bounds pull it in, so a bubble snapped onto its home stays there. A pile
    /// pressed against the bounds has no such rest.
    static func pack(
        shapes: [Shape], focusRadius: Double, centre: Vector2, settings: DashboardSettings, area: Rect,
        lastRingTogether: Bool = true
    ) throws(DashboardError) -> ([Vector2], Int, pressed: Bool) {
        let pad = settings.sizes.gap
        // Start on rings around the focus, in data order: a spiral from twelve o'clock, clockwise.
        let world: World
        var bodies: [BodyID] = []
        let steps: Int
        let pressed: Bool
        do {
            var packing = packWorldSettings(settings, area: area)
            packing.boundsMargin += edgeRoom
            world = try World(settings: packing)
            let focus = try world.createBody(
                BodyDefinition(shape: .circle(radius: focusRadius + pad / 2), position: centre, isKinematic: true))
            let starts = ringPositions(
                shapes: shapes, around: centre, focusRadius: focusRadius, gap: pad, lastRingTogether: lastRingTogether)
            bodies.reserveCapacity(shapes.count)
            for (i, shape) in shapes.enumerated() {
                // Each child is pulled along its own ray to where it would just touch the focus, so
                // the level packs inwards without the whole ring sliding round the focus.
                var ray = starts[i] - centre
                let length = ray.length
                ray = length > 1e-9 ? ray * (1 / length) : Vector2(0, -1)
                let target = centre + ray * (focusRadius + pad + reach(shape) * 0.8)
                bodies.append(
                    try world.createBody(
                        BodyDefinition(
                            shape: padded(shape, pad), position: starts[i], target: target, spring: settings.layout.spring)))
            }
            // 1. Pack towards the focus (with the engine's contact friction, so the pile is calm).
            let packed = world.step(count: 1200, untilRest: true)
            let (settled, moved) = try settle(world, focus, bodies, settings, area: area, room: edgeRoom)
            steps = packed + settled
            pressed = !moved.isFinite
        } catch {
            throw .physics(error.description)
        }
        let home = bodies.map { (try? world.position(of: $0)) ?? centre }
        return (home, steps, pressed)
    }

    /// The fewest cards on a level (and nothing but cards) that are laid out in rows.
    static let rowMinimum = 16

    /// Whether the level focused on `focus` is laid out in rows where they fit: at least
    /// `rowMinimum` children, all cards.
    static func mayUseRows(_ tree: some DashboardHierarchy, _ focus: Int) -> Bool {
        let children = tree.nodes[focus].children
        return children.count >= rowMinimum && children.allSatisfy { tree.nodes[$0].kind == .report }
    }

    /// The level in rows on the bubble area at the first of `shrinks` (scales of `shapes` and
    /// `focusRadius`) at which rows fit and the placed cards are not pressed against the edges;
    /// nil when none does.
    static func inRows(
        tree: some DashboardHierarchy, focus: Int, settings: DashboardSettings, shapes: [Shape], focusRadius: Double,
        labels: [String], caption: String?, shrinks: [Double]
    ) throws(DashboardError) -> LevelLayout? {
        let bubbleArea = settings.contentRect
        let centre = bubbleArea.center
        var tried: [Double] = []
        for s in shrinks where !tried.contains(s) {
            tried.append(s)
            let sized = shapes.map { scaled($0, s) }
            guard let starts = rowPositions(
                shapes: sized, around: centre, focusRadius: focusRadius * s, gap: settings.sizes.gap, area: bubbleArea)
            else { continue }
            let (home, steps, pressed) = try place(
                shapes: sized, at: starts, focusRadius: focusRadius * s, centre: centre, settings: settings, area: bubbleArea)
            guard !pressed else { continue }
            return LevelLayout(
                focus: focus, focusRadius: focusRadius * s, centre: centre, children: tree.nodes[focus].children,
                shapes: sized, home: home, shrink: s, settleSteps: steps, labels: labels, caption: caption, spread: 1,
                bubbleArea: bubbleArea)
        }
        return nil
    }

    /// The level focused on `focus` in rows on the bubble area with its labels at `shrink` (the
    /// legibility floor, for a level that would otherwise pan), or nil when it is not a level of
    /// cards that may use rows or the rows do not fit.
    static func inRows(
        tree: some DashboardHierarchy, focus: Int, settings: DashboardSettings, measurer: (any TextMeasurer)?, at shrink: Double
    ) throws(DashboardError) -> LevelLayout? {
        guard mayUseRows(tree, focus) else { return nil }
        let (labels, caption) = levelLabels(tree, focus)
        let (shapes, focusRadius, _) = sizes(tree: tree, focus: focus, labels: labels, settings: settings, measurer: measurer)
        return try inRows(
            tree: tree, focus: focus, settings: settings, shapes: shapes, focusRadius: focusRadius, labels: labels,
            caption: caption, shrinks: [shrink])
    }

    /// The sizes rows are tried at, as factors on the size the level's area allows (never below
    /// the legibility floor): rows leave a little room between the cards, so that a level dragged
    /// into a corner still fits there and comes apart at once when let go.
    static let rowShrinks = [0.9, 0.85, 0.8]

    /// Start positions in rows, read left to right and top to bottom, in data order: rows of the
    /// tallest card's height, a gap apart, as few as hold every card, centred on the focus, each
    /// row broken round the focus where it crosses it. A row's cards are spaced out over its
    /// width, the last row's kept together, so that a dragged card has room to pass. Nil when the
    /// rows do not fit in `area`, a gap and `edgeRoom` in from its edges.
    static func rowPositions(shapes: [Shape], around centre: Vector2, focusRadius: Double, gap: Double, area: Rect) -> [Vector2]? {
        guard !shapes.isEmpty else { return [] }
        var height = 0.0
        for s in shapes { height = max(height, 2 * s.halfExtents.hh) }
        let inset = gap + edgeRoom
        let pitch = height + gap
        let maxRows = Int((area.height - 2 * inset + gap) / pitch)
        guard maxRows >= 1 else { return nil }
        for rows in 1...maxRows {
            if let p = rowPositions(shapes, rows: rows, pitch: pitch, height: height, centre: centre,
                                    hole: focusRadius + gap, gap: gap, left: area.minX + inset, right: area.maxX - inset) {
                return p
            }
        }
        return nil
    }

    /// `rowPositions` for `rows` rows `pitch` apart: nil when the cards do not all fit.
    private static func rowPositions(
        _ shapes: [Shape], rows: Int, pitch: Double, height: Double, centre: Vector2, hole: Double, gap: Double,
        left: Double, right: Double
    ) -> [Vector2]? {
        let top = centre.y - (Double(rows - 1) * pitch + height) / 2
        var positions: [Vector2] = []
        positions.reserveCapacity(shapes.count)
        var i = 0
        for r in 0..<rows where i < shapes.count {
            let y0 = top + Double(r) * pitch, y1 = y0 + height
            let dy = centre.y < y0 ? y0 - centre.y : (centre.y > y1 ? centre.y - y1 : 0)
            let y = (y0 + y1) / 2
            guard dy < hole else {
                let j = fitting(shapes, from: i, width: right - left, gap: gap)
                lay(shapes, i..<j, lo: left, hi: right, y: y, gap: gap, last: j == shapes.count, into: &positions)
                i = j
                continue
            }
            // A row broken round the focus: as many cards as its two parts hold, split between
            // them so that they are about as full as each other.
            let w = (hole * hole - dy * dy).squareRoot()
            let leftWidth = centre.x - w - left, rightWidth = right - (centre.x + w)
            let l = fitting(shapes, from: i, width: leftWidth, gap: gap)
            let j = fitting(shapes, from: l, width: rightWidth, gap: gap)
            var split = l, best = Double.infinity
            var k = l
            while k >= i {
                let usedLeft = span(shapes, i..<k, gap: gap), usedRight = span(shapes, k..<j, gap: gap)
                if usedRight > rightWidth { break }
                let imbalance = abs((leftWidth - usedLeft) - (rightWidth - usedRight))
                if imbalance < best { best = imbalance; split = k }
                k -= 1
            }
            let last = j == shapes.count
            lay(shapes, i..<split, lo: left, hi: centre.x - w, y: y, gap: gap, last: last, into: &positions)
            lay(shapes, split..<j, lo: centre.x + w, hi: right, y: y, gap: gap, last: last, into: &positions)
            i = j
        }
        return i == shapes.count ? positions : nil
    }

    /// The end of the run of cards from `from` that fits side by side, `gap` apart, in `width`.
    private static func fitting(_ shapes: [Shape], from start: Int, width: Double, gap: Double) -> Int {
        var used = 0.0, j = start
        while j < shapes.count {
            let w = 2 * shapes[j].halfExtents.hw
            if used + w > width { break }
            used += w + gap
            j += 1
        }
        return j
    }

    /// The width of `range`'s cards side by side, `gap` apart (0 for none).
    private static func span(_ shapes: [Shape], _ range: Range<Int>, gap: Double) -> Double {
        guard !range.isEmpty else { return 0 }
        var used = -gap
        for k in range { used += 2 * shapes[k].halfExtents.hw + gap }
        return used
    }

    /// Centres for `range`'s cards on the line `y` between `lo` and `hi`: the spare width evenly
    /// round them, or, on the `last` row, the cards together in the middle.
    private static func lay(
        _ shapes: [Shape], _ range: Range<Int>, lo: Double, hi: Double, y: Double, gap: Double, last: Bool,
        into positions: inout [Vector2]
    ) {
        guard !range.isEmpty else { return }
        let spare = hi - lo - span(shapes, range, gap: gap)
        let between = last ? 0 : spare / Double(range.count + 1)
        var x = lo + (last ? spare / 2 : between)
        for k in range {
            let w = 2 * shapes[k].halfExtents.hw
            positions.append(Vector2(x + w / 2, y))
            x += w + gap + between
        }
    }

    /// Home positions for bubbles of `shapes` that start at `starts`, clear of each other and the
    /// focus: the relax, hold and separate phases of `pack` without its packing, and whether the
    /// level is pressed against the bounds (as `pack`).
    static func place(
        shapes: [Shape], at starts: [Vector2], focusRadius: Double, centre: Vector2, settings: DashboardSettings, area: Rect
    ) throws(DashboardError) -> ([Vector2], Int, pressed: Bool) {
        let (home, steps, moved) = try settled(
            shapes: shapes, at: starts, focusRadius: focusRadius, centre: centre, settings: settings,
            world: packWorldSettings(settings, area: area), area: area, room: edgeRoom)
        return (home, steps, !moved.isFinite)
    }

    /// Places for bubbles of `shapes` that lie near `positions`, with no overlap, inside the bubble
    /// area (`area`: the level's, the bubble area by default) and clear of the focus: where a live
    /// world holding them there comes to rest.
    static func relax(
        shapes: [Shape], positions: [Vector2], focusCentre: Vector2, focusRadius: Double, settings: DashboardSettings,
        area: Rect? = nil
    ) throws(DashboardError) -> [Vector2] {
        let area = area ?? settings.contentRect
        return try settled(
            shapes: shapes, at: positions, focusRadius: focusRadius, centre: focusCentre, settings: settings,
            world: liveWorldSettings(settings, area: area), area: area, room: 0
        ).home
    }

    /// Bubbles of `shapes` put at `positions` in a world of `ws` with the focus, then `settle`d
    /// with `room`: where they rest, the steps taken and how far the last phase moved one.
    private static func settled(
        shapes: [Shape], at positions: [Vector2], focusRadius: Double, centre: Vector2, settings: DashboardSettings,
        world ws: WorldSettings, area: Rect, room: Double
    ) throws(DashboardError) -> (home: [Vector2], steps: Int, moved: Double) {
        let pad = settings.sizes.gap
        do {
            let world = try World(settings: ws)
            let focus = try world.createBody(
                BodyDefinition(shape: .circle(radius: focusRadius + pad / 2), position: centre, isKinematic: true))
            var bodies: [BodyID] = []
            bodies.reserveCapacity(shapes.count)
            for (shape, p) in zip(shapes, positions) {
                bodies.append(try world.createBody(BodyDefinition(shape: padded(shape, pad), position: p)))
            }
            let (steps, moved) = try settle(world, focus, bodies, settings, area: area, room: room)
            let home = try bodies.map { (b) throws(PhysicsError) in try world.position(of: b) }
            return (home, steps, moved)
        } catch {
            throw .physics(error.description)
        }
    }

    /// The largest change of a bubble's velocity in one step (pt/s) that the relax phase of a
    /// layout counts as nothing acting on it: the tail of the soft bounds' spring, for one.
    static let coastingChange = 0.01

    /// Phases 2 to 4 of a layout: returns the steps taken and how far phase 4 moved a bubble
    /// (pt; infinity when the pile is pressed together and cannot be moved apart).
    private static func settle(
        _ world: World, _ focus: BodyID, _ bodies: [BodyID], _ settings: DashboardSettings, area: Rect, room: Double
    ) throws(PhysicsError) -> (steps: Int, moved: Double) {
        // 2. No springs and little friction: overlaps open up, and the soft bounds bring any
        //    bubble pressed against an edge inside. Until rest (at most 600 steps), or until
        //    nothing acts on any bubble any more: no velocity changes by more than
        //    `coastingChange` in `restSteps` steps. A bubble pushed out of a squeeze then only
        //    coasts (nothing brakes a bubble that touches nothing here), and would slide along an
        //    edge for the rest of the phase.
        let live = liveWorldSettings(settings, area: area)
        var kept = live
        kept.boundsMargin += room
        try world.updateSettings(kept)
        for body in bodies { try world.setSpring(of: body, to: .none) }
        var relaxed = 0, unchanged = 0
        var velocities = try bodies.map { (b) throws(PhysicsError) in try world.velocity(of: b) }
        while relaxed < 600 && !world.isAtRest && unchanged < world.settings.restSteps {
            world.step()
            relaxed += 1
            var same = true
            for (i, b) in bodies.enumerated() {
                let v = try world.velocity(of: b)
                let dx = v.x - velocities[i].x, dy = v.y - velocities[i].y
                if dx * dx + dy * dy > coastingChange * coastingChange { same = false }
                velocities[i] = v
            }
            unchanged = same ? unchanged + 1 : 0
        }
        // 3. Hold every bubble where it lies (or on the edge of the region the soft bounds leave
        //    alone) with the live world's spring and let it find its equilibrium.
        for body in bodies {
            try world.setTarget(of: body, to: heldInside(try world.shape(of: body), at: try world.position(of: body), world.settings))
            try world.setSpring(of: body, to: settings.motion.placeSpring)
        }
        let held = world.step(count: 600, untilRest: true)
        // 4. Where the hold came to rest, springs may still hold two bubbles pressed together by
        //    a thousandth of a point, or a bubble a little into the bounds' pull; a live world
        //    would push them apart every time they arrive. Move them apart and inside.
        let moved = try separate(world, focus, bodies, within: live)
        return (relaxed + held, moved)
    }

    /// Moves the bubbles of `world` apart until none overlaps another or the focus and none lies
    /// where the soft bounds pull it in (at most `separateRounds` rounds), so that a live world
    /// with every bubble on its place has nothing to do. Returns the farthest a bubble moved (pt),
    /// or infinity, leaving every bubble where it was, if overlaps remain or a bubble would move
    /// farther than `separateReach`.
    static func separate(_ world: World, _ focus: BodyID, _ bodies: [BodyID], within live: WorldSettings) throws(PhysicsError) -> Double {
        var start: [Vector2] = []
        start.reserveCapacity(bodies.count)
        for b in bodies { start.append(try world.position(of: b)) }
        for round in 0...separateRounds {
            for b in bodies {
                let p = try world.position(of: b)
                let q = heldInside(try world.shape(of: b), at: p, live)
                if q != p { try world.setPosition(of: b, to: q) }
            }
            let contacts = world.contacts()
            if !contacts.contains(where: { $0.depth > 0 }) { break }
            if round == separateRounds {
                // Pressed together: the hold's rest, as it was.
                for (b, p) in zip(bodies, start) { try world.setPosition(of: b, to: p) }
                return .infinity
            }
            for c in contacts where c.depth > 0 {
                let (n, depth) = try world.separation(of: c.b, from: c.a)
                guard depth > 0 else { continue }
                let pa = try world.position(of: c.a), pb = try world.position(of: c.b)
                let sa = try world.shape(of: c.a), sb = try world.shape(of: c.b)
                // A hair more than the depth, so the pair ends apart.
                let push = depth + separationSlack
                // Each moves half the way, unless it is the focus or that would take it into the
                // bounds' pull: then the other moves all the way.
                let ha = pa - n * (push / 2), hb = pb + n * (push / 2)
                let aFixed = c.a == focus || heldInside(sa, at: ha, live) != ha
                let bFixed = c.b == focus || heldInside(sb, at: hb, live) != hb
                if aFixed && !bFixed {
                    try world.setPosition(of: c.b, to: pb + n * push)
                } else if bFixed && !aFixed {
                    try world.setPosition(of: c.a, to: pa - n * push)
                } else {
                    try world.setPosition(of: c.a, to: ha)
                    try world.setPosition(of: c.b, to: hb)
                }
            }
        }
        var moved = 0.0
        for (b, p) in zip(bodies, start) { moved = max(moved, (try world.position(of: b) - p).length) }
        if moved > separateReach {
            // Not the last fraction of a point but a pile that does not fit: as it was.
            for (b, p) in zip(bodies, start) { try world.setPosition(of: b, to: p) }
            return .infinity
        }
        for b in bodies { try world.setVelocity(of: b, to: .zero) }
        return moved
    }

    /// The farthest `separate` moves a bubble (pt): it closes the last fractions of a point a
    /// hold leaves, and the room the relax phase kept from the edges.
    static let separateReach = 2 * edgeRoom

    /// How much farther from the edges than the live world's bounds a layout's relax and hold
    /// phases keep the bubbles (pt): room for the last phase to push apart a pile the bounds
    /// press together, without pushing a bubble into the live world's bounds.
    static let edgeRoom = 2.0

    /// The most rounds of `separate`.
    static let separateRounds = 32

    /// The gap `separate` leaves between two bubbles it pushes apart (pt): far below anything
    /// drawn, and enough that the engine sees no overlap.
    static let separationSlack = 1e-7

    /// `p` moved onto the edge of the region where the world's soft bounds leave a body of
    /// `shape` alone, if it lies past it (the engine's bounds arithmetic, at scale 1).
    static func heldInside(_ shape: Shape, at p: Vector2, _ w: WorldSettings) -> Vector2 {
        guard let b = w.bounds else { return p }
        let (hw, hh, _) = shape.halfExtents
        func clamp(_ v: Double, _ minV: Double, _ maxV: Double, _ e: Double) -> Double {
            var lo = minV + e, hi = maxV - e
            if lo > hi { let mid = (minV + maxV) * 0.5; lo = mid; hi = mid }
            return v < lo ? lo : (v > hi ? hi : v)
        }
        return Vector2(clamp(p.x, b.minX, b.maxX, hw + w.boundsMargin), clamp(p.y, b.minY, b.maxY, hh + w.boundsMargin))
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

    /// A node's size before any shrinking.
    static func naturalShape(_ node: DashboardNode, _ s: DashboardSettings) -> Shape {
        switch node.kind {
        case .category, .group:
            let r = s.sizes.categoryRadiusBase + s.sizes.categoryRadiusPerSqrtReport * Double(node.reportCount).squareRoot()
            return .circle(radius: min(s.sizes.categoryRadiusMax, max(s.sizes.categoryRadiusMin, r)))
        case .report:
            let lines = estimatedLines(node.title, perLine: s.cards.charactersPerLine)
            let longest = lines.map(\.count).max() ?? 0
            let width = min(s.cards.maxWidth, max(s.cards.minWidth, Double(longest) * s.cards.characterWidth + s.cards.horizontalPadding))
            let height = s.cards.baseHeight + s.cards.lineHeight * Double(lines.count)
            return .roundedRect(width: width, height: height, cornerRadius: s.cards.cornerRadius)
        }
    }

    /// A node's size before any shrinking, from its measured title: a card as narrow as its title
    /// allows without taking more lines (at most `cardMaxLines`, within `cardMinWidth...cardMaxWidth`),
    /// a circle grown from its report-count size (up to `categoryRadiusMax`) until its title fits
    /// without breaking a word.
    static func measuredShape(_ node: DashboardNode, _ s: DashboardSettings, _ measurer: any TextMeasurer) -> Shape {
        switch node.kind {
        case .category, .group:
            let r = s.sizes.categoryRadiusBase + s.sizes.categoryRadiusPerSqrtReport * Double(node.reportCount).squareRoot()
            let base = min(s.sizes.categoryRadiusMax, max(s.sizes.categoryRadiusMin, r))
            guard base < s.sizes.categoryRadiusMax else { return .circle(radius: base) }
            // The title on one line, then as if wrapped into k lines of equal width (each a little
            // wider, for the word breaks): the smallest circle around any of those blocks, with the
            // renderer's inset.
            let line = measurer.measure(node.title, role: .categoryTitle, width: unwrapped)
            // No line is narrower than the longest word ("Copenhagen" is not broken inside).
            let word = measurer.lineBreaks(node.title, role: .categoryTitle)?.longestWord ?? 0
            var needed = Double.infinity
            for k in 1...5 {
                let w = max(word, line.width / Double(k) * (k == 1 ? 1 : 1.15)), h = line.height * Double(k)
                needed = min(needed, ((w / 2) * (w / 2) + (h / 2) * (h / 2)).squareRoot() / (1 - s.sizes.categoryTitleInset))
            }
            return .circle(radius: min(s.sizes.categoryRadiusMax, max(base, needed)))
        case .report:
            let pad = s.cards.horizontalPadding
            let widest = s.cards.maxWidth - pad, narrowest = s.cards.minWidth - pad
            // Wrapped from the title's break opportunities where the measurer gives them (one
            // layout for every width tried), else measured at each width.
            let breaks = measurer.lineBreaks(node.title, role: .cardTitle)
            func laid(_ width: Double) -> MeasuredText {
                breaks?.wrapped(within: width) ?? measurer.measure(node.title, role: .cardTitle, width: width)
            }
            let line = laid(unwrapped)
            var best = line
            // Two balanced lines, tried first (most wrapped titles take two): two lines at a width
            // within the widest card means the widest card takes two as well, so this is what the
            // search below finds for them, one measurement sooner.
            // Never narrower than the longest word where the breaks tell it: a card that fits it
            // whole does not break it.
            let word = breaks?.longestWord ?? 0
            let two = max(narrowest, min(widest, max(word, line.width / 2 * 1.06)))
            if line.width > widest, case let m = laid(two), m.lineCount == 2 && m.width <= two {
                best = m
            } else if line.width > widest {
                // Wrapped: the fewest lines the widest card allows, then as narrow as keeps them
                // (balanced lines): from an even split of the line, widened until it holds.
                let full = laid(widest)
                best = full
                if full.lineCount > 1 && full.lineCount <= s.cards.maxLines {
                    var w = max(narrowest, min(widest, max(word, line.width / Double(full.lineCount) * 1.06)))
                    for _ in 0..<4 {
                        let m = laid(w)
                        if m.lineCount <= full.lineCount && m.width <= w {
                            best = m
                            break
                        }
                        w = min(widest, w + (widest - w) / 2 + 1)
                    }
                }
            }
            let lines = min(best.lineCount, s.cards.maxLines)
            let width = min(s.cards.maxWidth, max(s.cards.minWidth, best.width.rounded(.up) + pad))
            let textHeight = max(s.cards.lineHeight * Double(lines), best.lineCount <= s.cards.maxLines ? best.height : 0)
            return .roundedRect(width: width, height: s.cards.baseHeight + textHeight, cornerRadius: s.cards.cornerRadius)
        }
    }

    /// The least padded area a node's bubble can take on this canvas, from its title's one-line
    /// width alone (the first of the measurements `measuredShape` makes, so none is wasted): a
    /// circle exactly, a card as if its words wrapped into any 1 … `cardMaxLines` lines of equal
    /// width (less a tenth for the spaces at the breaks). Lets a crowded level be grouped without
    /// wrapping every title first.
    static func leastPaddedArea(of node: DashboardNode, _ s: DashboardSettings, _ measurer: any TextMeasurer) -> Double {
        let k = s.canvasScale
        guard node.kind == .report else { return paddedArea(shape(of: node, s, measurer), s.sizes.gap) }
        let pad = s.cards.horizontalPadding
        let line = measurer.lineBreaks(node.title, role: .cardTitle)?.wrapped(within: unwrapped)
            ?? measurer.measure(node.title, role: .cardTitle, width: unwrapped)
        let fitsOne = line.width <= s.cards.maxWidth - pad
        var least = Double.infinity
        for lines in 1...s.cards.maxLines {
            if lines > 1 && fitsOne { break }
            if lines == 1 && !fitsOne { continue }
            let text = lines == 1 ? line.width.rounded(.up) : line.width * 0.9 / Double(lines)
            let width = min(s.cards.maxWidth, max(s.cards.minWidth, text + pad))
            let height = s.cards.baseHeight + s.cards.lineHeight * Double(lines)
            least = min(least, (width * k + s.sizes.gap) * (height * k + s.sizes.gap))
        }
        return least
    }

    /// A width no label reaches: the label on one line.
    static let unwrapped = LineBreaks.unwrappedWidth

    /// Greedy word wrap into at most three lines of `perLine` characters (the last line takes the
    /// rest, to be elided by the renderer).
    static func estimatedLines(_ title: String, perLine: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in title.split(separator: " ") {
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= perLine || lines.count == 2 {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        if lines.isEmpty { lines = [""] }
        if lines.count == 3 && lines[2].count > perLine { lines[2] = String(lines[2].prefix(perLine)) }
        return lines
    }

    static func padded(_ shape: Shape, _ gap: Double) -> Shape {
        switch shape {
        case .circle(let r): .circle(radius: r + gap / 2)
        case .roundedRect(let w, let h, let c): .roundedRect(width: w + gap, height: h + gap, cornerRadius: c + gap / 2)
        }
    }

    static func scaled(_ shape: Shape, _ k: Double) -> Shape {
        switch shape {
        case .circle(let r): .circle(radius: r * k)
        case .roundedRect(let w, let h, let c): .roundedRect(width: w * k, height: h * k, cornerRadius: c * k)
        }
    }

    static func paddedArea(_ shape: Shape, _ gap: Double) -> Double {
        switch shape {
        case .circle(let r): DeterministicMath.pi * (r + gap) * (r + gap)
        case .roundedRect(let w, let h, _): (w + gap) * (h + gap)
        }
    }

    /// The largest half-extent of a shape (its bounding circle's radius, roughly).
    static func reach(_ shape: Shape) -> Double {
        switch shape {
        case .circle(let r): r
        case .roundedRect(let w, let h, _): (w * w + h * h).squareRoot() / 2
        }
    }

    /// A ring of the spiral whose inside is `inner` pt from the centre, filled from `start` with as
    /// many bubbles as fit on its circumference: the end of its run of `shapes`, the largest reach
    /// among them and the length of circumference they take (pt).
    private static func ring(_ shapes: [Shape], from start: Int, inner: Double, gap: Double) -> (end: Int, widest: Double, used: Double) {
        var widest = 0.0, used = 0.0
        var j = start
        while j < shapes.count {
            let size = 2 * reach(shapes[j]) + gap
            let ringRadius = inner + max(widest, reach(shapes[j]))
            if j > start && used + size > DeterministicMath.twoPi * ringRadius { break }
            used += size
            widest = max(widest, reach(shapes[j]))
            j += 1
        }
        return (j, widest, used)
    }

    /// Whether the spiral of `ringPositions` ends on a ring of more than one ring that is less
    /// than two-thirds full (where keeping its bubbles together leaves one side of the pile bare).
    static func hasPartialLastRing(_ shapes: [Shape], focusRadius: Double, gap: Double) -> Bool {
        var i = 0, rings = 0
        var ringInner = focusRadius + gap
        while i < shapes.count {
            let (j, widest, used) = ring(shapes, from: i, inner: ringInner, gap: gap)
            rings += 1
            if j == shapes.count {
                return rings > 1 && used < DeterministicMath.twoPi * (ringInner + widest) * 2 / 3
            }
            ringInner += 2 * widest + gap
            i = j
        }
        return false
    }

    /// Start positions on concentric rings, in data order, read as a spiral: the first bubble
    /// centred at twelve o'clock, the rest clockwise; each ring after the first begins on the ray
    /// of the last bubble of the ring inside it, so every bubble starts beside the one before it.
    /// The last ring, when it is not full, keeps its bubbles side by side instead of spreading
    /// them round the focus, so its neighbours in the order stay neighbours (unless
    /// `lastRingTogether` is false).
    static func ringPositions(
        shapes: [Shape], around centre: Vector2, focusRadius: Double, gap: Double, lastRingTogether: Bool = true
    ) -> [Vector2] {
        var positions: [Vector2] = []
        positions.reserveCapacity(shapes.count)
        var i = 0
        var ringInner = focusRadius + gap
        // The angle of the bubble placed last: a ring's first bubble is centred on it (before
        // the first ring, twelve o'clock, −y).
        var mid = -DeterministicMath.halfPi
        while i < shapes.count {
            let (j, widest, used) = ring(shapes, from: i, inner: ringInner, gap: gap)
            let ringRadius = ringInner + widest
            let circumference = DeterministicMath.twoPi * ringRadius
            // Spread the ring's bubbles evenly round it, clockwise; the last ring of several at
            // most a gap apart.
            var spare = max(0, circumference - used) / Double(j - i)
            if lastRingTogether && i > 0 && j == shapes.count { spare = min(spare, gap) }
            var angle = mid - ((2 * reach(shapes[i]) + gap + spare) / 2) / ringRadius
            for k in i..<j {
                let size = 2 * reach(shapes[k]) + gap + spare
                mid = angle + (size / 2) / ringRadius
                let (s, c) = DeterministicMath.sinCos(mid)
                positions.append(Vector2(centre.x + ringRadius * c, centre.y + ringRadius * s))
                angle += size / ringRadius
            }
            // Keep the angles within a turn of twelve o'clock.
            if mid > 3 * DeterministicMath.halfPi { mid -= DeterministicMath.twoPi }
            ringInner += 2 * widest + gap
            i = j
        }
        return positions
    }
}
