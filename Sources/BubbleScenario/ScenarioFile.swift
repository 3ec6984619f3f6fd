#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Testbed) import BubbleDashboard
import BubbleSupport
import Foundation
import ReportLibrary

/// A scenario: a datasource, a canvas, a frame rate, a duration and a timed list of events.
/// See the BubbleDashboard documentation's article *Scenario format*.
public struct Scenario: Sendable {
    /// The scenario file, as given.
    public var file: String
    /// The datasource path, resolved against the scenario's folder.
    public var dataPath: String
    /// The datasource's report tree.
    public var library: ReportTree
    /// The canvas the scenario starts with (pt; `canvas`, default 768 × 1024).
    public var canvasWidth: Double
    /// See `canvasWidth`.
    public var canvasHeight: Double
    /// Frames per second of an export (`fps`, default 60).
    public var fps: Double
    /// Length in seconds (`duration`, default the last event's time plus 3 s).
    public var duration: Double
    /// The events in time order, for `ScenarioPlayer` (the testbed's API).
    public var script: [TimedAction]
    /// FNV-1a 64 of the scenario file's bytes and the datasource's bytes.
    public var contentHash: UInt64
    /// The motion settings the scenario starts with (its `settings` field, in the settings-file
    /// format), or nil for the defaults.
    public var settings: DashboardSettings? = nil
}

/// Why a scenario file was refused; one line like `LibraryError`.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// The scenario file, as given.
    public var file: String
    /// Where in the file (`events[3].path[0]`; empty for the whole file).
    public var jsonPath: String
    /// The line and column, when the refusal points at a value.
    public var position: SourcePosition?
    /// What is wrong, one line.
    public var message: String

    /// `FILE:LINE:COLUMN: PATH: message`.
    public var description: String {
        var text = file
        if let position { text += ":\(position.line):\(position.column)" }
        text += ": "
        if !jsonPath.isEmpty { text += jsonPath + ": " }
        return text + message
    }
}

extension Scenario {
    /// The largest canvas side accepted, in points.
    public static let maxCanvasSide = 8192.0
    /// The longest scenario accepted, in seconds.
    public static let maxDuration = 3600.0

    /// The largest scenario file accepted, in bytes (real ones are a few KB).
    public static let maxFileBytes = 16 << 20
    /// The deepest JSON nesting accepted in a scenario file (an event's drag path is at depth 5).
    public static let maxNesting = 16

    /// Loads and checks a scenario file, and the datasource it names (ids in events must exist).
    public static func load(_ path: String) throws(ScenarioError) -> Scenario {
        let bytes = try readFile(path)
        return try parse(bytes, file: path) { dataPath throws(LibraryError) in
            let tree = try LibraryLoader.load(dataPath)
            return (tree, [UInt8](FileManager.default.contents(atPath: dataPath) ?? Data()))
        }
    }

    /// Checks scenario text as if it had been read from `file`. `loadData` receives the
    /// datasource path (resolved against `file`'s folder) and returns the validated tree and the
    /// bytes it was read from (for ``Scenario/contentHash``); its error is reported at `data`.
    /// Every input ends in a scenario or a ``ScenarioError``.
    public static func parse(
        _ bytes: [UInt8], file path: String,
        loadData: (String) throws(LibraryError) -> (tree: ReportTree, bytes: [UInt8])
    ) throws(ScenarioError) -> Scenario {
        if bytes.count > maxFileBytes {
            throw ScenarioError(
                file: path, jsonPath: "", position: nil,
                message: "file is \(bytes.count) bytes, more than the limit of \(maxFileBytes)")
        }
        let source = SourceText(bytes)
        func fail(_ path: String, _ value: JSONValue?, _ message: String) -> ScenarioError {
            ScenarioError(file: pathArgument, jsonPath: path, position: value.map { source.position(of: $0.offset) }, message: message)
        }
        let pathArgument = path
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes, maxNesting: maxNesting)
        } catch {
            throw ScenarioError(
                file: path, jsonPath: error.path, position: source.position(of: error.offset),
                message: error.isNestingLimit ? error.message : "malformed JSON: \(error.message)")
        }
        guard let members = document.objectMembers else {
            throw fail("", document, "the scenario must be an object, found \(document.typeName)")
        }
        let known = ["data", "canvas", "fps", "duration", "settings", "events"]
        for m in members where !known.contains(m.key) {
            throw fail(m.key, m.value, "unknown field '\(m.key)' (known: \(known.joined(separator: ", ")))")
        }

        // data
        guard let dataValue = document["data"] else { throw fail("data", document, "missing field 'data' (the datasource JSON)") }
        guard let dataName = dataValue.stringValue, !dataName.isEmpty else {
            throw fail("data", dataValue, "'data' must be a path to the datasource JSON")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let dataPath = dataName.hasPrefix("/") || folder.isEmpty ? dataName : folder + "/" + dataName
        let library: ReportTree
        let dataBytes: [UInt8]
        do {
            (library, dataBytes) = try loadData(dataPath)
        } catch {
            throw fail("data", dataValue, "the datasource is invalid: \(error)")
        }

        // canvas, fps, duration
        var width = 768.0, height = 1024.0
        if let canvas = document["canvas"] {
            guard let pair = canvas.arrayValue, pair.count == 2, let w = pair[0].numberValue, let h = pair[1].numberValue else {
                throw fail("canvas", canvas, "'canvas' must be [width, height] in points")
            }
            guard w >= 160, h >= 160, w <= maxCanvasSide, h <= maxCanvasSide else {
                throw fail("canvas", canvas, "canvas sides must be within 160...\(Int(maxCanvasSide)) pt")
            }
            width = w
            height = h
        }
        var fps = 60.0
        if let value = document["fps"] {
            guard let f = value.numberValue, f >= 1, f <= 240 else { throw fail("fps", value, "'fps' must be a number within 1...240") }
            fps = f
        }

        // settings
        var settings: DashboardSettings? = nil
        if let value = document["settings"] {
            settings = try SettingsFile.apply(value, source: source, file: path, jsonPath: "settings", base: DashboardSettings())
        }
        let running = settings ?? DashboardSettings()

        // events
        guard let eventsValue = document["events"] else { throw fail("events", document, "missing field 'events'") }
        guard let events = eventsValue.arrayValue else {
            throw fail("events", eventsValue, "'events' must be an array, found \(eventsValue.typeName)")
        }
        var reader = ScenarioEventReader(
            source: source, file: pathArgument, library: library, canvas: (width, height), settings: running)
        let script = try reader.read(events)

        var duration = (script.last?.time ?? 0) + 3
        if let value = document["duration"] {
            guard let d = value.numberValue, d > 0, d <= maxDuration else {
                throw fail("duration", value, "'duration' must be a number of seconds within (0, \(Int(maxDuration))]")
            }
            if let last = script.last, last.time > d {
                throw fail("duration", value, "the last event (at \(last.time) s) is after the end (\(d) s)")
            }
            duration = d
        }

        var hash = FNV1a64()
        hash.combine(bytes: bytes)
        hash.combine(bytes: dataBytes)
        return Scenario(
            file: path, dataPath: dataPath, library: library, canvasWidth: width, canvasHeight: height, fps: fps,
            duration: duration, script: script, contentHash: hash.value, settings: settings)
    }
}

extension Scenario {
    /// The actions an event may have.
    static let actionNames =
        "tap, open, drag, scroll, zoom, recenter, pinch, top, reports, close, press, move, release, settings, resize, "
        + "open_search, search, search_pick, open_filter, filter_query, filter, toggle_keyword"

    /// The dashboard settings for this scenario on a canvas of `width` × `height` points: its
    /// `settings` field, or the defaults.
    public func dashboardSettings(width: Double, height: Double) -> DashboardSettings {
        var s = settings ?? DashboardSettings()
        s.canvasWidth = width
        s.canvasHeight = height
        return s
    }

    /// The bytes of a scenario file: a regular file of at most ``maxFileBytes``.
    static func readFile(_ path: String) throws(ScenarioError) -> [UInt8] {
        func fail(_ message: String) -> ScenarioError { ScenarioError(file: path, jsonPath: "", position: nil, message: message) }
        // stat, not lstat: a symbolic link to a scenario file is fine.
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw fail(errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot read")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw fail("not a regular file") }
        if Int(info.st_size) > maxFileBytes {
            throw fail("file is \(info.st_size) bytes, more than the limit of \(maxFileBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw fail("cannot read") }
        return [UInt8](data)
    }
}

