// A small fixed thread pool for the physics step's parallel phases (`World.executor`).
//
// A step runs about ten short phases one after another (0.1–1 ms each at 10 000 bodies), so what
// matters is the hand-off: a worker that has just finished a phase spins for the next one instead
// of going to sleep (waking a sleeping thread costs tens of microseconds here), and goes to sleep
// on a condition variable only after `spinLimit` polls without work, so an idle pool costs no CPU
// between frames. Task t always runs on thread t % threads (thread 0 is the caller), so a band's
// bodies stay in the same core's cache from phase to phase.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BubblePhysics
import Synchronization

/// A fixed pool of threads that runs `World`'s parallel phases; see `executor`.
///
/// `run` must be called from one thread at a time (the thread that steps the world).
public final class WorkerPool: @unchecked Sendable {
    /// Threads, the caller included.
    public let threads: Int
    /// Polls of an idle worker before it sleeps: about a millisecond, longer than the serial part
    /// between two phases of a step (the grid build), shorter than the gap between frames.
    static let spinLimit = 1_000_000

    private let generation = Atomic<Int>(0)
    private let pending = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    // On the heap: a C mutex must not move, which a Swift stored property may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let wakeUp = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var workers: [pthread_t] = []
    // Written by `run` before `generation` is raised (release) and read by the workers after they
    // see it (acquire).
    private var body: (@Sendable (Int) -> Void)? = nil
    private var taskCount = 0

    /// A pool of `threads` threads in all: the caller and `threads - 1` workers (1...64).
    public init(threads: Int) {
        self.threads = max(1, min(64, threads))
        mutex.initialize(to: pthread_mutex_t())
        wakeUp.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(wakeUp, nil)
        for w in 1..<self.threads {
            let start = Unmanaged.passRetained(Start(pool: self, index: w)).toOpaque()
            var tid = pthread_t()
            let rc = pthread_create(&tid, nil, { arg in
                guard let arg else { return nil }
                let start = Unmanaged<Start>.fromOpaque(arg).takeRetainedValue()
                start.pool.work(start.index)
                return nil
            }, start)
            if rc == 0 {
                workers.append(tid)
            } else {
                Unmanaged<Start>.fromOpaque(start).release()
            }
        }
    }

    deinit {
        stopping.store(true, ordering: .releasing)
        generation.add(1, ordering: .releasing)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(wakeUp)
        pthread_mutex_unlock(mutex)
        for t in workers { pthread_join(t, nil) }
        pthread_cond_destroy(wakeUp)
        pthread_mutex_destroy(mutex)
        wakeUp.deallocate()
        mutex.deallocate()
    }

    private final class Start {
        // Unowned: the pool joins its workers in `deinit`, so it outlives them.
        unowned let pool: WorkerPool
        let index: Int
        init(pool: WorkerPool, index: Int) {
            self.pool = pool
            self.index = index
        }
    }

    /// The executor to hand to `World.executor`.
    public var executor: ParallelExecutor {
        { [self] n, body in run(n, body) }
    }

    /// Calls `body(t)` for every t in `0..<n`, task t on thread t % threads, and returns when all
    /// have returned. Allocates nothing (the body is only retained until then).
    public func run(_ n: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let active = workers.count
        if n <= 1 || active == 0 {
            for t in 0..<n { body(t) }
            return
        }
        self.body = body
        taskCount = n
        pending.store(active, ordering: .relaxed)
        generation.add(1, ordering: .releasing)
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(wakeUp)
        pthread_mutex_unlock(mutex)
        var t = 0
        while t < n {
            body(t)
            t += threads
        }
        while pending.load(ordering: .acquiring) != 0 {}
        self.body = nil
    }

    private func work(_ index: Int) {
        var seen = 0
        while true {
            var polls = 0
            var now = generation.load(ordering: .acquiring)
            while now == seen && polls < WorkerPool.spinLimit {
                polls += 1
                now = generation.load(ordering: .acquiring)
            }
            if now == seen {
                pthread_mutex_lock(mutex)
                now = generation.load(ordering: .acquiring)
                while now == seen {
                    pthread_cond_wait(wakeUp, mutex)
                    now = generation.load(ordering: .acquiring)
                }
                pthread_mutex_unlock(mutex)
            }
            seen = now
            if stopping.load(ordering: .acquiring) { return }
            runShare(index)
            pending.subtract(1, ordering: .releasing)
        }
    }

    /// This worker's tasks of the current phase.
    @inline(never)
    private func runShare(_ index: Int) {
        let n = taskCount
        guard let body else { return }
        var t = index
        while t < n {
            body(t)
            t += threads
        }
    }
}
