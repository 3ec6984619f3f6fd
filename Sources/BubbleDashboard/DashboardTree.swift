/// One node of the hierarchy as the dashboard needs it: plain values, so the app (or the CLI) can
/// build it from any datasource.
public struct DashboardNode: Sendable, Hashable {
    /// Whether the node is a category (circle) or a report (card).
    public enum Kind: String, Sendable, Hashable {
        case category
        case report
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
    /// For reports: what the preview shows.
    public var author: String?
    public var pageCount: Int?
    public var keywords: [String]

    public init(
        id: String, title: String, kind: Kind, colour: SceneColour?, children: [Int], reportCount: Int,
        author: String? = nil, pageCount: Int? = nil, keywords: [String] = []
    ) {
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
public struct DashboardTree: Sendable {
    public let nodes: [DashboardNode]
    /// Parent index per node (`-1` for the root).
    public let parents: [Int]
    private let indexByID: [String: Int]

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
