import FuzzDriver
import PDFMetadata

/// libFuzzer entry point: every input must end in a value or a PDFError, never a trap, within
/// the reader's limits (1 MiB caps keep each run fast; the code paths are the same).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    var options = PDFReadOptions()
    options.maxDecompressedSize = 1 << 20
    options.maxObjectSize = 1 << 20
    options.maxObjectStreamSize = 1 << 20 // also fuzzes reading an object stream up to its cap
    _ = try? PDFDocumentInfo.read(data: bytes, options: options)
    return 0
}

/// The executable's entry point (see `runLibFuzzer`).
@_cdecl("PDFReaderFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    return runLibFuzzer(argc, argv, fuzzOneInput)
}
