// What every libFuzzer target here shares: the hand-over to libFuzzer's driver and the copy of
// an input. Each fuzz package links this folder in as a module (a symbolic link, like the
// library modules it fuzzes).

/// A fuzz target's entry point, `LLVMFuzzerTestOneInput`: one input, 0 to go on.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// libFuzzer's driver (compiler-rt).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: FuzzTarget) -> CInt

/// Hands control to libFuzzer's driver with `target`. SwiftPM links an executable's entry point
/// as `<Target>_main` (and aliases `main` to it), which hides libFuzzer's own `main`, so each
/// package's `<Target>_main` calls this.
public func runLibFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ target: FuzzTarget
) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v, target)
}

/// The bytes of one input (none for a null pointer).
public func fuzzInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
    start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
}
