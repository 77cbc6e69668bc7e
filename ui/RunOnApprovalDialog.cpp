#include "ui/RunOnApprovalDialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tilescope::ui {

RunOnApprovalDialog::RunOnApprovalDialog(const RunOnTarget& target, QWidget* parent) : QDialog(parent) {
  setObjectName(QStringLiteral("runOnApprovalDialog"));
  setWindowTitle(tr("Run this notebook on %1?").arg(target.displayName()));
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(tr("This notebook asks to run its cells on another machine over SSH. Connect only if you "
                              "know and trust this host: the cells' code runs there as your user."),
                           this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  // Plain text: the values come from a file someone may have sent, never rendered as markup.
  auto* details = new QLabel(this);
  details->setObjectName(QStringLiteral("runOnApprovalDetails"));
  details->setTextFormat(Qt::PlainText);
  details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details->setText(tr("Host: %1\nPort: %2\nIdentity file: %3\nRemote command: %4 worker")
                       .arg(target.host, target.port > 0 ? QString::number(target.port) : tr("ssh's default"),
                            target.identityFile.isEmpty() ? tr("ssh's default (keys and agent)") : target.identityFile,
                            target.remoteCommand));
  layout->addWidget(details);
  auto* note = new QLabel(tr("Connect is remembered for this host; change it later with Run > Run On..."), this);
  note->setWordWrap(true);
  layout->addWidget(note);

  auto* buttons = new QDialogButtonBox(this);
  QPushButton* connectButton = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
  connectButton->setObjectName(QStringLiteral("approveConnect"));
  QPushButton* hereButton = buttons->addButton(tr("Run &here instead"), QDialogButtonBox::ActionRole);
  hereButton->setObjectName(QStringLiteral("approveRunHere"));
  QPushButton* cancelButton = buttons->addButton(QDialogButtonBox::Cancel);
  cancelButton->setObjectName(QStringLiteral("approveCancel"));
  // Safe by default: Enter does not connect.
  cancelButton->setDefault(true);
  cancelButton->setFocus();
  connect(connectButton, &QPushButton::clicked, this, [this] {
    choice_ = Choice::Connect;
    accept();
  });
  connect(hereButton, &QPushButton::clicked, this, [this] {
    choice_ = Choice::RunHere;
    accept();
  });
  connect(cancelButton, &QPushButton::clicked, this, &QDialog::reject);
  layout->addWidget(buttons);
}

}  // namespace tilescope::ui
