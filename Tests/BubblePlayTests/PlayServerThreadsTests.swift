import BubblePlay
import Foundation
import TestSupport
import Testing

@Suite("Play server threads")
struct PlayServerThreadsTests {
    /// Every thread of Swift's shared pool is held by other work, as a test runner's synchronous
    /// tests hold them: a page still connects, taps and gets its frames until the level rests.
    /// The holders let go only once the page is done (or after 120 s, and then the test fails),
    /// so a server that needed the shared pool could not finish the page before they let go.
    @Test func aPagePlaysWhileSwiftsSharedThreadsAreAllHeld() async throws {
        let s = try await RunningServer()
        let port = s.port, origin = s.origin
        let width = ProcessInfo.processInfo.activeProcessorCount
        let holding = Box(0), letGo = Box(false)
        let holders = (0..<width).map { _ in
            Task.detached {
                holding.withLock { $0 += 1 }
                // Held without suspending: the thread is this task's until `letGo`.
                while !letGo.withLock({ $0 }) { usleep(2_000) }
            }
        }
        let page = try await onOwnThread { () -> (allHeld: Bool, finishedWhileHeld: Bool, frames: Int, atRest: Bool) in
            defer { letGo.withLock { $0 = true } }
            let deadline = Date().addingTimeInterval(120)
            while holding.withLock({ $0 }) < width && Date() < deadline { usleep(2_000) }
            let allHeld = holding.withLock { $0 } == width
            let ws = try RawWebSocket(port: port, origin: origin)
            ws.read(until: { $0.texts.contains { jsonObject($0)["type"] as? String == "welcome" } }, seconds: 120)
            try ws.send(#"{"type": "hello", "scale": 1}"#)
            try ws.send(#"{"type": "tap", "x": 384, "y": 540}"#)
            // A `ready` for each frame (its PNG is read on the way to the next header), until
            // one at rest after the tap's frames in motion.
            var frames = 0, moved = false, atRest = false
            while !atRest && Date() < deadline {
                let seen = ws.transcript.texts.count
                guard ws.read(until: { $0.texts.count > seen }, seconds: deadline.timeIntervalSinceNow) else { break }
                let header = jsonObject(ws.transcript.texts[seen])
                guard header["type"] as? String == "frame" else { continue }
                frames += 1
                if header["atRest"] as? Bool == false { moved = true }
                atRest = moved && header["atRest"] as? Bool == true
                try ws.send(#"{"type": "ready"}"#)
            }
            let finishedWhileHeld = !letGo.withLock { $0 } && Date() < deadline
            return (allHeld, finishedWhileHeld, frames, atRest)
        }
        for h in holders { await h.value }
        await s.stop()
        #expect(page.allHeld, "the shared pool's \(width) threads were never all held at once")
        #expect(page.atRest, "the page got \(page.frames) frames and did not see the level come to rest")
        #expect(page.finishedWhileHeld)
    }
}

/// Runs `body` on a thread of its own (not one of Swift's shared pool, not a Dispatch worker).
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
