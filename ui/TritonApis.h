#pragma once
// The completion and call-tip list for tl., triton. and torch. (resources/api/triton.api), loaded and
// prepared once and shared by the lexers of all code cells.
class QsciAbstractAPIs;

namespace tilescope::ui {

class TritonApis {
public:
  static QsciAbstractAPIs* shared();
  // Preparation runs on a QScintilla thread; completion works once it has finished.
  static bool isPrepared();
  static int entryCount();
};

}  // namespace tilescope::ui
