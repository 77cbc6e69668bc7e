#pragma once
// Asked the first time a notebook's own "run_on" SSH host would be used: a notebook someone sent must
// not make the app connect to a host the user never approved. Names the host, port, identity file and
// remote command, and offers Connect (remembered in Preferences), Run here instead, or Cancel.
#include <QDialog>

#include "ui/RunOnTarget.h"

namespace tilescope::ui {

class RunOnApprovalDialog : public QDialog {
  Q_OBJECT
public:
  enum class Choice { Connect, RunHere, Cancel };

  explicit RunOnApprovalDialog(const RunOnTarget& target, QWidget* parent = nullptr);
  Choice choice() const { return choice_; }

private:
  Choice choice_ = Choice::Cancel;
};

}  // namespace tilescope::ui
