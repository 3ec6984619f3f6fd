import Foundation

/// The package's root folder (the one that holds `Package.swift`), found from this source file:
/// tests read `Data/`, fixtures and references through it, whatever the working directory.
public let packageRoot: String = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent().path
