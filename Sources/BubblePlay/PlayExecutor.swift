import NIOCore
import NIOPosix

/// The threads a play server's tasks run on: every connection, session and frame of one
/// `PlayServer`, on a NIO thread pool of its own (one thread per core, at least two), from `run`
/// until it returns.
///
/// Swift's shared pool of tasks has one thread per core, and whatever else runs in the process can
/// hold all of them: synchronous work on an async path, such as a test runner's synchronous tests
/// running side by side, or another server's sessions drawing frames. A session that waited for
/// that pool to take a page's `ready` or to draw would freeze the page for as long. On these
/// threads it does not wait for anything else in the process; only `Task.sleep` (the idle
/// watchdog) still wakes through the shared pool.
final class PlayExecutor: TaskExecutor {
    private let pool: NIOThreadPool

    /// Starts `threads` threads (default: one per core, at least two).
    init(threads: Int = max(2, System.coreCount)) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        pool.submit { state in
            switch state {
            case .active:
                job.runSynchronously(on: executor)
            case .cancelled:
                // The server has stopped (a task outlived it: a session closing, a delayed
                // trim): the job runs on Swift's shared pool instead.
                globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
        }
    }

    /// Stops the threads once the work already given to them is done.
    func shutdown() async {
        try? await pool.shutdownGracefully()  // at the end of the server: nothing left to tell
    }
}
