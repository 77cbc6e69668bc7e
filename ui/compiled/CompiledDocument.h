#pragma once
// The Compiled tab's door into core (as ui/viz/TraceDocument is the inspector's): one kernel and
// specialization compiled by core/compiled (source, IR after each pass, CUDA, PTX, SASS, resources)
// and the line map between them, in Qt types. Widgets of ui/compiled see only this class.
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace tilescope::compiled {
struct CompiledView;
}

namespace tilescope::ui {

class CompiledDocument {
public:
  // The code cells of a notebook, in order: (file name for messages, e.g. "<cell:ID>", code).
  using Cells = QList<QPair<QString, QString>>;

  struct Request {
    Cells cells;
    QString kernel;
    QString signature;  // "*fp32,*fp32,*fp32,i32,1024" (core/compiled/Signature.h)
    int numWarps = 4;
    int numStages = 3;
    QString arch;  // "" = the GPU's, else sm_90
    bool driverResources = true;
    bool sass = true;  // false: the SASS comes later, from withSass()
  };

  // The @triton.jit functions the cells define (cells that do not parse are left out).
  static QStringList kernelsIn(const Cells& cells);
  // A signature for `kernel` from the cells' launch of it; options are set when the launch passes them.
  static QString suggestSignature(const Cells& cells, const QString& kernel, int* numWarps, int* numStages);

  // Compiles; slow (NVRTC), so call it off the UI thread. `progress(step, done, total)` is called on
  // that thread. Null with `error` set when the kernel cannot be compiled.
  static std::shared_ptr<const CompiledDocument> compile(const Request& request,
                                                         const std::function<void(QString, int, int)>& progress,
                                                         QString* error);

  // The SASS was not asked for yet (a disassembler may take most of a second): withSass() adds it.
  bool sassPending() const;
  // This compilation with its SASS; slow (a process start), so call it off the UI thread.
  static std::shared_ptr<const CompiledDocument> withSass(const CompiledDocument& document);

  // The panes. Lines are 1-based; Source is the kernel's definition, numbered from sourceFirstLine().
  enum class Pane { Source, Ir, Cuda, Ptx, Sass };
  QString kernel() const;
  QString title() const;  // "grouped_matmul_k[*fp16,...] num_warps=4 num_stages=3 sm_90"
  QString source() const;
  int sourceFirstLine() const;
  QStringList irStages() const;  // "checker", then each pass
  QString irText(int stage) const;
  QString cuda() const;
  QString ptx() const;          // or why there is none
  QString sass() const;         // or why there is none
  bool hasPtx() const;
  bool hasSass() const;
  QString resourcesText() const;  // resources, occupancy and tensor-core instructions, one per line
  QString cacheHit() const;       // "", "memory", "disk"

  // Lines of `pane` that came from the source line `sourceLine` (a line number of the Source pane).
  QList<int> linesFor(Pane pane, int sourceLine, int irStage = 0) const;
  // The Source pane's line that `line` of `pane` came from; 0 for none (or another cell's line).
  int sourceLineOf(Pane pane, int line, int irStage = 0) const;

  // Rows (figure, left, right) comparing two compilations (core/compiled/ResourceComparison).
  static QList<QStringList> compare(const CompiledDocument& left, const CompiledDocument& right);

  ~CompiledDocument();

private:
  CompiledDocument() = default;
  std::shared_ptr<const compiled::CompiledView> view_;
};

}  // namespace tilescope::ui
