import BubblePhysics
import BubbleRender
import Foundation

/// Reading and writing benchmark scene files.
///
/// Format (pt, y down): `{"target": [x, y], "bodies": [{"x": 1.5, "y": -2, "r": 12},
/// {"x": 0, "y": 40, "w": 60, "h": 36, "corner": 8}]}`. A body with `r` is a circle, one with `w`
/// and `h` a rounded rectangle (`corner` defaults to 0). Other fields are ignored.
enum BenchSceneFile {
    struct FormatError: Error, CustomStringConvertible {
        let description: String
    }

    static func encode(_ scene: BenchmarkScene) -> String {
        var out = "{\"target\": [\(scene.target.x), \(scene.target.y)], \"bodies\": [\n"
        for (i, b) in scene.bodies.enumerated() {
            switch b.shape {
            case let .circle(r):
                out += "{\"x\": \(b.position.x), \"y\": \(b.position.y), \"r\": \(r)}"
            case let .roundedRect(w, h, c):
                out += "{\"x\": \(b.position.x), \"y\": \(b.position.y), \"w\": \(w), \"h\": \(h), \"corner\": \(c)}"
            }
            out += i == scene.bodies.count - 1 ? "\n" : ",\n"
        }
        out += "]}\n"
        return out
    }

    /// Reads a scene file; errors name the file (and the JSON path of a bad value).
    static func load(_ path: String) throws -> BenchmarkScene {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDir: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            throw CLIError("\(path): cannot read: " + (!exists ? "No such file or directory" : isDir.boolValue ? "Is a directory" : "Permission denied"))
        }
        do {
            return try decode(data)
        } catch let e as FormatError {
            throw CLIError(path + ": " + e.description.replacingOccurrences(of: "scene file: ", with: ""))
        } catch {
            let ns = error as NSError
            let detail = (ns.userInfo[NSDebugDescriptionErrorKey] as? String).map { ": " + $0 } ?? ""
            throw CLIError("\(path): malformed JSON\(detail)")
        }
    }

    static func decode(_ data: Data) throws -> BenchmarkScene {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FormatError(description: "scene file: the top level must be an object")
        }
        func number(_ v: Any?, _ what: String) throws -> Double {
            // `v is Bool` is true for every NSNumber 0 or 1 on Linux, so booleans are told apart
            // by their Objective-C type code ("c") instead.
            guard let n = v as? NSNumber, String(cString: n.objCType) != "c" else {
                throw FormatError(description: "scene file: \(what) must be a number")
            }
            return n.doubleValue
        }
        var target = Vector2.zero
        if let t = root["target"] {
            guard let a = t as? [Any], a.count == 2 else {
                throw FormatError(description: "scene file: target must be [x, y]")
            }
            target = Vector2(try number(a[0], "target[0]"), try number(a[1], "target[1]"))
        }
        guard let list = root["bodies"] as? [Any] else {
            throw FormatError(description: "scene file: bodies must be an array")
        }
        var bodies: [SceneBody] = []
        bodies.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            guard let o = item as? [String: Any] else {
                throw FormatError(description: "scene file: bodies[\(i)] must be an object")
            }
            let p = Vector2(try number(o["x"], "bodies[\(i)].x"), try number(o["y"], "bodies[\(i)].y"))
            let shape: Shape
            if o["r"] != nil {
                shape = .circle(radius: try number(o["r"], "bodies[\(i)].r"))
            } else if o["w"] != nil || o["h"] != nil {
                shape = .roundedRect(
                    width: try number(o["w"], "bodies[\(i)].w"), height: try number(o["h"], "bodies[\(i)].h"),
                    cornerRadius: o["corner"] == nil ? 0 : try number(o["corner"], "bodies[\(i)].corner"))
            } else {
                throw FormatError(description: "scene file: bodies[\(i)] needs r, or w and h")
            }
            bodies.append(SceneBody(position: p, shape: shape))
        }
        return BenchmarkScene(target: target, bodies: bodies)
    }

    /// Writes `text` to `path` through a temporary file and a rename, so readers never see half a file.
    static func writeAtomically(_ text: String, to path: String) throws {
        try AtomicFile.write(Array(text.utf8), to: path)
    }
}

/// Process memory readings for the benchmark.
enum BenchMemory {
    /// Peak resident set size of this process so far (VmHWM), bytes; 0 if unavailable.
    static func peakResidentBytes() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kb = Int(parts[1]) { return kb * 1024 }
        }
        return 0
    }
}
