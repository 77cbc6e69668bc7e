#pragma once
// A drawing as a list of primitives (rectangles, optionally hatched; lines; text), in pixels with
// the origin top left. The inspector's views are built once as Scenes (core/viz/ViewScenes) and
// then drawn by whoever shows them: SvgWriter and PngWriter for `tilescope-cli viz`, QPainter in
// ui/viz. So the command line and the GUI draw the same pictures, and tests can check a view's
// content without Qt.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tilescope::viz {

struct Color {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Color&, const Color&) = default;
  static Color rgb(uint32_t hex) { return {uint8_t(hex >> 16), uint8_t(hex >> 8), uint8_t(hex), 255}; }
  std::string hex() const;  // "#rrggbb"
};

struct SceneRect {
  double x = 0, y = 0, w = 0, h = 0;
  Color fill{255, 255, 255, 255};
  Color stroke{0, 0, 0, 0};  // alpha 0: no outline
  double strokeWidth = 1;
  bool hatched = false;      // diagonal lines over the fill (masked-off lanes, never-written elements)
  Color hatch{0, 0, 0, 160};
};

struct SceneLine {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  Color color{0, 0, 0, 255};
  double width = 1;
  bool arrow = false;  // an arrow head at (x2, y2)
};

enum class TextAlign : uint8_t { Left, Center, Right };

struct SceneText {
  double x = 0, y = 0;  // anchor: baseline at y; x by `align`
  std::string text;
  double size = 12;
  Color color{0, 0, 0, 255};
  TextAlign align = TextAlign::Left;
  bool bold = false;
};

using SceneItem = std::variant<SceneRect, SceneLine, SceneText>;

class Scene {
public:
  Scene(double width = 0, double height = 0) : width_(width), height_(height) {}
  double width() const { return width_; }
  double height() const { return height_; }
  void setSize(double width, double height) {
    width_ = width;
    height_ = height;
  }
  void add(SceneItem item);  // out of line: inlined, gcc 12 warns falsely (-Wrestrict) on the string move
  const std::vector<SceneItem>& items() const { return items_; }
  // Widens the scene so every text fits (text widths estimated from the font size) plus `margin`.
  void fitTextWidth(double margin = 12);
  // Every text item, in drawing order (for tests and accessibility).
  std::vector<std::string> texts() const;

private:
  double width_ = 0, height_ = 0;
  std::vector<SceneItem> items_;
};

}  // namespace tilescope::viz
