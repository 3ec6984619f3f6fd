@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import DashboardLibrary
import ReportLibrary

/// Runs a scenario frame by frame, as `bubbles export` steps it; keeps the state hash at every
/// frame, the fired events and (when asked) the worst frame-to-frame motion.
public struct ScenarioRun {
    /// `Dashboard.stateHash` after each frame, from frame 0.
    public var hashes: [UInt64] = []
    /// The events that fired, in order.
    public var fired: [FiredEvent] = []
    /// The largest move of a visible bubble between two frames (0 unless `trackMotion`).
    public var worstJump = (distance: 0.0, id: "", frame: 0)
    /// The largest change of a visible bubble's scale between two frames (0 unless `trackMotion`).
    public var worstScaleJump = (delta: 0.0, id: "", frame: 0)
    /// The first step, after the last event fired, at which the dashboard was at rest.
    public var restStep: Int?
    /// The dashboard, at the scenario's last frame.
    public var dashboard: Dashboard

    /// Runs `scenario`, on `tree` if given (else the datasource's, without PDFs); `finder` answers
    /// its searches and filters (see `ScenarioRun.indexed(_:indexPath:)`). `trackMotion` measures
    /// `worstJump` and `worstScaleJump` (a scene a frame, which the hashes do not need).
    public init(_ scenario: Scenario, tree: DashboardTree? = nil, finder: (any ReportFinder)? = nil, trackMotion: Bool = true) throws {
        var settings = DashboardSettings()
        settings.canvasWidth = scenario.canvasWidth
        settings.canvasHeight = scenario.canvasHeight
        dashboard = try Dashboard(tree: try tree ?? LibraryBridge.dashboardTree(scenario.library), settings: settings, finder: finder)
        let player = ScenarioPlayer(dashboard: dashboard, script: scenario.script)
        let frames = Int((scenario.duration * scenario.fps).rounded())
        var previous = trackMotion ? dashboard.scene() : nil
        for frame in 0...frames {
            fired += player.advance(toStep: player.step(atTime: Double(frame) / scenario.fps))
            hashes.append(dashboard.stateHash)
            if restStep == nil && player.isFinished && dashboard.isAtRest { restStep = dashboard.stepCount }
            guard let before = previous else { continue }
            let scene = dashboard.scene()
            // Motion that can be seen: bubbles visible in both frames.
            for b in scene.bubbles where b.scale * b.opacity > 0.05 {
                guard let a = before.bubbles.first(where: { $0.id == b.id && $0.kind == b.kind }), a.scale * a.opacity > 0.05
                else { continue }
                let dx = b.centre.x - a.centre.x, dy = b.centre.y - a.centre.y
                let d = (dx * dx + dy * dy).squareRoot()
                if d > worstJump.distance { worstJump = (d, b.id, frame) }
                let ds = abs(b.scale - a.scale)
                if ds > worstScaleJump.delta { worstScaleJump = (ds, b.id, frame) }
            }
            previous = scene
        }
    }

    /// A scenario's datasource as `bubbles export` loads it, through a library index built at
    /// `indexPath` (the caller removes it), and the `IndexReportFinder` over that index.
    public static func indexed(_ scenario: Scenario, indexPath: String) throws -> (tree: DashboardTree, finder: IndexReportFinder) {
        let details = LibraryBridge.details(for: scenario.library, source: .index(path: indexPath))
        let tree = try LibraryBridge.dashboardTree(scenario.library, details: details)
        guard let finder = LibraryBridge.finder(for: scenario.library, dashboardTree: tree, indexPath: indexPath) else {
            throw DashboardError.searchUnavailable
        }
        return (tree, finder)
    }
}
