import Synchronization

/// A value behind a `Mutex`, locked and unlocked only inside `withLock`, which is never inlined.
///
/// The play server's and its load client's tasks lock from async functions, and its executor may resume a task on
/// another thread. `Mutex` on Linux keeps its owner's thread id in a thread-local variable.
/// Inlined into an async function, the compiler computed that variable's address before a
/// suspension and used it after the task had moved: the lock was taken in the previous thread's
/// name, and the unlock stopped the process ("Call to unlock Mutex on a thread which hasn't
/// acquired the lock", seen in a five-minute soak). A call that is not inlined reads the
/// thread's own variable every time.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// A lock around `value`.
    public init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` with the value, holding the lock. `body` must not suspend.
    @inline(never)
    public func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { (value: inout sending Value) throws -> sending Result in try body(&value) }
    }
}
