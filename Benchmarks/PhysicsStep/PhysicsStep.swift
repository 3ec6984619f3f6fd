// `World.step()` on the standard benchmark scene at several body counts, with allocation counts.
// Setup (building the scene and the warm-up steps past the heavily overlapping start) is excluded.
import Benchmark
import BubblePhysics
import PhysicsFixtures
import BubbleThreads

let benchmarks: @Sendable () -> Void = {
    // The harness's own allocations per measured iteration, to subtract from the step's counts.
    Benchmark(
        "baseline/empty",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2), maxIterations: 200)
    ) { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }
    // The same with a setup state, as the step benchmarks use.
    Benchmark(
        "baseline/setup-state",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2), maxIterations: 200)
    ) { (benchmark: Benchmark, state: [Int]) in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(state.count) }
        benchmark.stopMeasurement()
    } setup: {
        [1, 2, 3]
    }
    // The harness with the `.instructions` metric requested: package-benchmark then reports 16
    // mallocs per measured run on Linux even for this empty body. That was the "16 mallocs per
    // step": the step benchmarks below therefore count mallocs without `.instructions`, and
    // `step-instructions/N` counts instructions separately (with the same 16 harness mallocs).
    Benchmark(
        "baseline/instructions-metric",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .instructions], maxDuration: .seconds(2), maxIterations: 200)
    ) { benchmark in
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations { blackHole(i) }
        benchmark.stopMeasurement()
    }
    // `step-2-threads`: two threads through `BubbleThreads.WorkerPool` (the world holds the pool
    // through its executor): the same bits as one thread, and still no allocation per step.
    let runs: [(name: String, metrics: [BenchmarkMetric], counts: [Int], threads: Int)] = [
        ("step", [.wallClock, .mallocCountTotal], [100, 1_000, 10_000], 1),
        ("step-instructions", [.instructions, .mallocCountTotal], [100, 1_000, 10_000], 1),
        ("step-2-threads", [.wallClock, .mallocCountTotal], [10_000], 2),
    ]
    for run in runs {
        for n in run.counts {
            Benchmark(
                "\(run.name)/\(n)",
                configuration: .init(metrics: run.metrics, maxDuration: .seconds(5), maxIterations: 200)
            ) { (benchmark: Benchmark, world: World) in
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    world.step()
                }
                benchmark.stopMeasurement()
                blackHole(world.stateHash)
            } setup: {
                let world = try BenchmarkScene.standard(count: n).makeWorld()
                if run.threads > 1 { world.executor = WorkerPool(threads: run.threads).executor }
                world.step(count: 20)
                return world
            }
        }
    }
}
