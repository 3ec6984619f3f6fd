import FuzzDriver
@_spi(Testbed) import BubbleDashboard
@_spi(Testbed) import BubbleScenario
import Foundation
import ReportLibrary

/// The datasource every fuzzed scenario runs against: `$BUBBLES_FUZZ_DATA` (by default the sample
/// library, `Data/reports.json` from the repository root, so the seeds' ids exist), loaded once
/// without touching its PDFs; a tiny built-in library when that cannot be read.
let library: (tree: ReportTree, bytes: [UInt8]) = {
    let path = ProcessInfo.processInfo.environment["BUBBLES_FUZZ_DATA"] ?? "Data/reports.json"
    let options = LibraryLoadOptions(checkFiles: false)
    if let tree = try? LibraryLoader.load(path, options: options), let data = FileManager.default.contents(atPath: path) {
        return (tree, [UInt8](data))
    }
    let text = #"{"id": "root", "title": "All", "children": [{"id": "finance", "title": "Finance", "children": [{"id": "q1", "title": "Q1", "file": "q1.pdf"}]}]}"#
    let bytes = Array(text.utf8)
    return (try! LibraryLoader.parse(bytes, file: "built-in.json", dataFolder: ".", options: options), bytes)
}()

/// libFuzzer entry point: every input must end in a `Scenario` or a `ScenarioError`, never a trap.
/// A `data` path ending in `reports.json` gets the library above; any other is refused the way a
/// missing datasource is, so both branches are reached without touching the file system.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    do {
        let scenario = try Scenario.parse(bytes, file: "fuzz/scenario.json") { path throws(LibraryError) in
            guard path.hasSuffix("reports.json") else {
                throw LibraryError(kind: .unreadableSource, file: path, message: "no such file (fuzzing)")
            }
            return library
        }
        precondition(scenario.fps >= 1 && scenario.fps <= 240)
        precondition(scenario.duration > 0 && scenario.duration <= Scenario.maxDuration)
        precondition(zip(scenario.script, scenario.script.dropFirst()).allSatisfy { $0.time <= $1.time })
    } catch {
        if let position = error.position { precondition(position.offset >= 0 && position.offset <= bytes.count) }
        precondition(!error.description.isEmpty)
    }
    return 0
}

/// The executable's entry point (see `runLibFuzzer`).
@_cdecl("ScenarioFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = library  // load once, before the first input
    return runLibFuzzer(argc, argv, fuzzOneInput)
}
