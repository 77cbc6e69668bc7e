#include "ui/TritonApis.h"

#include "ui/Resources.h"

#include <Qsci/qsciapis.h>
#include <Qsci/qscilexerpython.h>

#include <QCoreApplication>
#include <QFile>
#include <QTextStream>

namespace tilescope::ui {
namespace {
struct SharedApis {
  QsciAPIs* apis = nullptr;
  bool prepared = false;
  int entries = 0;
};

SharedApis& state() {
  static SharedApis shared;
  if (shared.apis) return shared;
  ensureResourcesLoaded();
  // QsciAPIs belongs to a lexer; this hidden one lives as long as the application, and each
  // editor's own lexer points at the same prepared list.
  static QsciLexerPython* owner = new QsciLexerPython;
  shared.apis = new QsciAPIs(owner);
  // Preparation runs on a thread that reads the lexer: stop it while the lexer still exists, or an
  // app that quits at once (a --screenshot run) crashes on exit.
  qAddPostRoutine([] {
    state().apis->cancelPreparation();
    delete owner;
  });
  QFile file(QStringLiteral(":/api/triton.api"));
  if (file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    QTextStream in(&file);
    while (!in.atEnd()) {
      const QString line = in.readLine().trimmed();
      if (line.isEmpty() || line.startsWith('#')) continue;
      shared.apis->add(line);
      ++shared.entries;
    }
  }
  QObject::connect(shared.apis, &QsciAPIs::apiPreparationFinished, [] { state().prepared = true; });
  shared.apis->prepare();
  return shared;
}
}  // namespace

QsciAbstractAPIs* TritonApis::shared() { return state().apis; }
bool TritonApis::isPrepared() { return state().prepared; }
int TritonApis::entryCount() { return state().entries; }

}  // namespace tilescope::ui
