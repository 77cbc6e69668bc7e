#pragma once
// Colours of the inspector's views: a distinct hue per program (neighbours differ, so adjacent
// programs never blend), a perceptual ramp for ordered quantities (processing order, bytes moved,
// masked lanes) and the fixed colours of the legends.
#include <cstdint>

#include "core/viz/Scene.h"

namespace tilescope::viz::palette {

Color categorical(int64_t index);  // golden-ratio hues: program i and i+1 look different
Color ramp(double t);              // t in [0, 1]: dark blue -> teal -> yellow (viridis-like)
Color heat(double t);              // t in [0, 1]: white -> orange -> dark red
Color textOn(const Color& background);  // black or white, whichever reads better

inline const Color kUntraced{0xdd, 0xdd, 0xdd, 255};
inline const Color kNeverWritten{0xff, 0xff, 0xff, 255};
inline const Color kConflict{0xd6, 0x27, 0x28, 255};
inline const Color kActive{0x2c, 0xa0, 0x2c, 255};
inline const Color kMasked{0xc8, 0xc8, 0xc8, 255};
inline const Color kHighlight{0xff, 0x7f, 0x0e, 255};
inline const Color kGridLine{0x60, 0x60, 0x60, 255};
inline const Color kSelection{0x00, 0x00, 0x00, 255};

}  // namespace tilescope::viz::palette
