import BubbleExport
import Foundation
import TestSupport

/// The export tests' scenarios, written into a scratch folder.
extension Scratch {
    /// Writes a scenario over the shipped sample data (by absolute path) and returns its path.
    func scenario(_ events: String, duration: Double = 1.5, fps: Double = 30, name: String = "short") throws -> String {
        let text = """
            {"data": "\(packageRoot)/Data/reports.json", "canvas": [768, 1024], "fps": \(fps), "duration": \(duration),
             "events": [\(events)]}
            """
        let file = path + "/\(name).json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The short scenario most tests use: the start screen at rest, then the first level comes in,
    /// then finance is tapped.
    func shortScenario() throws -> String {
        try scenario(#"{"at": 0.2, "tap": "root"}, {"at": 1.0, "tap": "finance"}"#)
    }
}

func options(_ scenario: String, _ output: String, jobs: Int = 2, scale: Double = 0.25, formats: [FrameFormat] = [.png]) -> ExportOptions {
    var o = ExportOptions(scenario: scenario, output: output)
    o.jobs = jobs
    o.pixelScale = scale
    o.formats = formats
    o.readPDFs = false
    return o
}

func manifest(_ folder: String, name: String = "manifest.json") throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
}

func frames(_ m: [String: Any]) -> [[String: Any]] { m["frames"] as? [[String: Any]] ?? [] }

/// Width and height from a PNG's IHDR chunk.
func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    guard bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
    func be(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
    return (be(16), be(20))
}

func isHex16(_ value: Any?) -> Bool {
    guard let s = value as? String, s.count == 16 else { return false }
    return s.allSatisfy { $0.isHexDigit && !$0.isUppercase }
}
