import BubbleSupport
/// One node of the hierarchy as the dashboard needs it: plain values, so the app (or the CLI) can
/// build it from any datasource.
public struct DashboardNode: Sendable, Hashable {
    /// Whether the node is a category (circle), a report (card) or a group: a virtual category the
    /// dashboard makes for a run of a large category's children (see `LevelGrouping`).
    public enum Kind: String, Sendable, Hashable {
        /// A category: a circle that opens a level.
        case category
        /// A report: a card that opens a preview.
        case report
        /// A group the dashboard made: a circle that opens a run of a large level's children.
        case group
    }

    /// The id, unique in the tree (events name nodes by it).
    public var id: String
    /// The title shown.
    public var title: String
    /// Category, report or group.
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
    /// For reports: the page count, when known.
    public var pageCount: Int?
    /// For reports: the keywords the preview shows.
    public var keywords: [String]

    /// A node; `count`, `author`, `pageCount` and `keywords` default to none.
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

/// What `DashboardTree` (the datasource's hierarchy) and `LevelModel` (the hierarchy the
/// dashboard shows, with its groups) have in common: nodes in a flat array, the root at index 0,
/// and a parent per node.
public protocol DashboardHierarchy: Sendable {
    /// The nodes; a node's `children` are indices into this array.
    var nodes: [DashboardNode] { get }
    /// Parent index per node (`-1` for the root).
    var parents: [Int] { get }
    /// The index of the node with `id`, if there is one.
    func index(of id: String) -> Int?
}

extension DashboardHierarchy {
    /// Whether `node` is shown as a circle that opens a level (a category or a group).
    public func opensLevel(_ node: Int) -> Bool { nodes[node].kind != .report }

    /// The reports of a level: the node's report children, and those inside its groups, in data
    /// order.
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
    /// the nodes at `candidates` (default: all); at most `limit` (default 3).
    public func suggestions(for id: String, among candidates: [Int]? = nil, limit: Int = 3) -> [String] {
        let scored = (candidates ?? Array(nodes.indices)).map { (EditDistance.levenshtein(id, nodes[$0].id), nodes[$0].id) }
        return scored.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.prefix(limit).map(\.1)
    }
}

/// The datasource's hierarchy: nodes in a flat array, the root at index 0. Immutable: the
/// dashboard never edits it; the groups it adds for large levels live in its `LevelModel`.
public struct DashboardTree: DashboardHierarchy {
    /// The nodes, root first.
    public let nodes: [DashboardNode]
    /// Parent index per node (`-1` for the root).
    public let parents: [Int]
    private let indexByID: [String: Int]
    /// What each node's title says that can order it, read once here (when the library loads) so
    /// that grouping a level of 100 000 reports does not read its titles again.
    let titleKeys: [TitleKey]
    /// Per node, which kinds its children are: `ChildKinds` bits.
    let childKinds: [UInt8]
    /// The varying fields of the titles of each node with at least `fieldsAtLoad` children
    /// (`LevelGrouping.fields(of:words:)`), found once here.
    let levelFields: [Int: [(field: LevelGrouping.Field, runs: Int)]]
    /// From how many children a node's fields are found when the tree is made.
    static let fieldsAtLoad = 1000
    /// The collation keys of whole titles (`CollationKey`) of the children of nodes with at least
    /// `collateAtLoad` children, and their ranks among all those (equal keys, equal ranks; -1 for a
    /// node without a key): an alphabetical level sorts its children by rank.
    let collationKeys: [CollationKey?]
    let collationRanks: [Int32]
    /// From how many children a node's children get collation keys when the tree is made.
    static let collateAtLoad = 64

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
        titleKeys = nodes.map { TitleKey($0.title) }
        childKinds = nodes.map { node in
            node.children.reduce(0) { $0 | (nodes[$1].kind == .report ? ChildKinds.report : ChildKinds.circle) }
        }
        var collation = [CollationKey?](repeating: nil, count: nodes.count)
        var ranked: [Int] = []
        for node in nodes where node.children.count >= Self.collateAtLoad {
            for c in node.children {
                collation[c] = CollationKey(nodes[c].title)
                ranked.append(c)
            }
        }
        ranked.sort {
            let c = CollationKey.compare(collation[$0]!, collation[$1]!)
            return c != 0 ? c < 0 : $0 < $1
        }
        var ranks = [Int32](repeating: -1, count: nodes.count)
        var rank: Int32 = 0
        for (i, c) in ranked.enumerated() {
            if i > 0 && CollationKey.compare(collation[ranked[i - 1]]!, collation[c]!) != 0 { rank += 1 }
            ranks[c] = rank
        }
        collationKeys = collation
        collationRanks = ranks
        var fields: [Int: [(field: LevelGrouping.Field, runs: Int)]] = [:]
        for (i, node) in nodes.enumerated() where node.children.count >= Self.fieldsAtLoad {
            fields[i] = LevelGrouping.fields(of: ChildKeys(keys: titleKeys, children: node.children), words: true)
        }
        levelFields = fields
    }

    /// The index of the node with `id`.
    public func index(of id: String) -> Int? { indexByID[id] }
}

/// The title keys of a level's children, read from the datasource's keys without copying them.
struct ChildKeys: RandomAccessCollection, Sendable {
    /// Keys by node index.
    let keys: [TitleKey]
    /// The children, as indices into `keys`.
    let children: [Int]

    /// The keys of a list of titles' keys, in order.
    init(_ keys: [TitleKey]) {
        self.init(keys: keys, children: Array(keys.indices))
    }

    init(keys: [TitleKey], children: [Int]) {
        self.keys = keys
        self.children = children
    }

    var startIndex: Int { 0 }
    var endIndex: Int { children.count }
    subscript(position: Int) -> TitleKey { keys[children[position]] }

    /// Calls `body` with each child's key in place, in order (a key is a few hundred bytes: not
    /// copied).
    func forEachKey(_ body: (UnsafePointer<TitleKey>) -> Void) {
        keys.withUnsafeBufferPointer { base in
            guard let start = base.baseAddress else { return }
            for c in children { body(start + c) }
        }
    }

    /// One value per child, read from its key in place.
    func mapKeys<T>(_ transform: (UnsafePointer<TitleKey>) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(children.count)
        forEachKey { result.append(transform($0)) }
        return result
    }
}

/// The titles of a level's children, read from the model's nodes without copying them out.
struct ChildTitles: RandomAccessCollection {
    let nodes: [DashboardNode]
    let children: [Int]

    var startIndex: Int { 0 }
    var endIndex: Int { children.count }
    subscript(position: Int) -> String { nodes[children[position]].title }
}

/// Bits saying which kinds of children a node has.
enum ChildKinds {
    /// A report card.
    static let report: UInt8 = 1
    /// A category or a group (a circle).
    static let circle: UInt8 = 2
}
