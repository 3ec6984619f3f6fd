import BubbleDashboard
import CCairo

/// A Cairo ARGB32 (premultiplied, native-endian) image surface that this module owns.
public final class RenderedImage {
    /// The `cairo_surface_t`.
    public let surface: OpaquePointer
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// A new transparent image; throws if Cairo cannot allocate it.
    public convenience init(width: Int, height: Int) throws {
        try self.init(width: width, height: height, format: CAIRO_FORMAT_ARGB32)
    }

    init(width: Int, height: Int, format: cairo_format_t) throws {
        guard let s = cairo_image_surface_create(format, Int32(width), Int32(height)) else {
            throw RenderError.cairo(file: nil, status: "cairo_image_surface_create returned nil")
        }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.cairo(file: nil, status: String(cString: cairo_status_to_string(status)))
        }
        surface = s
        self.width = width
        self.height = height
    }

    /// Takes ownership of an image surface (ARGB32 or RGB24).
    init(adopting s: OpaquePointer) {
        surface = s
        width = Int(cairo_image_surface_get_width(s))
        height = Int(cairo_image_surface_get_height(s))
    }

    deinit { cairo_surface_destroy(surface) }

    /// Bytes per row (at least `width * 4`).
    public var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    var isARGB32: Bool { cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32 }

    /// The raw premultiplied pixels (call after drawing; flushes Cairo).
    public func withPixels<R>(_ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) throws -> R) rethrows -> R {
        cairo_surface_flush(surface)
        let p = cairo_image_surface_get_data(surface)!
        let r = try body(p, stride)
        cairo_surface_mark_dirty(surface)
        return r
    }

    /// The pixel at (x, y) as raw premultiplied components.
    public func pixel(x: Int, y: Int) -> (a: UInt8, r: UInt8, g: UInt8, b: UInt8) {
        cairo_surface_flush(surface)
        let p = cairo_image_surface_get_data(surface)! + y * stride
        let v = UnsafeRawPointer(p).load(fromByteOffset: 4 * x, as: UInt32.self)
        return (UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
    }

    /// PNG bytes from this module's fast encoder (libdeflate `level`, 0 to 12; no row filter).
    public func fastPNG(level: Int32 = 1) throws -> [UInt8] {
        try PNGEncoder(level: level).encode(self)
    }


    /// PNG bytes from Cairo's own writer (`cairo_surface_write_to_png_stream`): the reference path.
    public func cairoPNG() throws -> [UInt8] {
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(surface, byteSinkWrite, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(file: nil, status: String(cString: cairo_status_to_string(status)))
        }
        return sink.bytes
    }

    /// Writes a PNG atomically (temporary file in the same folder, then rename).
    public func writePNG(to path: String, encoder: PNGEncoderChoice = .fast, using fs: FileSystemCalls = .system) throws {
        let bytes: [UInt8]
        do {
            bytes = try encoder == .fast ? fastPNG() : cairoPNG()
        } catch RenderError.cairo(_, let status) {
            throw RenderError.cairo(file: path, status: status)
        }
        try AtomicFile.write(bytes, to: path, using: fs)
    }

    /// Decodes a PNG with Cairo (`cairo_image_surface_create_from_png_stream`).
    public static func decodePNG(_ bytes: [UInt8]) throws -> RenderedImage {
        let source = PNGReadCursor(bytes)
        let s = cairo_image_surface_create_from_png_stream(pngBytesRead, Unmanaged.passUnretained(source).toOpaque())!
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.cairo(file: nil, status: String(cString: cairo_status_to_string(status)))
        }
        return RenderedImage(adopting: s)
    }

    /// Decodes a PNG file with Cairo.
    public static func readPNG(path: String) throws -> RenderedImage {
        let s = cairo_image_surface_create_from_png(path)!
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            throw RenderError.cairo(file: path, status: String(cString: cairo_status_to_string(status)))
        }
        return RenderedImage(adopting: s)
    }

    /// The largest difference of any premultiplied channel between two images of the same size, and
    /// how many pixels differ by more than `tolerance`. Nil if the sizes differ. RGB24 pixels count as
    /// opaque.
    public func difference(to other: RenderedImage, tolerance: Int = 0) -> (maxDelta: Int, pixelsOver: Int)? {
        guard width == other.width, height == other.height else { return nil }
        let aOpaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        let bOpaque = cairo_image_surface_get_format(other.surface) == CAIRO_FORMAT_RGB24
        var maxDelta = 0
        var over = 0
        withPixels { pa, sa in
            other.withPixels { pb, sb in
                for y in 0..<height {
                    let ra = UnsafeRawPointer(pa + y * sa), rb = UnsafeRawPointer(pb + y * sb)
                    for x in 0..<width {
                        var va = ra.load(fromByteOffset: 4 * x, as: UInt32.self)
                        var vb = rb.load(fromByteOffset: 4 * x, as: UInt32.self)
                        if aOpaque { va |= 0xFF00_0000 }
                        if bOpaque { vb |= 0xFF00_0000 }
                        if va == vb { continue }
                        var d = 0
                        for shift in Swift.stride(from: 0, to: 32, by: 8) {
                            d = max(d, abs(Int((va >> UInt32(shift)) & 0xFF) - Int((vb >> UInt32(shift)) & 0xFF)))
                        }
                        maxDelta = max(maxDelta, d)
                        if d > tolerance { over += 1 }
                    }
                }
            }
        }
        return (maxDelta, over)
    }
}

/// Which PNG writer to use.
public enum PNGEncoderChoice: Sendable, Hashable {
    /// This module's encoder: libdeflate level 1, unfiltered rows. Several times faster.
    case fast
    /// `cairo_surface_write_to_png_stream`.
    case cairo
}

/// The bytes Cairo writes through `byteSinkWrite` (a PNG being encoded).
final class ByteSink {
    var bytes: [UInt8] = []
}

/// Bytes Cairo reads through `pngBytesRead`, from the start (a PNG being decoded). Not the PDF
/// reader's `ByteSource`, which reads files.
final class PNGReadCursor {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}

let byteSinkWrite: cairo_write_func_t = { closure, data, length in
    let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
    if let data, length > 0 {
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
    }
    return CAIRO_STATUS_SUCCESS
}

let pngBytesRead: cairo_read_func_t = { closure, data, length in
    let source = Unmanaged<PNGReadCursor>.fromOpaque(closure!).takeUnretainedValue()
    let n = Int(length)
    guard source.offset + n <= source.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
    source.bytes.withUnsafeBufferPointer { buf in
        data.update(from: buf.baseAddress! + source.offset, count: n)
    }
    source.offset += n
    return CAIRO_STATUS_SUCCESS
}
