// The MQ arithmetic decoder (Annex E) and the integer and symbol ID decoding procedures (Annex A).
extension JBIG2Decoder {
    /// The probability estimation table: Qe, next index after an MPS, after an LPS, and whether
    /// an LPS switches the MPS sense.
    static let qe: [(UInt32, UInt8, UInt8, Bool)] = [
        (0x5601, 1, 1, true), (0x3401, 2, 6, false), (0x1801, 3, 9, false), (0x0AC1, 4, 12, false),
        (0x0521, 5, 29, false), (0x0221, 38, 33, false), (0x5601, 7, 6, true), (0x5401, 8, 14, false),
        (0x4801, 9, 14, false), (0x3801, 10, 14, false), (0x3001, 11, 17, false), (0x2401, 12, 18, false),
        (0x1C01, 13, 20, false), (0x1601, 29, 21, false), (0x5601, 15, 14, true), (0x5401, 16, 14, false),
        (0x5101, 17, 15, false), (0x4801, 18, 16, false), (0x3801, 19, 17, false), (0x3401, 20, 18, false),
        (0x3001, 21, 19, false), (0x2801, 22, 19, false), (0x2401, 23, 20, false), (0x2201, 24, 21, false),
        (0x1C01, 25, 22, false), (0x1801, 26, 23, false), (0x1601, 27, 24, false), (0x1401, 28, 25, false),
        (0x1201, 29, 26, false), (0x1101, 30, 27, false), (0x0AC1, 31, 28, false), (0x09C1, 32, 29, false),
        (0x08A1, 33, 30, false), (0x0521, 34, 31, false), (0x0441, 35, 32, false), (0x02A1, 36, 33, false),
        (0x0221, 37, 34, false), (0x0141, 38, 35, false), (0x0111, 39, 36, false), (0x0085, 40, 37, false),
        (0x0049, 41, 38, false), (0x0025, 42, 39, false), (0x0015, 43, 40, false), (0x0009, 44, 41, false),
        (0x0005, 45, 42, false), (0x0001, 45, 43, false), (0x5601, 46, 46, false),
    ]

    /// The MQ arithmetic decoder, as the decoding flowcharts of Annex E describe it.
    struct ArithmeticDecoder {
        let data: [UInt8]
        var bp: Int
        var c: UInt32 = 0
        var a: UInt32 = 0x8000
        var ct = 0

        init(_ data: [UInt8], start: Int) {
            self.data = data
            bp = start
            c = UInt32(byte(bp)) << 16
            byteIn()
            c <<= 7
            ct -= 7
            a = 0x8000
        }

        func byte(_ i: Int) -> UInt8 { i < data.count ? data[i] : 0xFF }

        mutating func byteIn() {
            if byte(bp) == 0xFF {
                if byte(bp + 1) > 0x8F {
                    c &+= 0xFF00
                    ct = 8
                } else {
                    bp += 1
                    c &+= UInt32(byte(bp)) << 9
                    ct = 7
                }
            } else {
                bp += 1
                c &+= UInt32(byte(bp)) << 8
                ct = 8
            }
        }

        /// Decodes one bit with the context state `cx` (index << 1 | MPS).
        mutating func bit(_ cx: inout UInt8) -> Int {
            var index = Int(cx >> 1)
            var mps = Int(cx & 1)
            let (qe, nmps, nlps, switchMPS) = JBIG2Decoder.qe[index]
            a -= qe
            var d: Int
            if (c >> 16) < qe {
                // LPS exchange.
                if a < qe {
                    d = mps; index = Int(nmps)
                } else {
                    d = 1 - mps
                    if switchMPS { mps = 1 - mps }
                    index = Int(nlps)
                }
                a = qe
            } else {
                c -= qe << 16
                if a & 0x8000 != 0 { return mps }
                // MPS exchange.
                if a < qe {
                    d = 1 - mps
                    if switchMPS { mps = 1 - mps }
                    index = Int(nlps)
                } else {
                    d = mps; index = Int(nmps)
                }
            }
            // Renormalise.
            repeat {
                if ct == 0 { byteIn() }
                a <<= 1
                c <<= 1
                ct -= 1
            } while a & 0x8000 == 0
            c &= 0xFFFF_FFFF
            cx = UInt8(index << 1 | mps)
            return d
        }
    }

    /// The integer arithmetic decoding procedure (Annex A.2) with its 512 contexts.
    struct IntegerContexts {
        var cx = [UInt8](repeating: 0, count: 512)

        /// The decoded integer, nil for out-of-band.
        mutating func decode(_ d: inout ArithmeticDecoder) -> Int? {
            var prev = 1
            func bits(_ n: Int) -> Int {
                var v = 0
                for _ in 0 ..< n {
                    let b = d.bit(&cx[prev])
                    prev = prev < 256 ? (prev << 1) | b : (((prev << 1) | b) & 511) | 256
                    v = (v << 1) | b
                }
                return v
            }
            let sign = bits(1)
            let v: Int
            if bits(1) == 0 { v = bits(2) }
            else if bits(1) == 0 { v = bits(4) + 4 }
            else if bits(1) == 0 { v = bits(6) + 20 }
            else if bits(1) == 0 { v = bits(8) + 84 }
            else if bits(1) == 0 { v = bits(12) + 340 }
            else { v = bits(32) + 4436 }
            if sign == 0 { return v }
            return v > 0 ? -v : nil
        }
    }

    /// The symbol ID decoding procedure (IAID, Annex A.3).
    struct IDContexts {
        var cx: [UInt8]
        let length: Int
        init(length: Int) {
            self.length = length
            cx = [UInt8](repeating: 0, count: 1 << min(length + 1, 24))
        }
        mutating func decode(_ d: inout ArithmeticDecoder) -> Int {
            var prev = 1
            for _ in 0 ..< length { prev = (prev << 1) | d.bit(&cx[prev]) }
            return prev & ((1 << length) - 1)
        }
    }
}
