import BubbleDashboard

/// One action of a scenario script.
public enum ScriptAction: Sendable, Hashable {
    /// A single dashboard event.
    case event(DashboardEvent)
    /// Press on a bubble, move the finger along `path` (canvas points; the bubble keeps its offset
    /// from the finger) over `duration` seconds, and let go.
    case drag(id: String, path: [ScenePoint], duration: Double)
    /// Press at the first point of `path`, on whatever is there (the reports table's rows, or a
    /// bubble), move the finger along the rest over `duration` seconds, and let go.
    case dragAt(path: [ScenePoint], duration: Double)
}

/// An action at a time, in seconds from the start of the scenario.
public struct TimedAction: Sendable, Hashable {
    /// When it fires (s from the start).
    public var time: Double
    /// What it does.
    public var action: ScriptAction
    /// A short description for manifests and logs, such as `tap finance`.
    public var label: String

    /// An action at `time` seconds with its label.
    public init(time: Double, action: ScriptAction, label: String) {
        self.time = time
        self.action = action
        self.label = label
    }
}

/// An event that fired, or failed, on a step.
public struct FiredEvent: Sendable, Equatable {
    /// Index of the action in the script.
    public var actionIndex: Int
    /// The action's label.
    public var label: String
    /// The step at which it fired.
    public var step: Int
    /// Why the dashboard refused it, if it did (the dashboard is then unchanged).
    public var error: DashboardError?
}

/// Plays a timed script on a dashboard at its fixed step. An action at time `t` fires at the first
/// step boundary at or after `t` (`step = ⌈t / timeStep⌉`), before that step is simulated; a drag
/// moves the finger once per step. Deterministic: the same script gives the same states, however
/// the frames are taken (`advance(toStep:)` per step, or `advance(to:)` at any frame times).
public final class ScenarioPlayer {
    /// The dashboard it plays on.
    public let dashboard: Dashboard
    /// The actions, in time order.
    public let script: [TimedAction]
    private var pending: [(step: Int, order: Int, actionIndex: Int, event: DashboardEvent)] = []
    private var next = 0

    /// A player of `script` on `dashboard`, from the dashboard's current step.
    public init(dashboard: Dashboard, script: [TimedAction]) {
        self.dashboard = dashboard
        self.script = script
        let dt = dashboard.timeStep
        var queue: [(step: Int, order: Int, actionIndex: Int, event: DashboardEvent)] = []
        for (i, a) in script.enumerated() {
            let first = Self.stepIndex(a.time, dt)
            switch a.action {
            case .event(let e):
                queue.append((first, queue.count, i, e))
            case .drag(_, let path, let duration), .dragAt(let path, let duration):
                guard let start = path.first else { continue }
                let moves = max(1, Int((duration / dt).rounded()))
                if case .drag(let id, _, _) = a.action {
                    queue.append((first, queue.count, i, .pressBubble(id, at: start)))
                } else {
                    queue.append((first, queue.count, i, .press(at: start)))
                }
                for k in 1...moves {
                    queue.append((first + k, queue.count, i, .move(to: Self.pointOnPath(path, Double(k) / Double(moves)))))
                }
                queue.append((first + moves, queue.count, i, .release))
            }
        }
        // Stable: by step, then in script order.
        pending = queue.sorted { $0.step != $1.step ? $0.step < $1.step : $0.order < $1.order }
    }

    /// Times written in decimal (0.5 s) land on a step within rounding error: see `Dashboard.stepIndex(atTime:)`.
    static func stepIndex(_ time: Double, _ dt: Double) -> Int { Dashboard.stepIndex(time, dt) }

    /// The point a fraction `t` of the way along a polyline (by length).
    static func pointOnPath(_ path: [ScenePoint], _ t: Double) -> ScenePoint {
        guard path.count > 1 else { return path[0] }
        var lengths: [Double] = []
        var total = 0.0
        for i in 1..<path.count {
            let dx = path[i].x - path[i - 1].x, dy = path[i].y - path[i - 1].y
            let l = (dx * dx + dy * dy).squareRoot()
            lengths.append(l)
            total += l
        }
        if total <= 0 { return path[path.count - 1] }
        var remaining = max(0, min(1, t)) * total
        for i in 1..<path.count {
            let l = lengths[i - 1]
            if remaining <= l || i == path.count - 1 {
                let f = l > 0 ? min(1, remaining / l) : 1
                return ScenePoint(x: path[i - 1].x + (path[i].x - path[i - 1].x) * f, y: path[i - 1].y + (path[i].y - path[i - 1].y) * f)
            }
            remaining -= l
        }
        return path[path.count - 1]
    }

    /// Fires what is due at the current step, then steps, until the dashboard reaches `step`.
    /// Returns the events that fired (and any that the dashboard refused).
    @discardableResult
    public func advance(toStep step: Int) -> [FiredEvent] {
        var fired: [FiredEvent] = []
        while true {
            fireDue(into: &fired)
            if dashboard.stepCount >= step { break }
            dashboard.step()
        }
        return fired
    }

    /// Brings the dashboard to the state behind a frame at `time` seconds, for `dashboard.scene(at:
    /// time)`: steps to the first step at or after `time`, firing what is due on the way. An
    /// event due at that step itself takes effect at its time (`step · timeStep`), so it fires here
    /// only when `time` is that step's time; a frame between two steps shows the motion up to
    /// the step without it. Returns the events that fired (and any that the dashboard refused).
    @discardableResult
    public func advance(to time: Double) -> [FiredEvent] {
        var fired: [FiredEvent] = []
        let target = Self.stepIndex(time, dashboard.timeStep)
        while dashboard.stepCount < target {
            fireDue(into: &fired)
            dashboard.step()
        }
        if Dashboard.isStepTime(time, dashboard.timeStep) { fireDue(into: &fired) }
        return fired
    }

    /// Whether an event due at `step` has fired once the player has advanced to `time`.
    public func fires(step: Int, byTime time: Double) -> Bool {
        let target = Self.stepIndex(time, dashboard.timeStep)
        return target > step || target == step && Dashboard.isStepTime(time, dashboard.timeStep)
    }

    /// The step of the frame at `time` seconds.
    public func step(atTime time: Double) -> Int { Self.stepIndex(time, dashboard.timeStep) }

    /// True when every action has fired.
    public var isFinished: Bool { next >= pending.count }

    private func fireDue(into fired: inout [FiredEvent]) {
        while next < pending.count && pending[next].step <= dashboard.stepCount {
            let p = pending[next]
            next += 1
            var error: DashboardError? = nil
            do {
                try dashboard.send(p.event)
            } catch let e {
                error = e
            }
            // A drag is reported once, when it begins (or fails).
            let isDragFollowUp: Bool
            switch p.event {
            case .move, .release:
                isDragFollowUp = true
            default:
                isDragFollowUp = false
            }
            if !isDragFollowUp || error != nil {
                if case .release = p.event, error == .noDragInProgress { continue }
                if case .move = p.event, error == .noDragInProgress { continue }
                fired.append(FiredEvent(actionIndex: p.actionIndex, label: script[p.actionIndex].label, step: dashboard.stepCount, error: error))
            }
        }
    }
}
