import CCairo
import CFreeType
#if canImport(Glibc)
import Glibc
#endif

/// The process's FreeType library. Creating and freeing faces takes the lock (FreeType asks
/// callers to serialise those two on one library); everything else works on a face alone.
final class FreeTypeLibrary: @unchecked Sendable {
    static let shared = FreeTypeLibrary()
    let library: FT_Library?
    private var mutex = pthread_mutex_t()

    private init() {
        var lib: FT_Library? = nil
        if FT_Init_FreeType(&lib) != 0 { lib = nil }
        library = lib
        pthread_mutex_init(&mutex, nil)
    }

    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }
}

/// What a Cairo font face owns: the FreeType face and the font bytes it reads from, freed when
/// Cairo drops its last reference to the face (its caches may outlive the document).
private final class FaceOwner {
    let face: FT_Face
    let bytes: UnsafeMutablePointer<UInt8>
    init(face: FT_Face, bytes: UnsafeMutablePointer<UInt8>) {
        self.face = face
        self.bytes = bytes
    }
    deinit {
        let f = face
        FreeTypeLibrary.shared.locked { _ = FT_Done_Face(f) }
        bytes.deallocate()
    }
}

/// The key under which a Cairo font face keeps its ``FaceOwner``.
nonisolated(unsafe) private let faceOwnerKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

/// A font program loaded into FreeType, with the Cairo font face that draws it (hinting off).
final class LoadedFace {
    let face: FT_Face
    let cairoFace: OpaquePointer
    /// The font program's size in bytes (for the cache's budget).
    let byteCount: Int

    /// Loads a font program (Type 1, CFF, TrueType, OpenType) from memory; nil when FreeType cannot.
    init?(bytes: [UInt8]) {
        guard let lib = FreeTypeLibrary.shared.library, !bytes.isEmpty else { return nil }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        var face: FT_Face? = nil
        let err = FreeTypeLibrary.shared.locked { FT_New_Memory_Face(lib, copy, bytes.count, 0, &face) }
        guard err == 0, let face else { copy.deallocate(); return nil }
        let flags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)
        guard let cf = cairo_ft_font_face_create_for_ft_face(face, flags),
              cairo_font_face_status(cf) == CAIRO_STATUS_SUCCESS else {
            FreeTypeLibrary.shared.locked { _ = FT_Done_Face(face) }
            copy.deallocate()
            return nil
        }
        let owner = Unmanaged.passRetained(FaceOwner(face: face, bytes: copy)).toOpaque()
        let status = cairo_font_face_set_user_data(cf, faceOwnerKey, owner) { p in
            if let p { Unmanaged<AnyObject>.fromOpaque(p).release() }
        }
        if status != CAIRO_STATUS_SUCCESS {
            Unmanaged<AnyObject>.fromOpaque(owner).release()
            cairo_font_face_destroy(cf)
            return nil
        }
        self.face = face
        self.cairoFace = cf
        self.byteCount = bytes.count
    }

    deinit { cairo_font_face_destroy(cairoFace) }

    var glyphCount: Int { Int(face.pointee.num_glyphs) }

    /// Whether the font is a CID-keyed CFF (glyphs are asked for by CID).
    var isCIDKeyed: Bool { bubbles_ft_is_cid_keyed(face) != 0 }

    var hasGlyphNames: Bool { bubbles_ft_has_glyph_names(face) != 0 }

    /// The glyph index of a glyph name (0 when the font has no such name).
    func glyph(named name: String) -> UInt32 {
        guard hasGlyphNames else { return 0 }
        return name.withCString { UInt32(FT_Get_Name_Index(face, $0)) }
    }

    /// Selects the charmap of a platform and encoding; false when the font has none.
    @discardableResult
    func selectCharmap(platform: UInt16, encoding: UInt16) -> Bool {
        let n = Int(face.pointee.num_charmaps)
        guard n > 0, let maps = face.pointee.charmaps else { return false }
        for i in 0 ..< n {
            if let cm = maps[i], cm.pointee.platform_id == platform, cm.pointee.encoding_id == encoding {
                return FT_Set_Charmap(face, cm) == 0
            }
        }
        return false
    }

    /// Selects a charmap by FreeType's encoding tag; false when the font has none.
    @discardableResult
    func selectEncoding(_ e: FT_Encoding) -> Bool { FT_Select_Charmap(face, e) == 0 }

    func hasCharmap(platform: UInt16, encoding: UInt16) -> Bool {
        let n = Int(face.pointee.num_charmaps)
        guard n > 0, let maps = face.pointee.charmaps else { return false }
        for i in 0 ..< n {
            if let cm = maps[i], cm.pointee.platform_id == platform, cm.pointee.encoding_id == encoding { return true }
        }
        return false
    }

    /// The glyph index of a character code in the selected charmap (0 when none).
    func glyph(forCode c: UInt32) -> UInt32 { UInt32(FT_Get_Char_Index(face, FT_ULong(c))) }

    /// A glyph's horizontal advance in 1/1000 em, nil when the glyph does not load.
    func advance(_ gid: UInt32) -> Double? {
        let upem = Double(face.pointee.units_per_EM)
        guard FT_Load_Glyph(face, gid, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { return nil }
        let adv = Double(face.pointee.glyph.pointee.metrics.horiAdvance)
        return upem > 0 ? adv * 1000 / upem : adv
    }
}

/// Finds the free fonts that stand in for fonts a PDF names without embedding, through fontconfig:
/// Liberation (metric-compatible with Helvetica, Times and Courier), DejaVu Sans for Symbol and
/// ZapfDingbats through Unicode, Noto Sans CJK for CJK fonts.
enum SubstituteFonts {
    /// A substitute's file, by family and style, cached for the process.
    nonisolated(unsafe) private static var files: [String: [UInt8]] = [:]
    private static let lock = FreeTypeLibrary.shared

    /// The font file's bytes of `family` in the given weight and slant; nil when fontconfig does
    /// not find that family.
    static func bytes(family: String, bold: Bool, italic: Bool) -> [UInt8]? {
        let key = "\(family)|\(bold)|\(italic)"
        return lock.locked { () -> [UInt8]? in
            if let b = files[key] { return b.isEmpty ? nil : b }
            var found: [UInt8] = []
            if let path = match(family: family, bold: bold, italic: italic), let data = readFile(path) { found = data }
            files[key] = found
            return found.isEmpty ? nil : found
        }
    }

    private static func match(family: String, bold: Bool, italic: Bool) -> String? {
        guard let pat = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pat) }
        _ = family.withCString { FcPatternAddString(pat, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        FcPatternAddInteger(pat, FC_WEIGHT, bold ? Int32(FC_WEIGHT_BOLD) : Int32(FC_WEIGHT_REGULAR))
        FcPatternAddInteger(pat, FC_SLANT, italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
        FcConfigSubstitute(nil, pat, FcMatchPattern)
        FcDefaultSubstitute(pat)
        var result = FcResultNoMatch
        guard let m = FcFontMatch(nil, pat, &result) else { return nil }
        defer { FcPatternDestroy(m) }
        var fam: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(m, FC_FAMILY, 0, &fam) == FcResultMatch, let fam,
              String(cString: fam).lowercased() == family.lowercased() else { return nil }
        var file: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        return String(cString: file)
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_size > 0, st.st_size < 64 << 20 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < out.count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, $0.count - got, off_t(got)) }
            if n <= 0 { return nil }
            got += n
        }
        return out
    }
}
