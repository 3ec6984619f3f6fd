import BubblePhysics

/// The layouts of one view (filter), kept while another view is shown.
struct ViewLayouts {
    var layouts: [Int: LevelLayout]
    var labels: [Int: String]
    var places: [Int: [Vector2]]
    var groupingDecided: Set<Int>
}
