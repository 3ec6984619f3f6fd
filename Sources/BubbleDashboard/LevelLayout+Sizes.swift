import BubblePhysics
import BubbleSupport

// A level's sizes: each child's shape from its title (measured or estimated), the common shrink
// that keeps a crowded level inside its area, and the shape arithmetic the other parts share.
extension LevelLayout {
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
}
