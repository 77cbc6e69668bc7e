#pragma once
// The places a traceback points at, made clickable. NotebookController writes a frame inside a
// notebook cell as "Cell [3], line 2, column 5: ..." (its execution count) or "Cell 4, line 2, ..."
// (its position, when it has no count yet); other files stay "file:line:col: ...". linkify() turns
// the cell part of such lines into links, parse() reads a link back, and the notebook view moves the
// cursor there when one is clicked.
#include <QString>
#include <optional>

namespace tilescope::ui {

struct TracebackLink {
  enum class CellBy { ExecutionCount, Position };
  CellBy by = CellBy::ExecutionCount;
  int cell = 0;    // the execution count, or the 1-based position of the cell
  int line = 0;    // 1-based
  int column = 0;  // 1-based; 0 = unknown

  static constexpr const char* kScheme = "tilescope-cell";

  QString href() const;
  static std::optional<TracebackLink> parse(const QString& href);
  // The link a traceback line starts with, if any.
  static std::optional<TracebackLink> fromTracebackLine(const QString& line);
  // HTML for a whole error text: escaped, lines kept, and every "Cell ..., line L, column C" a link.
  static QString linkify(const QString& plainText);
};

}  // namespace tilescope::ui
