import BubbleSupport
import Foundation

/// A video container `--video` can write, chosen by the file's extension.
public enum VideoFormat: String, Sendable, CaseIterable {
    /// H.264 in MP4, yuv420p, `+faststart`: plays in browsers and chat apps.
    case mp4
    /// VP9 in WebM, yuv420p.
    case webm

    /// The format for a file name, or an error naming what is accepted.
    public static func of(_ path: String) throws(ExportError) -> VideoFormat {
        let ext = (path as NSString).pathExtension.lowercased()
        guard let f = VideoFormat(rawValue: ext) else {
            throw .invalidOption(.video, "takes a file ending in .mp4 or .webm, not '\(path)'")
        }
        return f
    }

    /// ffmpeg's output options: codec, pixel format, quality and container.
    var ffmpegOutput: [String] {
        // Even sides, as yuv420p needs: an odd one gets a row or column of the edge colour.
        let even = ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"]
        switch self {
        case .mp4:
            return even + ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            return even + ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "34", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1",
                           "-pix_fmt", "yuv420p", "-f", "webm"]
        }
    }
}

/// The frames of an export as a video, through the `ffmpeg` program: raw BGRA frames (Cairo's
/// ARGB32 on a little-endian machine) are piped to its standard input in frame order, on a thread
/// of their own, so the frames are never written twice. ffmpeg writes a hidden temporary file
/// beside the video, which is renamed only when ffmpeg succeeded; a failed or killed export leaves
/// no video (and the next export removes the temporary file of a killed one).
final class VideoWriter: @unchecked Sendable {
    let path: String
    let temporary: String
    let width: Int
    let height: Int
    private let process: Process
    private let input: FileHandle
    private let errors = Pipe()
    private var errorText = Data()
    private let errorsDone = DispatchSemaphore(value: 0)
    private let cond = NSCondition()
    private var queue: [(pixels: [UInt8], count: Int)] = []
    private var closed = false
    private var failure: String?
    private var writerDone = false
    /// Seconds spent writing frames into the pipe (ffmpeg's encoding shows here as back-pressure).
    private(set) var pipeSeconds = 0.0
    private(set) var framesWritten = 0

    /// Finds `ffmpeg` on `searchPath` (default: `PATH`); nil if it is not there.
    static func findFFmpeg(searchPath: String? = nil) -> String? {
        findProgram("ffmpeg", searchPath: searchPath)
    }

    /// The error when ffmpeg is missing: one line, naming the Debian package.
    static let missingMessage = "needs the ffmpeg program, which is not installed (Debian package ffmpeg: apt-get install ffmpeg)"

    /// Starts ffmpeg writing `path` from frames of `width`×`height` pixels at `fps`.
    init(path: String, format: VideoFormat, ffmpeg: String, width: Int, height: Int, fps: Double) throws(ExportError) {
        self.path = path
        self.width = width
        self.height = height
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDir), isDir.boolValue else {
            throw .unwritableFolder(path: path, reason: "the folder \(folder) does not exist")
        }
        guard access(folder, W_OK | X_OK) == 0 else { throw .unwritableFolder(path: path, reason: String(cString: strerror(errno))) }
        VideoWriter.removeStaleTemporaries(of: path)
        temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-hide_banner", "-loglevel", "error", "-y",
                             "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(width)x\(height)", "-r", JSONLiteral.number(fps), "-i", "pipe:0"]
            + format.ffmpegOutput + [temporary]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        input = stdin.fileHandleForWriting
        // A write to ffmpeg after it died must fail with EPIPE, not end this process.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw .writeFailed("cannot start \(ffmpeg): \(error)")
        }
        let errorHandle = errors.fileHandleForReading
        Thread.detachNewThread { [self] in
            let data = errorHandle.readDataToEndOfFile()
            cond.lock()
            errorText = data
            cond.unlock()
            errorsDone.signal()
        }
        let thread = Thread { [self] in self.writerLoop() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Queues a frame's pixels (`width × height × 4` bytes, BGRA) to be written `count` times.
    /// Waits while eight frames are queued, so memory stays bounded.
    func append(_ pixels: [UInt8], count: Int) {
        cond.lock()
        while queue.count >= 8 && failure == nil { cond.wait() }
        if failure == nil { queue.append((pixels, count)) }
        cond.broadcast()
        cond.unlock()
    }

    private func writerLoop() {
        let fd = input.fileDescriptor
        while true {
            cond.lock()
            while queue.isEmpty && !closed { cond.wait() }
            if queue.isEmpty {
                writerDone = true
                cond.broadcast()
                cond.unlock()
                return
            }
            let item = queue.removeFirst()
            cond.broadcast()
            cond.unlock()
            let t0 = MonotonicClock.seconds()
            var ok = true
            item.pixels.withUnsafeBytes { buf in
                for _ in 0..<item.count where ok {
                    var offset = 0
                    while offset < buf.count {
                        let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                        if n < 0 {
                            if errno == EINTR { continue }
                            ok = false
                            break
                        }
                        offset += n
                    }
                }
            }
            cond.lock()
            pipeSeconds += MonotonicClock.seconds() - t0
            if ok { framesWritten += item.count } else if failure == nil { failure = "ffmpeg stopped reading frames" }
            cond.broadcast()
            cond.unlock()
            if !ok {
                cond.lock()
                queue.removeAll()
                writerDone = true
                cond.broadcast()
                cond.unlock()
                return
            }
        }
    }

    /// Waits for the queued frames, ends the input and ffmpeg, and renames the video into place.
    func finish() throws(ExportError) {
        cond.lock()
        closed = true
        cond.broadcast()
        while !writerDone { cond.wait() }
        let failed = failure
        cond.unlock()
        try? input.close()  // ffmpeg's end of the pipe may be gone
        process.waitUntilExit()
        errorsDone.wait()
        let status = process.terminationStatus
        guard failed == nil, status == 0, process.terminationReason == .exit else {
            unlink(temporary)
            throw .writeFailed("cannot write the video \(path): " + ffmpegError(failed ?? "ffmpeg exited with status \(status)"))
        }
        if rename(temporary, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .writeFailed("cannot write the video \(path): rename failed: \(reason)")
        }
    }

    /// Stops ffmpeg and removes the temporary file (after a failure elsewhere).
    func cancel() {
        cond.lock()
        failure = failure ?? "cancelled"
        queue.removeAll()
        closed = true
        cond.broadcast()
        cond.unlock()
        if process.isRunning { process.terminate() }
        try? input.close()  // ffmpeg's end of the pipe may be gone
        process.waitUntilExit()
        unlink(temporary)
    }

    /// ffmpeg's own last line of complaint, or `fallback`.
    private func ffmpegError(_ fallback: String) -> String {
        cond.lock()
        let text = String(decoding: errorText, as: UTF8.self)
        cond.unlock()
        let lines = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        return lines.last.map { "ffmpeg: " + $0 } ?? fallback
    }

    /// Removes temporary files of this video that a killed export left (their process is gone).
    static func removeStaleTemporaries(of path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + ".tmp-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }  // no folder: nothing to remove
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + name) }
        }
    }
}
