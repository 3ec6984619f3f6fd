import PDFMetadata

/// libFuzzer entry point: every input must end in a value or a PDFError, never a trap, within
/// the reader's limits (1 MiB caps keep each run fast; the code paths are the same).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    var options = PDFReadOptions()
    options.maxDecompressedSize = 1 << 20
    options.maxObjectSize = 1 << 20
    _ = try? PDFDocumentInfo.read(data: bytes, options: options)
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
@_cdecl("PDFReaderFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc
    var v = argv
    return LLVMFuzzerRunDriver(&c, &v) { fuzzOneInput($0, $1) }
}
