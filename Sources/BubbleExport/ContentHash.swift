import BubblePhysics
import Foundation

/// 64-bit FNV-1a, as the scenario's content hash; written as 16 lower-case hex digits.
public enum ContentHash {
    public static func fnv1a(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var h = FNV1a64(seed: seed)
        h.combine(bytes: bytes)
        return h.value
    }

    public static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { fnv1a($0) }
    }

    public static func hex(_ value: UInt64) -> String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// The hash of a file's bytes, or nil if it cannot be read.
    static func ofFile(_ path: String) -> (hash: UInt64, bytes: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (data.withUnsafeBytes { fnv1a($0) }, data.count)
    }
}
