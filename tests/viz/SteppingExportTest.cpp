// Stepping exported for slides (core/viz/SteppingFrames, SteppingExport, GifWriter) on real traces
// of the practitioners' guide's copy_k: one frame per program or per memory operation, PNG
// sequences by name, and GIFs read back with giflib itself.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/viz/GifWriter.h"
#include "core/viz/SceneRaster.h"
#include "core/viz/SteppingExport.h"
#include "core/viz/SteppingFrames.h"
#include "tests/viz/SeedTraces.h"

#if TILESCOPE_HAVE_GIF
#include <gif_lib.h>
#endif

namespace tilescope::viz {
namespace {

namespace fs = std::filesystem;

bool contains(const std::vector<std::string>& texts, const std::string& t) {
  return std::find(texts.begin(), texts.end(), t) != texts.end();
}

std::string readFile(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Width and height from a PNG's IHDR chunk.
std::pair<int, int> pngSize(const std::string& bytes) {
  auto word = [&](size_t at) {
    return (static_cast<unsigned char>(bytes[at]) << 24) | (static_cast<unsigned char>(bytes[at + 1]) << 16) |
           (static_cast<unsigned char>(bytes[at + 2]) << 8) | static_cast<unsigned char>(bytes[at + 3]);
  };
  return bytes.size() < 24 ? std::pair{0, 0} : std::pair{word(16), word(20)};
}

class SteppingExport : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const auto lines = testing::seedLines(testing::kGuide);
    if (lines) copies_ = new std::vector<sim::LaunchTrace>(testing::copyTraces(*lines));
  }
  static void TearDownTestSuite() {
    delete copies_;
    copies_ = nullptr;
  }
  void SetUp() override {
    if (!copies_) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
    ASSERT_EQ(copies_->size(), 3u);
    dir_ = fs::temp_directory_path() / ("tilescope-stepping-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  static const sim::LaunchTrace& copy(int version) { return (*copies_)[version - 1]; }
  static SteppingFrames frames(const SteppingOptions& o, int version = 3) {
    std::string error;
    std::optional<SteppingFrames> f = SteppingFrames::make(copy(version), o, &error);
    EXPECT_TRUE(f) << error;
    return *f;
  }
  static std::vector<sim::LaunchTrace>* copies_;
  fs::path dir_;
};
std::vector<sim::LaunchTrace>* SteppingExport::copies_ = nullptr;

TEST_F(SteppingExport, OneFramePerProgramInExecutionOrder) {
  const SteppingFrames f = frames({});
  ASSERT_EQ(f.count(), 3u);  // copy_k over 6 elements with bs=2
  EXPECT_EQ(f.caption(0), "step 1 of 3: pid (0, 0, 0)");
  EXPECT_EQ(f.caption(2), "step 3 of 3: pid (2, 0, 0)");
  // Program 2's load: offsets [4 5], as the tiles view shows them.
  const auto texts = f.frame(2).texts();
  EXPECT_TRUE(contains(texts, "step 3 of 3: pid (2, 0, 0)"));
  auto offsetsOf = [](const std::vector<std::string>& t) {
    const auto at = std::find(t.begin(), t.end(), "offsets");
    return at == t.end() || t.end() - at < 3 ? std::vector<std::string>{} : std::vector<std::string>(at + 1, at + 3);
  };
  EXPECT_EQ(offsetsOf(texts), (std::vector<std::string>{"4", "5"}));
  EXPECT_EQ(offsetsOf(f.frame(0).texts()), (std::vector<std::string>{"0", "1"}));
}

TEST_F(SteppingExport, ProgramsFollowTheGivenOrderAndTheGridOutlinesEach) {
  SteppingOptions o;
  o.view = SteppingView::Grid;
  o.programs = {{2, 0, 0}, {0, 0, 0}};
  const SteppingFrames f = frames(o);
  ASSERT_EQ(f.count(), 2u);
  EXPECT_EQ(f.caption(0), "step 1 of 2: pid (2, 0, 0)");
  // The outline (transparent fill, black stroke) sits on a different cell in each frame.
  auto outlineX = [](const Scene& s) {
    for (const SceneItem& i : s.items())
      if (const auto* r = std::get_if<SceneRect>(&i); r && r->fill.a == 0) return r->x;
    return -1.0;
  };
  EXPECT_GT(outlineX(f.frame(0)), outlineX(f.frame(1)));
  EXPECT_GE(outlineX(f.frame(1)), 0);
}

TEST_F(SteppingExport, OneFramePerMemoryOperationOfAProgram) {
  SteppingOptions o;
  o.unit = SteppingUnit::Ops;
  o.program = {2, 0, 0};
  const SteppingFrames f = frames(o);
  ASSERT_EQ(f.count(), 2u);  // its load of x and its store to z
  EXPECT_NE(f.caption(0).find("load x_ptr"), std::string::npos) << f.caption(0);
  EXPECT_NE(f.caption(1).find("store z_ptr"), std::string::npos) << f.caption(1);
}

TEST_F(SteppingExport, NothingToStepIsAnErrorThatSaysWhy) {
  std::string error;
  SteppingOptions o;
  o.unit = SteppingUnit::Ops;
  o.view = SteppingView::Grid;
  EXPECT_FALSE(SteppingFrames::make(copy(3), o, &error));
  EXPECT_NE(error.find("use the tiles view"), std::string::npos) << error;
  o.view = SteppingView::Tiles;
  o.program = {7, 0, 0};
  EXPECT_FALSE(SteppingFrames::make(copy(3), o, &error));
  EXPECT_NE(error.find("program (7, 0, 0) is not in the trace"), std::string::npos) << error;
}

TEST_F(SteppingExport, FrameFileNamesSortInStepOrder) {
  EXPECT_EQ(frameFileName(0, 3), "frame-0001.png");
  EXPECT_EQ(frameFileName(9998, 9999), "frame-9999.png");
  EXPECT_EQ(frameFileName(0, 12000), "frame-00001.png");
  EXPECT_EQ(frameFileName(11999, 12000), "frame-12000.png");
  EXPECT_TRUE(isGifTarget("a/b.GIF"));
  EXPECT_FALSE(isGifTarget("frames/"));
}

TEST_F(SteppingExport, PngSequenceIsNumberedFilesOfOneSizeInANewFolder) {
  if (!SceneRaster::available()) GTEST_SKIP() << "built without cairo";
  const fs::path out = dir_ / "frames";
  const SteppingExportResult r = exportStepping(frames({}), out.string() + "/", {2, 1});
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"frame-0001.png", "frame-0002.png", "frame-0003.png"}));
  ASSERT_EQ(r.files.size(), 3u);
  for (const std::string& file : r.files) {
    const std::string bytes = readFile(file);
    EXPECT_EQ(bytes.substr(1, 3), "PNG");
    EXPECT_EQ(pngSize(bytes), std::pair(r.width, r.height)) << file;
  }
}

TEST_F(SteppingExport, RefusesAFolderThatHoldsFilesAndLeavesThemAlone) {
  if (!SceneRaster::available()) GTEST_SKIP() << "built without cairo";
  std::ofstream(dir_ / "notes.txt") << "mine";
  const SteppingExportResult r = exportStepping(frames({}), dir_.string(), {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("already holds files; give a new or empty folder"), std::string::npos) << r.error;
  EXPECT_EQ(readFile(dir_ / "notes.txt"), "mine");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(SteppingExport, CancellingLeavesNothingBehind) {
  if (!SceneRaster::available()) GTEST_SKIP() << "built without cairo";
  const fs::path out = dir_ / "cancelled";
  size_t calls = 0, lastTotal = 0;
  // Cancels after the second frame's PNG is written (progress counts sizing, then drawing).
  const SteppingExportResult r = exportStepping(frames({}), out.string(), {}, [&](size_t done, size_t total) {
    ++calls;
    lastTotal = total;
    return done < 5;
  });
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(calls, 5u);
  EXPECT_EQ(lastTotal, 6u);
  EXPECT_FALSE(fs::exists(out));
}

#if TILESCOPE_HAVE_GIF

TEST_F(SteppingExport, GifReadBackWithGiflibHasAFramePerProgramAndLoops) {
  if (!SceneRaster::available()) GTEST_SKIP() << "built without cairo";
  const fs::path out = dir_ / "programs.gif";
  const SteppingFrames f = frames({});
  const SteppingExportResult r = exportStepping(f, out.string(), {4, 1});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(readFile(out).substr(0, 6), "GIF89a");
  int code = 0;
  GifFileType* gif = DGifOpenFileName(out.string().c_str(), &code);
  ASSERT_NE(gif, nullptr) << GifErrorString(code);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK) << GifErrorString(gif->Error);
  EXPECT_EQ(gif->ImageCount, 3);
  EXPECT_EQ(gif->SWidth, r.width);
  EXPECT_EQ(gif->SHeight, r.height);
  GraphicsControlBlock control;
  ASSERT_EQ(DGifSavedExtensionToGCB(gif, 1, &control), GIF_OK);
  EXPECT_EQ(control.DelayTime, 25);  // 4 frames per second
  bool loops = false;
  for (int i = 0; i < gif->ImageCount; ++i)
    for (int e = 0; e < gif->SavedImages[i].ExtensionBlockCount; ++e) {
      const ExtensionBlock& b = gif->SavedImages[i].ExtensionBlocks[e];
      loops = loops || (b.ByteCount == 11 && std::string(reinterpret_cast<const char*>(b.Bytes), 11) == "NETSCAPE2.0");
    }
  EXPECT_TRUE(loops);
  // The first frame covers the canvas; its colours are exact where it has at most 256 of them.
  const SavedImage& first = gif->SavedImages[0];
  ASSERT_EQ(first.ImageDesc.Width, r.width);
  ASSERT_EQ(first.ImageDesc.Height, r.height);
  const std::optional<Raster> raster = SceneRaster::render(f.frame(0), 1, nullptr, r.width, r.height);
  ASSERT_TRUE(raster);
  std::set<uint32_t> distinct;
  for (uint32_t p : raster->pixels) distinct.insert(p & 0xffffff);
  const ColorMapObject* map = first.ImageDesc.ColorMap ? first.ImageDesc.ColorMap : gif->SColorMap;
  ASSERT_NE(map, nullptr);
  if (distinct.size() <= 256) {
    int wrong = 0;
    for (int y = 0; y < r.height; ++y)
      for (int x = 0; x < r.width; ++x) {
        const GifColorType c = map->Colors[first.RasterBits[static_cast<size_t>(y) * static_cast<size_t>(r.width) + static_cast<size_t>(x)]];
        const uint32_t rgb = (static_cast<uint32_t>(c.Red) << 16) | (static_cast<uint32_t>(c.Green) << 8) | c.Blue;
        wrong += rgb != (raster->at(x, y) & 0xffffff);
      }
    EXPECT_EQ(wrong, 0);
  }
  // Later frames store only what changed: smaller than the canvas.
  EXPECT_LT(static_cast<int64_t>(gif->SavedImages[1].ImageDesc.Width) * gif->SavedImages[1].ImageDesc.Height,
            static_cast<int64_t>(r.width) * r.height);
  DGifCloseFile(gif, &code);
}

TEST(GifWriter, QuantizesFramesWithMoreThan256ColoursAndRefusesOtherSizes) {
  Raster frame;
  frame.width = 64;
  frame.height = 64;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) frame.pixels.push_back(0xff000000u | (static_cast<uint32_t>(x * 4) << 16) | (static_cast<uint32_t>(y * 4) << 8) | 0x80u);
  GifWriter writer(64, 64, 10);
  std::string error;
  ASSERT_TRUE(writer.addFrame(frame, &error)) << error;  // 4096 colours
  Raster wrong = frame;
  wrong.width = 32;
  EXPECT_FALSE(writer.addFrame(wrong, &error));
  EXPECT_NE(error.find("the animation 64x64"), std::string::npos) << error;
  const fs::path out = fs::temp_directory_path() / ("tilescope-gradient-" + std::to_string(::getpid()) + ".gif");
  ASSERT_TRUE(writer.finish(out.string(), &error)) << error;
  int code = 0;
  GifFileType* gif = DGifOpenFileName(out.string().c_str(), &code);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  EXPECT_EQ(gif->ImageCount, 1);
  // Quantized: near each pixel's colour (each is unique here).
  const SavedImage& image = gif->SavedImages[0];
  const GifColorType c = image.ImageDesc.ColorMap->Colors[image.RasterBits[static_cast<size_t>(40 * 64 + 20)]];
  EXPECT_NEAR(c.Red, 20 * 4, 24);
  EXPECT_NEAR(c.Green, 40 * 4, 24);
  DGifCloseFile(gif, &code);
  fs::remove(out);
}

TEST(GifWriter, QuantizedFramesKeepTheirFlatFillsExact) {
  // A white frame with a red block and a strip of 2,048 distinct colours: more than a table holds,
  // yet the white and the red, which cover most of it, must come out exact.
  Raster frame;
  frame.width = 256;
  frame.height = 64;
  frame.pixels.assign(256 * 64, 0xffffffffu);
  for (int y = 8; y < 40; ++y)
    for (int x = 8; x < 120; ++x) frame.pixels[static_cast<size_t>(y * 256 + x)] = 0xffd62728u;
  for (int i = 0; i < 2048; ++i) frame.pixels[static_cast<size_t>(48 * 256 + i)] = 0xff000000u | static_cast<uint32_t>(i * 8191 % 0xffffff);
  GifWriter writer(256, 64, 10);
  std::string error;
  ASSERT_TRUE(writer.addFrame(frame, &error)) << error;
  const fs::path out = fs::temp_directory_path() / ("tilescope-flat-" + std::to_string(::getpid()) + ".gif");
  ASSERT_TRUE(writer.finish(out.string(), &error)) << error;
  int code = 0;
  GifFileType* gif = DGifOpenFileName(out.string().c_str(), &code);
  ASSERT_NE(gif, nullptr);
  ASSERT_EQ(DGifSlurp(gif), GIF_OK);
  const SavedImage& image = gif->SavedImages[0];
  auto rgb = [&](int x, int y) {
    const GifColorType c = image.ImageDesc.ColorMap->Colors[image.RasterBits[static_cast<size_t>(y * 256 + x)]];
    return (static_cast<uint32_t>(c.Red) << 16) | (static_cast<uint32_t>(c.Green) << 8) | c.Blue;
  };
  EXPECT_EQ(rgb(200, 20), 0xffffffu);
  EXPECT_EQ(rgb(0, 0), 0xffffffu);
  EXPECT_EQ(rgb(60, 20), 0xd62728u);
  DGifCloseFile(gif, &code);
  fs::remove(out);
}

#else

TEST(GifWriter, WithoutGiflibSaysWhatToInstall) {
  GifWriter writer(8, 8, 10);
  std::string error;
  EXPECT_FALSE(writer.finish("x.gif", &error));
  EXPECT_NE(error.find("install libgif-dev"), std::string::npos);
}

#endif

}  // namespace
}  // namespace tilescope::viz
