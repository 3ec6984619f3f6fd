// FreeType (PDF fonts), Cairo's FreeType font backend, and fontconfig (finding the substitutes of
// the standard-14 fonts that a PDF names without embedding).
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include FT_TYPE1_TABLES_H
#include FT_OUTLINE_H
#include FT_CID_H
#include <fontconfig/fontconfig.h>
#include <cairo/cairo.h>
#include <cairo/cairo-ft.h>

// FT_Err_Ok and friends are an enum in a header macro soup that Swift does not import.
static inline int bubbles_ft_has_glyph_names(FT_Face face) { return FT_HAS_GLYPH_NAMES(face) ? 1 : 0; }
static inline int bubbles_ft_is_cid_keyed(FT_Face face) {
    FT_Bool cid = 0;
    if (FT_Get_CID_Is_Internally_CID_Keyed(face, &cid) != 0) return 0;
    return cid ? 1 : 0;
}
