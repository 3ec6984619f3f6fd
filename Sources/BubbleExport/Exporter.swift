@_spi(Testbed) import BubbleDashboard
import BubbleRender
@_spi(Testbed) import BubbleScenario
import BubbleSupport
import DashboardLibrary
import Foundation

/// Exports a scenario as a numbered frame sequence with a manifest, a contact sheet and a review page.
///
/// - **Pipeline:** the simulation runs once, in order, on the calling thread; each frame's scene is
///   compared with the previous frame's, and every run of identical scenes (the dashboard at rest,
///   or an overlay standing still) becomes one job. `jobs` worker threads, each with its own
///   `SceneRenderer`, draw and encode the first frame of a job and make the others hard links to
///   its files (a copy where the file system has no hard links). Frame files do not depend on
///   which worker drew them and the manifest is written in frame order with a fixed layout, so the
///   output is byte-identical for any number of jobs.
/// - **Atomicity:** every file is written under a hidden temporary name in the output folder and
///   renamed (links too), so an interrupted export leaves only whole files.
/// - **Resume:** `manifest.json` is written at the start (the frames still valid from an earlier
///   run), twice a second while frames complete (a killed export loses about half a second of
///   work), and at the end with `"complete": true`. A frame is skipped when a manifest in the
///   folder with the same scenario content hash, fps, canvas, scale and formats lists it with the
///   same state hash, and each of its files exists with the recorded FNV-1a hash (every file is
///   re-read and hashed, so a corrupted frame is re-rendered). The first such frame is drawn again
///   and compared byte for byte: if this build draws it differently, no frame is carried over.
/// - **Ranges:** `frames` limits what is written; the simulation still runs from frame 0. A range
///   that is not the whole scenario writes `manifest-A-B.json`, `contact-sheet-A-B.png` and
///   `index-A-B.html`, so parts exported into one folder by separate processes never overwrite
///   each other's manifest; a later full export in that folder finds every part's frames up to date
///   and assembles `manifest.json`, `contact-sheet.png` and `index.html`.
public enum Exporter {
    /// Exports the scenario of `options` (see the type's description); `progress` is told at most
    /// ten times a second and once at the end; `warning` gets a line for what the export works
    /// round without failing (a library index rebuilt or not usable, a search the index cannot
    /// answer), from any thread (default: nothing). Throws `ExportError`.
    public static func run(_ options: ExportOptions, progress: ((ExportProgress) -> Void)? = nil,
                           warning: @escaping @Sendable (String) -> Void = { _ in }) throws -> ExportSummary {
        let start = MonotonicClock.seconds()
        let plan = try ExportPlan(options, warning: warning)
        let export = try ExportRun(plan: plan, options: options, progress: progress, start: start)
        try export.simulateAndRender()
        try export.finishVideo()
        try export.writeReview()
        return try export.finish()
    }
}

/// Finds frames of earlier exports in the folder that are still valid.
enum Resume {
    static func verifiedFrames(folder: String, header: ManifestHeader, jobs: Int) -> [Int: FrameEntry] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])  // no folder yet: nothing to resume
            .filter { $0 == "manifest.json" || ($0.hasPrefix("manifest-") && $0.hasSuffix(".json")) }
            .sorted()
        var candidates: [Int: FrameEntry] = [:]
        for name in names {
            guard let m = ManifestText.decode(path: folder + "/" + name), m.header.framesCompatible(with: header) else { continue }
            for e in m.frames where e.index >= header.first && e.index <= header.last && candidates[e.index] == nil {
                let expected = header.formats.map { WorkContext.fileName(e.index, $0) }
                guard e.files.map(\.name) == expected else { continue }
                candidates[e.index] = e
            }
        }
        let list = candidates.values.sorted { $0.index < $1.index }
        let box = VerifiedBox(count: list.count)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, list.count))) { worker in
            var k = worker
            while k < list.count {
                let e = list[k]
                let ok = e.files.allSatisfy { f in
                    guard let actual = ExportFolder.hashOfFile(folder + "/" + f.name) else { return false }
                    return actual.hash == f.hash && actual.bytes == f.bytes
                }
                box.set(k, ok)
                k += max(1, min(jobs, list.count))
            }
        }
        var result: [Int: FrameEntry] = [:]
        for (k, e) in list.enumerated() where box.get(k) { result[e.index] = e }
        return result
    }
}

final class VerifiedBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Bool]
    init(count: Int) { values = [Bool](repeating: false, count: count) }
    func set(_ k: Int, _ v: Bool) { lock.lock(); values[k] = v; lock.unlock() }
    func get(_ k: Int) -> Bool { lock.lock(); defer { lock.unlock() }; return values[k] }
}
