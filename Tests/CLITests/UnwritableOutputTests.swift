import Foundation
import TestSupport
import Testing

/// Outputs that cannot be written: a read-only folder, and a real full disk (a small tmpfs).
/// Each gives one clear error line and leaves no partial or temporary file.
@Suite("CLI unwritable output")
struct UnwritableOutputTests {
    /// False where permission bits do not stop writes (root, or CAP_DAC_OVERRIDE): then a 0555
    /// folder proves nothing and its test is skipped. (The path-through-a-file cases of
    /// `ErrorPathTests` cover unwritable outputs everywhere.)
    static let permissionsStopWrites: Bool = {
        let probe = NSTemporaryDirectory() + "bubbles-probe-\(UUID().uuidString)"
        guard mkdir(probe, 0o555) == 0 else { return false }
        defer { rmdir(probe) }
        let fd = open(probe + "/x", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        if fd >= 0 {
            close(fd)
            unlink(probe + "/x")
            return false
        }
        return true
    }()

    /// True where this process may mount a tmpfs (root with CAP_SYS_ADMIN, as in CI containers
    /// run as root); elsewhere the full-disk case is covered by `FullDiskTests`' simulated disk.
    static let canMountTmpfs: Bool = {
        guard geteuid() == 0 else { return false }
        guard let disk = try? SmallDisk(bytes: 64 * 1024) else { return false }
        disk.remove()
        return true
    }()

    /// A tmpfs of a few KiB mounted on a fresh folder.
    struct SmallDisk {
        let path: String
        init(bytes: Int) throws {
            path = NSTemporaryDirectory() + "bubbles-disk-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            guard mount("tmpfs", path, "tmpfs", 0, "size=\(bytes),mode=0755") == 0 else {
                let e = errno
                rmdir(path)
                throw POSIXError(POSIXErrorCode(rawValue: e) ?? .EPERM)
            }
        }
        func remove() {
            umount2(path, Int32(MNT_DETACH))
            rmdir(path)
        }
    }

    func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "bubbles-unwritable-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    func scenario(in folder: String) throws -> String {
        let path = folder + "/walk.json"
        let text = """
            {"data": "\(packageRoot)/Data/reports.json", "fps": 30, "duration": 2.5, "events": [
             {"at": 0.1, "tap": "root"}, {"at": 1.2, "tap": "finance"}]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func expectOneLine(_ result: CLIRunner.Result, _ expected: String) {
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: ") && result.stderr.contains(expected), "\(result.stderr)")
    }

    @Test(.enabled(if: permissionsStopWrites, "permission bits do not stop this user's writes (root)"))
    func readOnlyFolder() throws {
        let folder = try scratch()
        defer { chmod(folder + "/ro", 0o755); try? FileManager.default.removeItem(atPath: folder) }
        let ro = folder + "/ro"
        try FileManager.default.createDirectory(atPath: ro, withIntermediateDirectories: true)
        chmod(ro, 0o555)
        let file = try scenario(in: folder)
        expectOneLine(try CLIRunner.run(["render", "--no-pdf", "--png", ro + "/x.png"]), "cannot write \(ro)/x.png: Permission denied")
        expectOneLine(try CLIRunner.run(["export", file, "--no-pdf", "--out", ro]), "cannot write to \(ro): Permission denied")
        expectOneLine(try CLIRunner.run(["export", file, "--no-pdf", "--out", ro + "/sub"]), "cannot write to \(ro)/sub: cannot create the folder")
        #expect(FileChecks.names(ro).isEmpty)
    }

    @Test(.enabled(if: canMountTmpfs, "cannot mount a tmpfs here (needs root)"))
    func renderOntoAFullDisk() throws {
        let disk = try SmallDisk(bytes: 64 * 1024)
        defer { disk.remove() }
        // A 1536×2048 frame is some 400 KB: it does not fit.
        let result = try CLIRunner.run(["render", "--no-pdf", "--png", disk.path + "/x.png"])
        expectOneLine(result, "error: cannot write \(disk.path)/x.png: the disk is full")
        #expect(FileChecks.names(disk.path).isEmpty)
        let verbose = try CLIRunner.run(["render", "--no-pdf", "--verbose", "--png", disk.path + "/x.png"])
        #expect(verbose.stderr.contains("  system error: ENOSPC (No space left on device)"), "\(verbose.stderr)")
        #expect(FileChecks.names(disk.path).isEmpty)
    }

    @Test(.enabled(if: canMountTmpfs, "cannot mount a tmpfs here (needs root)"))
    func exportOntoAFullDisk() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let disk = try SmallDisk(bytes: 256 * 1024)
        defer { disk.remove() }
        let file = try scenario(in: folder)
        let out = disk.path + "/out"
        let result = try CLIRunner.run(["export", file, "--no-pdf", "--scale", "0.5", "--out", out])
        expectOneLine(result, "the disk is full")
        #expect(result.stderr.contains("cannot write \(out)/"), "\(result.stderr)")
        // Only whole files: no temporary file, every PNG complete, the manifest parses.
        let names = FileChecks.names(out)
        #expect(!names.isEmpty)
        for name in names {
            #expect(!name.hasPrefix("."), "temporary file left: \(name)")
            let bytes = FileChecks.bytes(out + "/" + name)
            if name.hasSuffix(".png") { #expect(FileChecks.pngProblem(bytes) == nil, "\(name): \(FileChecks.pngProblem(bytes) ?? "")") }
            if name.hasSuffix(".json") { #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) != nil, "\(name)") }
        }
    }
}
