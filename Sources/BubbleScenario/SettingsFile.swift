@_spi(Testbed) import BubbleDashboard
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

    /// One number of the file: an entry of `DashboardSettings.fields`, the one range table.
    public typealias Field = DashboardSettings.Field

    /// The fields in file order: the live ones of `DashboardSettings.fields` (motion, drag
    /// coupling, table scrolling). Springs are written as `{"frequency": Hz, "dampingRatio": ζ}`.
    public static let fields: [Field] = DashboardSettings.fields.filter(\.isLive)

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
            do {
                settings = try f.setting(v, in: settings)
            } catch {
                throw fail(path, value, "'\(f.name)' must be within \(JSONLiteral.number(f.range.lowerBound))...\(JSONLiteral.number(f.range.upperBound)), got \(JSONLiteral.number(v))")
            }
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
                lines.append("  \"\(top)\": \(JSONLiteral.number(group[0].value(in: settings)))")
            } else {
                let inner = group.map { "\"\($0.name.split(separator: ".")[1])\": \(JSONLiteral.number($0.value(in: settings)))" }
                lines.append("  \"\(top)\": {\(inner.joined(separator: ", "))}")
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// A JSON number that reads back as the same Double: `JSONLiteral.number` (BubbleSupport).
    @available(*, deprecated, renamed: "JSONLiteral.number")
    public static func number(_ v: Double) -> String { JSONLiteral.number(v) }
}
