#include "ui/RunOnDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tilescope::ui {

RunOnDialog::RunOnDialog(const RunOnTarget& current, Scope scope, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Run On"));
  setObjectName(QStringLiteral("runOnDialog"));
  auto* column = new QVBoxLayout(this);
  local_ = new QRadioButton(tr("This &machine"), this);
  local_->setObjectName(QStringLiteral("runOnLocal"));
  remote_ = new QRadioButton(tr("An &SSH host (its tilescope-cli worker, over the system ssh)"), this);
  remote_->setObjectName(QStringLiteral("runOnRemote"));
  column->addWidget(local_);
  column->addWidget(remote_);

  auto* form = new QFormLayout;
  host_ = new QLineEdit(current.host, this);
  host_->setObjectName(QStringLiteral("runOnHost"));
  host_->setPlaceholderText(tr("user@gpu-box, or a Host alias of ~/.ssh/config"));
  form->addRow(tr("&Host:"), host_);
  port_ = new QSpinBox(this);
  port_->setObjectName(QStringLiteral("runOnPort"));
  port_->setRange(0, 65535);
  port_->setSpecialValueText(tr("default"));
  port_->setValue(current.port);
  form->addRow(tr("&Port:"), port_);
  auto* keyRow = new QHBoxLayout;
  identityFile_ = new QLineEdit(current.identityFile, this);
  identityFile_->setObjectName(QStringLiteral("runOnIdentityFile"));
  identityFile_->setPlaceholderText(tr("optional: ~/.ssh/id_ed25519 (else the agent's keys)"));
  auto* browse = new QPushButton(tr("Browse..."), this);
  keyRow->addWidget(identityFile_, 1);
  keyRow->addWidget(browse);
  auto* keyLabel = new QLabel(tr("&Identity file:"), this);
  keyLabel->setBuddy(identityFile_);  // a row holding a layout gets no buddy from QFormLayout
  form->addRow(keyLabel, keyRow);
  remoteCommand_ = new QLineEdit(current.remoteCommand, this);
  remoteCommand_->setObjectName(QStringLiteral("runOnRemoteCommand"));
  remoteCommand_->setToolTip(tr("tilescope-cli's name in the host's PATH, or its full path there"));
  form->addRow(tr("&Remote command:"), remoteCommand_);
  scope_ = new QComboBox(this);
  scope_->setObjectName(QStringLiteral("runOnScope"));
  scope_->addItem(tr("This notebook (saved in it)"));
  scope_->addItem(tr("All notebooks without a setting of their own"));
  scope_->setCurrentIndex(scope == Scope::ThisNotebook ? 0 : 1);
  form->addRow(tr("&Apply to:"), scope_);
  column->addLayout(form);

  auto* note = new QLabel(tr("tilescope runs `ssh -T -o BatchMode=yes HOST tilescope-cli worker`: it uses your SSH keys "
                             "and agent and never asks for or stores a password. Accept the host's key once in a terminal "
                             "(`ssh HOST`) first."),
                          this);
  note->setWordWrap(true);
  column->addWidget(note);
  problem_ = new QLabel(this);
  problem_->setObjectName(QStringLiteral("runOnProblem"));
  problem_->setWordWrap(true);
  problem_->setStyleSheet(QStringLiteral("color: #b00020;"));
  problem_->hide();
  column->addWidget(problem_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  column->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &RunOnDialog::tryAccept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("SSH private key"), QDir::homePath() + QStringLiteral("/.ssh"));
    if (!path.isEmpty()) identityFile_->setText(path);
  });
  (current.isRemote() ? remote_ : local_)->setChecked(true);
  connect(remote_, &QRadioButton::toggled, this, &RunOnDialog::updateEnabled);
  updateEnabled();
  resize(560, sizeHint().height());
}

void RunOnDialog::updateEnabled() {
  for (QWidget* w : {static_cast<QWidget*>(host_), static_cast<QWidget*>(port_), static_cast<QWidget*>(identityFile_),
                     static_cast<QWidget*>(remoteCommand_)})
    w->setEnabled(remote_->isChecked());
  if (remote_->isChecked() && host_->text().isEmpty()) host_->setFocus();
}

RunOnTarget RunOnDialog::target() const {
  if (!remote_->isChecked()) return {};
  RunOnTarget t;
  t.host = host_->text().trimmed();
  t.port = port_->value();
  t.identityFile = identityFile_->text().trimmed();
  t.remoteCommand = remoteCommand_->text().trimmed().isEmpty() ? QStringLiteral("tilescope-cli") : remoteCommand_->text().trimmed();
  return t;
}

RunOnDialog::Scope RunOnDialog::scope() const { return scope_->currentIndex() == 0 ? Scope::ThisNotebook : Scope::AllNotebooks; }

void RunOnDialog::tryAccept() {
  const RunOnTarget t = target();
  if (const QString problem = t.validate(); !problem.isEmpty()) {
    problem_->setText(problem);
    problem_->show();
    return;  // the dialog stays open with what to fix
  }
  emit applied(t, scope());
  accept();
}

}  // namespace tilescope::ui
