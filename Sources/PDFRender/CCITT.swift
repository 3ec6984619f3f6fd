/// A CCITT Group 3 and Group 4 fax decoder (ITU-T T.4 and T.6) for CCITTFaxDecode images:
/// one-dimensional (K = 0), mixed (K > 0) and two-dimensional (K < 0) coding.
struct CCITTDecoder {
    /// The run-length codes of ITU-T T.4 (terminating 0–63, make-up 64–1728, and the extended
    /// make-up codes 1792–2560 that both colours share), as bit strings.
    static let whiteCodes: [(String, Int)] = [
        ("00110101", 0), ("000111", 1), ("0111", 2), ("1000", 3), ("1011", 4), ("1100", 5),
        ("1110", 6), ("1111", 7), ("10011", 8), ("10100", 9), ("00111", 10), ("01000", 11),
        ("001000", 12), ("000011", 13), ("110100", 14), ("110101", 15), ("101010", 16), ("101011", 17),
        ("0100111", 18), ("0001100", 19), ("0001000", 20), ("0010111", 21), ("0000011", 22), ("0000100", 23),
        ("0101000", 24), ("0101011", 25), ("0010011", 26), ("0100100", 27), ("0011000", 28), ("00000010", 29),
        ("00000011", 30), ("00011010", 31), ("00011011", 32), ("00010010", 33), ("00010011", 34), ("00010100", 35),
        ("00010101", 36), ("00010110", 37), ("00010111", 38), ("00101000", 39), ("00101001", 40), ("00101010", 41),
        ("00101011", 42), ("00101100", 43), ("00101101", 44), ("00000100", 45), ("00000101", 46), ("00001010", 47),
        ("00001011", 48), ("01010010", 49), ("01010011", 50), ("01010100", 51), ("01010101", 52), ("00100100", 53),
        ("00100101", 54), ("01011000", 55), ("01011001", 56), ("01011010", 57), ("01011011", 58), ("01001010", 59),
        ("01001011", 60), ("00110010", 61), ("00110011", 62), ("00110100", 63), ("11011", 64), ("10010", 128),
        ("010111", 192), ("0110111", 256), ("00110110", 320), ("00110111", 384), ("01100100", 448), ("01100101", 512),
        ("01101000", 576), ("01100111", 640), ("011001100", 704), ("011001101", 768), ("011010010", 832), ("011010011", 896),
        ("011010100", 960), ("011010101", 1024), ("011010110", 1088), ("011010111", 1152), ("011011000", 1216), ("011011001", 1280),
        ("011011010", 1344), ("011011011", 1408), ("010011000", 1472), ("010011001", 1536), ("010011010", 1600), ("011000", 1664),
        ("010011011", 1728), ("00000001000", 1792), ("00000001100", 1856), ("00000001101", 1920), ("000000010010", 1984), ("000000010011", 2048),
        ("000000010100", 2112), ("000000010101", 2176), ("000000010110", 2240), ("000000010111", 2304), ("000000011100", 2368), ("000000011101", 2432),
        ("000000011110", 2496), ("000000011111", 2560),
    ]
    static let blackCodes: [(String, Int)] = [
        ("0000110111", 0), ("010", 1), ("11", 2), ("10", 3), ("011", 4), ("0011", 5),
        ("0010", 6), ("00011", 7), ("000101", 8), ("000100", 9), ("0000100", 10), ("0000101", 11),
        ("0000111", 12), ("00000100", 13), ("00000111", 14), ("000011000", 15), ("0000010111", 16), ("0000011000", 17),
        ("0000001000", 18), ("00001100111", 19), ("00001101000", 20), ("00001101100", 21), ("00000110111", 22), ("00000101000", 23),
        ("00000010111", 24), ("00000011000", 25), ("000011001010", 26), ("000011001011", 27), ("000011001100", 28), ("000011001101", 29),
        ("000001101000", 30), ("000001101001", 31), ("000001101010", 32), ("000001101011", 33), ("000011010010", 34), ("000011010011", 35),
        ("000011010100", 36), ("000011010101", 37), ("000011010110", 38), ("000011010111", 39), ("000001101100", 40), ("000001101101", 41),
        ("000011011010", 42), ("000011011011", 43), ("000001010100", 44), ("000001010101", 45), ("000001010110", 46), ("000001010111", 47),
        ("000001100100", 48), ("000001100101", 49), ("000001010010", 50), ("000001010011", 51), ("000000100100", 52), ("000000110111", 53),
        ("000000111000", 54), ("000000100111", 55), ("000000101000", 56), ("000001011000", 57), ("000001011001", 58), ("000000101011", 59),
        ("000000101100", 60), ("000001011010", 61), ("000001100110", 62), ("000001100111", 63), ("0000001111", 64), ("000011001000", 128),
        ("000011001001", 192), ("000001011011", 256), ("000000110011", 320), ("000000110100", 384), ("000000110101", 448), ("0000001101100", 512),
        ("0000001101101", 576), ("0000001001010", 640), ("0000001001011", 704), ("0000001001100", 768), ("0000001001101", 832), ("0000001110010", 896),
        ("0000001110011", 960), ("0000001110100", 1024), ("0000001110101", 1088), ("0000001110110", 1152), ("0000001110111", 1216), ("0000001010010", 1280),
        ("0000001010011", 1344), ("0000001010100", 1408), ("0000001010101", 1472), ("0000001011010", 1536), ("0000001011011", 1600), ("0000001100100", 1664),
        ("0000001100101", 1728), ("00000001000", 1792), ("00000001100", 1856), ("00000001101", 1920), ("000000010010", 1984), ("000000010011", 2048),
        ("000000010100", 2112), ("000000010101", 2176), ("000000010110", 2240), ("000000010111", 2304), ("000000011100", 2368), ("000000011101", 2432),
        ("000000011110", 2496), ("000000011111", 2560),
    ]

    /// Codes by (length << 16 | value) for each colour.
    static let whiteTable: [UInt32: Int] = table(whiteCodes)
    static let blackTable: [UInt32: Int] = table(blackCodes)

    static func table(_ codes: [(String, Int)]) -> [UInt32: Int] {
        var t: [UInt32: Int] = [:]
        for (bits, run) in codes {
            var v: UInt32 = 0
            for c in bits.utf8 { v = v << 1 | (c == UInt8(ascii: "1") ? 1 : 0) }
            t[UInt32(bits.utf8.count) << 16 | v] = run
        }
        return t
    }

    /// `/K`: negative for Group 4, 0 for one-dimensional Group 3, positive for mixed Group 3.
    var k = 0
    var columns = 1728
    /// `/Rows`, 0 when not given (decode until the data ends).
    var rows = 0
    var encodedByteAlign = false
    var blackIs1 = false

    private struct Bits {
        let data: [UInt8]
        var pos = 0 // in bits
        var end: Int { data.count * 8 }
        func peek(_ n: Int) -> UInt32 {
            var v: UInt32 = 0
            for i in 0 ..< n {
                let p = pos + i
                let bit: UInt32 = p < end ? UInt32(data[p >> 3] >> UInt8(7 - p & 7)) & 1 : 0
                v = v << 1 | bit
            }
            return v
        }
        mutating func skip(_ n: Int) { pos += n }
        mutating func align() { pos = (pos + 7) & ~7 }
        var atEnd: Bool { pos >= end }
    }

    /// Decodes to packed rows of `columns` bits, 1 for white unless `blackIs1`; returns the rows
    /// decoded and whether the data was damaged (the rest of the image is then left white).
    func decode(_ data: [UInt8], maxRows: Int) -> (bytes: [UInt8], rows: Int, damaged: Bool) {
        guard columns > 0 && columns <= 1 << 16 else { return ([], 0, true) }
        var bits = Bits(data: data)
        let rowBytes = (columns + 7) / 8
        var out: [UInt8] = []
        var reference: [Int] = [columns, columns]
        var damaged = false
        var row = 0
        let limit = rows > 0 ? min(rows, maxRows) : maxRows
        while row < limit && !bits.atEnd {
            // End-of-line codes (with fill bits before them) between rows.
            var twoD = k < 0
            if encodedByteAlign && k < 0 { bits.align() }
            var eols = 0
            while bits.pos + 12 <= bits.end && bits.peek(12) == 1 { bits.skip(12); eols += 1 }
            if k >= 0 {
                if encodedByteAlign && eols == 0 { bits.align() }
                while bits.pos + 12 <= bits.end && bits.peek(11) == 0 && bits.peek(12) <= 1 {
                    // Zero fill up to an EOL.
                    if bits.peek(12) == 1 { bits.skip(12); eols += 1 } else { bits.skip(1) }
                }
                if k > 0 { twoD = bits.peek(1) == 0; bits.skip(1) }
            }
            if eols >= 2 && row > 0 { break } // RTC or EOFB
            var changes: [Int] = []
            let ok = twoD ? decode2D(&bits, reference: reference, into: &changes) : decode1D(&bits, into: &changes)
            if !ok {
                damaged = true
                if changes.isEmpty { break }
            }
            // The row's pixels from its changing elements (white first).
            var line = [UInt8](repeating: 0xFF, count: rowBytes)
            var color = 0
            var a = 0
            for c in changes + [columns] {
                let e = min(max(c, a), columns)
                if color == 1 {
                    var x = a
                    while x < e { line[x >> 3] &= ~(0x80 >> UInt8(x & 7)); x += 1 }
                }
                a = e
                color ^= 1
            }
            if blackIs1 { for i in 0 ..< rowBytes { line[i] = ~line[i] } }
            out += line
            row += 1
            reference = changes + [columns, columns]
            if !ok { break }
            if encodedByteAlign && k >= 0 && !twoD { bits.align() }
        }
        return (out, row, damaged)
    }

    /// Reads one run of a colour (make-up codes then a terminating code); nil on a bad code.
    private func run(_ bits: inout Bits, white: Bool) -> Int? {
        let table = white ? Self.whiteTable : Self.blackTable
        var total = 0
        while true {
            var found: Int? = nil
            for n in 2 ... 13 {
                if let r = table[UInt32(n) << 16 | bits.peek(n)] {
                    bits.skip(n)
                    found = r
                    break
                }
            }
            guard let r = found else { return nil }
            total += r
            if r < 64 { return total }
            if total > 1 << 20 { return nil }
        }
    }

    private func decode1D(_ bits: inout Bits, into changes: inout [Int]) -> Bool {
        var a0 = 0
        var white = true
        while a0 < columns {
            guard let r = run(&bits, white: white) else { return false }
            a0 += r
            changes.append(min(a0, columns))
            white.toggle()
        }
        return true
    }

    private func decode2D(_ bits: inout Bits, reference: [Int], into changes: inout [Int]) -> Bool {
        var a0 = -1
        var white = true
        var guardSteps = 0
        while a0 < columns {
            guardSteps += 1
            if guardSteps > 4 * columns + 16 { return false }
            // b1: the first changing element on the reference line right of a0 of the opposite
            // colour (even indices start black runs, odd ones white runs); b2 the next one.
            var i = white ? 0 : 1
            while i < reference.count && (reference[i] <= a0 || (a0 < 0 && reference[i] < 0)) { i += 2 }
            let b1 = i < reference.count ? reference[i] : columns
            let b2 = i + 1 < reference.count ? reference[i + 1] : columns
            let start = max(a0, 0)
            if bits.peek(1) == 1 { // V0
                bits.skip(1)
                changes.append(b1); a0 = b1; white.toggle()
            } else if bits.peek(3) == 0b011 || bits.peek(3) == 0b010 { // VR1 / VL1
                let d = bits.peek(3) == 0b011 ? 1 : -1
                bits.skip(3)
                let a1 = max(start, b1 + d); changes.append(a1); a0 = a1; white.toggle()
            } else if bits.peek(3) == 0b001 { // horizontal
                bits.skip(3)
                guard let r1 = run(&bits, white: white), let r2 = run(&bits, white: !white) else { return false }
                let a1 = min(start + r1, columns), a2 = min(a1 + r2, columns)
                changes.append(a1); changes.append(a2); a0 = a2
            } else if bits.peek(4) == 0b0001 { // pass
                bits.skip(4)
                a0 = b2
            } else if bits.peek(6) == 0b000011 || bits.peek(6) == 0b000010 { // VR2 / VL2
                let d = bits.peek(6) == 0b000011 ? 2 : -2
                bits.skip(6)
                let a1 = max(start, b1 + d); changes.append(a1); a0 = a1; white.toggle()
            } else if bits.peek(7) == 0b0000011 || bits.peek(7) == 0b0000010 { // VR3 / VL3
                let d = bits.peek(7) == 0b0000011 ? 3 : -3
                bits.skip(7)
                let a1 = max(start, b1 + d); changes.append(a1); a0 = a1; white.toggle()
            } else {
                return false
            }
            if a0 >= columns { break }
        }
        return true
    }
}
