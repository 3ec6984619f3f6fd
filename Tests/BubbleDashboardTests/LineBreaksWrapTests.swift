@_spi(Testbed) import BubbleDashboard
import Testing

/// `LineBreaks.wrapped(within:)` on hand-made breaks: "aaaa bb cccccc" with one unit a point,
/// letters 10 wide and spaces 5.
@Suite struct LineBreaksWrapTests {
    // aaaa = 0…40, space 40…45, bb = 45…65, space 65…70, cccccc = 70…130.
    let breaks = LineBreaks(unitsPerPoint: 1, width: 130, lineHeight: 16, ends: [40, 65], starts: [45, 70])

    @Test func oneLineWhenItFits() {
        #expect(breaks.wrapped(within: 130) == MeasuredText(width: 130, height: 16, lineCount: 1))
        #expect(breaks.wrapped(within: 1_000_000) == MeasuredText(width: 130, height: 16, lineCount: 1))
    }

    @Test func greedyAtTheLastBreakThatFits() {
        // "aaaa bb" (65) / "cccccc" (60).
        #expect(breaks.wrapped(within: 129.9) == MeasuredText(width: 65, height: 32, lineCount: 2))
        #expect(breaks.wrapped(within: 65) == MeasuredText(width: 65, height: 32, lineCount: 2))
        // "aaaa" / "bb" / "cccccc": the widest line is the last.
        #expect(breaks.wrapped(within: 64.9) == MeasuredText(width: 60, height: 48, lineCount: 3))
    }

    @Test func aWordWiderThanTheLineOrNoWidthGivesNothing() {
        #expect(breaks.wrapped(within: 59) == nil)
        #expect(breaks.wrapped(within: .nan) == nil)
        #expect(breaks.wrapped(within: .infinity) == nil)
        #expect(breaks.wrapped(within: -5) == nil)
    }

    @Test func noBreaksIsOneWord() {
        let word = LineBreaks(unitsPerPoint: 1024, width: 10_240, lineHeight: 1024, ends: [], starts: [])
        #expect(word.wrapped(within: 10) == MeasuredText(width: 10, height: 1, lineCount: 1))
        #expect(word.wrapped(within: 9.99) == nil)
    }
}

extension LineBreaksWrapTests {
    @Test func theLongestWordIsTheWidestRunBetweenBreaks() {
        #expect(breaks.longestWord == 60)
        #expect(LineBreaks(unitsPerPoint: 2, width: 100, lineHeight: 2, ends: [70], starts: [72]).longestWord == 35)
        #expect(LineBreaks(unitsPerPoint: 1, width: 0, lineHeight: 1, ends: [], starts: []).longestWord == 0)
    }
}
