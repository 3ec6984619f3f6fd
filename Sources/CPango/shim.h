// Pango on Cairo (shaping with HarfBuzz, bidirectional text with FriBidi, line breaking) and the
// fontconfig API that pins the fonts the renderer may use.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
