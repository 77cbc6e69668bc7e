#include "core/sim/PidFilter.h"

#include <gtest/gtest.h>

namespace tilescope::sim {
namespace {

PidFilter parseOk(std::string_view text) {
  auto r = PidFilter::parse(text);
  EXPECT_TRUE(r.filter.has_value()) << text << ": " << r.error;
  return r.filter ? *r.filter : PidFilter();
}

TEST(PidFilterTest, EmptyMatchesEverything) {
  EXPECT_TRUE(parseOk("").matchesAll());
  EXPECT_TRUE(parseOk("  ").matchesAll());
  EXPECT_TRUE(parseOk(",,").matchesAll());
  EXPECT_TRUE(parseOk("").matches({5, 6, 7}));
}

// The seed tutorial's own asserts on test_pid_conds.
TEST(PidFilterTest, SeedShortForm) {
  EXPECT_TRUE(parseOk(">0").matches({1, 1, 0}));
  EXPECT_FALSE(parseOk(">0").matches({0, 1, 0}));
  EXPECT_TRUE(parseOk("=0,=1").matches({0, 1, 0}));
  EXPECT_FALSE(parseOk("=0,=1").matches({0, 0, 0}));
  EXPECT_TRUE(parseOk(",>1").matches({0, 2, 0}));
  EXPECT_FALSE(parseOk(",>1").matches({5, 1, 0}));
  EXPECT_TRUE(parseOk(">1,=0").matches({2, 0, 0}));
  EXPECT_TRUE(parseOk(",,!=3").matches({0, 0, 2}));
  EXPECT_FALSE(parseOk(",,!=3").matches({0, 0, 3}));
  EXPECT_TRUE(parseOk("<=2, >=1").matches({2, 1, 0}));
  EXPECT_FALSE(parseOk("<2").matches({2, 0, 0}));
}

TEST(PidFilterTest, NamedForm) {
  const PidFilter f = parseOk("pid_0 > 1, pid_1 == 0");
  EXPECT_TRUE(f.matches({2, 0, 0}));
  EXPECT_FALSE(f.matches({1, 0, 0}));
  EXPECT_FALSE(f.matches({2, 1, 0}));
  EXPECT_EQ(f.str(), "pid_0 > 1, pid_1 == 0");
  EXPECT_TRUE(parseOk("pid == 3").matches({3, 9, 9}));
  EXPECT_TRUE(parseOk("pid_2 = 1 and pid_0 < 4").matches({3, 0, 1}));
  EXPECT_FALSE(parseOk("pid_2 = 1 and pid_0 < 4").matches({4, 0, 1}));
  EXPECT_TRUE(parseOk("pid_0 > -1").matches({0, 0, 0}));
  // Mixed: the positional part counts its position.
  EXPECT_TRUE(parseOk("pid_2 == 1, >0").matches({0, 1, 1}));
}

void expectError(std::string_view text, std::string_view fragment, int column) {
  auto r = PidFilter::parse(text);
  EXPECT_FALSE(r.filter.has_value()) << text;
  EXPECT_NE(r.error.find(fragment), std::string::npos) << text << " -> " << r.error;
  EXPECT_EQ(r.column, column) << text << " -> " << r.error;
}

TEST(PidFilterTest, ClearErrors) {
  expectError("pid_3 > 1", "pid_0, pid_1 and pid_2", 1);
  expectError("x > 1", "unknown name 'x'", 1);
  expectError("pid_0 >> 1", "unknown operator '>>'", 7);
  expectError("pid_0 1", "expected a comparison operator", 7);
  expectError("pid_0 > ", "expected a number", 9);
  expectError(">a", "expected a whole number, found 'a'", 2);
  expectError("pid_0 > 1 2", "unexpected '2'", 11);
  expectError(",,,>1", "only have pid_0, pid_1 and pid_2", 4);
  expectError("=>1", "unknown operator '=>'", 1);
}

}  // namespace
}  // namespace tilescope::sim
