import Foundation
import Testing

@testable import ReportLibrary

/// The loader's trimming of titles skips Foundation when neither end can be trimmed: every scalar
/// that Foundation's `whitespacesAndNewlines` holds must be one that it says may be trimmed.
@Suite struct TrimmingTests {
    @Test func everyScalarFoundationTrimsIsOneThatMayBeTrimmed() {
        let set = CharacterSet.whitespacesAndNewlines
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), set.contains(scalar) else { continue }
            #expect(mayBeTrimmed(scalar), "U+\(String(value, radix: 16))")
        }
    }

    @Test(arguments: ["\u{3000}Отчёт 2026\u{3000}", "売上\u{00A0}", "\u{2028}รายงาน", "Report\t", "\u{0085}x\u{0085}", "Q3", "  ", ""])
    func trimsAsFoundationDoes(_ text: String) {
        #expect(trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
