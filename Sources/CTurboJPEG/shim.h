// libjpeg-turbo's TurboJPEG API: DCTDecode images, decoded at 1/2, 1/4 or 1/8 scale when the page
// needs fewer pixels (no setjmp/longjmp error handling to bridge).
#include <turbojpeg.h>
