#include "core/viz/Palette.h"

#include <algorithm>
#include <cmath>

namespace tilescope::viz::palette {

namespace {

Color hsv(double h, double s, double v) {
  h = h - std::floor(h);
  const double c = v * s;
  const double x = c * (1 - std::fabs(std::fmod(h * 6, 2.0) - 1));
  const double m = v - c;
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h * 6) % 6) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  auto byte = [m](double u) { return static_cast<uint8_t>(std::lround((u + m) * 255)); };
  return {byte(r), byte(g), byte(b), 255};
}

Color mix(const Color& a, const Color& b, double t) {
  auto lerp = [t](uint8_t x, uint8_t y) { return static_cast<uint8_t>(std::lround(x + (y - x) * t)); };
  return {lerp(a.r, b.r), lerp(a.g, b.g), lerp(a.b, b.b), 255};
}

Color stops(const Color* s, int n, double t) {
  t = std::clamp(t, 0.0, 1.0) * (n - 1);
  const int i = std::min(static_cast<int>(t), n - 2);
  return mix(s[i], s[i + 1], t - i);
}

}  // namespace

Color categorical(int64_t index) {
  const double golden = 0.618033988749895;
  const double v = (index % 3 == 0) ? 0.95 : (index % 3 == 1 ? 0.82 : 0.70);
  return hsv(0.08 + golden * static_cast<double>(index), 0.55, v);
}

Color ramp(double t) {
  static const Color s[] = {{0x44, 0x01, 0x54, 255}, {0x3b, 0x52, 0x8b, 255}, {0x21, 0x91, 0x8c, 255},
                            {0x5e, 0xc9, 0x62, 255}, {0xfd, 0xe7, 0x25, 255}};
  return stops(s, 5, t);
}

Color heat(double t) {
  static const Color s[] = {{0xff, 0xff, 0xff, 255}, {0xfd, 0xae, 0x6b, 255}, {0xe6, 0x55, 0x0d, 255}, {0x7f, 0x27, 0x04, 255}};
  return stops(s, 4, t);
}

Color textOn(const Color& bg) {
  const double luma = 0.299 * bg.r + 0.587 * bg.g + 0.114 * bg.b;
  return luma > 140 ? Color{0, 0, 0, 255} : Color{255, 255, 255, 255};
}

}  // namespace tilescope::viz::palette
