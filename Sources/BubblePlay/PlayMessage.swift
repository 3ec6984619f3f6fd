@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import ReportLibrary

/// A message from the play page to the server, checked (see docs/play.md, "Protocol").
public enum PlayMessage: Sendable, Equatable {
    /// The page's devicePixelRatio (frames are drawn at it, clamped to 0.5...2).
    case hello(scale: Double)
    /// The page has shown the last frame and takes the next one (the pacing credit).
    case ready
    /// A tap at a canvas point (pt).
    case tap(ScenePoint)
    /// A finger down at a canvas point: drags the bubble there (or the table's rows).
    case press(ScenePoint)
    /// The finger of the press moves (pt; may leave the canvas).
    case move(ScenePoint)
    /// The finger of the press lifts.
    case release
    /// A two-finger pinch (or ctrl/⌘ + wheel): back one level.
    case pinch
    /// Scroll the open reports table by `dy` points.
    case scroll(Double)
    /// Zoom the open preview's pages by `scale` around a canvas point (a pinch on the pages).
    case zoom(scale: Double, at: ScenePoint)
    /// Close the open overlay (Escape).
    case close
    /// Pause or run the clock.
    case pause(Bool)
    /// One step while paused.
    case step
    /// Slow motion: 0.25, 0.5 or 1.
    case speed(Double)
    /// A new dashboard on the start screen (and a new recording).
    case restart
    /// The debug overlay on or off.
    case debug(Bool)
    /// New motion settings (a settings-file object), applied from the current step.
    case settings(DashboardSettings)
    /// Asks for the recording so far, as a scenario file.
    case record
    /// Asks for the current settings as a settings file.
    case saveSettings
    /// The whole text of the search field as typed so far (opens the search if needed); at most
    /// `Dashboard.maxFieldLength` characters, no control characters. The page sends it once an
    /// input method has committed it, never half-composed.
    case search(String)
    /// The whole text of the filter sheet's field (the sheet must be open); checked as `search`.
    case filterQuery(String)
    /// Takes the search result at this row (0-based; Enter in the search field sends row 0).
    case searchPick(Int)
}

/// Why a message was refused: one line naming the field.
public struct PlayMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the bad field ("" for the whole message).
    public var path: String
    /// What is wrong, one line.
    public var message: String

    /// The refusal of the field at `path` ("" for the whole message).
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone for the whole message.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Parses the page's messages. Trusts nothing: size, JSON, types, field names, finite numbers in
/// range, and points on the canvas are all checked; every input ends in a message or a
/// `PlayMessageError`, never a crash.
public struct PlayMessageParser: Sendable {
    /// The largest message accepted, in bytes (a settings message is under 1 KB).
    public static let maxMessageBytes = 4096
    /// The largest coordinate accepted for a moving finger, in points.
    public static let maxCoordinate = 1e6

    /// The canvas that taps and presses must land on.
    public var canvasWidth: Double
    /// See `canvasWidth` (points).
    public var canvasHeight: Double
    /// The settings a `settings` message's values apply to.
    public var baseSettings: DashboardSettings

    /// A parser for a page on a canvas of `canvasWidth` × `canvasHeight` points whose `settings` messages apply to `baseSettings`.
    public init(canvasWidth: Double, canvasHeight: Double, baseSettings: DashboardSettings) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.baseSettings = baseSettings
    }

    /// The message types and the fields each takes besides `type`.
    static let shapes: [(type: String, fields: [String])] = [
        ("hello", ["scale"]), ("ready", []), ("tap", ["x", "y"]), ("press", ["x", "y"]), ("move", ["x", "y"]),
        ("release", []), ("pinch", []), ("scroll", ["dy"]), ("zoom", ["scale", "x", "y"]), ("close", []), ("pause", ["on"]), ("step", []),
        ("speed", ["value"]), ("restart", []), ("debug", ["on"]), ("settings", ["values"]), ("record", []),
        ("saveSettings", []), ("search", ["text"]), ("filter_query", ["text"]), ("search_pick", ["row"]),
    ]

    /// The largest row a `search_pick` names (the search shows far fewer).
    public static let maxPickRow = 999

    /// The message in `bytes` (one WebSocket text message, UTF-8), or the refusal naming the field.
    public func parse(_ bytes: [UInt8]) throws(PlayMessageError) -> PlayMessage {
        guard bytes.count <= Self.maxMessageBytes else {
            throw PlayMessageError(path: "", message: "message of \(bytes.count) bytes is over the limit of \(Self.maxMessageBytes)")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxNesting: 6)
        } catch {
            throw PlayMessageError(path: error.path, message: "malformed JSON at byte \(error.offset): \(error.message)")
        }
        guard let members = root.objectMembers else {
            throw PlayMessageError(path: "", message: "a message must be a JSON object, found \(root.typeName)")
        }
        guard let typeValue = root["type"] else { throw PlayMessageError(path: "type", message: "missing field 'type'") }
        guard let type = typeValue.stringValue else {
            throw PlayMessageError(path: "type", message: "'type' must be a string, found \(typeValue.typeName)")
        }
        guard let shape = Self.shapes.first(where: { $0.type == type }) else {
            throw PlayMessageError(
                path: "type", message: "unknown message type '\(type.prefix(40))' (known: \(Self.shapes.map(\.type).joined(separator: ", ")))")
        }
        var seen: [String] = []
        for m in members {
            guard m.key == "type" || shape.fields.contains(m.key) else {
                let allowed = shape.fields.isEmpty ? "none" : shape.fields.joined(separator: ", ")
                throw PlayMessageError(path: String(m.key.prefix(40)), message: "unknown field for '\(type)' (fields: \(allowed))")
            }
            guard !seen.contains(m.key) else { throw PlayMessageError(path: m.key, message: "field given twice") }
            seen.append(m.key)
        }
        func number(_ name: String, within range: ClosedRange<Double>) throws(PlayMessageError) -> Double {
            guard let value = root[name] else { throw PlayMessageError(path: name, message: "missing field '\(name)'") }
            guard let v = value.numberValue else { throw PlayMessageError(path: name, message: "must be a number, found \(value.typeName)") }
            guard v.isFinite, range.contains(v) else {
                throw PlayMessageError(path: name, message: "must be within \(JSONLiteral.number(range.lowerBound))...\(JSONLiteral.number(range.upperBound)), got \(v)")
            }
            return v
        }
        func flag(_ name: String) throws(PlayMessageError) -> Bool {
            guard let value = root[name] else { throw PlayMessageError(path: name, message: "missing field '\(name)'") }
            guard let b = value.boolValue else { throw PlayMessageError(path: name, message: "must be true or false, found \(value.typeName)") }
            return b
        }
        func text(_ name: String) throws(PlayMessageError) -> String {
            guard let value = root[name] else { throw PlayMessageError(path: name, message: "missing field '\(name)'") }
            guard let t = value.stringValue else { throw PlayMessageError(path: name, message: "must be a string, found \(value.typeName)") }
            guard t.count <= Dashboard.maxFieldLength else {
                throw PlayMessageError(path: name, message: "longer than \(Dashboard.maxFieldLength) characters (\(t.count))")
            }
            if let c = t.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
                throw PlayMessageError(path: name, message: "control character U+\(Hex.string(UInt64(c.value), digits: 4)) in the text")
            }
            return t
        }
        func canvasPoint() throws(PlayMessageError) -> ScenePoint {
            ScenePoint(x: try number("x", within: 0...canvasWidth), y: try number("y", within: 0...canvasHeight))
        }
        let big = -Self.maxCoordinate...Self.maxCoordinate
        switch type {
        case "hello": return .hello(scale: try number("scale", within: 0.25...16))
        case "ready": return .ready
        case "tap": return .tap(try canvasPoint())
        case "press": return .press(try canvasPoint())
        case "move": return .move(ScenePoint(x: try number("x", within: big), y: try number("y", within: big)))
        case "release": return .release
        case "pinch": return .pinch
        case "scroll": return .scroll(try number("dy", within: -TableScrollSettings.maxScrollEvent...TableScrollSettings.maxScrollEvent))
        case "zoom": return .zoom(scale: try number("scale", within: 0.01...100), at: try canvasPoint())
        case "close": return .close
        case "pause": return .pause(try flag("on"))
        case "step": return .step
        case "speed":
            let v = try number("value", within: 0.25...1)
            guard v == 0.25 || v == 0.5 || v == 1 else { throw PlayMessageError(path: "value", message: "must be 0.25, 0.5 or 1, got \(v)") }
            return .speed(v)
        case "restart": return .restart
        case "debug": return .debug(try flag("on"))
        case "settings":
            guard let values = root["values"] else { throw PlayMessageError(path: "values", message: "missing field 'values'") }
            do {
                return .settings(try SettingsFile.apply(values, source: SourceText(bytes), file: "message", jsonPath: "values", base: baseSettings))
            } catch {
                throw PlayMessageError(path: error.jsonPath, message: error.message)
            }
        case "record": return .record
        case "search": return .search(try text("text"))
        case "filter_query": return .filterQuery(try text("text"))
        case "search_pick":
            let row = try number("row", within: 0...Double(Self.maxPickRow))
            guard row == row.rounded() else { throw PlayMessageError(path: "row", message: "must be a whole number, got \(row)") }
            return .searchPick(Int(row))
        default: return .saveSettings
        }
    }
}
