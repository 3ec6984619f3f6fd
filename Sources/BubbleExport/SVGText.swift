enum SVGText {
    /// Cairo names some SVG elements after process-wide counters (`surface166`, `image12`: the
    /// unique ids of the surfaces it drew from), which depend on how many surfaces the process made
    /// before. Renumbering them in order of first appearance, per prefix, makes the SVG the same
    /// bytes whichever worker (or run) drew it. Only `id="…"` and `#…` references are rewritten.
    static let prefixes: [[UInt8]] = [Array("surface".utf8), Array("image".utf8)]

    static func normalizeIDs(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var maps: [[ArraySlice<UInt8>: Int]] = Array(repeating: [:], count: prefixes.count)
        var i = 0
        let n = bytes.count
        outer: while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "#") {
                out.append(c)
                i += 1
                for (p, prefix) in prefixes.enumerated() where i + prefix.count < n && bytes[i] == prefix[0] {
                    guard bytes[i..<(i + prefix.count)].elementsEqual(prefix) else { continue }
                    var j = i + prefix.count
                    while j < n, bytes[j] >= 0x30, bytes[j] <= 0x39 { j += 1 }
                    guard j > i + prefix.count, j < n, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: ")") else { continue }
                    let key = bytes[(i + prefix.count)..<j]
                    let number: Int
                    if let known = maps[p][key] { number = known } else { number = maps[p].count + 1; maps[p][key] = number }
                    out.append(contentsOf: prefix)
                    out.append(contentsOf: Array(String(number).utf8))
                    i = j
                    continue outer
                }
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }
}
