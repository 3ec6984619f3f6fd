import FuzzDriver
import PDFCore
@_spi(Testing) import PDFMetadata

/// libFuzzer entry point: every input must end in a value or a PDFError, never a trap, within
/// the reader's limits (1 MiB caps keep each run fast; the code paths are the same); and the
/// reader (its fast path for plain files first) must give exactly what the full reader alone
/// gives, value or error, else the run traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    var options = PDFReadOptions()
    options.maxDecompressedSize = 1 << 20
    options.maxObjectSize = 1 << 20
    options.maxObjectStreamSize = 1 << 20 // also fuzzes reading an object stream up to its cap
    let fast: Result<PDFDocumentMetadata, PDFError>
    do throws(PDFError) { fast = .success(try PDFDocumentInfo.read(data: bytes, options: options)) } catch { fast = .failure(error) }
    let full: Result<PDFDocumentMetadata, PDFError>
    do throws(PDFError) {
        full = .success(try PDFDocumentInfo.readWithFullReader(data: bytes, options: options))
    } catch {
        full = .failure(error)
    }
    if fast != full { fatalError("the fast path and the full reader disagree: \(fast) against \(full)") }
    return 0
}

/// The executable's entry point (see `runLibFuzzer`).
@_cdecl("PDFReaderFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    return runLibFuzzer(argc, argv, fuzzOneInput)
}
