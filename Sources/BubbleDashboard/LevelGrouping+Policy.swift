import BubblePhysics

/// When a level is grouped, and into how many groups: the policy on top of `LevelGrouping.plan`.
///
/// A level is grouped when its children cannot all be shown with labels of at least
/// `DashboardSettings.minimumLabelFontSize`. It then gets as many groups as fit above that floor
/// (as circles), each standing for a run of children that its own level can show without grouping
/// again where round ranges allow.
extension LevelGrouping {
    /// The factors of the policy. They are fixed: they shape the levels, which are pinned by the
    /// determinism tests.
    enum Policy {
        /// The share of the room above the floor the groups' circles may take at first.
        static let roomShare = 0.85
        /// After a packing that still shrank the labels below the floor, the room share of the
        /// next, finer attempt, and its factor for each attempt after that.
        static let retryRoomShare = 0.8
        static let retryRoomDecay = 0.8
        /// Attempts at a packing above the floor (each with fewer or smaller bubbles).
        static let packingAttempts = 4
        /// The most groups a level shows.
        static let maxGroups = 30
        /// The most values of a level's most slowly varying field that get one group each
        /// (`LevelGrouping.byValue`), when their circles fit the room; more are grouped in ranges.
        static let maxValueGroups = 20
        /// The fewest children a group stands for on average: a level of `n` children shows at most
        /// `n / minimumGroupSize` groups (and at least 2), so a group is never a tap for two or
        /// three reports.
        static let minimumGroupSize = 8
        /// How many children a group's level shows without grouping again: this share of what
        /// fits at the floor (room to spare for longer titles), and never fewer than
        /// `minimumCapacity`.
        static let capacityShare = 0.6
        static let minimumCapacity = 4
        /// Attempts at fitting the planned group circles into the room (each with fewer groups).
        static let fitAttempts = 6
        /// The font size the floor is measured against without a measurer (pt).
        static let estimatedFontSize = 14.0
        /// A level whose children, with labels at the floor, need at most this many times the
        /// bubble area pans instead of being grouped: it is laid out in a larger area, and a drag
        /// on empty space moves it (see `Dashboard`'s panning).
        static let panMaxArea = 1.5
        /// The room a panning level gets beyond what its bubbles need at the floor, as a factor
        /// on each side of the area: the packing leaves gaps, so an area sized exactly would
        /// shrink the labels below the floor.
        static let panSlack = 1.1
    }

    /// The layout of a level only slightly too crowded for the canvas, with its labels at the
    /// legibility floor or larger, in the bubble area scaled up so they fit: a level that pans.
    /// `ratio` is the share of the bubble area its bubbles need at the floor (measured here when
    /// nil). Nil when the level is grouped, fits the canvas with room to spare, or needs more than
    /// `panMaxArea` of it.
    static func panningLayout(
        _ focus: Int, in levels: LevelModel, settings: DashboardSettings, measurer: (any TextMeasurer)?, ratio known: Double? = nil
    ) throws(DashboardError) -> LevelLayout? {
        let children = levels.nodes[focus].children
        guard children.count > 2 else { return nil }
        for c in children where levels.nodes[c].kind == .group { return nil }
        let floor = LevelLayout.floorShrink(tree: levels, focus: focus, settings: settings, measurer: measurer)
        let ratio: Double
        if let known {
            ratio = known
        } else {
            guard mayPan(children.count, floor: floor, settings: settings) else { return nil }
            let (labels, _) = LevelLayout.levelLabels(levels, focus)
            let need = LevelLayout.sizesAndArea(tree: levels, focus: focus, labels: labels, settings: settings, measurer: measurer).area
            ratio = areaRatio(need, floor: floor, settings: settings)
        }
        guard ratio <= Policy.panMaxArea else { return nil }
        // Cards that fit the canvas in rows with their labels at the floor need no pan.
        if let rows = try LevelLayout.inRows(tree: levels, focus: focus, settings: settings, measurer: measurer, at: floor) {
            return rows
        }
        // The packing leaves gaps, so the area rule alone may not be room enough: widen once more.
        var spread = max(1, ratio.squareRoot()) * Policy.panSlack
        for _ in 0..<2 {
            let computed = try LevelLayout.compute(
                tree: levels, focus: focus, settings: settings, measurer: measurer, givingUpBelow: floor - 1e-9, spread: spread)
            if computed.shrink >= floor - 1e-9 { return computed }
            spread *= Policy.panSlack
        }
        return nil
    }

    /// The share of the bubble area (less its `fillFactor`) that bubbles of padded area `need`
    /// (pt², at scale 1) take at the shrink `floor`.
    static func areaRatio(_ need: Double, floor: Double, settings: DashboardSettings) -> Double {
        let content = settings.contentRect
        return need * floor * floor / (content.width * content.height * settings.sizes.fillFactor)
    }

    /// Whether `count` children could pan at all: false when even the smallest bubbles would need
    /// more than `panMaxArea` of the bubble area at the floor (decided without measuring).
    static func mayPan(_ count: Int, floor: Double, settings: DashboardSettings) -> Bool {
        Double(count) * smallestPaddedArea(settings) * floor * floor
            <= settings.contentRect.width * settings.contentRect.height * settings.sizes.fillFactor * Policy.panMaxArea
    }

    /// The padded area of the smallest bubble a level can hold (pt²): a one-line card of the
    /// least width, or the least circle.
    static func smallestPaddedArea(_ settings: DashboardSettings) -> Double {
        let k = settings.canvasScale, pad = settings.sizes.gap
        return min(
            LevelLayout.paddedArea(
                .roundedRect(width: settings.cards.minWidth * k, height: (settings.cards.baseHeight + settings.cards.lineHeight) * k, cornerRadius: 0),
                pad),
            LevelLayout.paddedArea(.circle(radius: settings.sizes.categoryRadiusMin * k), pad))
    }

    /// The layout of `focus`, grouping its children in `levels` first if it is crowded, and again,
    /// more coarsely, while the packing still has to shrink labels below the floor.
    static func layOut(
        _ focus: Int, in levels: inout LevelModel, settings: DashboardSettings, measurer: (any TextMeasurer)?
    ) throws(DashboardError) -> LevelLayout {
        // A level only slightly over the canvas pans instead of being grouped.
        if case .pans(let over) = groupIfCrowded(focus, in: &levels, settings: settings, measurer: measurer, panning: true) {
            if let panning = try panningLayout(focus, in: levels, settings: settings, measurer: measurer, ratio: over) { return panning }
            groupIfCrowded(focus, in: &levels, settings: settings, measurer: measurer, force: true)
        }
        // A layout whose labels fall below the floor is not used when the level can be grouped
        // (more than two children): its packing stops there. Returned with the level's floor.
        func layout() throws(DashboardError) -> (LevelLayout, floor: Double) {
            let floor = LevelLayout.floorShrink(tree: levels, focus: focus, settings: settings, measurer: measurer)
            let computed = try LevelLayout.compute(
                tree: levels, focus: focus, settings: settings, measurer: measurer,
                givingUpBelow: levels.nodes[focus].children.count > 2 ? floor - 1e-9 : 0)
            return (computed, floor)
        }
        var (computed, floor) = try layout()
        // Packed below the floor although the area rule said it fits: it pans, if it may.
        if computed.shrink < floor - 1e-9, computed.children.count > 2, levels.nodes[computed.children[0]].kind != .group,
           let panning = try panningLayout(focus, in: levels, settings: settings, measurer: measurer) {
            return panning
        }
        var share = Policy.retryRoomShare
        for attempt in 0...Policy.packingAttempts {
            guard computed.shrink < floor - 1e-9, computed.children.count > 2 else { break }
            guard attempt < Policy.packingAttempts else {
                // Out of attempts: this layout is kept, so it is packed in full.
                computed = try LevelLayout.compute(tree: levels, focus: focus, settings: settings, measurer: measurer)
                break
            }
            let grouped = levels.nodes[computed.children[0]].kind == .group
            if grouped { levels.removeUnshownGroups(under: focus) }
            groupIfCrowded(
                focus, in: &levels, settings: settings, measurer: measurer, force: true,
                roomShare: grouped ? share : Policy.roomShare)
            share *= Policy.retryRoomDecay
            (computed, floor) = try layout()
        }
        return computed
    }

    /// What `groupIfCrowded` decided for a level.
    enum CrowdingDecision: Equatable {
        /// The children fit above the legibility floor (or there are two or fewer): left as they are.
        case fits
        /// The level is only slightly over the canvas: left as it is, to pan over `area` times
        /// the bubble area at the floor.
        case pans(area: Double)
        /// The children were replaced by groups in the level model.
        case grouped
        /// Grouping was needed but found fewer than two groups: left as it is.
        case ungroupable
    }

    /// Replaces the children of `focus` by groups when they cannot all be shown above the
    /// legibility floor (or always, with `force`): with as many groups as fit above it in
    /// `roomShare` of the room. With `panning`, a level that needs at most `panMaxArea` of the
    /// bubble area at the floor is left as it is, to pan (`.pans`).
    @discardableResult
    static func groupIfCrowded(
        _ focus: Int, in levels: inout LevelModel, settings: DashboardSettings, measurer: (any TextMeasurer)?,
        force: Bool = false, roomShare: Double = Policy.roomShare, panning: Bool = false
    ) -> CrowdingDecision {
        let children = levels.nodes[focus].children
        guard children.count > 2 else { return .fits }
        let floor = LevelLayout.floorShrink(tree: levels, focus: focus, settings: settings, measurer: measurer)
        let content = settings.contentRect
        let atFloor = content.width * content.height * settings.sizes.fillFactor / (floor * floor)
        let k = settings.canvasScale, pad = settings.sizes.gap
        // No level holds more of the smallest bubbles than this: decide without measuring them.
        let smallest = smallestPaddedArea(settings)
        // A level that may pan is measured up to the area it may pan over.
        let reach = panning ? Policy.panMaxArea : 1
        if !force && Double(children.count) * smallest <= atFloor * reach {
            let (labels, _) = LevelLayout.levelLabels(levels, focus)
            // Clearly too many when even their least areas need shrinking below the floor: then
            // the titles are not wrapped for a layout that would not be used.
            var least = LevelLayout.paddedArea(.circle(radius: settings.sizes.focusRadius * k), pad)
            if let measurer {
                for (child, label) in zip(children, labels) {
                    var node = levels.nodes[child]
                    node.title = label
                    least += LevelLayout.leastPaddedArea(of: node, settings, measurer)
                }
            }
            if measurer == nil || least <= atFloor * reach || settings.sizes.minimumShrink >= floor - 1e-9 {
                let sized = LevelLayout.sizesAndArea(tree: levels, focus: focus, labels: labels, settings: settings, measurer: measurer)
                if sized.shrink >= floor - 1e-9 { return .fits }
                if reach > 1 {
                    let ratio = areaRatio(sized.area, floor: floor, settings: settings)
                    if ratio <= Policy.panMaxArea { return .pans(area: ratio) }
                }
            }
        }
        // As many groups as fit above the floor (the circles' floor: the level will show circles),
        // checked on the group circles themselves before they are made.
        let circleFloor = settings.sizes.minimumLabelFontSize / (measurer?.fontSize(for: .categoryTitle) ?? Policy.estimatedFontSize)
        let room = content.width * content.height * settings.sizes.fillFactor / (circleFloor * circleFloor) * roomShare
        let largest = LevelLayout.paddedArea(.circle(radius: settings.sizes.categoryRadiusMax * k), pad)
        let focusArea = LevelLayout.paddedArea(.circle(radius: settings.sizes.focusRadius * k), pad)
        var maxGroups = min(
            Policy.maxGroups, max(2, Int(((room - focusArea) / largest).rounded(.down))), max(2, children.count / Policy.minimumGroupSize))
        let capacity = max(Policy.minimumCapacity, Int(atFloor / smallest * Policy.capacityShare))
        let first = levels.firstPosition(of: focus)
        // Per child: reports below it, and whether it is a report (a group's size and noun).
        var reportCounts: [Int] = [], isReport: [Bool] = []
        reportCounts.reserveCapacity(children.count)
        isReport.reserveCapacity(children.count)
        for c in children {
            reportCounts.append(levels.nodes[c].reportCount)
            isReport.append(levels.nodes[c].kind == .report)
        }
        // Planned in a scope of its own: the titles read the model's nodes, which must not be
        // shared when the groups are inserted (that would copy every node).
        let plans: [GroupPlan] = {
            let titles = ChildTitles(nodes: levels.nodes, children: children)
            let keys = levels.childKeys(focus)
            let fields = levels.childFields(focus, keys: keys)
            var alphabet: AlphabetOrder? = nil
            let collation = levels.childCollation(focus)
            // The padded area of the focus and the circles of `plans` (pt²).
            func area(of plans: [GroupPlan]) -> Double {
                var area = focusArea
                for plan in plans {
                    var reports = 0, below = 0
                    for m in plan.members {
                        below += reportCounts[m]
                        if isReport[m] { reports += 1 }
                    }
                    let group = DashboardNode(
                        id: "", title: LevelLayout.groupLabel(title: plan.title, reports: reports, others: plan.members.count - reports),
                        kind: .group, colour: nil, children: [], reportCount: below, count: plan.members.count)
                    area += LevelLayout.paddedArea(LevelLayout.shape(of: group, settings, measurer), pad)
                }
                return area
            }
            // A group per value of the slowest field, when they are few and fit: in the whole room
            // at first (no spare for more groups is needed), less on each later attempt.
            if let values = byValue(titles: titles, keys: keys, fields: fields, limit: Policy.maxValueGroups),
               values.count <= 2 || area(of: values) <= room / Policy.roomShare {
                return values
            }
            var plans = plan(
                titles: titles, keys: keys, maxGroups: maxGroups, capacity: capacity, firstPosition: first, fields: fields,
                alphabet: &alphabet, collation: collation)
            for _ in 0..<Policy.fitAttempts {
                let area = area(of: plans)
                if area <= room || plans.count <= 2 { break }
                maxGroups = max(2, min(plans.count - 1, Int(Double(plans.count) * room / area)))
                plans = plan(
                    titles: titles, keys: keys, maxGroups: maxGroups, capacity: capacity, firstPosition: first, fields: fields,
                    alphabet: &alphabet, collation: collation)
            }
            return plans
        }()
        guard plans.count >= 2 else { return .ungroupable }
        levels.insertGroups(under: focus, plans)
        return .grouped
    }
}
