#include "core/viz/PngWriter.h"

#if TILESCOPE_HAVE_CAIRO
#include <cairo.h>
#endif

namespace tilescope::viz {

bool PngWriter::available() { return SceneRaster::available(); }

bool PngWriter::write(const Scene& scene, const std::string& path, std::string* error, double scale) {
  const std::optional<Raster> raster = SceneRaster::render(scene, scale, error);
  return raster && write(*raster, path, error);
}

#if TILESCOPE_HAVE_CAIRO

bool PngWriter::write(const Raster& raster, const std::string& path, std::string* error) {
  // cairo only reads the pixels; the const_cast is for its C signature.
  auto* data = reinterpret_cast<unsigned char*>(const_cast<uint32_t*>(raster.pixels.data()));
  cairo_surface_t* surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, raster.width, raster.height, raster.width * 4);
  const cairo_status_t status = cairo_surface_write_to_png(surface, path.c_str());
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS) {
    if (error) *error = "cannot write " + path + ": " + cairo_status_to_string(status);
    return false;
  }
  return true;
}

#else

bool PngWriter::write(const Raster&, const std::string&, std::string* error) {
  if (error) *error = "this build has no PNG support (install libcairo2-dev and rebuild); write an .svg file instead";
  return false;
}

#endif

}  // namespace tilescope::viz
