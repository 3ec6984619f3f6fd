import BubbleSupport
import Foundation
import ReportLibrary

/// One file written for a frame.
public struct FileRecord: Sendable, Hashable {
    /// The file name, in the output folder.
    public var name: String
    /// FNV-1a 64 of the file's bytes.
    public var hash: UInt64
    /// The file's size in bytes.
    public var bytes: Int
}

/// One frame of the manifest.
public struct FrameEntry: Sendable, Hashable {
    /// The frame's index from the scenario's start.
    public var index: Int
    /// Seconds from the start: `index / fps`.
    public var time: Double
    /// The simulation step shown (60 Hz).
    public var step: Int
    /// The dashboard's state hash at that step.
    public var stateHash: UInt64
    /// Labels of the scenario events that fired on this frame (since the frame before).
    public var events: [String]
    /// The frame whose scene this one repeats (its images are hard links to that frame's), if any.
    public var duplicateOf: Int?
    /// The frame's files, one per format, in the order of `ExportOptions.formats`.
    public var files: [FileRecord]
}

/// A scenario event on the timeline: the frame it first shows on.
public struct EventMarker: Sendable, Hashable {
    /// The event as the scenario's script labels it (`tap finance`).
    public var label: String
    /// The scenario's time for it.
    public var time: Double
    /// The first frame that shows the event's effect.
    public var frame: Int
}

/// What identifies an export's frames: two exports with equal headers (ranges aside) produce the
/// same bytes for the same frame.
struct ManifestHeader: Sendable, Equatable {
    var scenarioPath: String
    var contentHash: UInt64
    /// FNV-1a 64 over what the PDFs added (authors, page counts, keywords per report): the
    /// scenario's content hash covers the JSON files only.
    var metadataHash: UInt64
    var fps: Double
    var canvasWidth: Double
    var canvasHeight: Double
    var scale: Double
    var pixelWidth: Int
    var pixelHeight: Int
    var formats: [FrameFormat]
    var first: Int
    var last: Int
    /// Frames in the whole scenario at this frame rate.
    var scenarioFrames: Int

    /// Frames from an export with `other`'s header are valid for this one.
    func framesCompatible(with other: ManifestHeader) -> Bool {
        contentHash == other.contentHash && metadataHash == other.metadataHash && fps == other.fps && canvasWidth == other.canvasWidth
            && canvasHeight == other.canvasHeight && scale == other.scale && formats == other.formats
    }
}

/// `manifest.json`: written by hand in a fixed layout (one frame per line) so that it is
/// byte-identical for any number of jobs.
enum ManifestText {
    static let formatName = "bubbles-export"
    static let version = 1

    static func encode(
        header h: ManifestHeader, complete: Bool, review: (sheet: String, every: Int, page: String)?,
        events: [EventMarker], frames: [FrameEntry]
    ) -> [UInt8] {
        let n = JSONLiteral.number, s = { JSONLiteral.string($0) }
        var out = "{\"format\": \"\(formatName)\", \"version\": \(version), \"complete\": \(complete),\n"
        out += " \"scenario\": {\"path\": \(s(h.scenarioPath)), \"content_hash\": \"\(Hex.hash(h.contentHash))\", "
            + "\"pdf_metadata_hash\": \"\(Hex.hash(h.metadataHash))\"},\n"
        out += " \"settings\": {\"fps\": \(n(h.fps)), \"canvas\": [\(n(h.canvasWidth)), \(n(h.canvasHeight))], "
            + "\"scale\": \(n(h.scale)), \"pixels\": [\(h.pixelWidth), \(h.pixelHeight)], "
            + "\"formats\": \(JSONText.strings(h.formats.map(\.rawValue))), \"frames\": [\(h.first), \(h.last)], "
            + "\"scenario_frames\": \(h.scenarioFrames), \"duplicates\": \"hard link (copy where links fail)\"},\n"
        if let review {
            out += " \"review\": {\"contact_sheet\": \(s(review.sheet)), \"every\": \(review.every), \"page\": \(s(review.page))},\n"
        } else {
            out += " \"review\": null,\n"
        }
        out += " \"events\": ["
        out += events.map { "\n  {\"label\": \(s($0.label)), \"time\": \(n($0.time)), \"frame\": \($0.frame)}" }.joined(separator: ",")
        out += "],\n \"frames\": ["
        for (i, f) in frames.enumerated() {
            out += i == 0 ? "\n  " : ",\n  "
            out += "{\"index\": \(f.index), \"time\": \(n(f.time)), \"step\": \(f.step), "
                + "\"state_hash\": \"\(Hex.hash(f.stateHash))\", \"events\": \(JSONText.strings(f.events)), "
                + "\"duplicate_of\": \(f.duplicateOf.map(String.init) ?? "null"), \"files\": ["
            out += f.files.map { "{\"name\": \(s($0.name)), \"hash\": \"\(Hex.hash($0.hash))\", \"bytes\": \($0.bytes)}" }
                .joined(separator: ", ")
            out += "]}"
        }
        out += "]}\n"
        return Array(out.utf8)
    }

    /// Reads a manifest written by `encode`; nil if it is missing, unreadable or of another format.
    static func decode(path: String) -> (header: ManifestHeader, frames: [FrameEntry])? {
        guard let data = FileManager.default.contents(atPath: path),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],  // not a manifest: nothing to resume
              root["format"] as? String == formatName, root["version"] as? Int == version,
              let scenario = root["scenario"] as? [String: Any], let settings = root["settings"] as? [String: Any],
              let hashText = scenario["content_hash"] as? String, let contentHash = UInt64(hashText, radix: 16),
              let metaText = scenario["pdf_metadata_hash"] as? String, let metadataHash = UInt64(metaText, radix: 16),
              let fps = (settings["fps"] as? NSNumber)?.doubleValue,
              let canvas = settings["canvas"] as? [NSNumber], canvas.count == 2,
              let scale = (settings["scale"] as? NSNumber)?.doubleValue,
              let pixels = settings["pixels"] as? [Int], pixels.count == 2,
              let formatNames = settings["formats"] as? [String],
              let range = settings["frames"] as? [Int], range.count == 2,
              let scenarioFrames = settings["scenario_frames"] as? Int,
              let frameObjects = root["frames"] as? [[String: Any]]
        else { return nil }
        let formats = formatNames.compactMap(FrameFormat.init(rawValue:))
        guard formats.count == formatNames.count else { return nil }
        let header = ManifestHeader(
            scenarioPath: scenario["path"] as? String ?? "", contentHash: contentHash, metadataHash: metadataHash, fps: fps,
            canvasWidth: canvas[0].doubleValue, canvasHeight: canvas[1].doubleValue, scale: scale,
            pixelWidth: pixels[0], pixelHeight: pixels[1], formats: formats, first: range[0], last: range[1],
            scenarioFrames: scenarioFrames)
        var frames: [FrameEntry] = []
        for o in frameObjects {
            guard let index = o["index"] as? Int, let step = o["step"] as? Int,
                  let time = (o["time"] as? NSNumber)?.doubleValue,
                  let stateText = o["state_hash"] as? String, let state = UInt64(stateText, radix: 16),
                  let files = o["files"] as? [[String: Any]]
            else { continue }
            var records: [FileRecord] = []
            for f in files {
                guard let name = f["name"] as? String, let h = f["hash"] as? String, let hash = UInt64(h, radix: 16),
                      let bytes = f["bytes"] as? Int
                else { continue }
                records.append(FileRecord(name: name, hash: hash, bytes: bytes))
            }
            frames.append(FrameEntry(
                index: index, time: time, step: step, stateHash: state, events: o["events"] as? [String] ?? [],
                duplicateOf: o["duplicate_of"] as? Int, files: records))
        }
        return (header, frames)
    }
}
