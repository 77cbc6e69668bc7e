#pragma once
// Golden-file comparison for every test folder. With TILESCOPE_UPDATE_GOLDEN=1 a golden file that
// differs from the output (or is missing) is rewritten instead of compared, and the test is marked
// skipped with the file's name: an update run never reports a rewritten comparison as a pass.
// Files that already match are compared as usual and pass.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace tilescope::golden {

enum class GoldenOutcome { Matches, Differs, Missing, Rewritten, WriteFailed };

inline bool goldenUpdateRequested() {
  const char* update = std::getenv("TILESCOPE_UPDATE_GOLDEN");
  return update && std::string(update) == "1";
}

inline std::string readGoldenFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Compares `actual` with the file at `path`; when `update` is set and they differ, rewrites the file.
// No gtest reporting: expectGolden() below does that.
inline GoldenOutcome compareOrUpdateGolden(const std::filesystem::path& path, const std::string& actual, bool update) {
  namespace fs = std::filesystem;
  const bool exists = fs::exists(path);
  if (exists && readGoldenFile(path) == actual) return GoldenOutcome::Matches;
  if (!update) return exists ? GoldenOutcome::Differs : GoldenOutcome::Missing;
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << actual;
  out.close();
  return out && readGoldenFile(path) == actual ? GoldenOutcome::Rewritten : GoldenOutcome::WriteFailed;
}

// Compares `actual` with the golden file at `path`. `what` names the output in failure messages.
inline void expectGoldenFile(const std::filesystem::path& path, const std::string& actual, const std::string& what = "output") {
  switch (compareOrUpdateGolden(path, actual, goldenUpdateRequested())) {
    case GoldenOutcome::Matches: return;
    case GoldenOutcome::Missing:
      ADD_FAILURE() << "missing golden file " << path.string() << " for " << what
                    << " (run with TILESCOPE_UPDATE_GOLDEN=1 to write it, then review it)";
      return;
    case GoldenOutcome::Differs:
      EXPECT_EQ(readGoldenFile(path), actual)
          << what << " differs from golden file " << path.string()
          << " (if the change is intended, rerun with TILESCOPE_UPDATE_GOLDEN=1 and review the diff)";
      return;
    case GoldenOutcome::WriteFailed: ADD_FAILURE() << "could not rewrite golden file " << path.string(); return;
    case GoldenOutcome::Rewritten:
      GTEST_SKIP() << "TILESCOPE_UPDATE_GOLDEN=1 rewrote golden file " << path.string()
                   << " (nothing compared; review the diff)";
  }
}

// Compares `actual` with tests/golden/<relative>.
inline void expectGolden(const std::string& relative, const std::string& actual, const std::string& what = "output") {
  expectGoldenFile(std::filesystem::path(TILESCOPE_TEST_DATA_DIR) / "golden" / relative, actual, what);
}

}  // namespace tilescope::golden
