import ArgumentParser
import PhysicsFixtures
import BubblePhysics
import BubbleRender
import BubbleThreads
import Foundation

/// `bubbles bench physics` (and plain `bubbles bench`): the layout-step benchmark on the standard
/// scene (or a scene file).
struct BenchPhysics: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "physics",
        abstract: "Benchmark the physics step on the standard scene or a scene file (the default benchmark).",
        discussion: """
            The standard scene: N bodies (90 % circles with radii uniform in [8, 30] pt, 10 % rounded \
            rectangles of similar area) placed uniformly at random (fixed seed) in a square of two \
            thirds of their total area, all springing to the centre. For each N: ms per step (median, \
            min, max over --steps moving steps after --warmup steps; a world that comes to rest \
            first, after which its steps cost nothing, is followed by fresh ones), ns per \
            body-step, the step at which the world came to rest (if within --settle-steps), the \
            deepest overlap after settling, peak memory and bytes of physics storage per body. \
            --rounds R measures every count R times, in interleaved rounds. The median of an even \
            number of steps is the mean of the middle two. Build with -c release.
            """)

    @Option(help: "Comma-separated body counts.")
    var bodies: String = "100,1000,10000,100000"

    @Option(help: "Measured steps per body count (steps of a moving world: at rest a step costs nothing).")
    var steps: Int = 100

    @Option(help: "Steps before measuring (the heavy overlaps of the start).")
    var warmup: Int = 20

    @Option(help: "Run up to this many steps in all to find the rest step and the settled overlap.")
    var settleSteps: Int = 300

    @Option(help: "Run the scene in this file instead of the standard scene (format in the Performance article of the BubblePhysics documentation).")
    var scene: String?

    @Option(help: "Write the standard scene with the first --bodies count to this file and exit.")
    var exportScene: String?

    @Flag(help: "With --export-scene (or the standard scene): replace rectangles by circles of equal area.")
    var circlesOnly = false

    @Flag(help: "Print one JSON array.")
    var json = false

    @Flag(help: "Print CSV.")
    var csv = false

    @Option(help: "Sub-steps per step (default: the world's default).")
    var subSteps: Int?

    @Option(help: "Relaxation sweeps per sub-step (default: the world's default).")
    var iterations: Int?

    @Option(help: "Threads that step the world (the caller included); the results are the same bits for every count.")
    var threads: Int = 1

    @Option(help: "Measure every body count this many times, each on a fresh world, in interleaved rounds (all counts, then all again, ...), and take the medians over the pooled steps: drift in the machine's speed then hits every count alike.")
    var rounds: Int = 1

    @Option(help: "Row bands of the overlap sweeps, for worlds of 512 bodies or more (default: the world's default, 2).")
    var bands: Int?

    @Option(help: "WorldSettings.driveAllowance (default: the world's default, 2; 0 frees every body of an overlap deeper than 2 pt from static friction, and large piles never rest).")
    var driveAllowance: Double?

    @Option(help: "WorldSettings.restPolishSweeps, the most sweeps of the rest polish (default: the world's default, 1024).")
    var polishSweeps: Int?

    @OptionGroup var global: GlobalOptions

    struct Row {
        var bodies = 0
        var median = 0.0, min = 0.0, max = 0.0
        var nsPerBodyStep = 0.0
        var stepsMeasured = 0
        var stepsToRest: Int?
        var maxOverlap = 0.0
        var overlapAtStep = 0
        var bytesPerBody = 0.0
        var peakMemory = 0
    }

    func validate() throws {
        if steps < 1 { throw ValidationError("--steps must be at least 1") }
        if rounds < 1 || rounds > 1000 { throw ValidationError("--rounds must be in 1...1000") }
        if warmup < 0 || settleSteps < 0 { throw ValidationError("--warmup and --settle-steps must not be negative") }
        if json && csv { throw ValidationError("choose one of --json and --csv") }
        if threads < 1 || threads > 64 { throw ValidationError("--threads must be in 1...64") }
        if let bands, bands < 1 || bands > WorldSettings.maxBands {
            throw ValidationError("--bands must be in 1...\(WorldSettings.maxBands)")
        }
        if let driveAllowance, !(0...100).contains(driveAllowance) {
            throw ValidationError("--drive-allowance must be in 0...100")
        }
        if let polishSweeps, !(0...10_000).contains(polishSweeps) {
            throw ValidationError("--polish-sweeps must be in 0...10000")
        }
    }

    func counts() throws -> [Int] {
        let c = bodies.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !c.isEmpty, c.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw ValidationError("--bodies must be positive integers separated by commas")
        }
        return c.map { $0! }
    }

    func run() throws {
        try Bench.running(global) { try bench() }
    }

    func bench() throws {
        if let path = exportScene {
            var s = BenchmarkScene.standard(count: try counts()[0])
            if circlesOnly { s = s.circlesOnly() }
            try BenchSceneFile.writeAtomically(BenchSceneFile.encode(s), to: path)
            printError("wrote \(s.bodies.count) bodies to \(path)")
            return
        }
        var scenes: [BenchmarkScene] = []
        if let path = scene {
            scenes = [try BenchSceneFile.load(path)]
        } else {
            for n in try counts() {
                let s = BenchmarkScene.standard(count: n)
                scenes.append(circlesOnly ? s.circlesOnly() : s)
            }
        }
        // Round 1 also settles each world (rest step, overlap, memory); every round adds its
        // measured steps to the count's pool.
        var rows: [Row] = []
        var pools: [[Double]] = Array(repeating: [], count: scenes.count)
        for round in 1...rounds {
            for (i, s) in scenes.enumerated() {
                let (row, times) = try measure(s, settle: round == 1)
                if round == 1 { rows.append(row) }
                pools[i] += times
                if !json && !csv {
                    printError("measured \(s.bodies.count) bodies on \(threads) thread\(threads == 1 ? "" : "s")"
                        + (rounds > 1 ? " (round \(round) of \(rounds))" : ""))
                }
            }
        }
        for i in rows.indices {
            let times = pools[i].sorted()
            rows[i].median = BenchStatistics.median(times)
            rows[i].min = times.first!
            rows[i].max = times.last!
            rows[i].nsPerBodyStep = rows[i].median * 1e6 / Double(rows[i].bodies)
            rows[i].stepsMeasured = times.count
        }
        print(json ? jsonText(rows) : csv ? csvText(rows) : table(rows), terminator: "")
    }

    /// The times (ms) of `steps` moving steps of `scene` after `warmup` steps, and, when `settle`,
    /// the rest step, the overlap and the memory of the first world after running on up to
    /// `settleSteps`. A world at rest steps for free, so its steps are not timed: one that comes
    /// to rest first is followed by fresh worlds of the same scene until `steps` moving steps are
    /// timed. (A scene at rest before its warm-up ends times the resting steps instead.)
    func measure(_ scene: BenchmarkScene, settle: Bool) throws -> (Row, [Double]) {
        var settings = WorldSettings()
        if let subSteps { settings.subSteps = subSteps }
        if let iterations { settings.iterations = iterations }
        if let bands { settings.bands = bands }
        if let driveAllowance { settings.driveAllowance = driveAllowance }
        if let polishSweeps { settings.restPolishSweeps = polishSweeps }
        let pool = threads > 1 ? WorkerPool(threads: threads) : nil
        func makeWorld() throws -> World {
            let w = try scene.makeWorld(settings: settings)
            w.executor = pool?.executor
            return w
        }
        var times: [Double] = []
        times.reserveCapacity(steps)
        func timedStep(_ w: World) {
            let clock = ContinuousClock.now
            w.step()
            let d = ContinuousClock.now - clock
            times.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
        }
        let world = try makeWorld()
        var k = 0
        while true {
            k += 1
            if k > warmup && times.count < steps && !world.isAtRest { timedStep(world) } else { world.step() }
            let timed = times.count >= steps || (world.isAtRest && k >= warmup)
            if timed && (!settle || world.isAtRest || k >= settleSteps) { break }
        }
        var row = Row()
        row.bodies = scene.bodies.count
        row.stepsToRest = world.restStep
        row.maxOverlap = world.maxOverlap().depth
        row.overlapAtStep = world.stepCount
        row.bytesPerBody = Double(world.storageBytes) / Double(row.bodies)
        row.peakMemory = BenchMemory.peakResidentBytes()
        while times.count < steps {
            let w = try makeWorld()
            let before = times.count
            var j = 0
            while times.count < steps && !w.isAtRest {
                j += 1
                if j > warmup { timedStep(w) } else { w.step() }
            }
            if times.count == before { break }
        }
        if times.isEmpty {
            for _ in 0..<steps { timedStep(world) }
        }
        return (row, times)
    }

    func table(_ rows: [Row]) -> String {
        func pad(_ s: String, _ w: Int) -> String { String(repeating: " ", count: Swift.max(0, w - s.count)) + s }
        var out = [("bodies", 9), ("ms med", 9), ("ms min", 9), ("ms max", 9), ("ns/body-step", 13),
                   ("rest at", 8), ("overlap pt", 11), ("at step", 8), ("B/body", 8), ("peak MB", 9)]
            .map { pad($0.0, $0.1) }.joined(separator: " ") + "\n"
        for r in rows {
            out += [pad("\(r.bodies)", 9), pad(String(format: "%.3f", r.median), 9),
                    pad(String(format: "%.3f", r.min), 9), pad(String(format: "%.3f", r.max), 9),
                    pad(String(format: "%.1f", r.nsPerBodyStep), 13), pad(r.stepsToRest.map { "\($0)" } ?? "-", 8),
                    pad(String(format: "%.4f", r.maxOverlap), 11), pad("\(r.overlapAtStep)", 8),
                    pad(String(format: "%.1f", r.bytesPerBody), 8),
                    pad(String(format: "%.1f", Double(r.peakMemory) / 1_048_576), 9)].joined(separator: " ") + "\n"
        }
        // The linear-scaling check: per body-step, the largest world against the smallest.
        let bySize = rows.sorted { $0.bodies < $1.bodies }
        if let small = bySize.first, let large = bySize.last, large.bodies > small.bodies, small.nsPerBodyStep > 0 {
            out += String(format: "scaling: ns per body-step at %d bodies / at %d = %.2f\n",
                          large.bodies, small.bodies, large.nsPerBodyStep / small.nsPerBodyStep)
        }
        return out
    }

    func csvText(_ rows: [Row]) -> String {
        var out = "bodies,ms_per_step_median,ms_per_step_min,ms_per_step_max,ns_per_body_step,steps_to_rest,max_overlap_pt,overlap_at_step,bytes_per_body,peak_memory_bytes,threads,rounds\n"
        for r in rows {
            out += "\(r.bodies),\(r.median),\(r.min),\(r.max),\(r.nsPerBodyStep),\(r.stepsToRest.map { "\($0)" } ?? ""),\(r.maxOverlap),\(r.overlapAtStep),\(r.bytesPerBody),\(r.peakMemory),\(threads),\(rounds)\n"
        }
        return out
    }

    func jsonText(_ rows: [Row]) -> String {
        let items = rows.map { r in
            "  {\"bodies\": \(r.bodies), \"threads\": \(threads), \"ms_per_step_median\": \(r.median), \"ms_per_step_min\": \(r.min), "
                + "\"ms_per_step_max\": \(r.max), \"ns_per_body_step\": \(r.nsPerBodyStep), "
                + "\"steps_to_rest\": \(r.stepsToRest.map { "\($0)" } ?? "null"), \"max_overlap_pt\": \(r.maxOverlap), "
                + "\"overlap_at_step\": \(r.overlapAtStep), \"bytes_per_body\": \(r.bytesPerBody), "
                + "\"peak_memory_bytes\": \(r.peakMemory), \"steps_measured\": \(r.stepsMeasured), \"warmup_steps\": \(warmup), \"rounds\": \(rounds)}"
        }
        return "[\n" + items.joined(separator: ",\n") + "\n]\n"
    }
}

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
