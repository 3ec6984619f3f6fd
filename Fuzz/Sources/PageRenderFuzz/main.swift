import FuzzDriver
import PDFRender

/// libFuzzer entry point: every input must end in a drawn page (with warnings) or a
/// PDFRenderError, never a trap, a hang (a 2 s page timeout inside libFuzzer's 5 s one) or
/// unbounded memory (16 MiB stream and font caps keep each run small; the code paths are the same).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    var options = PDFRenderOptions()
    options.timeout = .seconds(2)
    options.maxStreamBytes = 16 << 20
    options.fontCacheBytes = 16 << 20
    do {
        let doc = try PDFPageDocument(data: bytes, options: options)
        for page in 1 ... min(doc.pageCount, 2) {
            _ = try doc.render(page: page, width: 96, height: 128)
        }
    } catch {
        _ = error.description
    }
    return 0
}

/// The executable's entry point (see `runLibFuzzer`).
@_cdecl("PageRenderFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    return runLibFuzzer(argc, argv, fuzzOneInput)
}
