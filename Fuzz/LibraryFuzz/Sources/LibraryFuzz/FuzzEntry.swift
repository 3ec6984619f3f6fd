import ReportLibrary

/// libFuzzer entry point: every input must end in a validated tree or a `LibraryError`, never a
/// trap, within the loader's limits. `checkFiles: false` keeps the file system out of it (report
/// paths are still checked lexically). A few invariants of both outcomes are checked as well.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
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

/// libFuzzer's driver (compiler-rt), called from our own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point as `<Target>_main` (and aliases `main` to it), which
/// hides libFuzzer's own `main`; this one hands control to the libFuzzer driver.
@_cdecl("LibraryFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v) { fuzzOneInput($0, $1) }
}
