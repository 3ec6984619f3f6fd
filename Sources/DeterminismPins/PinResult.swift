import Foundation

/// The outcome of checking one pinned result: the pin's name and what differs from it (nothing
/// when the result is the pinned one).
///
/// The pins of this module are checked twice with the same code: by the debug test suite (each
/// suite whose name holds "Determinism") and by the `determinism-check` executable in a release
/// build (`scripts/test.sh`), so the same bits are proven in both configurations.
public struct PinResult: Sendable, CustomStringConvertible {
    /// What was checked, e.g. `physics circles` or `page transparency.pdf`.
    public let name: String
    /// One line for each difference from the pin, with the values to paste when re-pinning;
    /// empty when the result matches.
    public let problems: [String]

    /// Creates a result.
    public init(_ name: String, problems: [String]) {
        self.name = name
        self.problems = problems
    }

    /// Whether the result is the pinned one.
    public var matches: Bool { problems.isEmpty }

    /// `name: ok`, or `name: DIFFERS` followed by the problems, one a line.
    public var description: String {
        matches ? "\(name): ok" : "\(name): DIFFERS\n" + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}

/// Where the pins' inputs are: the package's root folder (the one that holds `Package.swift`),
/// found from this source file, whatever the working directory.
public enum PinInputs {
    /// The package's root folder.
    public static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // DeterminismPins
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent().path
}
