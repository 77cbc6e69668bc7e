// util::ArgumentBinding: each row is a def's parameter list, a call's shape and what CPython 3.11
// says for `def f(<spec>): pass` called that way (checked with python3 when the table was written).
#include "core/base/ArgumentBinding.h"

#include <gtest/gtest.h>

namespace tilescope::util {
namespace {

using From = ArgumentSource::From;

struct ErrorCase {
  const char* spec;
  size_t positional;
  std::vector<std::string_view> keywords;
  const char* message;  // "" when the call binds
  BindingError::At at = BindingError::At::Call;
  size_t index = 0;
};

TEST(ArgumentBinding, ErrorsUseCPythonsWords) {
  using At = BindingError::At;
  const ErrorCase cases[] = {
      {"x, y", 2, {}, ""},
      {"x, y", 1, {}, "f() missing 1 required positional argument: 'y'"},
      {"a, b, c", 0, {}, "f() missing 3 required positional arguments: 'a', 'b', and 'c'"},
      {"a, b, c", 1, {}, "f() missing 2 required positional arguments: 'b' and 'c'"},
      {"a, b", 0, {"b"}, "f() missing 1 required positional argument: 'a'"},
      {"a", 2, {}, "f() takes 1 positional argument but 2 were given", At::Positional, 1},
      {"a, b", 3, {}, "f() takes 2 positional arguments but 3 were given", At::Positional, 2},
      {"", 1, {}, "f() takes 0 positional arguments but 1 was given", At::Positional, 0},
      {"a, b=1", 3, {}, "f() takes from 1 to 2 positional arguments but 3 were given", At::Positional, 2},
      {"a=1", 2, {}, "f() takes from 0 to 1 positional arguments but 2 were given", At::Positional, 1},
      {"a, *, b", 2, {"b"}, "f() takes 1 positional argument but 2 positional arguments (and 1 keyword-only argument) were given",
       At::Positional, 1},
      {"a", 2, {"a"}, "f() got multiple values for argument 'a'", At::Keyword, 0},
      {"a", 1, {"b"}, "f() got an unexpected keyword argument 'b'", At::Keyword, 0},
      // Keywords are checked before the count of positional arguments, as in CPython.
      {"a", 2, {"b"}, "f() got an unexpected keyword argument 'b'", At::Keyword, 0},
      {"a, b", 0, {"a", "c"}, "f() got an unexpected keyword argument 'c'", At::Keyword, 1},
      {"*, k", 0, {}, "f() missing 1 required keyword-only argument: 'k'"},
      {"*, k, j", 0, {}, "f() missing 2 required keyword-only arguments: 'k' and 'j'"},
      {"x, *args, y", 3, {}, "f() missing 1 required keyword-only argument: 'y'"},
      {"a, /", 0, {"a"}, "f() got some positional-only arguments passed as keyword arguments: 'a'", At::Keyword, 0},
      {"a, b, /", 0, {"a", "b"}, "f() got some positional-only arguments passed as keyword arguments: 'a, b'", At::Keyword, 0},
      {"a, /, **kw", 1, {"a"}, ""},
      {"*args", 0, {"args"}, "f() got an unexpected keyword argument 'args'", At::Keyword, 0},
      {"*args, **kw", 5, {"x", "y"}, ""},
  };
  for (const ErrorCase& c : cases) {
    const ArgumentBinding b = ArgumentBinding::bind("f", parseParameterList(c.spec), c.positional, c.keywords);
    const std::string what = std::string("def f(") + c.spec + ") with " + std::to_string(c.positional) + " positional";
    if (!*c.message) {
      EXPECT_TRUE(b.ok()) << what << ": " << (b.ok() ? "" : b.error().message);
      continue;
    }
    ASSERT_FALSE(b.ok()) << what;
    EXPECT_EQ(b.error().message, c.message) << what;
    EXPECT_EQ(b.error().at, c.at) << what;
    EXPECT_EQ(b.error().index, c.index) << what;
  }
}

TEST(ArgumentBinding, SourcesSayWhereEachValueComesFrom) {
  const auto params = parseParameterList("a, b=2, *rest, c, d=4, **kw");
  const ArgumentBinding b = ArgumentBinding::bind("f", params, 4, {"extra", "c", "more"});
  ASSERT_TRUE(b.ok()) << b.error().message;
  ASSERT_EQ(b.sources().size(), 6u);
  EXPECT_EQ(b.sources()[0].from, From::Positional);
  EXPECT_EQ(b.sources()[0].index, 0u);
  EXPECT_EQ(b.sources()[1].from, From::Positional);
  EXPECT_EQ(b.sources()[1].index, 1u);
  EXPECT_EQ(b.sources()[2].from, From::Packed);
  EXPECT_EQ(b.packedPositional(), (std::vector<size_t>{2, 3}));
  EXPECT_EQ(b.sources()[3].from, From::Keyword);
  EXPECT_EQ(b.sources()[3].index, 1u);
  EXPECT_EQ(b.sources()[4].from, From::Default);
  EXPECT_EQ(b.sources()[5].from, From::Packed);
  EXPECT_EQ(b.packedKeywords(), (std::vector<size_t>{0, 2}));
}

TEST(ArgumentBinding, UnexpectedKeywordListsTheAcceptedNames) {
  const ArgumentBinding b = ArgumentBinding::bind("tl.load", parseParameterList("pointer, mask=None, /, *, other=None"), 0,
                                                  {"maks"});
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().keyword, "maks");
  EXPECT_EQ(b.error().acceptedKeywords, (std::vector<std::string>{"other"}));
}

TEST(ArgumentBinding, ParsesParameterLists) {
  const auto params = parseParameterList("x, /, sep=', ', *args, end='\\n', flag=True, **kw");
  ASSERT_EQ(params.size(), 6u);
  EXPECT_EQ(params[0].kind, ParameterKind::PositionalOnly);
  EXPECT_EQ(params[1].name, "sep");
  EXPECT_EQ(params[1].kind, ParameterKind::Normal);
  EXPECT_TRUE(params[1].hasDefault);
  EXPECT_EQ(params[1].defaultText, "', '") << "a comma inside quotes does not split";
  EXPECT_EQ(params[2].kind, ParameterKind::VarPositional);
  EXPECT_EQ(params[2].name, "args");
  EXPECT_EQ(params[3].kind, ParameterKind::KeywordOnly);
  EXPECT_EQ(params[4].defaultText, "True");
  EXPECT_EQ(params[5].kind, ParameterKind::VarKeyword);
  EXPECT_EQ(params[5].name, "kw");
  EXPECT_FALSE(params[0].hasDefault);
  EXPECT_TRUE(parseParameterList("").empty());
}

}  // namespace
}  // namespace tilescope::util
