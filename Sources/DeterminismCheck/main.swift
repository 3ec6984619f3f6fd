// determinism-check: the pinned state hashes and pixels of DeterminismPins, checked in the
// configuration this executable was built in. `scripts/test.sh` builds it in release next to
// `bubbles` (`swift build -c release --product determinism-check`) and runs it; the debug test
// suite checks the same pins through the same code. Prints one line a pin; exits 1 if any
// differs, naming what differs. `PDFRENDER_RECORD=1` re-pins the page renders (golden.json).
import DeterminismPins
import Foundation

var results: [PinResult] = []
do {
    results += try PhysicsPins.checkAll()
    results += try DashboardPins.checkAll()
    results += try PageRenderPins.checkGolden()
    results.append(try await PageRenderPins.checkSameBitsTwice())
} catch {
    for r in results { print(r) }
    print("determinism-check: error: \(error)")
    exit(1)
}
for r in results { print(r) }
let differ = results.filter { !$0.matches }
print("determinism-check: \(results.count) pins, \(differ.count) differ\(differ.isEmpty ? "" : ": " + differ.map(\.name).joined(separator: ", "))")
exit(differ.isEmpty ? 0 : 1)
