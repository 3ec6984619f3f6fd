@_spi(Testbed) import BubbleDashboard
import BubbleSupport
import ReportLibrary

/// Reads a scenario file's `events`, one parser per kind of action. It carries what an event
/// depends on that earlier events may change: the canvas (a `resize` changes it for the events
/// after it) and the running settings (a `settings` event starts from the ones before it).
struct ScenarioEventReader {
    /// The scenario file's text, for positions.
    let source: SourceText
    /// The scenario file, as given (for errors).
    let file: String
    /// The datasource, for the ids events name.
    let library: ReportTree
    /// The canvas at the event being read.
    var canvas: (width: Double, height: Double)
    /// The settings at the event being read.
    var settings: DashboardSettings

    /// The error at `path` (a JSON path) pointing at `value`.
    func fail(_ path: String, _ value: JSONValue?, _ message: String) -> ScenarioError {
        ScenarioError(file: file, jsonPath: path, position: value.map { source.position(of: $0.offset) }, message: message)
    }

    /// Reads every event in time order.
    mutating func read(_ events: [JSONValue]) throws(ScenarioError) -> [TimedAction] {
        var script: [TimedAction] = []
        var previous = 0.0
        for (i, event) in events.enumerated() {
            let base = "events[\(i)]"
            guard let fields = event.objectMembers else { throw fail(base, event, "an event must be an object") }
            guard let atValue = event["at"] else { throw fail(base + ".at", event, "missing field 'at' (seconds)") }
            guard let at = atValue.numberValue, at >= 0, at <= Scenario.maxDuration else {
                throw fail(base + ".at", atValue, "'at' must be a number of seconds within 0...\(Int(Scenario.maxDuration))")
            }
            if at < previous {
                throw fail(base + ".at", atValue, "event at \(at) s is in the past: the previous event is at \(previous) s (events must be in time order)")
            }
            previous = at
            let actions = fields.filter { $0.key != "at" && $0.key != "path" && $0.key != "over" }
            guard actions.count == 1, let action = actions.first else {
                throw fail(base, event, "an event needs exactly one action: \(Scenario.actionNames)")
            }
            let (kind, label) = try self.action(action.key, action.value, event: event, base: base)
            script.append(TimedAction(time: at, action: kind, label: label))
        }
        return script
    }

    /// One event's action and its label, by the action's key.
    mutating func action(_ key: String, _ value: JSONValue, event: JSONValue, base: String) throws(ScenarioError) -> (ScriptAction, String) {
        let path = base + "." + key
        switch key {
        case "tap" where value.arrayValue != nil:
            let p = try canvasPoint(value, path)
            return (.event(.tap(at: p)), "tap at \(label(p))")
        case "tap", "open":
            let id = try checkID(value, path)
            return (.event(.tapBubble(id)), "\(key) \(id)")
        case "scroll":
            return try scroll(value, path)
        case "zoom":
            return try zoom(value, path)
        case "drag":
            return try drag(value, event: event, base: base, path: path)
        case "recenter", "pinch", "top", "reports", "close", "open_search", "open_filter":
            return try flag(key, value, path)
        case "press":
            let p = try canvasPoint(value, path)
            return (.event(.press(at: p)), "press at \(label(p))")
        case "move":
            let p = try point(value, path)
            return (.event(.move(to: p)), "move to \(label(p))")
        case "release":
            guard value.boolValue == true else { throw fail(path, value, "'release' takes the value true") }
            return (.event(.release), "release")
        case "resize":
            return try resize(value, path)
        case "search", "filter_query", "toggle_keyword":
            return try text(key, value, path)
        case "search_pick":
            guard let row = value.numberValue, row >= 0, row <= 1e6, row == row.rounded() else {
                throw fail(path, value, "'search_pick' takes a result's row, a whole number from 0")
            }
            return (.event(.searchPick(Int(row))), "search_pick \(Int(row))")
        case "filter":
            return try filter(value, path)
        case "settings":
            settings = try SettingsFile.apply(value, source: source, file: file, jsonPath: path, base: settings)
            return (.event(.settings(settings)), "settings")
        default:
            throw fail(path, value, "unknown action '\(key)' (\(Scenario.actionNames))")
        }
    }

    /// `scroll`: points, negative up.
    func scroll(_ value: JSONValue, _ path: String) throws(ScenarioError) -> (ScriptAction, String) {
        guard let d = value.numberValue else {
            throw fail(path, value, "'scroll' takes a number of points (negative scrolls up), found \(value.typeName)")
        }
        guard d.isFinite, abs(d) <= TableScrollSettings.maxScrollEvent else {
            throw fail(path, value, "'scroll' must be within ±\(Int(TableScrollSettings.maxScrollEvent)) pt, got \(d)")
        }
        return (.event(.scroll(d)), "scroll \(label(d))")
    }

    /// `zoom`: `[scale, x, y]`, a factor around a canvas point on the preview's pages.
    func zoom(_ value: JSONValue, _ path: String) throws(ScenarioError) -> (ScriptAction, String) {
        guard let a = value.arrayValue, a.count == 3, let s = a[0].numberValue else {
            throw fail(path, value, "'zoom' takes [scale, x, y]: a factor and the canvas point it zooms around")
        }
        guard s.isFinite, s > 0, s <= 100 else { throw fail(path + "[0]", a[0], "the zoom factor must be within (0, 100], got \(s)") }
        guard let x = a[1].numberValue, let y = a[2].numberValue, x.isFinite, y.isFinite, x >= 0, y >= 0,
              x <= canvas.width, y <= canvas.height
        else {
            throw fail(path, value, "the zoom's point must lie on the \(label(canvas.width))×\(label(canvas.height)) pt canvas")
        }
        let p = ScenePoint(x: x, y: y)
        return (.event(.zoom(scale: s, at: p)), "zoom \(label(s)) at \(label(p))")
    }

    /// `drag`: a bubble by id along `path`, or a finger along the points given as `drag` itself;
    /// `over` seconds (default 0.5).
    func drag(_ value: JSONValue, event: JSONValue, base: String, path: String) throws(ScenarioError) -> (ScriptAction, String) {
        let byPoint = value.arrayValue != nil
        let id = byPoint ? "" : try checkID(value, path)
        let pathValue: JSONValue
        let pathName: String
        if byPoint {
            if event["path"] != nil {
                throw fail(base + ".path", event["path"], "a drag by points gives its path as 'drag' itself; drop 'path'")
            }
            pathValue = value
            pathName = path
        } else {
            guard let p = event["path"] else { throw fail(base + ".path", event, "a drag needs 'path': [[x, y], ...]") }
            pathValue = p
            pathName = base + ".path"
        }
        guard let pts = pathValue.arrayValue, !pts.isEmpty, pts.count <= 10_000 else {
            throw fail(pathName, pathValue, "'\(byPoint ? "drag" : "path")' must be a non-empty array of [x, y] points")
        }
        var points: [ScenePoint] = []
        for (k, p) in pts.enumerated() {
            let place = pathName + "[\(k)]"
            points.append(byPoint && k == 0 ? try canvasPoint(p, place) : try point(p, place))
        }
        var over = 0.5
        if let overValue = event["over"] {
            guard let o = overValue.numberValue, o > 0, o <= 60 else {
                throw fail(base + ".over", overValue, "'over' must be a duration in seconds within (0, 60]")
            }
            over = o
        }
        if byPoint {
            return (.dragAt(path: points, duration: over), "drag at \(label(points[0]))")
        }
        return (.drag(id: id, path: points, duration: over), "drag \(id)")
    }

    /// The actions that take the value true: `recenter`, `pinch`, `top`, `reports`, `close`,
    /// `open_search` and `open_filter`.
    func flag(_ key: String, _ value: JSONValue, _ path: String) throws(ScenarioError) -> (ScriptAction, String) {
        guard value.boolValue == true else { throw fail(path, value, "'\(key)' takes the value true") }
        let e: DashboardEvent
        switch key {
        case "recenter": e = .recenter
        case "pinch": e = .pinch
        case "top": e = .top
        case "reports": e = .showReports
        case "open_search": e = .openSearch
        case "open_filter": e = .openFilter
        default: e = .closeOverlay
        }
        return (.event(e), key)
    }

    /// `resize`: the new canvas, which the points of later events must be on.
    mutating func resize(_ value: JSONValue, _ path: String) throws(ScenarioError) -> (ScriptAction, String) {
        guard let pair = value.arrayValue, pair.count == 2, let w = pair[0].numberValue, let h = pair[1].numberValue else {
            throw fail(path, value, "'resize' takes the new canvas as [width, height] in points")
        }
        guard w >= 160, h >= 160, w <= Scenario.maxCanvasSide, h <= Scenario.maxCanvasSide else {
            throw fail(path, value, "canvas sides must be within 160...\(Int(Scenario.maxCanvasSide)) pt, got [\(label(w)), \(label(h))]")
        }
        canvas = (w, h)
        return (.event(.resize(SceneSize(width: w, height: h))), "resize to \(label(w))×\(label(h))")
    }

    /// The actions that take typed text: `search`, `filter_query` and `toggle_keyword`.
    func text(_ key: String, _ value: JSONValue, _ path: String) throws(ScenarioError) -> (ScriptAction, String) {
        guard let text = value.stringValue else {
            throw fail(path, value, "'\(key)' takes a string (the text typed), found \(value.typeName)")
        }
        guard text.count <= Dashboard.maxFieldLength else {
            throw fail(path, value, "'\(key)' text is longer than \(Dashboard.maxFieldLength) characters")
        }
        let e: DashboardEvent = key == "search" ? .search(text) : key == "filter_query" ? .filterQuery(text) : .toggleKeyword(text)
        return (.event(e), "\(key) \(JSONLiteral.string(text))")
    }

    /// `filter`: the selected keywords (`[]` clears the filter).
    func filter(_ value: JSONValue, _ path: String) throws(ScenarioError) -> (ScriptAction, String) {
        guard let list = value.arrayValue else {
            throw fail(path, value, "'filter' takes the selected keywords, [\"kw\", …] ([] clears), found \(value.typeName)")
        }
        var keywords: [String] = []
        for (k, item) in list.enumerated() {
            guard let text = item.stringValue, !text.isEmpty, text.count <= Dashboard.maxFieldLength else {
                throw fail(path + "[\(k)]", item, "a keyword must be a non-empty string of at most \(Dashboard.maxFieldLength) characters")
            }
            keywords.append(text)
        }
        return (.event(.filter(keywords)), keywords.isEmpty ? "filter cleared" : "filter \(keywords.joined(separator: ", "))")
    }

    /// A node id an event names: a node of the datasource, or a group of one of its categories.
    func checkID(_ value: JSONValue, _ path: String) throws(ScenarioError) -> String {
        guard let id = value.stringValue else { throw fail(path, value, "expected a node id (string), found \(value.typeName)") }
        // A group's id is its category's id, "~" and a key ("stores~n101-150"): the category must
        // exist; whether the group is on screen is the dashboard's to say at the event's moment.
        let category = id.split(separator: "~", maxSplits: 1).first.map(String.init) ?? id
        guard let node = library.node(category) else {
            throw fail(path, value, "unknown id '\(id)' (nearest: \(library.nearestIDs(to: category).joined(separator: ", ")))")
        }
        if category != id, node.kind != .category {
            throw fail(path, value, "'\(id)' names a group of '\(category)', which is a report, not a category")
        }
        return id
    }

    /// A point anywhere within ±1e6 pt (a drag may leave the canvas).
    func point(_ value: JSONValue, _ path: String) throws(ScenarioError) -> ScenePoint {
        guard let xy = value.arrayValue, xy.count == 2, let x = xy[0].numberValue, let y = xy[1].numberValue,
              abs(x) <= 1e6, abs(y) <= 1e6
        else { throw fail(path, value, "a point must be [x, y] in canvas points") }
        return ScenePoint(x: x, y: y)
    }

    /// A point a finger touches: on the canvas.
    func canvasPoint(_ value: JSONValue, _ path: String) throws(ScenarioError) -> ScenePoint {
        guard let xy = value.arrayValue, xy.count == 2, let x = xy[0].numberValue, let y = xy[1].numberValue else {
            throw fail(path, value, "a point must be [x, y] in canvas points")
        }
        guard x.isFinite, y.isFinite, x >= 0, y >= 0, x <= canvas.width, y <= canvas.height else {
            throw fail(
                path, value, "point [\(label(x)), \(label(y))] is outside the \(label(canvas.width))×\(label(canvas.height)) pt canvas")
        }
        return ScenePoint(x: x, y: y)
    }

    func label(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
    func label(_ p: ScenePoint) -> String { "[\(label(p.x)), \(label(p.y))]" }
}
