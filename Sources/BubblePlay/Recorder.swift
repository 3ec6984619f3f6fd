@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import Foundation
import ReportLibrary

/// Records a play session as a scenario file: every event the dashboard was sent, at the step it
/// was sent on (`at` is that step's time, written so that it reads back as the same step), so
/// that `bubbles export` of the file replays the session bit for bit.
public struct Recorder: Sendable {
    /// One recorded event: its step and the event's action member, such as `"tap": [12, 40]`.
    public struct Entry: Sendable, Equatable {
        /// The step the event was sent on.
        public var step: Int
        /// The event as a scenario file's action member (`"tap": [12, 40]`).
        public var action: String
        /// A finger move (several on one step keep only the last: the dashboard keeps only the last).
        var isMove: Bool
    }

    /// The datasource the scenario names.
    public var dataPath: String
    /// The canvas the session started with, points.
    public var canvasWidth: Double
    /// See `canvasWidth`.
    public var canvasHeight: Double
    /// The settings the session started with.
    public var settings: DashboardSettings
    /// The dashboard's fixed step, seconds (1/60).
    public var timeStep: Double
    /// The events recorded so far, in order.
    public private(set) var entries: [Entry] = []

    /// A recorder of a session on `dataPath` with that canvas, settings and step.
    public init(dataPath: String, canvasWidth: Double, canvasHeight: Double, settings: DashboardSettings, timeStep: Double) {
        self.dataPath = dataPath
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.settings = settings
        self.timeStep = timeStep
    }

    /// Records the event sent to the dashboard on `step`. Events that cannot be written as a
    /// scenario action are not taken (none of those the session sends).
    public mutating func record(_ event: DashboardEvent, step: Int) {
        let n = JSONLiteral.number
        let action: String
        var isMove = false
        switch event {
        case .tap(at: let p): action = "\"tap\": [\(n(p.x)), \(n(p.y))]"
        case .tapBubble(let id): action = "\"tap\": \(JSONLiteral.string(id))"
        case .press(at: let p): action = "\"press\": [\(n(p.x)), \(n(p.y))]"
        case .move(let p):
            action = "\"move\": [\(n(p.x)), \(n(p.y))]"
            isMove = true
        case .release: action = "\"release\": true"
        case .pinch: action = "\"pinch\": true"
        case .closeOverlay: action = "\"close\": true"
        case .recenter: action = "\"recenter\": true"
        case .top: action = "\"top\": true"
        case .showReports: action = "\"reports\": true"
        case .scroll(let d): action = "\"scroll\": \(n(d))"
        case .zoom(let s, let p): action = "\"zoom\": [\(n(s)), \(n(p.x)), \(n(p.y))]"
        case .settings(let s):
            action = "\"settings\": " + SettingsFile.encode(s).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        case .resize(let size): action = "\"resize\": [\(n(size.width)), \(n(size.height))]"
        case .openSearch: action = "\"open_search\": true"
        case .search(let text): action = "\"search\": \(JSONLiteral.string(text))"
        case .searchPick(let row): action = "\"search_pick\": \(row)"
        case .openFilter: action = "\"open_filter\": true"
        case .filterQuery(let text): action = "\"filter_query\": \(JSONLiteral.string(text))"
        case .filter(let keywords): action = "\"filter\": [" + keywords.map { JSONLiteral.string($0) }.joined(separator: ", ") + "]"
        case .toggleKeyword(let k): action = "\"toggle_keyword\": \(JSONLiteral.string(k))"
        case .pressBubble: return
        }
        if isMove, let last = entries.last, last.isMove, last.step == step {
            entries[entries.count - 1].action = action
            return
        }
        entries.append(Entry(step: step, action: action, isMove: isMove))
    }

    /// The scenario file of the recording, ending at `endStep` (at least the last event's step, and
    /// at least one step).
    public func scenarioText(endStep: Int) -> String {
        let end = max(endStep, entries.last?.step ?? 0, 1)
        var out = "{\n"
        out += "  \"data\": \(JSONLiteral.string(dataPath)),\n"
        out += "  \"canvas\": [\(JSONLiteral.number(canvasWidth)), \(JSONLiteral.number(canvasHeight))],\n"
        out += "  \"fps\": 60,\n"
        out += "  \"duration\": \(time(ofStep: end)),\n"
        let settingsLines = SettingsFile.encode(settings).split(separator: "\n")
        out += "  \"settings\": " + settingsLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") + ",\n"
        out += "  \"events\": ["
        for (i, e) in entries.enumerated() {
            out += (i == 0 ? "\n" : ",\n") + "    {\"at\": \(time(ofStep: e.step)), \(e.action)}"
        }
        out += entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// A step's time, in the shortest form that reads back as exactly `step · timeStep`.
    func time(ofStep step: Int) -> String {
        let t = Double(step) * timeStep
        return step == 0 ? "0" : "\(t)"
    }

    /// Writes the scenario file atomically (a temporary name in the same folder, then a rename).
    public func write(to path: String, endStep: Int) throws {
        try AtomicFile.write(Array(scenarioText(endStep: endStep).utf8), to: path)
    }
}
