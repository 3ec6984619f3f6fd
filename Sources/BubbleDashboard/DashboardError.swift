/// Why the dashboard refused an input. Refused inputs change nothing.
public enum DashboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The node tree handed to the dashboard is inconsistent.
    case invalidTree(String)
    /// An event names an id that is not in the tree; `suggestions` are the nearest valid ids.
    case unknownID(String, suggestions: [String])
    /// An event names a node that is not on screen (only visible bubbles can be tapped or dragged).
    case notVisible(String)
    /// A coordinate or size that is NaN, infinite or absurdly large.
    case invalidNumber(field: String, value: Double)
    /// A drag move or end without a drag in progress.
    case noDragInProgress
    /// A tap or press at a point off the canvas.
    case pointOutsideCanvas(ScenePoint, width: Double, height: Double)
    /// A tap or press at a point where there is nothing to take it; `what` says what is there.
    case nothingAt(ScenePoint, what: String)
    /// A `scroll` event while no reports table is open.
    case noTableOpen
    /// A `zoom` event while no report preview is open.
    case noPreviewOpen
    /// A setting outside its range (see `DashboardSettings.fields`), by its settings-file name.
    case invalidSetting(field: String, value: Double, range: ClosedRange<Double>)
    /// A spring setting (`placeSpring`, `layout.spring`) with a frequency outside 0.1–30 Hz or a
    /// damping ratio outside 0.05–2.
    case invalidSpring(field: String, frequency: Double, dampingRatio: Double)
    /// A search or filter event on a dashboard created without a `ReportFinder`.
    case searchUnavailable
    /// A `searchPick` while no search is open.
    case noSearchOpen
    /// A `searchPick` past the last result shown.
    case noSuchResult(Int, count: Int)
    /// A keyword that no report carries.
    case unknownKeyword(String)
    /// A `filterQuery` while the filter sheet is not open.
    case noFilterSheetOpen
    /// Text for the search or the filter field that cannot be taken: too long or with control
    /// characters.
    case invalidText(field: String, reason: String)
    /// The physics world refused a call (a bug if it ever happens: inputs are validated first).
    case physics(String)

    /// One line saying what was refused and why.
    public var description: String {
        switch self {
        case .invalidTree(let why): "invalid tree: \(why)"
        case .unknownID(let id, let suggestions):
            "unknown id '\(id)'" + (suggestions.isEmpty ? "" : " (nearest: \(suggestions.joined(separator: ", ")))")
        case .notVisible(let id): "'\(id)' is not on screen at this moment"
        case .invalidNumber(let field, let value): "\(field) must be a finite number within range, got \(value)"
        case .noDragInProgress: "no drag in progress"
        case .pointOutsideCanvas(let p, let w, let h):
            "point \(Self.format(p)) is outside the \(Self.format(w))×\(Self.format(h)) pt canvas"
        case .nothingAt(let p, let what): "nothing at \(Self.format(p)): \(what)"
        case .noTableOpen: "no reports table is open (toolbar button 3, the `reports` event, opens one), nor search results or a report preview"
        case .noPreviewOpen: "no report preview is open (a tap on a report card opens one)"
        case .invalidSetting(let field, let value, let range):
            "setting \(field) must be within \(Self.format(range.lowerBound))...\(Self.format(range.upperBound)), got \(value)"
        case .invalidSpring(let field, let frequency, let dampingRatio):
            "spring \(field) needs a frequency within 0.1...30 Hz and a damping ratio within 0.05...2, got "
                + "\(Self.format(frequency)) Hz and \(Self.format(dampingRatio))"
        case .searchUnavailable: "search needs an index: this dashboard has no ReportFinder"
        case .noSearchOpen: "no search is open (the magnifier, or a 'search' event, opens one)"
        case .noSuchResult(let row, let count):
            count == 0 ? "no search result \(row): the search shows no results" : "no search result \(row): the search shows \(count) (0...\(count - 1))"
        case .unknownKeyword(let k): "no report carries the keyword '\(k)'"
        case .noFilterSheetOpen: "the filter sheet is not open (the Filter button, or an 'open_filter' event, opens it)"
        case .invalidText(let field, let reason): "\(field): \(reason)"
        case .physics(let why): "physics: \(why)"
        }
    }
}

extension DashboardError {
    static func format(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }

    static func format(_ p: ScenePoint) -> String { "(\(format(p.x)), \(format(p.y)))" }
}
