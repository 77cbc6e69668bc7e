#include "core/viz/SceneRaster.h"

#include <algorithm>
#include <cmath>

#if TILESCOPE_HAVE_CAIRO
#include <cairo.h>
#endif

namespace tilescope::viz {

std::pair<int, int> SceneRaster::canvasSize(const Scene& scene, double scale) {
  return {std::max(1, static_cast<int>(std::ceil(scene.width() * scale))), std::max(1, static_cast<int>(std::ceil(scene.height() * scale)))};
}

#if TILESCOPE_HAVE_CAIRO

namespace {

void setColor(cairo_t* cr, const Color& c) { cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, c.a / 255.0); }

void hatch(cairo_t* cr, const SceneRect& r) {
  cairo_save(cr);
  cairo_rectangle(cr, r.x, r.y, r.w, r.h);
  cairo_clip(cr);
  setColor(cr, r.hatch);
  cairo_set_line_width(cr, 1.2);
  // Lines at 45 degrees, 6 px apart, over the rectangle's extent.
  for (double d = -r.h; d < r.w; d += 6) {
    cairo_move_to(cr, r.x + d, r.y + r.h);
    cairo_line_to(cr, r.x + d + r.h, r.y);
  }
  cairo_stroke(cr);
  cairo_restore(cr);
}

void arrowHead(cairo_t* cr, const SceneLine& l) {
  const double angle = std::atan2(l.y2 - l.y1, l.x2 - l.x1);
  const double len = 4 + 2 * l.width;
  cairo_move_to(cr, l.x2, l.y2);
  cairo_line_to(cr, l.x2 - len * std::cos(angle - 0.45), l.y2 - len * std::sin(angle - 0.45));
  cairo_line_to(cr, l.x2 - len * std::cos(angle + 0.45), l.y2 - len * std::sin(angle + 0.45));
  cairo_close_path(cr);
  cairo_fill(cr);
}

void draw(cairo_t* cr, const Scene& scene) {
  for (const SceneItem& item : scene.items()) {
    if (const auto* r = std::get_if<SceneRect>(&item)) {
      cairo_rectangle(cr, r->x, r->y, r->w, r->h);
      setColor(cr, r->fill);
      cairo_fill(cr);
      if (r->hatched) hatch(cr, *r);
      if (r->stroke.a) {
        cairo_rectangle(cr, r->x, r->y, r->w, r->h);
        setColor(cr, r->stroke);
        cairo_set_line_width(cr, r->strokeWidth);
        cairo_stroke(cr);
      }
    } else if (const auto* l = std::get_if<SceneLine>(&item)) {
      setColor(cr, l->color);
      cairo_set_line_width(cr, l->width);
      cairo_move_to(cr, l->x1, l->y1);
      cairo_line_to(cr, l->x2, l->y2);
      cairo_stroke(cr);
      if (l->arrow) arrowHead(cr, *l);
    } else if (const auto* t = std::get_if<SceneText>(&item)) {
      cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, t->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size(cr, t->size);
      cairo_text_extents_t ext;
      cairo_text_extents(cr, t->text.c_str(), &ext);
      double x = t->x;
      if (t->align == TextAlign::Center) x -= ext.x_advance / 2;
      if (t->align == TextAlign::Right) x -= ext.x_advance;
      setColor(cr, t->color);
      cairo_move_to(cr, x, t->y);
      cairo_show_text(cr, t->text.c_str());
    }
  }
}

}  // namespace

bool SceneRaster::available() { return true; }

std::optional<Raster> SceneRaster::render(const Scene& scene, double scale, std::string* error, int minWidth, int minHeight) {
  auto [w, h] = canvasSize(scene, scale);
  w = std::max(w, minWidth);
  h = std::max(h, minHeight);
  if (w > kMaxRasterSide || h > kMaxRasterSide) {
    if (error)
      *error = "the picture would be " + std::to_string(w) + " x " + std::to_string(h) + " pixels (at most " +
               std::to_string(kMaxRasterSide) + " a side); use a smaller --scale";
    return std::nullopt;
  }
  Raster raster;
  raster.width = w;
  raster.height = h;
  raster.pixels.assign(static_cast<size_t>(w) * static_cast<size_t>(h), 0xffffffffu);
  // ARGB32 rows of w words: cairo's stride for this format is exactly 4 * w.
  cairo_surface_t* surface = cairo_image_surface_create_for_data(reinterpret_cast<unsigned char*>(raster.pixels.data()),
                                                                 CAIRO_FORMAT_ARGB32, w, h, w * 4);
  cairo_t* cr = cairo_create(surface);
  cairo_scale(cr, scale, scale);
  draw(cr, scene);
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  const cairo_status_t status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS) {
    if (error) *error = std::string("cannot draw the picture: ") + cairo_status_to_string(status);
    return std::nullopt;
  }
  return raster;
}

#else

bool SceneRaster::available() { return false; }

std::optional<Raster> SceneRaster::render(const Scene&, double, std::string* error, int, int) {
  if (error) *error = "this build has no PNG support (install libcairo2-dev and rebuild); write an .svg file instead";
  return std::nullopt;
}

#endif

}  // namespace tilescope::viz
