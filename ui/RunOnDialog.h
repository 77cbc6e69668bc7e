#pragma once
// Run > Run On...: where cells run, this machine or an SSH host (user@host, port, identity file, the
// path of tilescope-cli there), for this notebook (saved in its metadata) or as the default of all
// notebooks (Preferences). Never asks for a password: SSH keys and the agent only.
#include <QDialog>

#include "ui/RunOnTarget.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;

namespace tilescope::ui {

class RunOnDialog : public QDialog {
  Q_OBJECT
public:
  enum class Scope { ThisNotebook, AllNotebooks };

  RunOnDialog(const RunOnTarget& current, Scope scope, QWidget* parent = nullptr);
  RunOnTarget target() const;
  Scope scope() const;

signals:
  // OK with a valid target: the caller stores and applies it.
  void applied(const tilescope::ui::RunOnTarget& target, tilescope::ui::RunOnDialog::Scope scope);

private:
  void updateEnabled();
  void tryAccept();

  QRadioButton* local_;
  QRadioButton* remote_;
  QLineEdit* host_;
  QSpinBox* port_;
  QLineEdit* identityFile_;
  QLineEdit* remoteCommand_;
  QComboBox* scope_;
  QLabel* problem_;
};

}  // namespace tilescope::ui
