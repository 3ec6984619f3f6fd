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
    }

    /// The layout of `focus`, grouping its children in `levels` first if it is crowded, and again,
    /// more coarsely, while the packing still has to shrink labels below the floor.
    static func layOut(
        _ focus: Int, in levels: inout LevelModel, settings: DashboardSettings, measurer: (any TextMeasurer)?
    ) throws(DashboardError) -> LevelLayout {
        groupIfCrowded(focus, in: &levels, settings: settings, measurer: measurer)
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

    /// Replaces the children of `focus` by groups when they cannot all be shown above the
    /// legibility floor (or always, with `force`): with as many groups as fit above it in
    /// `roomShare` of the room.
    static func groupIfCrowded(
        _ focus: Int, in levels: inout LevelModel, settings: DashboardSettings, measurer: (any TextMeasurer)?,
        force: Bool = false, roomShare: Double = Policy.roomShare
    ) {
        let children = levels.nodes[focus].children
        guard children.count > 2 else { return }
        let floor = LevelLayout.floorShrink(tree: levels, focus: focus, settings: settings, measurer: measurer)
        let content = settings.contentRect
        let atFloor = content.width * content.height * settings.sizes.fillFactor / (floor * floor)
        let k = settings.canvasScale, pad = settings.sizes.gap
        // No level holds more of the smallest bubbles than this: decide without measuring them.
        let smallest = min(
            LevelLayout.paddedArea(
                .roundedRect(width: settings.cards.minWidth * k, height: (settings.cards.baseHeight + settings.cards.lineHeight) * k, cornerRadius: 0),
                pad),
            LevelLayout.paddedArea(.circle(radius: settings.sizes.categoryRadiusMin * k), pad))
        if !force && Double(children.count) * smallest <= atFloor {
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
            if measurer == nil || least <= atFloor || settings.sizes.minimumShrink >= floor - 1e-9 {
                let shrink = LevelLayout.sizes(tree: levels, focus: focus, labels: labels, settings: settings, measurer: measurer).shrink
                if shrink >= floor - 1e-9 { return }
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
            var plans = plan(
                titles: titles, keys: keys, maxGroups: maxGroups, capacity: capacity, firstPosition: first, fields: fields,
                alphabet: &alphabet, collation: collation)
            for _ in 0..<Policy.fitAttempts {
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
                if area <= room || plans.count <= 2 { break }
                maxGroups = max(2, min(plans.count - 1, Int(Double(plans.count) * room / area)))
                plans = plan(
                    titles: titles, keys: keys, maxGroups: maxGroups, capacity: capacity, firstPosition: first, fields: fields,
                    alphabet: &alphabet, collation: collation)
            }
            return plans
        }()
        guard plans.count >= 2 else { return }
        levels.insertGroups(under: focus, plans)
    }
}
