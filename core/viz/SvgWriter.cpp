#include "core/viz/SvgWriter.h"

#include <cstdio>

namespace tilescope::viz {

namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string paint(const char* attr, const Color& c) {
  std::string s = std::string(" ") + attr + "=\"" + c.hex() + "\"";
  if (c.a != 255) s += std::string(" ") + attr + "-opacity=\"" + num(c.a / 255.0) + "\"";
  return s;
}

}  // namespace

std::string SvgWriter::write(const Scene& scene) {
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                  num(scene.width()) + "\" height=\"" + num(scene.height()) + "\" viewBox=\"0 0 " + num(scene.width()) +
                  " " + num(scene.height()) + "\" font-family=\"DejaVu Sans, sans-serif\">\n";
  s += "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
       "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#000\" "
       "stroke-opacity=\"0.6\" stroke-width=\"1.5\"/></pattern>\n"
       "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
       "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker></defs>\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  for (const SceneItem& item : scene.items()) {
    if (const auto* r = std::get_if<SceneRect>(&item)) {
      const std::string geo = "x=\"" + num(r->x) + "\" y=\"" + num(r->y) + "\" width=\"" + num(r->w) + "\" height=\"" + num(r->h) + "\"";
      s += "<rect " + geo + paint("fill", r->fill);
      if (r->stroke.a) s += paint("stroke", r->stroke) + " stroke-width=\"" + num(r->strokeWidth) + "\"";
      s += "/>\n";
      if (r->hatched) s += "<rect " + geo + " fill=\"url(#hatch)\"/>\n";
    } else if (const auto* l = std::get_if<SceneLine>(&item)) {
      s += "<line x1=\"" + num(l->x1) + "\" y1=\"" + num(l->y1) + "\" x2=\"" + num(l->x2) + "\" y2=\"" + num(l->y2) + "\"" +
           paint("stroke", l->color) + " stroke-width=\"" + num(l->width) + "\"" +
           (l->arrow ? " marker-end=\"url(#arrow)\"" : "") + "/>\n";
    } else if (const auto* t = std::get_if<SceneText>(&item)) {
      const char* anchor = t->align == TextAlign::Center ? "middle" : t->align == TextAlign::Right ? "end" : "start";
      s += "<text x=\"" + num(t->x) + "\" y=\"" + num(t->y) + "\" font-size=\"" + num(t->size) + "\" text-anchor=\"" + anchor +
           "\"" + paint("fill", t->color) + (t->bold ? " font-weight=\"bold\"" : "") + ">" + escape(t->text) + "</text>\n";
    }
  }
  s += "</svg>\n";
  return s;
}

}  // namespace tilescope::viz
