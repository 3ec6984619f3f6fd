import FuzzDriver
import ReportLibrary

/// libFuzzer entry point: every input must end in a validated tree or a `LibraryError`, never a
/// trap, within the loader's limits. `checkFiles: false` keeps the file system out of it (report
/// paths are still checked lexically). A few invariants of both outcomes are checked as well.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    let options = LibraryLoadOptions(checkFiles: false)
    do {
        let tree = try LibraryLoader.parse(bytes, file: "fuzz.json", dataFolder: "fuzz-data", options: options)
        precondition(!tree.nodes.isEmpty && tree.nodes.count <= options.limits.maxNodes)
        for (i, node) in tree.nodes.enumerated() {
            precondition(tree.node(node.id) != nil)
            precondition(node.depth <= options.limits.maxDepth)
            precondition(node.children.allSatisfy { $0 > i && $0 < tree.nodes.count })
        }
    } catch {
        if let position = error.position { precondition(position.offset >= 0 && position.offset <= bytes.count) }
        precondition(!error.description.isEmpty)
    }
    return 0
}

/// The executable's entry point (see `runLibFuzzer`).
@_cdecl("LibraryFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    return runLibFuzzer(argc, argv, fuzzOneInput)
}
