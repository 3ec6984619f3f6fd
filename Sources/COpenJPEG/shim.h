// OpenJPEG (BSD-2-Clause): JPXDecode images. Memory streams are built from callbacks in Swift.
#include <openjpeg.h>
