@_spi(Testbed) import BubbleDashboard
import FuzzDriver
import PlayMessage

let parser = PlayMessageParser(canvasWidth: 768, canvasHeight: 1024, baseSettings: DashboardSettings())

/// libFuzzer entry point: every input must end in a `PlayMessage` or a `PlayMessageError`, never a
/// trap; a message's numbers are finite and in range, its points on the canvas where a finger
/// touches down.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = fuzzInput(start, count)
    do {
        let message = try parser.parse(bytes)
        precondition(bytes.count <= PlayMessageParser.maxMessageBytes)
        func onCanvas(_ p: ScenePoint) -> Bool { p.x >= 0 && p.y >= 0 && p.x <= 768 && p.y <= 1024 }
        switch message {
        case .tap(let p), .press(let p): precondition(onCanvas(p))
        case .move(let p): precondition(p.x.isFinite && p.y.isFinite && abs(p.x) <= 1e6 && abs(p.y) <= 1e6)
        case .scroll(let d): precondition(d.isFinite)
        case .speed(let v): precondition(v == 0.25 || v == 0.5 || v == 1)
        case .hello(let s): precondition(s.isFinite && s > 0)
        case .settings(let s): precondition(s.motion.placeSpring.frequency.isFinite && s.drag.falloff >= 1)
        default: break
        }
    } catch {
        precondition(!error.description.isEmpty)
    }
    return 0
}

/// The executable's entry point (see `runLibFuzzer`).
@_cdecl("PlayMessageFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOneInput)
}
