#include <gtest/gtest.h>

#include "core/base/Diagnostic.h"

using namespace tilescope::lang;

TEST(Diagnostic, RendersClangStyleWithCaretUnderRange) {
  SourceFile file("k.py", "def f():\n    x = tl.arnge(0, 4)\n");
  const uint32_t begin = static_cast<uint32_t>(file.text().find("tl.arnge"));
  Diagnostic d = Diagnostic::error({&file, begin, begin + 8}, "unknown name 'tl.arnge'");
  EXPECT_EQ(d.render(),
            "k.py:2:9: error: unknown name 'tl.arnge'\n"
            "    x = tl.arnge(0, 4)\n"
            "        ^~~~~~~~\n");
}

TEST(Diagnostic, NotesFollowTheError) {
  SourceFile file("k.py", "a\nb\n");
  Diagnostic d = Diagnostic::error({&file, 2, 3}, "bad b");
  d.withNote({&file, 0, 1}, "called from here");
  EXPECT_EQ(d.render(), "k.py:2:1: error: bad b\nb\n^\nk.py:1:1: note: called from here\na\n^\n");
}

TEST(SourceFile, LineColumnHonoursFirstLine) {
  SourceFile cell("nb.ipynb[cell 3]", "x = 1\ny = 2\n", 1);
  EXPECT_EQ(cell.lineColumn(6).line, 2);
  EXPECT_EQ(cell.lineColumn(8).column, 3);
  EXPECT_EQ(cell.lineText(2), "y = 2");
  EXPECT_EQ(cell.lineText(9), "");
}

TEST(DiagnosticList, CountsOnlyErrors) {
  DiagnosticList list;
  list.add(Diagnostic::warning({}, "w"));
  EXPECT_FALSE(list.hasErrors());
  list.add(Diagnostic::error({}, "e"));
  EXPECT_EQ(list.errorCount(), 1u);
}
