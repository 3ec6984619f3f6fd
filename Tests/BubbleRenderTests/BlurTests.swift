@testable import BubbleRender
import Testing

/// `BoxBlur` against the plain definition: each pass a running sum along a row (or a column) with
/// zero edges, rounded to 8 bits, three horizontal passes then three vertical.
@Suite struct BlurTests {
    /// The definition, one pixel at a time.
    static func reference(_ image: [UInt8], width: Int, height: Int, channels: Int, radius: Int, passes: Int = 3) -> [UInt8] {
        var p = image
        let mul = (1 << 24) / (2 * radius + 1)
        func at(_ x: Int, _ y: Int, _ c: Int) -> Int { (y * width + x) * channels + c }
        for horizontal in [true, false] {
            for _ in 0..<passes {
                let source = p
                for y in 0..<height {
                    for x in 0..<width {
                        for c in 0..<channels {
                            var sum = 0
                            for d in -radius...radius {
                                let (sx, sy) = horizontal ? (x + d, y) : (x, y + d)
                                if sx >= 0 && sx < width && sy >= 0 && sy < height { sum += Int(source[at(sx, sy, c)]) }
                            }
                            p[at(x, y, c)] = UInt8((sum * mul + (1 << 23)) >> 24)
                        }
                    }
                }
            }
        }
        return p
    }

    @Test(arguments: [(1, 37, 23, 3), (1, 16, 16, 1), (4, 33, 19, 4), (4, 5, 40, 2), (4, 64, 7, 6), (1, 1, 9, 2)])
    func matchesTheDefinition(_ shape: (channels: Int, width: Int, height: Int, radius: Int)) {
        let (channels, width, height, radius) = shape
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(width * 31 + height)
        var image = [UInt8](repeating: 0, count: width * height * channels)
        for i in image.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            image[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        if channels == 4 {
            // Premultiplied: no colour above its alpha.
            for px in 0..<(width * height) {
                let a = image[px * 4 + 3]
                for c in 0..<3 { image[px * 4 + c] = UInt8(Int(image[px * 4 + c]) % (Int(a) + 1)) }
            }
        }
        let expected = Self.reference(image, width: width, height: height, channels: channels, radius: radius)
        // In a buffer whose rows are longer than the image (a stride with padding).
        let stride = width * channels + 5
        var buffer = [UInt8](repeating: 0xAB, count: stride * height)
        for y in 0..<height {
            for i in 0..<(width * channels) { buffer[y * stride + i] = image[y * width * channels + i] }
        }
        // 16 bytes at a time (release builds) and a byte at a time (debug builds).
        for vectorised in [true, false] {
            var blurred = buffer
            blurred.withUnsafeMutableBufferPointer {
                BoxBlur.blur($0.baseAddress!, width: width, height: height, stride: stride, channels: channels, radius: radius, passes: 3,
                             vectorised: vectorised)
            }
            var got: [UInt8] = []
            for y in 0..<height { got += blurred[(y * stride)..<(y * stride + width * channels)] }
            #expect(got == expected, "vectorised: \(vectorised)")
            // The padding is untouched.
            for y in 0..<height { #expect(blurred[(y * stride + width * channels)..<((y + 1) * stride)].allSatisfy { $0 == 0xAB }) }
        }
    }

    /// Images whose rows repeat in runs (a shadow's empty margins and straight middle), where only
    /// the distinct rows go through the horizontal passes: still the definition, to the bit.
    @Test(arguments: [(1, 40, 60, 3), (4, 21, 50, 2), (1, 17, 90, 5), (4, 9, 33, 1)])
    func rowsThatRepeatMatchTheDefinition(_ shape: (channels: Int, width: Int, height: Int, radius: Int)) {
        let (channels, width, height, radius) = shape
        let rowBytes = width * channels
        var state: UInt64 = 0xD1B5_4A32_D192_ED03 &* UInt64(width * 17 + height)
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var image: [UInt8] = []
        var row = [UInt8](repeating: 0, count: rowBytes)
        while image.count < rowBytes * height {
            // A new row (zeros now and then), repeated 1 to 12 times.
            if next() % 4 == 0 {
                row = [UInt8](repeating: 0, count: rowBytes)
            } else {
                for i in row.indices { row[i] = UInt8(truncatingIfNeeded: next()) }
                if channels == 4 {
                    for px in 0..<width { for c in 0..<3 { row[px * 4 + c] = UInt8(Int(row[px * 4 + c]) % (Int(row[px * 4 + 3]) + 1)) } }
                }
            }
            for _ in 0..<(1 + Int(next() % 12)) where image.count < rowBytes * height { image += row }
        }
        let expected = Self.reference(image, width: width, height: height, channels: channels, radius: radius)
        for vectorised in [true, false] {
            var got = image
            got.withUnsafeMutableBufferPointer {
                BoxBlur.blur($0.baseAddress!, width: width, height: height, stride: rowBytes, channels: channels, radius: radius, passes: 3,
                             vectorised: vectorised)
            }
            #expect(got == expected, "vectorised: \(vectorised)")
        }
    }
}
