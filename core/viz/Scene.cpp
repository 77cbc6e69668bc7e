#include "core/viz/Scene.h"

#include <algorithm>
#include <cstdio>

namespace tilescope::viz {

std::string Color::hex() const {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

void Scene::add(SceneItem item) { items_.push_back(std::move(item)); }

void Scene::fitTextWidth(double margin) {
  for (const SceneItem& item : items_) {
    const auto* t = std::get_if<SceneText>(&item);
    if (!t) continue;
    // Code points, not bytes (arrows are three bytes of UTF-8), at about 0.62 em each (0.68 bold).
    size_t chars = 0;
    for (unsigned char c : t->text) chars += (c & 0xC0) != 0x80;
    const double w = static_cast<double>(chars) * t->size * (t->bold ? 0.68 : 0.62);
    const double right = t->align == TextAlign::Left ? t->x + w : t->align == TextAlign::Center ? t->x + w / 2 : t->x;
    width_ = std::max(width_, right + margin);
  }
}

std::vector<std::string> Scene::texts() const {
  std::vector<std::string> out;
  for (const SceneItem& item : items_)
    if (const auto* t = std::get_if<SceneText>(&item)) out.push_back(t->text);
  return out;
}

}  // namespace tilescope::viz
