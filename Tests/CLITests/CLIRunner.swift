import Foundation
import TestSupport

/// Runs the `bubbles` executable that `swift test` built beside the test bundle.
struct CLIRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The build products folder: the test bundle lives there too.
    static let binFolder: String = {
        var url = Bundle.main.bundleURL
        // On Linux the bundle is the test executable's folder; on macOS `.xctest` bundles sit inside it.
        while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("bubbles").path) {
            url.deleteLastPathComponent()
        }
        return url.path
    }()

    static func run(_ arguments: [String], in directory: String = packageRoot) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binFolder + "/bubbles")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
