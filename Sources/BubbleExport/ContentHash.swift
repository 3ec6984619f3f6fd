import BubbleSupport
import Foundation

/// 64-bit FNV-1a (`FNV1a64`), as the scenario's content hash; written as 16 lower-case hex digits.
public enum ContentHash {
    /// The FNV-1a 64 hash of `bytes`, starting from `seed` (default: the standard offset basis).
    public static func fnv1a(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = FNV1a64.offsetBasis) -> UInt64 {
        FNV1a64.hash(bytes, seed: seed)
    }

    /// The FNV-1a 64 hash of `bytes`.
    public static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { fnv1a($0) }
    }

    /// A hash as the manifest writes it: 16 lower-case hex digits (`Hex.hash`).
    public static func hex(_ value: UInt64) -> String { Hex.hash(value) }

    /// The hash of a file's bytes, or nil if it cannot be read.
    static func ofFile(_ path: String) -> (hash: UInt64, bytes: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (data.withUnsafeBytes { fnv1a($0) }, data.count)
    }
}
