import BubblePhysics
import BubbleSupport

// The rings of children around the focus, where the packing starts.
extension LevelLayout {
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

// An ordered sequence of groups on one ring, read like a clock face.
extension LevelLayout {
    /// Start positions for a level of groups on one ring round the focus, in data order: the first
    /// at twelve o'clock, the rest clockwise, with a wider gap between the last and the
    /// first, so that the ends of the sequence show. Nil when that ring does not fit in `area`, a gap and
    /// `edgeRoom` in from its edges.
    static func oneRing(shapes: [Shape], around centre: Vector2, focusRadius: Double, gap: Double, area: Rect) -> [Vector2]? {
        guard !shapes.isEmpty else { return [] }
        var used = 0.0, widest = 0.0
        for s in shapes {
            used += 2 * reach(s) + gap
            widest = max(widest, reach(s))
        }
        // The gap that marks the ends: a bubble's radius more than the others.
        let ends = used / Double(shapes.count) / 2
        // Neighbours a chord apart, not an arc: a little more circumference than their widths.
        let radius = max(focusRadius + gap + widest, (used + ends) / DeterministicMath.twoPi / 0.95)
        let inset = gap + edgeRoom
        guard centre.x - radius - widest >= area.minX + inset, centre.x + radius + widest <= area.maxX - inset,
              centre.y - radius - widest >= area.minY + inset, centre.y + radius + widest <= area.maxY - inset
        else { return nil }
        let circumference = DeterministicMath.twoPi * radius
        // The spare length spread between the bubbles, the gap at twelve o'clock taking `ends` more.
        let between = max(0, circumference - used - ends) / Double(shapes.count)
        var positions: [Vector2] = []
        positions.reserveCapacity(shapes.count)
        // From twelve o'clock (−y), clockwise: the first bubble centred on twelve, the wider gap
        // before it.
        var arc = -(2 * reach(shapes[0]) + gap) / 2
        for s in shapes {
            let size = 2 * reach(s) + gap
            let (sn, c) = DeterministicMath.sinCos(-DeterministicMath.halfPi + (arc + size / 2) / radius)
            positions.append(Vector2(centre.x + radius * c, centre.y + radius * sn))
            arc += size + between
        }
        return positions
    }
}
