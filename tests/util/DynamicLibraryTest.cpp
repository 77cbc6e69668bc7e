#include <gtest/gtest.h>

#include "core/base/DynamicLibrary.h"

using tilescope::util::DynamicLibrary;

TEST(DynamicLibrary, ReportsEveryFailedCandidate) {
  DynamicLibrary lib;
  EXPECT_FALSE(lib.open({"libdoes-not-exist-1.so", "libdoes-not-exist-2.so"}));
  EXPECT_FALSE(lib.isOpen());
  EXPECT_NE(lib.error().find("libdoes-not-exist-1.so"), std::string::npos);
  EXPECT_NE(lib.error().find("libdoes-not-exist-2.so"), std::string::npos);
  EXPECT_EQ(lib.symbol("anything"), nullptr);
}

TEST(DynamicLibrary, LoadsTheFirstCandidateThatExists) {
  DynamicLibrary lib;
  ASSERT_TRUE(lib.open({"libdoes-not-exist.so", "libm.so.6"})) << lib.error();
  EXPECT_EQ(lib.path(), "libm.so.6");
  EXPECT_NE(lib.symbol("cos"), nullptr);
  DynamicLibrary moved = std::move(lib);
  EXPECT_TRUE(moved.isOpen());
  EXPECT_FALSE(lib.isOpen());  // NOLINT(bugprone-use-after-move): moved-from state is specified
}
