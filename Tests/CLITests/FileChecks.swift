import BubblePhysics
import Foundation

/// Checks on files the tool wrote, without the tool's own code: PNG structure, FNV-1a hashes,
/// temporary names.
enum FileChecks {
    /// Nil when `bytes` is a whole PNG (signature, every chunk's CRC, IHDR first, IEND last and at
    /// the very end); otherwise what is wrong. `size` is IHDR's width and height.
    static func pngProblem(_ bytes: [UInt8], size: (Int, Int)? = nil) -> String? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return "no PNG signature" }
        func be(_ o: Int) -> Int { Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3]) }
        var o = 8
        var types: [String] = []
        while o < bytes.count {
            guard o + 12 <= bytes.count else { return "chunk header cut at byte \(o)" }
            let length = be(o)
            guard length >= 0, o + 12 + length <= bytes.count else { return "chunk at byte \(o) runs past the end" }
            let type = String(decoding: bytes[(o + 4)..<(o + 8)], as: UTF8.self)
            let crc = crc32(bytes[(o + 4)..<(o + 8 + length)])
            guard crc == UInt32(be(o + 8 + length)) else { return "bad CRC in \(type) at byte \(o)" }
            if type == "IHDR", let size, (be(o + 8), be(o + 12)) != size {
                return "IHDR says \(be(o + 8))×\(be(o + 12)), expected \(size.0)×\(size.1)"
            }
            types.append(type)
            o += 12 + length
            if type == "IEND" { break }
        }
        guard types.first == "IHDR" else { return "IHDR is not the first chunk" }
        guard types.contains("IDAT") else { return "no IDAT" }
        guard types.last == "IEND" else { return "no IEND trailer" }
        guard o == bytes.count else { return "\(bytes.count - o) bytes after IEND" }
        return nil
    }

    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// FNV-1a 64 as hex, as the export's manifest records it.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        Hex.hash(FNV1a64.hash(bytes))
    }

    /// True for the temporary names of the tool's atomic writes: `.NAME.tmp-PID-RANDOM`.
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), let r = name.range(of: ".tmp-", options: .backwards) else { return false }
        let parts = name[r.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && Int32(parts[0]) != nil && UInt32(parts[1]) != nil
    }

    static func bytes(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }

    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
