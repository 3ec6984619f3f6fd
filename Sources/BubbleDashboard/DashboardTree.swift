/// One node of the hierarchy as the dashboard needs it: plain values, so the app (or the CLI) can
/// build it from any datasource.
public struct DashboardNode: Sendable, Hashable {
    /// Whether the node is a category (circle), a report (card) or a group: a virtual category the
    /// dashboard makes for a run of a large category's children (see `LevelGrouping`).
    public enum Kind: String, Sendable, Hashable {
        case category
        case report
        case group
    }

    public var id: String
    public var title: String
    public var kind: Kind
    /// The branch colour, inherited from the top-level category.
    public var colour: SceneColour?
    /// Child indices in `DashboardTree.nodes`, in display order.
    public var children: [Int]
    /// Number of reports at or below this node (sizes category circles).
    public var reportCount: Int
    /// For groups: how many children it stands for.
    public var count: Int?
    /// For reports: what the preview shows.
    public var author: String?
    public var pageCount: Int?
    public var keywords: [String]

    public init(
        id: String, title: String, kind: Kind, colour: SceneColour?, children: [Int], reportCount: Int,
        count: Int? = nil, author: String? = nil, pageCount: Int? = nil, keywords: [String] = []
    ) {
        self.count = count
        self.id = id
        self.title = title
        self.kind = kind
        self.colour = colour
        self.children = children
        self.reportCount = reportCount
        self.author = author
        self.pageCount = pageCount
        self.keywords = keywords
    }
}

/// The hierarchy the dashboard navigates: nodes in a flat array, the root at index 0.
///
/// Groups are added by the dashboard when it first shows a level too large to show whole: they are
/// appended after the datasource's nodes (whose indices never change) and take over the children
/// they stand for.
public struct DashboardTree: Sendable {
    public private(set) var nodes: [DashboardNode]
    /// Parent index per node (`-1` for the root).
    public private(set) var parents: [Int]
    private var indexByID: [String: Int]

    /// Builds the tree; fails if the root is not a category, an index is out of range, a node has
    /// two parents, or an id repeats.
    public init(nodes: [DashboardNode]) throws(DashboardError) {
        guard let root = nodes.first, root.kind == .category else {
            throw .invalidTree("the tree needs a root category at index 0")
        }
        var parents = [Int](repeating: -2, count: nodes.count)
        parents[0] = -1
        var index: [String: Int] = [:]
        for (i, node) in nodes.enumerated() {
            if index[node.id] != nil { throw .invalidTree("duplicate id '\(node.id)'") }
            index[node.id] = i
            if node.kind == .report && !node.children.isEmpty {
                throw .invalidTree("report '\(node.id)' has children")
            }
            if node.kind == .group || node.id.contains("~") {
                throw .invalidTree("node '\(node.id)': groups and ids with '~' are the dashboard's own")
            }
            for child in node.children {
                guard child > 0, child < nodes.count, parents[child] == -2 else {
                    throw .invalidTree("node '\(node.id)' lists an invalid or shared child index \(child)")
                }
                parents[child] = i
            }
        }
        if let orphan = parents.firstIndex(of: -2) {
            throw .invalidTree("node '\(nodes[orphan].id)' is not reachable from the root")
        }
        self.nodes = nodes
        self.parents = parents
        self.indexByID = index
    }

    /// The index of the node with `id`.
    public func index(of id: String) -> Int? { indexByID[id] }

    /// Whether `node` is shown as a circle that opens a level (a category or a group).
    public func opensLevel(_ node: Int) -> Bool { nodes[node].kind != .report }

    /// Replaces the children of `parent` by groups, each standing for a run of them. Group ids are
    /// `PARENT-ID~KEY` (see `GroupPlan.key`).
    mutating func insertGroups(under parent: Int, _ plans: [GroupPlan]) {
        let children = nodes[parent].children
        var groups: [Int] = []
        for plan in plans {
            let index = nodes.count
            let members = Array(children[plan.range])
            let id = nodes[parent].id + "~" + plan.key
            nodes.append(DashboardNode(
                id: id, title: plan.title, kind: .group, colour: nodes[parent].colour, children: members,
                reportCount: members.reduce(0) { $0 + nodes[$1].reportCount }, count: members.count))
            parents.append(parent)
            indexByID[id] = index
            for m in members { parents[m] = index }
            groups.append(index)
        }
        nodes[parent].children = groups
    }

    /// Undoes the last `insertGroups(under: parent, …)`, while its groups are still the last nodes.
    mutating func removeGroups(under parent: Int) {
        let groups = nodes[parent].children
        guard let first = groups.first, nodes[first].kind == .group, groups == Array(first..<nodes.count) else { return }
        var children: [Int] = []
        for g in groups {
            for m in nodes[g].children { parents[m] = parent }
            children += nodes[g].children
            indexByID[nodes[g].id] = nil
        }
        nodes.removeLast(groups.count)
        parents.removeLast(groups.count)
        nodes[parent].children = children
    }

    /// The reports of a level: the focus' report children, and those inside its groups.
    public func reports(of node: Int) -> [Int] {
        nodes[node].children.flatMap { child -> [Int] in
            switch nodes[child].kind {
            case .report: [child]
            case .group: reports(of: child)
            case .category: []
            }
        }
    }

    /// Indices from the root down to `index`.
    public func path(to index: Int) -> [Int] {
        var chain = [index]
        var current = index
        while parents[current] >= 0 {
            current = parents[current]
            chain.append(current)
        }
        return chain.reversed()
    }

    /// The ids closest to `id` by edit distance, best first (for "did you mean" messages), among
    /// the nodes at `candidates` (default: all).
    public func suggestions(for id: String, among candidates: [Int]? = nil, limit: Int = 3) -> [String] {
        let scored = (candidates ?? Array(nodes.indices)).map { (editDistance(id, nodes[$0].id), nodes[$0].id) }
        return scored.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(limit).map(\.1)
    }
}

/// Levenshtein distance over Unicode scalars.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
