import BubbleDashboard
import BubbleSupport
import Foundation
import ReportLibrary

/// A settings file: the `DashboardSettings` that shape how the dashboard feels (springs,
/// durations, drag coupling, table scrolling), as JSON. Every field is optional; a missing one
/// keeps its default. `bubbles render`, `export` and `play` take one with `--settings FILE`, a
/// scenario may carry the same object as its `settings` field, and `bubbles play`'s "Save
/// settings" writes one. See docs/play.md, "Settings file".
///
/// ```json
/// {"placeSpring": {"frequency": 4, "dampingRatio": 1}, "dragNearFrequency": 7, "focusDuration": 0.36}
/// ```
public enum SettingsFile {
    /// The largest settings file accepted, in bytes.
    public static let maxFileBytes = 64 << 10

    /// One number of the file: its JSON name, the range it must be in, and where it goes.
    public struct Field: Sendable {
        public var name: String
        public var range: ClosedRange<Double>
        /// A short description for the play page's settings panel.
        public var help: String
        let keyPath: WritableKeyPath<DashboardSettings, Double> & Sendable

        /// This field's value in `settings`.
        public func value(in settings: DashboardSettings) -> Double { settings[keyPath: keyPath] }
    }

    /// The fields in file order. Springs are written as `{"frequency": Hz, "dampingRatio": ζ}`.
    public static let fields: [Field] = [
        Field(name: "placeSpring.frequency", range: 0.1...30, help: "spring to a bubble's place (Hz)", keyPath: \.placeSpring.frequency),
        Field(name: "placeSpring.dampingRatio", range: 0.05...2, help: "its damping ratio", keyPath: \.placeSpring.dampingRatio),
        Field(name: "contactFriction", range: 0...1, help: "velocity removed per sub-step in contact", keyPath: \.contactFriction),
        Field(name: "appearDuration", range: 0...5, help: "children grow in (s)", keyPath: \.appearDuration),
        Field(name: "appearFrom", range: 0...1, help: "children start at this share of their way out", keyPath: \.appearFrom),
        Field(name: "appearStagger", range: 0...1, help: "delay between children (s)", keyPath: \.appearStagger),
        Field(name: "appearStaggerTotal", range: 0...5, help: "cap on the whole stagger (s)", keyPath: \.appearStaggerTotal),
        Field(name: "collapseDuration", range: 0...5, help: "leaving bubbles fade (s)", keyPath: \.collapseDuration),
        Field(name: "collapseGlide", range: 0...2000, help: "leaving bubbles glide at most (pt)", keyPath: \.collapseGlide),
        Field(name: "focusDuration", range: 0...5, help: "a bubble becomes the focus (s)", keyPath: \.focusDuration),
        Field(name: "springReach", range: 0...5000, help: "further than this a child glides (pt)", keyPath: \.springReach),
        Field(name: "maxTravelSpeed", range: 50...20000, help: "average glide speed cap (pt/s)", keyPath: \.maxTravelSpeed),
        Field(name: "overlayDuration", range: 0...5, help: "overlays fade (s)", keyPath: \.overlayDuration),
        Field(name: "dragNearFrequency", range: 0.1...30, help: "drag coupling next to the dragged bubble (Hz)", keyPath: \.dragNearFrequency),
        Field(name: "dragFarFrequency", range: 0.1...30, help: "drag coupling far away (Hz)", keyPath: \.dragFarFrequency),
        Field(name: "dragFalloff", range: 1...10000, help: "distance the coupling halves over (pt)", keyPath: \.dragFalloff),
        Field(name: "dragDampingRatio", range: 0.05...2, help: "damping of the drag coupling", keyPath: \.dragDampingRatio),
        Field(name: "tableScroll.decelerationRate", range: 0.9...0.9999, help: "table fling decay per ms", keyPath: \.tableScroll.decelerationRate),
        Field(name: "tableScroll.bounceFrequency", range: 0.1...30, help: "table bounce spring (Hz)", keyPath: \.tableScroll.bounceFrequency),
    ]

    /// Reads and checks a settings file; the result is `base` with the file's values.
    public static func load(_ path: String, base: DashboardSettings = DashboardSettings()) throws(ScenarioError) -> DashboardSettings {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ScenarioError(file: path, jsonPath: "", position: nil, message: errno == ENOENT || errno == ENOTDIR ? "no such file" : "cannot read")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw ScenarioError(file: path, jsonPath: "", position: nil, message: "not a regular file") }
        guard Int(info.st_size) <= maxFileBytes, let data = FileManager.default.contents(atPath: path), data.count <= maxFileBytes else {
            throw ScenarioError(file: path, jsonPath: "", position: nil, message: "cannot read, or larger than \(maxFileBytes) bytes")
        }
        return try parse([UInt8](data), file: path, base: base)
    }

    /// Checks settings-file text as if read from `file`.
    public static func parse(_ bytes: [UInt8], file: String, base: DashboardSettings = DashboardSettings()) throws(ScenarioError) -> DashboardSettings {
        guard bytes.count <= maxFileBytes else {
            throw ScenarioError(file: file, jsonPath: "", position: nil, message: "file is \(bytes.count) bytes, more than the limit of \(maxFileBytes)")
        }
        let source = SourceText(bytes)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes, maxNesting: 8)
        } catch {
            throw ScenarioError(
                file: file, jsonPath: error.path, position: source.position(of: error.offset),
                message: error.isNestingLimit ? error.message : "malformed JSON: \(error.message)")
        }
        return try apply(document, source: source, file: file, jsonPath: "", base: base)
    }

    /// Applies a parsed settings object (a settings file's root, or a scenario's `settings` field)
    /// to `base`. Errors name `file`, the JSON path under `jsonPath` and the line and column.
    public static func apply(
        _ object: JSONValue, source: SourceText, file: String, jsonPath: String, base: DashboardSettings
    ) throws(ScenarioError) -> DashboardSettings {
        func place(_ name: String) -> String { jsonPath.isEmpty ? name : jsonPath + "." + name }
        func fail(_ path: String, _ value: JSONValue, _ message: String) -> ScenarioError {
            ScenarioError(file: file, jsonPath: path, position: source.position(of: value.offset), message: message)
        }
        guard let members = object.objectMembers else {
            throw fail(jsonPath, object, "settings must be an object, found \(object.typeName)")
        }
        let topNames = fields.map { String($0.name.split(separator: ".")[0]) }
        var known: [String] = []
        for n in topNames where !known.contains(n) { known.append(n) }
        var settings = base
        var seen: [String] = []
        for m in members {
            guard known.contains(m.key) else {
                throw fail(place(m.key), m.value, "unknown setting '\(m.key)' (known: \(known.joined(separator: ", ")))")
            }
            if seen.contains(m.key) { throw fail(place(m.key), m.value, "'\(m.key)' is given twice") }
            seen.append(m.key)
            let group = fields.filter { $0.name.split(separator: ".")[0] == m.key }
            if group.count == 1 && !group[0].name.contains(".") {
                try set(group[0], m.value, place(m.key))
                continue
            }
            guard let inner = m.value.objectMembers else {
                let names = group.map { String($0.name.split(separator: ".")[1]) }
                throw fail(place(m.key), m.value, "'\(m.key)' must be an object with \(names.joined(separator: ", "))")
            }
            for (key, value) in inner {
                guard let f = group.first(where: { $0.name == m.key + "." + key }) else {
                    let names = group.map { String($0.name.split(separator: ".")[1]) }
                    throw fail(place(m.key + "." + key), value, "unknown setting '\(key)' (known: \(names.joined(separator: ", ")))")
                }
                try set(f, value, place(f.name))
            }
        }
        func set(_ f: Field, _ value: JSONValue, _ path: String) throws(ScenarioError) {
            guard let v = value.numberValue else { throw fail(path, value, "'\(f.name)' must be a number, found \(value.typeName)") }
            guard v.isFinite, f.range.contains(v) else {
                throw fail(path, value, "'\(f.name)' must be within \(JSONLiteral.number(f.range.lowerBound))...\(JSONLiteral.number(f.range.upperBound)), got \(JSONLiteral.number(v))")
            }
            settings[keyPath: f.keyPath] = v
        }
        return settings
    }

    /// The settings file of `settings`: every field, in file order, one per line, numbers as
    /// `JSONLiteral.number` writes them. A field that is not finite (only the API can set one)
    /// is written `null`, so the text stays JSON and reading it back names that field.
    public static func encode(_ settings: DashboardSettings) -> String {
        var lines: [String] = []
        var i = 0
        while i < fields.count {
            let top = String(fields[i].name.split(separator: ".")[0])
            var group: [Field] = []
            while i < fields.count && fields[i].name.split(separator: ".")[0] == top {
                group.append(fields[i])
                i += 1
            }
            if group.count == 1 && !group[0].name.contains(".") {
                lines.append("  \"\(top)\": \(JSONLiteral.number(settings[keyPath: group[0].keyPath]))")
            } else {
                let inner = group.map { "\"\($0.name.split(separator: ".")[1])\": \(JSONLiteral.number(settings[keyPath: $0.keyPath]))" }
                lines.append("  \"\(top)\": {\(inner.joined(separator: ", "))}")
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// A JSON number that reads back as the same Double: `JSONLiteral.number` (BubbleSupport).
    @available(*, deprecated, renamed: "JSONLiteral.number")
    public static func number(_ v: Double) -> String { JSONLiteral.number(v) }
}
