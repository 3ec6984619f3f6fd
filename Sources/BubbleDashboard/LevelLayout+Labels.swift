import BubblePhysics
import BubbleSupport

// A level's labels: the children's, the caption, and the labels of groups.
extension LevelLayout {
    /// The children's labels and the level's caption.
    static func levelLabels(_ tree: some DashboardHierarchy, _ focus: Int) -> ([String], String?) {
        let children = tree.nodes[focus].children
        if children.contains(where: { tree.nodes[$0].kind == .group }) {
            // Groups: their range and count. The caption is what the grouped titles share, word by
            // word, read from the titles at the groups' edges (reading every title of a huge level
            // would cost more than the whole layout).
            let labels = children.map { groupLabel(tree, $0) }
            var edges: [String] = []
            for g in children where tree.nodes[g].kind == .group {
                let members = tree.nodes[g].children
                if let a = members.first { edges.append(tree.nodes[a].title) }
                if let b = members.last, members.count > 1 { edges.append(tree.nodes[b].title) }
            }
            return (labels, captionAddingTo(labels, SiblingLabels.fieldCaption(edges)))
        }
        let first = (tree as? LevelModel)?.firstPosition(of: focus) ?? 0
        let sibling = SiblingLabels(titles: children.map { tree.nodes[$0].title }, firstNumber: first + 1)
        return (sibling.labels, sibling.caption)
    }

    /// A grouped level's caption, or nil when every word of it is on every group's label already
    /// ("Department …" over "Department 1 – 10", "Department 11 – 20", …: it would say nothing).
    static func captionAddingTo(_ labels: [String], _ caption: String?) -> String? {
        guard let caption, !labels.isEmpty else { return caption }
        let words = caption.split(separator: " ").filter { $0 != "…" }
        let names = labels.map { label in label.split(separator: "\n").first.map { $0.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }) } ?? [] }
        let said = words.allSatisfy { word in names.allSatisfy { $0.contains(word) } }
        return said ? nil : caption
    }

    /// "2015\n12 reports", "A – F\n40 categories", "1 – 50\n50 items": the name or range, then on
    /// a line of its own the count (a renderer draws it smaller; see `SceneBubble.label`).
    static func groupLabel(_ tree: some DashboardHierarchy, _ node: Int) -> String {
        let n = tree.nodes[node]
        guard n.kind == .group else { return n.title }
        if let kinds = (tree as? LevelModel)?.memberKinds(ofGroup: node) { return groupLabel(title: n.title, reports: kinds.reports, others: kinds.others) }
        return groupLabel(title: n.title, tree: tree, members: n.children[...])
    }

    static func groupLabel(title: String, tree: some DashboardHierarchy, members: ArraySlice<Int>) -> String {
        var reports = 0, others = 0
        for m in members { if tree.nodes[m].kind == .report { reports += 1 } else { others += 1 } }
        return groupLabel(title: title, reports: reports, others: others)
    }

    /// A group's label from how many of its members are reports and how many are not.
    static func groupLabel(title: String, reports: Int, others: Int) -> String {
        let noun = others == 0 ? "report" : (reports == 0 ? "category" : "item")
        let count = reports + others
        let plural = count == 1 ? noun : (noun == "category" ? "categories" : noun + "s")
        // The count is one unit on its own line ("12 reports" never splits).
        return "\(title)\n\(count)\u{00A0}\(plural)"
    }
}
