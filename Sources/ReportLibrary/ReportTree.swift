import BubbleSupport

/// An sRGB colour given as `#RRGGBB` in the datasource.
public struct RGBColour: Sendable, Hashable, CustomStringConvertible {
    /// Red, 0...255.
    public var red: UInt8
    /// Green, 0...255.
    public var green: UInt8
    /// Blue, 0...255.
    public var blue: UInt8

    /// The colour with these components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` (either case); nil for anything else.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 7, utf8[0] == UInt8(ascii: "#") else { return nil }
        // Six hexadecimal digits exactly: `UInt8(_:radix:)` alone would also take a sign ("#+F+F+F").
        func digit(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var channels: [UInt8] = []
        for i in stride(from: 1, to: 7, by: 2) {
            guard let high = digit(utf8[i]), let low = digit(utf8[i + 1]) else { return nil }
            channels.append(high << 4 | low)
        }
        self.init(red: channels[0], green: channels[1], blue: channels[2])
    }

    /// `#RRGGBB`, upper case.
    public var description: String {
        "#" + [red, green, blue].map { Hex.string($0, digits: 2, uppercase: true) }.joined()
    }
}

/// One node of the report hierarchy: a category (a circle in the dashboard) or a report (a rounded
/// rectangle that opens a PDF).
public struct ReportNode: Sendable {
    /// Whether the node is a category or a report.
    public enum Kind: String, Sendable {
        case category
        case report
    }

    /// Unique across the tree.
    public let id: String
    /// The title, trimmed, on one line.
    public let title: String
    /// A category or a report.
    public let kind: Kind
    /// The colour written on this node, if any.
    public let colour: RGBColour?
    /// The colour of the node's branch: its own, or the nearest ancestor's.
    public let branchColour: RGBColour?
    /// For reports: the PDF path as written in the JSON (relative to the JSON file's folder).
    public let file: String?
    /// For reports: the PDF path resolved against the JSON file's folder.
    public let resolvedFile: String?
    /// For reports: the author-supplied keywords from the JSON, in the order written.
    public let keywords: [String]
    /// Indices of the children in `ReportTree.nodes`, in data order.
    public let children: [Int]
    /// Index of the parent in `ReportTree.nodes`; nil for the root.
    public let parent: Int?
    /// Distance from the root (the root has depth 0).
    public let depth: Int
    /// Where the node stands in the JSON document, e.g. `children[2].children[0]`; empty for the root.
    public let jsonPath: String
}

/// A validated report hierarchy. Nodes are stored flat in document (pre-)order; the root is at
/// index 0.
public struct ReportTree: Sendable {
    /// Every node, in document order.
    public let nodes: [ReportNode]
    /// The JSON file the tree was loaded from, as given to the loader.
    public let sourceFile: String
    /// The JSON file's size and modification time, taken before its bytes were read (nil for a
    /// tree parsed from bytes).
    public let sourceStamp: FileStamp?
    private let indexByID: [String: Int]

    init(nodes: [ReportNode], sourceFile: String, sourceStamp: FileStamp?, indexByID: [String: Int]) {
        self.nodes = nodes
        self.sourceFile = sourceFile
        self.sourceStamp = sourceStamp
        self.indexByID = indexByID
    }

    /// The root category (the centre circle).
    public var root: ReportNode { nodes[0] }

    /// The index of the node with `id`, if any.
    public func index(of id: String) -> Int? { indexByID[id] }

    /// The node with `id`, if any.
    public func node(_ id: String) -> ReportNode? { indexByID[id].map { nodes[$0] } }

    /// The ids closest to `id` by edit distance, best first, for "did you mean" messages. Only
    /// the first 128 characters of `id` are compared (ids have at most 64), so the cost stays
    /// proportional to the tree, whatever the length of `id`.
    public func nearestIDs(to id: String, limit: Int = 3) -> [String] {
        let probe = String(id.prefix(128))
        return nodes.map { (EditDistance.levenshtein(probe, $0.id), $0.id) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .prefix(limit).map(\.1)
    }

    /// The indices from the root down to `index`, both included.
    public func ancestry(of index: Int) -> [Int] {
        var chain = [index]
        var current = index
        while let parent = nodes[current].parent {
            chain.append(parent)
            current = parent
        }
        return chain.reversed()
    }

    /// The number of reports at or below the node at `index`.
    public func reportCount(under index: Int) -> Int {
        var count = 0
        var stack = [index]
        while let i = stack.popLast() {
            let node = nodes[i]
            if node.kind == .report { count += 1 }
            stack.append(contentsOf: node.children)
        }
        return count
    }

    /// Counts for summaries.
    public var statistics: Statistics {
        var s = Statistics()
        for node in nodes {
            switch node.kind {
            case .category: s.categories += 1
            case .report: s.reports += 1
            }
            s.depth = max(s.depth, node.depth)
            s.largestCategory = max(s.largestCategory, node.children.count)
        }
        return s
    }

    /// Counts of a tree, for summaries and tests.
    public struct Statistics: Sendable, Equatable {
        /// Categories, the root included.
        public var categories = 0
        /// Reports.
        public var reports = 0
        /// The largest node depth (the root's children have depth 1).
        public var depth = 0
        /// The most children any category has.
        public var largestCategory = 0

        /// Counts as given (default: all 0).
        public init(categories: Int = 0, reports: Int = 0, depth: Int = 0, largestCategory: Int = 0) {
            self.categories = categories
            self.reports = reports
            self.depth = depth
            self.largestCategory = largestCategory
        }
    }
}
