import Foundation

/// The lock that makes one process at a time update an index: `flock` on `<index>.lock` (a file
/// of its own, so that SQLite's locks on the database are never disturbed).
final class UpdateLock: Sendable {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    static func acquire(indexPath: String, wait: Double) throws(IndexError) -> UpdateLock {
        let lockPath = indexPath + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            let kind: IndexError.Kind = errno == EACCES || errno == EROFS || errno == EPERM || errno == ENOENT ? .notWritable : .database
            let hint = errno == ENOENT ? "its folder does not exist" : reason
            throw IndexError(kind, path: indexPath, "cannot write the index here (\(hint))", elsewhereHelps: true)
        }
        var waited = 0.0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(fd)
                throw IndexError(.database, path: indexPath, "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
            if waited >= wait {
                close(fd)
                let seconds = wait == wait.rounded() ? String(Int(wait)) : String(wait)
                throw IndexError(.locked, path: indexPath, "another process is updating the index (waited \(seconds) s for \(lockPath)); try again when it has finished")
            }
            usleep(50_000)
            waited += 0.05
        }
        // Whoever can lock it must also be able to write the folder (the WAL journal lives there).
        let folder = (indexPath as NSString).deletingLastPathComponent
        if access(folder.isEmpty ? "." : folder, W_OK) != 0 || (FileManager.default.fileExists(atPath: indexPath) && access(indexPath, W_OK) != 0) {
            close(fd)
            throw IndexError(.notWritable, path: indexPath, "cannot write the index here (read-only)", elsewhereHelps: true)
        }
        return UpdateLock(fd: fd)
    }
}
