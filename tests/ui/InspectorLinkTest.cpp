// tilescope.check writes a "tilescope:inspect?..." link under a failed exercise; clicking it (a real
// mouse click on the link in the HTML output) selects the cell, brings the inspector to the front on
// the cell's last launch of that kernel, the tab the link names and its program.
#include <gtest/gtest.h>

#include <QAbstractTextDocumentLayout>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBlock>
#include <QUrl>

#include "tests/ui/UiTestSupport.h"
#include "ui/CodeCellWidget.h"
#include "ui/InspectorLink.h"
#include "ui/MainWindow.h"
#include "ui/NotebookModel.h"
#include "ui/NotebookView.h"
#include "ui/OutputArea.h"
#include "ui/RichTextView.h"
#include "ui/viz/InspectorDock.h"
#include "ui/viz/InspectorPanel.h"

using tilescope::testing::waitUntil;
using tilescope::ui::InspectorLink;
using tilescope::ui::ProgramId;

namespace {

// Where the first anchor of a rich output is drawn, in its viewport's coordinates.
QPoint anchorPoint(tilescope::ui::RichTextView* view) {
  QTextDocument* doc = view->document();
  for (QTextBlock block = doc->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it)
      if (it.fragment().charFormat().isAnchor()) {
        QTextCursor cursor(doc);
        cursor.setPosition(it.fragment().position() + 1);
        return view->cursorRect(cursor).center();
      }
  return {-1, -1};
}

}  // namespace

TEST(InspectorLink, ParsesKernelTabAndProgram) {
  const auto link = InspectorLink::parse(QUrl("tilescope:inspect?kernel=add_k&tab=tiles&pid=2,1"));
  ASSERT_TRUE(link.has_value());
  EXPECT_EQ(link->kernel, "add_k");
  EXPECT_EQ(link->tab, "tiles");
  ASSERT_TRUE(link->program.has_value());
  EXPECT_EQ(*link->program, (std::array<int64_t, 3>{2, 1, 0}));
  EXPECT_FALSE(InspectorLink::parse(QUrl("tilescope:inspect?kernel=k&pid=1,x")).has_value());
  EXPECT_FALSE(InspectorLink::parse(QUrl("tilescope:inspect?tab=grid")).has_value()) << "no kernel";
  EXPECT_FALSE(InspectorLink::parse(QUrl("https://example.org/inspect?kernel=k")).has_value());
  EXPECT_FALSE(InspectorLink::parse(QUrl("tilescope:inspect?kernel=k&pid=1,2,3,4")).has_value());
}

TEST(InspectorLink, ClickingTheLinkOpensTheInspectorOnTheLaunchAndProgram) {
  tilescope::ui::MainWindow w;
  w.resize(1300, 900);
  w.show();
  auto* panel = w.inspectorDock()->panel();
  auto* client = w.executionClient();
  const QString code =
      "import torch\nimport triton\nimport triton.language as tl\n"
      "@triton.jit\ndef first_k(x_ptr, B: tl.constexpr):\n"
      "    i = tl.program_id(0) * B + tl.arange(0, B)\n"
      "    tl.store(x_ptr + i, tl.load(x_ptr + i) + 1)\n"
      "@triton.jit\ndef second_k(x_ptr, B: tl.constexpr):\n"
      "    i = tl.program_id(0) * B + tl.arange(0, B)\n"
      "    tl.store(x_ptr + i, tl.load(x_ptr + i) * 2)\n"
      "x = torch.ones(8)\nfirst_k[(4,)](x, 2)\nsecond_k[(4,)](x, 2)\nfirst_k[(4,)](x, 2)\n";
  w.model()->insertCell(0, tilescope::notebook::CellType::Code, code);
  w.model()->insertCell(1, tilescope::notebook::CellType::Code, "print('another cell')");
  const QString id = w.model()->cellId(0);
  w.notebookView()->select(0);
  QSignalSpy finished(client, &tilescope::ui::ExecutionClient::cellFinished);
  client->runCell(id, code, tilescope::ui::Backend::Simulator);
  ASSERT_TRUE(finished.wait(30000)) << "the cell did not finish";
  ASSERT_TRUE(waitUntil([&] { return panel->launchList()->count() == 3; }, 10000));

  // What tilescope.check shows under the cell: program 2 of the last first_k launch, Tiles tab.
  w.model()->appendOutput(0, {{"output_type", "display_data"}, {"metadata", nlohmann::json::object()},
                              {"data", {{"text/html", "<a href=\"tilescope:inspect?kernel=first_k&amp;tab=tiles&amp;pid=2\">"
                                                      "Open program (2,) in the inspector</a>"},
                                        {"text/plain", "Open program (2,) in the inspector"}}}});
  w.notebookView()->flushPendingOutputs();
  // The user looks at another cell and another tab first.
  w.notebookView()->select(1);
  panel->tabs()->setCurrentIndex(panel->tabs()->count() - 1);
  ASSERT_EQ(panel->launchList()->count(), 0);

  auto* area = w.notebookView()->codeCell(id)->outputArea();
  auto* view = qobject_cast<tilescope::ui::RichTextView*>(area->outputWidget(area->outputCount() - 1));
  ASSERT_NE(view, nullptr);
  w.notebookView()->scrollToSelected();
  QTest::qWait(50);
  const QPoint at = anchorPoint(view);
  ASSERT_GE(at.x(), 0) << "no link drawn";
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);

  ASSERT_TRUE(waitUntil([&] { return w.notebookView()->selectedCellId() == id; }, 5000)) << "the cell is selected";
  ASSERT_EQ(panel->launchList()->count(), 3);
  EXPECT_EQ(panel->launchList()->currentRow(), 2) << "the last launch of first_k";
  EXPECT_EQ(panel->tabs()->tabText(panel->tabs()->currentIndex()), "Tiles");
  ASSERT_TRUE(waitUntil([&] { return panel->currentProgram().has_value(); }, 5000));
  EXPECT_EQ(*panel->currentProgram(), (ProgramId{2, 0, 0}));
  EXPECT_TRUE(w.inspectorDock()->isVisible());

  // A kernel the cell never launched: the inspector says so.
  EXPECT_FALSE(panel->openLink(id, *InspectorLink::parse(QUrl("tilescope:inspect?kernel=third_k"))));
  EXPECT_TRUE(panel->statusLabel()->text().contains("no launch of third_k")) << panel->statusLabel()->text().toStdString();
}
