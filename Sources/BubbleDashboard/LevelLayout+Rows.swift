import BubblePhysics
import BubbleSupport

// Levels of many same-sized children laid out in rows instead of rings.
extension LevelLayout {
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
                bubbleArea: bubbleArea, readingOrder: .rows)
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
}
