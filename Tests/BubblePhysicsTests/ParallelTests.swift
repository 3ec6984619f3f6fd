import BubblePhysics
import BubbleThreads
import Synchronization
import Testing
import PhysicsFixtures

/// The worker pool and the banded sweeps it runs.
@Suite struct ParallelTests {
    @Test(arguments: [1, 2, 3, 5])
    func poolRunsEveryTaskOnce(threads: Int) {
        let pool = WorkerPool(threads: threads)
        let hits = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 64)
        defer { hits.deallocate() }
        for i in 0..<64 { (hits + i).initialize(to: Atomic(0)) }
        let box = Hits(pointer: hits)
        for n in [0, 1, 2, 3, 7, 64] {
            for _ in 0..<50 {
                pool.run(n) { t in box.pointer[t].add(1, ordering: .relaxed) }
            }
            for t in 0..<64 {
                #expect(hits[t].load(ordering: .relaxed) == (t < n ? 50 : 0), "task \(t) of \(n)")
                hits[t].store(0, ordering: .relaxed)
            }
        }
    }

    struct Hits: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Atomic<Int>>
    }

    @Test func poolStaysUsableAfterSleeping() async throws {
        let pool = WorkerPool(threads: 2)
        let hits = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
        defer { hits.deallocate() }
        for i in 0..<2 { (hits + i).initialize(to: Atomic(0)) }
        let box = Hits(pointer: hits)
        for _ in 0..<3 {
            pool.run(2) { t in box.pointer[t].add(1, ordering: .relaxed) }
            // Long enough for the worker to stop spinning and wait on its condition variable.
            try await Task.sleep(for: .milliseconds(60))
        }
        #expect(hits[0].load(ordering: .relaxed) == 3 && hits[1].load(ordering: .relaxed) == 3)
    }

    /// From 16 384 bodies a world with an executor sorts its grid on all threads (keys, the
    /// column permutation, the slot map): the same bits as on one thread, body order and
    /// handles included.
    @Test func threadedGridSortGivesTheSameWorld() throws {
        let scene = BenchmarkScene.standard(count: 16_384, seed: 5)
        let alone = try scene.makeWorld(), shared = try scene.makeWorld()
        let pool = WorkerPool(threads: 2)
        shared.executor = pool.executor
        alone.step(count: 3)
        shared.step(count: 3)
        #expect(alone.stateHash == shared.stateHash)
        // The same slots and generations (each world's handles name their own world).
        let ids = alone.bodyIDs, sharedIDs = shared.bodyIDs
        #expect(ids.map { [$0.index, $0.generation] } == sharedIDs.map { [$0.index, $0.generation] })
        for k in [0, ids.count / 2, ids.count - 1] {
            #expect(try alone.position(of: ids[k]) == shared.position(of: sharedIDs[k]))
        }
    }

    @Test func changingBandsOnALiveWorldKeepsItSane() throws {
        var settings = WorldSettings()
        let w = try BenchmarkScene.standard(count: World.bandMinBodies + 100, seed: 3).makeWorld(settings: settings)
        let pool = WorkerPool(threads: 2)
        w.executor = pool.executor
        for bands in [2, 5, 1, WorldSettings.maxBands, 3] {
            settings.bands = bands
            try w.updateSettings(settings)
            w.step(count: 2)
        }
        w.executor = nil
        for id in w.bodyIDs {
            let p = try w.position(of: id)
            #expect(p.x.isFinite && p.y.isFinite)
        }
        #expect(w.bodyCount == World.bandMinBodies + 100)
    }
}
