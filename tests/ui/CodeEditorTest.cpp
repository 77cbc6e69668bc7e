#include <gtest/gtest.h>

#include <Qsci/qsciscintilla.h>

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include "tests/ui/UiTestSupport.h"
#include "ui/CodeEditor.h"
#include "ui/Resources.h"
#include "ui/TritonApis.h"

using tilescope::ui::CodeEditor;
using tilescope::ui::DiagnosticSeverity;

namespace {
// Names the completion list must offer, from the issue's list.
const char* const kRequiredNames[] = {
    "tl.program_id", "tl.num_programs", "tl.arange", "tl.zeros", "tl.full", "tl.zeros_like", "tl.full_like",
    "tl.load", "tl.store", "tl.atomic_add", "tl.atomic_max", "tl.atomic_min", "tl.atomic_xchg", "tl.atomic_cas",
    "tl.dot", "tl.trans", "tl.permute", "tl.reshape", "tl.expand_dims", "tl.broadcast_to", "tl.sum", "tl.max",
    "tl.min", "tl.argmax", "tl.argmin", "tl.cumsum", "tl.exp", "tl.exp2", "tl.log", "tl.log2", "tl.sqrt",
    "tl.rsqrt", "tl.abs", "tl.sin", "tl.cos", "tl.sigmoid", "tl.fdiv", "tl.maximum", "tl.minimum", "tl.where",
    "tl.clamp", "tl.cdiv", "tl.swizzle2d", "tl.multiple_of", "tl.max_contiguous", "tl.cast", "tl.rand",
    "tl.randn", "tl.randint", "tl.static_print", "tl.static_assert", "tl.device_print", "tl.device_assert",
    "tl.debug_barrier", "tl.constexpr", "tl.range", "tl.static_range", "tl.float16", "tl.bfloat16", "tl.float32",
    "tl.int32", "tl.int64", "triton.jit", "triton.autotune", "triton.Config", "triton.heuristics", "triton.cdiv",
    "triton.next_power_of_2", "triton.testing.do_bench", "triton.testing.perf_report", "triton.testing.Benchmark",
    "torch.tensor", "torch.arange", "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.rand",
    "torch.randn", "torch.randint", "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like",
    "torch.rand_like", "torch.randn_like", "torch.manual_seed", "torch.float16", "torch.bfloat16", "torch.float32",
    "torch.float64", "torch.int8", "torch.int16", "torch.int32", "torch.int64", "torch.uint8", "torch.bool",
    "torch.matmul", "torch.softmax", "torch.exp", "torch.sqrt", "torch.where", "torch.clamp", "torch.allclose",
    "torch.testing.assert_close", "torch.cuda.synchronize"};

QStringList apiEntries() {
  tilescope::ui::ensureResourcesLoaded();
  QFile file(":/api/triton.api");
  EXPECT_TRUE(file.open(QIODevice::ReadOnly | QIODevice::Text));
  QStringList entries;
  for (const QString& line : QString::fromUtf8(file.readAll()).split('\n'))
    if (!line.trimmed().isEmpty() && !line.startsWith('#')) entries << line.trimmed();
  return entries;
}
}  // namespace

TEST(CodeEditor, ApiListCoversTheTritonAndTorchSurface) {
  const QStringList entries = apiEntries();
  for (const char* name : kRequiredNames) {
    const QString prefix = QString::fromLatin1(name);
    const bool found = std::any_of(entries.begin(), entries.end(), [&](const QString& e) {
      return e == prefix || e.startsWith(prefix + '(');
    });
    EXPECT_TRUE(found) << "missing from resources/api/triton.api: " << name;
  }
  // Every callable entry has a balanced call-tip signature.
  for (const QString& entry : entries) {
    if (entry.contains('(')) {
      EXPECT_TRUE(entry.endsWith(')')) << entry.toStdString();
    }
  }
  EXPECT_EQ(tilescope::ui::TritonApis::entryCount(), entries.size());
}

TEST(CodeEditor, CompletesTlNamesWhileTyping) {
  ASSERT_TRUE(tilescope::testing::waitUntil([] { return tilescope::ui::TritonApis::isPrepared(); }));
  CodeEditor editor(CodeEditor::Language::Python);
  editor.resize(600, 200);
  editor.show();
  editor.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&editor));
  editor.setFocus();
  QTest::keyClicks(&editor, "x = tl.lo");
  ASSERT_TRUE(tilescope::testing::waitUntil([&] { return editor.isListActive(); }, 3000))
      << "a pause after tl.lo offers tl.load, tl.log, tl.log2";
  QTest::keyClick(&editor, Qt::Key_Tab);  // accept the first entry
  EXPECT_EQ(editor.text().toStdString(), "x = tl.load");
  EXPECT_EQ(editor.lines(), 1);
}

TEST(CodeEditor, ShowsCallTipWithTheDocumentedSignature) {
  ASSERT_TRUE(tilescope::testing::waitUntil([] { return tilescope::ui::TritonApis::isPrepared(); }));
  CodeEditor editor(CodeEditor::Language::Python);
  editor.resize(600, 200);
  editor.show();
  editor.setText("tl.store");
  editor.setCursorPosition(0, 8);
  QTest::keyClicks(&editor, "(");
  EXPECT_TRUE(editor.isCallTipActive());
}

TEST(CodeEditor, DiagnosticMarksTheExactSpotAndEditingClearsIt) {
  CodeEditor editor(CodeEditor::Language::Python);
  editor.setText("x = 1\ny = tl.lod(p)\n");
  const int heightBefore = editor.heightForContents();
  editor.showDiagnostic(2, 8, "AttributeError: module has no attribute 'lod'", DiagnosticSeverity::Error);
  EXPECT_EQ(editor.diagnosticCount(), 1);
  // The annotation sits under line 2 with a caret under column 8.
  const QString note = editor.annotation(1);
  EXPECT_TRUE(note.contains("AttributeError")) << note.toStdString();
  EXPECT_TRUE(note.startsWith(QString(7, ' ') + "^")) << note.toStdString();
  EXPECT_TRUE(editor.annotation(0).isEmpty());
  EXPECT_GT(editor.heightForContents(), heightBefore) << "the cell grows to show the message";
  // The squiggle covers "lod" (columns 8-10), not its neighbours.
  const long lineStart = editor.positionFromLineIndex(1, 0);
  auto marked = [&](int column) {
    return editor.SendScintilla(QsciScintilla::SCI_INDICATORALLONFOR, static_cast<unsigned long>(lineStart + column)) != 0;
  };
  EXPECT_FALSE(marked(6));
  EXPECT_TRUE(marked(7));
  EXPECT_TRUE(marked(9));
  EXPECT_FALSE(marked(10));

  editor.insertAt("#", 0, 0);
  EXPECT_EQ(editor.diagnosticCount(), 0);
  EXPECT_TRUE(editor.annotation(1).isEmpty());
  EXPECT_EQ(editor.heightForContents(), heightBefore);
}

TEST(CodeEditor, TheCaretOfAnIndentedLinePointsAtTheColumn) {
  // Boxed annotations start at the line's indentation: the caret counts from there.
  CodeEditor editor(CodeEditor::Language::Python);
  editor.setText("def ratio(a, b):\n    return a / b\n");
  editor.showDiagnostic(2, 5, "ZeroDivisionError: division by zero", DiagnosticSeverity::Error);
  EXPECT_TRUE(editor.annotation(1).startsWith("^ ZeroDivisionError")) << editor.annotation(1).toStdString();
  editor.clearDiagnostics();
  editor.showDiagnostic(2, 14, "here", DiagnosticSeverity::Error);  // the "b" after "/ "
  EXPECT_TRUE(editor.annotation(1).startsWith(QString(9, ' ') + "^ here")) << editor.annotation(1).toStdString();
  // A column inside the indentation points at its start.
  editor.clearDiagnostics();
  editor.showDiagnostic(2, 2, "inside", DiagnosticSeverity::Error);
  EXPECT_TRUE(editor.annotation(1).startsWith("^ inside")) << editor.annotation(1).toStdString();
}

TEST(CodeEditor, DiagnosticsBeyondTheTextStayInside) {
  CodeEditor editor(CodeEditor::Language::Python);
  editor.setText("a");
  editor.showDiagnostic(9, 40, "somewhere past the end", DiagnosticSeverity::Warning);
  EXPECT_TRUE(editor.annotation(0).contains("somewhere past the end"));
  editor.showDiagnostic(1, 0, "whole line", DiagnosticSeverity::Info);
  EXPECT_EQ(editor.diagnosticCount(), 2);
  EXPECT_TRUE(editor.annotation(0).contains("whole line"));
}

TEST(CodeEditor, PythonEditingAidsAreOn) {
  CodeEditor editor(CodeEditor::Language::Python);
  EXPECT_TRUE(editor.autoIndent());
  EXPECT_TRUE(editor.indentationGuides());
  EXPECT_EQ(editor.braceMatching(), QsciScintilla::SloppyBraceMatch);
  EXPECT_EQ(editor.marginType(0), QsciScintilla::NumberMargin);
  EXPECT_GT(editor.marginWidth(0), 0);
  editor.setText("def f():");
  editor.setCursorPosition(0, 8);
  QTest::keyClick(&editor, Qt::Key_Return);
  QTest::keyClicks(&editor, "return 1");
  EXPECT_TRUE(editor.text().endsWith("\n    return 1")) << editor.text().toStdString();
}
