import CPango
import Foundation

/// The fonts the renderer may use, and nothing else: a fontconfig configuration of the project's
/// own that accepts exactly these files from Debian's font packages (`fonts-dejavu-core`,
/// `fonts-noto-core`, `fonts-noto-cjk`, `fonts-noto-color-emoji`) and rejects every other font on
/// the machine. With it the same scene gives the same bytes on any machine with those packages, and
/// a font a user installs never changes a frame.
///
/// To add a font: add its file to `configuration` (one `<glob>` in `<acceptfont>`), its family to
/// `fallbackFamilies` (where it should come in the search for a glyph), and its Debian package to
/// `scripts/deps.sh`.
enum PinnedFonts {
    /// The font search order after the style's own family: the first family that has a glyph for a
    /// character draws it (Pango's per-glyph fallback).
    static let fallbackFamilies = [
        "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans CJK JP", "Noto Sans Thai",
        "Noto Sans Devanagari", "Noto Sans Bengali", "Noto Sans Tamil", "Noto Sans Gujarati", "Noto Sans Gurmukhi",
        "Noto Sans Telugu", "Noto Sans Kannada", "Noto Sans Malayalam", "Noto Sans Sinhala", "Noto Sans Khmer",
        "Noto Sans Lao", "Noto Sans Myanmar", "Noto Sans Armenian", "Noto Sans Georgian", "Noto Sans Ethiopic",
        "Noto Sans Symbols", "Noto Sans Symbols2", "Noto Sans Math", "Noto Color Emoji",
    ]

    /// The Debian packages that hold the pinned files.
    static let packages = ["fonts-dejavu-core", "fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji"]

    /// The fontconfig configuration (fonts.conf syntax). Caches: the system's, which Debian's font
    /// packages keep up to date, then the user's.
    static let configuration = """
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>/usr/share/fonts/truetype/dejavu</dir>
  <dir>/usr/share/fonts/truetype/noto</dir>
  <dir>/usr/share/fonts/opentype/noto</dir>
  <cachedir>/var/cache/fontconfig</cachedir>
  <cachedir prefix="xdg">fontconfig</cachedir>
  <selectfont>
    <acceptfont>
      <glob>/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf</glob>
      <glob>/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansArabic-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansHebrew-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansThai-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansBengali-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansTamil-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansGujarati-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansGujarati-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansGurmukhi-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansGurmukhi-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansTelugu-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansTelugu-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansKannada-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansKannada-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansMalayalam-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansMalayalam-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansSinhala-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansSinhala-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansKhmer-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansKhmer-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansLao-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansLao-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansMyanmar-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansMyanmar-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansArmenian-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansArmenian-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansGeorgian-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansGeorgian-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansEthiopic-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansEthiopic-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansSymbols-Bold.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoSansMath-Regular.ttf</glob>
      <glob>/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc</glob>
      <glob>/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc</glob>
      <glob>/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf</glob>
    </acceptfont>
    <rejectfont>
      <glob>*</glob>
    </rejectfont>
  </selectfont>
  <!-- The colour emoji font is a bitmap font (one strike, 109 px): scale its glyphs to the size
       asked for, as fontconfig's own 10-scale-bitmap-fonts.conf does. -->
  <match target="font">
    <test name="outline" compare="eq"><bool>false</bool></test>
    <edit name="pixelsizefixupfactor" mode="assign">
      <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
    </edit>
  </match>
  <match target="font">
    <test name="outline" compare="eq"><bool>false</bool></test>
    <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
    <edit name="matrix" mode="assign">
      <times>
        <name>matrix</name>
        <matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix>
      </times>
    </edit>
    <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
  </match>
  <alias binding="same">
    <family>emoji</family>
    <prefer><family>Noto Color Emoji</family></prefer>
  </alias>
  <alias binding="same">
    <family>sans-serif</family>
    <prefer><family>DejaVu Sans</family></prefer>
  </alias>
</fontconfig>
"""

    /// The font files `configuration` accepts.
    static var files: [String] {
        configuration.split(separator: "\n").compactMap { line -> String? in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("<glob>/"), t.hasSuffix("</glob>") else { return nil }
            return String(t.dropFirst(6).dropLast(7))
        }
    }

    /// The fontconfig configuration, built once per process and shared read-only by every
    /// renderer's font map (fontconfig's configuration objects are thread-safe; Pango's font maps
    /// are not, so each renderer has its own).
    static let shared: Result<Handle, RenderError> = build()

    /// fontconfig's configuration object, immutable once built.
    struct Handle: @unchecked Sendable {
        let config: OpaquePointer
    }

    private static func build() -> Result<Handle, RenderError> {
        let missing = files.filter { !FileManager.default.isReadableFile(atPath: $0) }
        if !missing.isEmpty {
            return .failure(.fonts("missing font files \(missing.joined(separator: ", ")); install the Debian packages \(packages.joined(separator: " "))"))
        }
        guard let config = FcConfigCreate() else { return .failure(.fonts("fontconfig could not create a configuration")) }
        let parsed = configuration.withCString { xml in
            xml.withMemoryRebound(to: FcChar8.self, capacity: configuration.utf8.count + 1) {
                FcConfigParseAndLoadFromMemory(config, $0, 1)
            }
        }
        guard parsed != 0, FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            return .failure(.fonts("fontconfig could not load the pinned font configuration"))
        }
        return .success(Handle(config: config))
    }
}
