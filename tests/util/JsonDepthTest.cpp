#include <gtest/gtest.h>

#include <string>

#include "core/base/JsonDepth.h"

using tilescope::util::jsonNestsDeeperThan;

namespace {
std::string nested(size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }
}  // namespace

TEST(JsonDepth, CountsArraysAndObjectsUpToTheLimit) {
  EXPECT_FALSE(jsonNestsDeeperThan(nested(3), 3));
  EXPECT_TRUE(jsonNestsDeeperThan(nested(4), 3));
  EXPECT_FALSE(jsonNestsDeeperThan(R"({"a":{"b":[1]}})", 3));
  EXPECT_TRUE(jsonNestsDeeperThan(R"({"a":{"b":[{}]}})", 3));
  EXPECT_FALSE(jsonNestsDeeperThan("[[1],[2],[3],[4]]", 2)) << "siblings do not add up";
}

TEST(JsonDepth, BracketsInsideStringsAreText) {
  EXPECT_FALSE(jsonNestsDeeperThan(R"(["[[[[{{{{"])", 1));
  EXPECT_FALSE(jsonNestsDeeperThan(R"({"k\"[[[[":"]]]]"})", 1));
}

TEST(JsonDepth, StopsAtTheFirstLevelTooDeepEvenInHugeOrBrokenText) {
  EXPECT_TRUE(jsonNestsDeeperThan(std::string(1'000'000, '[')));  // unclosed, far too deep
  EXPECT_FALSE(jsonNestsDeeperThan("[[[ broken"));  // the real parse reports broken JSON
  EXPECT_FALSE(jsonNestsDeeperThan(nested(tilescope::util::kMaxJsonDepth)));
  EXPECT_TRUE(jsonNestsDeeperThan(nested(tilescope::util::kMaxJsonDepth + 1)));
}
