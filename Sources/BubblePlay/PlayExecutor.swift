import NIOCore
import NIOPosix

/// The threads the play server's tasks run on: every connection, session and frame of every
/// `PlayServer` in the process, on a NIO thread pool of its own (one thread per core, at least
/// two).
///
/// Swift's shared pool of tasks has one thread per core, and whatever else runs in the process can
/// hold all of them: synchronous work on an async path, such as a test runner's synchronous tests
/// running side by side. A session that waited for that pool to take a page's `ready` or to draw
/// would freeze the page for as long. On these threads it does not wait for anything else in
/// the process; only `Task.sleep` (the idle watchdog) still wakes through the shared pool.
final class PlayExecutor: TaskExecutor {
    /// The one executor every play server in the process shares.
    static let shared = PlayExecutor(threads: max(2, System.coreCount))

    private let pool: NIOThreadPool

    private init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        pool.submit { _ in job.runSynchronously(on: executor) }
    }
}
