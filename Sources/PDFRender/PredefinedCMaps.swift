import PDFCore
import Synchronization

/// The predefined CMaps a Type 0 font may name as its `/Encoding` (`90ms-RKSJ-H`, `GBK-EUC-H`,
/// `UniJIS-UCS2-H`…) and the registries' CID-to-Unicode CMaps (`Adobe-Japan1-UCS2`), read from
/// Adobe's cMap resources (BSD-3-Clause) as Debian's `poppler-data` installs them. Only those
/// data files are read; nothing of poppler is linked. Without them the font is drawn as before,
/// with a warning.
enum PredefinedCMaps {
    /// Where the resources are looked for, one folder per character collection.
    static let root = "/usr/share/poppler/cMap"
    /// The character collections, in the order they are searched.
    static let collections = ["Adobe-Japan1", "Adobe-GB1", "Adobe-CNS1", "Adobe-Korea1", "Adobe-KR", "Adobe-Japan2"]
    /// The most CMaps kept parsed at once (the largest, UniJIS-UTF16-H, is about 9 000 ranges).
    static let cacheLimit = 24

    private static let cache = Mutex<[(name: String, cmap: CMap?)]>([])

    /// The CMap called `name` with what it extends through `usecmap` resolved, nil when it is not
    /// installed or does not read. Parsed once per process (the most recent `cacheLimit` kept).
    static func named(_ name: String) -> CMap? {
        load(name, depth: 0)
    }

    /// The CID-to-Unicode CMap of a character collection (`Japan1` → `Adobe-Japan1-UCS2`).
    static func unicode(ordering: String) -> CMap? {
        let o = ordering == "Korea1" || ordering == "KR" ? "Korea1" : ordering
        return named("Adobe-\(o)-UCS2")
    }

    private static func load(_ name: String, depth: Int) -> CMap? {
        // Names are plain file names: letters, digits, `-` and `_` only.
        guard !name.isEmpty, name.count <= 64, depth <= 4,
              name.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        if let hit = cache.withLock({ c in c.first(where: { $0.name == name }) }) { return hit.cmap }
        var result: CMap? = nil
        for collection in collections {
            guard let src = try? ByteSource(path: "\(root)/\(collection)/\(name)") else { continue } // not in this collection
            guard let bytes = try? src.read(0, min(src.size, 4 << 20)) else { break } // unreadable: as if absent
            var c = CMap.parse(bytes)
            if let base = c.useCMap {
                guard let b = load(base, depth: depth + 1) else { break }
                c = c.over(b)
            }
            result = c
            break
        }
        cache.withLock { c in
            if !c.contains(where: { $0.name == name }) {
                c.append((name, result))
                if c.count > cacheLimit { c.removeFirst() }
            }
        }
        return result
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }
}
