import BubbleSupport

/// The hierarchy the dashboard shows, derived from its datasource's `DashboardTree`: the same
/// nodes at the same indices, and after them the groups the dashboard made for levels too large to
/// show whole (see `LevelGrouping`), which take over the children they stand for.
///
/// A node index, once the dashboard has shown it (in `Dashboard/focusPath`, a scene, a layout),
/// keeps meaning the same node for the dashboard's lifetime: groups are only ever added. Group ids
/// are `PARENT-ID~KEY` (see `GroupPlan.key`), the same for the same data.
public struct LevelModel: DashboardHierarchy {
    /// The datasource's tree, unchanged.
    public let source: DashboardTree
    /// The datasource's nodes (with a grouped level's `children` replaced by its groups), then the
    /// groups.
    public private(set) var nodes: [DashboardNode]
    /// Parent index per node (`-1` for the root); a grouped child's parent is its group.
    public private(set) var parents: [Int]
    /// Per group (from `source.nodes.count` on): how many of its members are reports, and how many
    /// are not (its label's noun).
    private var groupKinds: [(reports: Int, others: Int)] = []
    /// Ids of the groups (the datasource's own ids are looked up in `source`).
    private var groupIndexByID: [String: Int] = [:]
    /// Per group (from `source.nodes.count` on): where its run begins in its category's children.
    private var groupStarts: [Int] = []
    /// The parent of the last `insertGroups` and its children before it, in their order (an
    /// alphabetical grouping reorders them), for `removeUnshownGroups`.
    private var lastUngrouped: (parent: Int, children: [Int])? = nil
    /// Under a keyword filter: per node (groups too), how many matching reports it stands for (a
    /// report: 1 when it carries every keyword); nil without a filter.
    public private(set) var matchCounts: [Int]? = nil
    /// Appended to the ids of the groups made under the current filter ("~f" and a hash of its
    /// keywords), so they never take the id of a group of another view.
    private var groupSuffix = ""
    /// The datasource nodes' children and parents of the views not shown, by view key.
    private var savedViews: [String: SavedView] = [:]
    /// The key of the view shown: "" without a filter.
    public private(set) var viewKey = ""
    /// The filtered views kept, oldest first (at most `keptViews`; the unfiltered one is always kept).
    private var savedOrder: [String] = []
    /// How many filtered views are kept to come back as they were: 8. An older one is made again
    /// if it is shown again (its groups then get new indices; the old ones stay unused).
    public static let keptViews = 8

    /// The keys of the views kept besides the one shown.
    public var keptViewKeys: [String] { savedOrder + (viewKey.isEmpty ? [] : [""]) }

    private struct SavedView {
        var children: [Int: [Int]]
        var parents: [Int]
        var matchCounts: [Int]?
        var groupSuffix: String
    }

    /// The model of `tree` before any level is grouped.
    public init(_ tree: DashboardTree) {
        source = tree
        nodes = tree.nodes
        parents = tree.parents
        // Own copies now, with room for groups: the first grouping would otherwise copy every
        // node (and retain its strings) at a tap, and a later one that runs out of room copies
        // them all again (a few ms at 100 000 reports). Room for one group per eight nodes, and
        // at least 1 024.
        let room = max(1024, tree.nodes.count / 8)
        nodes.reserveCapacity(tree.nodes.count + room)
        parents.reserveCapacity(tree.parents.count + room)
    }

    /// How many members of the group `node` are reports, and how many are not; nil for a node
    /// that is not a group.
    func memberKinds(ofGroup node: Int) -> (reports: Int, others: Int)? {
        isGroup(node) ? groupKinds[node - source.nodes.count] : nil
    }

    /// `ChildKinds` bits of the children of `node`, when they are the datasource's (no filter has
    /// left some out, no groups replace them); nil otherwise.
    func sourceChildKinds(_ node: Int) -> UInt8? {
        guard !isGroup(node), nodes[node].children.count == source.nodes[node].children.count,
              nodes[node].children.first.map({ !isGroup($0) }) ?? true else { return nil }
        return source.childKinds[node]
    }

    /// The varying fields of the titles of the children of `node`: found when the tree was made
    /// for a large level whose children are the datasource's, otherwise now.
    func childFields(_ node: Int, keys: ChildKeys) -> [(field: LevelGrouping.Field, runs: Int)] {
        if sourceChildKinds(node) != nil, let known = source.levelFields[node] { return known }
        return LevelGrouping.fields(of: keys, words: true)
    }

    /// The tree's collation keys and ranks for the children of `node`, when it has them for every
    /// child (see `DashboardTree.collationKeys`).
    func childCollation(_ node: Int) -> (keys: [CollationKey?], ranks: [Int32], nodes: [Int])? {
        let children = nodes[node].children
        guard children.allSatisfy({ $0 < source.nodes.count && source.collationRanks[$0] >= 0 }) else { return nil }
        return (source.collationKeys, source.collationRanks, children)
    }

    /// The title keys of the children of `node`, in order.
    func childKeys(_ node: Int) -> ChildKeys {
        let children = nodes[node].children
        if children.allSatisfy({ $0 < source.nodes.count }) { return ChildKeys(keys: source.titleKeys, children: children) }
        return ChildKeys(children.map { TitleKey(nodes[$0].title) })
    }

    /// The index of the node (or group) with `id`.
    public func index(of id: String) -> Int? { source.index(of: id) ?? groupIndexByID[id] }

    /// Whether `node` is a group the dashboard made.
    public func isGroup(_ node: Int) -> Bool { node >= source.nodes.count }

    /// Where the children of `node` begin among its category's children: 0 for a category, and for
    /// a group the place of its first child there (100 for "101 – 200"; for an alphabetical group,
    /// whose children are in collation order, the place of the first of them).
    public func firstPosition(of node: Int) -> Int {
        isGroup(node) ? groupStarts[node - source.nodes.count] : 0
    }

    /// Replaces the children of `parent` by groups, each standing for the children at its plan's
    /// `members` (a run in data order, or an alphabetical range in collation order), in that order.
    /// Every child belongs to exactly one plan.
    mutating func insertGroups(under parent: Int, _ plans: [GroupPlan]) {
        let children = nodes[parent].children
        let parentStart = firstPosition(of: parent)
        var groups: [Int] = []
        for plan in plans {
            let index = nodes.count
            let members = plan.members.map { children[$0] }
            let id = nodes[parent].id + "~" + plan.key + groupSuffix
            var reportCount = 0, reports = 0
            for m in members {
                reportCount += nodes[m].reportCount
                if nodes[m].kind == .report { reports += 1 }
            }
            groupKinds.append((reports, members.count - reports))
            nodes.append(DashboardNode(
                id: id, title: plan.title, kind: .group, colour: nodes[parent].colour, children: members,
                reportCount: reportCount, count: members.count))
            parents.append(parent)
            if matchCounts != nil { matchCounts!.append(members.reduce(0) { $0 + matchCounts![$1] }) }
            groupStarts.append(parentStart + (plan.members.first ?? 0))
            groupIndexByID[id] = index
            for m in members { parents[m] = index }
            groups.append(index)
        }
        lastUngrouped = (parent, children)
        nodes[parent].children = groups
    }

    /// Undoes the last `insertGroups(under: parent, …)` while its groups are still the last nodes.
    /// Only for groups nothing has shown yet (the grouping step trying a finer plan): a shown
    /// node's index must keep its meaning.
    mutating func removeUnshownGroups(under parent: Int) {
        let groups = nodes[parent].children
        guard let first = groups.first, nodes[first].kind == .group, groups == Array(first..<nodes.count) else { return }
        var children: [Int] = []
        for g in groups {
            for m in nodes[g].children { parents[m] = parent }
            children += nodes[g].children
            groupIndexByID[nodes[g].id] = nil
        }
        nodes.removeLast(groups.count)
        parents.removeLast(groups.count)
        if matchCounts != nil { matchCounts!.removeLast(groups.count) }
        groupStarts.removeLast(groups.count)
        groupKinds.removeLast(groups.count)
        if let last = lastUngrouped, last.parent == parent, last.children.count == children.count {
            children = last.children
        }
        lastUngrouped = nil
        nodes[parent].children = children
    }

    /// Shows the view `key`: the datasource's nodes with only the children `matches` marks (a
    /// report that carries every keyword of a filter; a category with such a report below it),
    /// or all of them when `matches` is nil. A view shown before comes back as it was, with its
    /// groups; a new one starts ungrouped. Groups of every view stay in `nodes`, so an index once
    /// shown keeps its meaning.
    mutating func showView(_ key: String, matches: [Bool]?) {
        if key == viewKey { return }
        var children: [Int: [Int]] = [:]
        for i in source.nodes.indices where !source.nodes[i].children.isEmpty { children[i] = nodes[i].children }
        savedViews[viewKey] = SavedView(
            children: children, parents: Array(parents[0..<source.nodes.count]), matchCounts: matchCounts, groupSuffix: groupSuffix)
        if !viewKey.isEmpty {
            savedOrder.removeAll { $0 == viewKey }
            savedOrder.append(viewKey)
        }
        savedOrder.removeAll { $0 == key }
        while savedOrder.count > Self.keptViews { savedViews[savedOrder.removeFirst()] = nil }
        viewKey = key
        if let saved = savedViews.removeValue(forKey: key) {
            for (i, list) in saved.children { nodes[i].children = list }
            parents.replaceSubrange(0..<source.nodes.count, with: saved.parents)
            groupSuffix = saved.groupSuffix
            if var counts = saved.matchCounts {
                // Groups made since (in other views) count nothing here.
                counts += [Int](repeating: 0, count: nodes.count - counts.count)
                matchCounts = counts
            } else {
                matchCounts = nil
            }
            return
        }
        parents.replaceSubrange(0..<source.nodes.count, with: source.parents)
        guard let matches else {
            for i in source.nodes.indices where !source.nodes[i].children.isEmpty { nodes[i].children = source.nodes[i].children }
            matchCounts = nil
            groupSuffix = ""
            return
        }
        var h = FNV1a64()
        h.combine(bytes: Array(key.utf8))
        groupSuffix = "~f" + String(h.value >> 40, radix: 36)
        // Counts bottom up: children before parents, in an explicit post-order.
        var counts = [Int](repeating: 0, count: nodes.count)
        var stack: [(node: Int, expanded: Bool)] = [(0, false)]
        while let (n, expanded) = stack.popLast() {
            let kids = source.nodes[n].children
            if source.nodes[n].kind == .report {
                counts[n] = n < matches.count && matches[n] ? 1 : 0
            } else if expanded {
                counts[n] = kids.reduce(0) { $0 + counts[$1] }
                nodes[n].children = kids.filter { counts[$0] > 0 }
            } else {
                stack.append((n, true))
                for k in kids { stack.append((k, false)) }
            }
        }
        matchCounts = counts
    }
}
