#include "ui/NoticeBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace tilescope::ui {

NoticeBar::NoticeBar(QWidget* parent) : QFrame(parent), theme_(Theme::lightTheme()) {
  setObjectName(QStringLiteral("noticeBar"));
  setAutoFillBackground(true);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(12, 6, 6, 6);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("noticeText"));
  message_->setWordWrap(true);
  // Notices quote file names and notebook contents: never taken for HTML (an <img> in a file name
  // would make the label read that path, on the UI thread).
  message_->setTextFormat(Qt::PlainText);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row->addWidget(message_, 1);
  buttonRow_ = new QHBoxLayout;
  row->addLayout(buttonRow_);
  auto* close = new QToolButton(this);
  close->setText(QStringLiteral("\u2715"));
  close->setToolTip(tr("Dismiss"));
  close->setAutoRaise(true);
  connect(close, &QToolButton::clicked, this, &NoticeBar::dismiss);
  row->addWidget(close);
  hide();
}

void NoticeBar::showNotice(Kind kind, const QString& text, const QList<Button>& buttons) {
  kind_ = kind;
  message_->setText(text);
  qDeleteAll(buttons_);
  buttons_.clear();
  for (const Button& button : buttons) {
    auto* push = new QPushButton(button.label, this);
    connect(push, &QPushButton::clicked, this, [this, action = button.action] {
      dismiss();
      if (action) action();
    });
    buttonRow_->addWidget(push);
    buttons_ << push;
  }
  applyColours();
  show();
}

void NoticeBar::dismiss() {
  hide();
  // Deleted later: dismiss() may run inside one of these buttons' clicked handlers.
  for (QPushButton* button : std::exchange(buttons_, {})) button->deleteLater();
}

QString NoticeBar::text() const { return message_->text(); }

void NoticeBar::setTheme(const Theme& theme) {
  theme_ = theme;
  applyColours();
}

void NoticeBar::applyColours() {
  QPalette palette = this->palette();
  const bool error = kind_ == Kind::Error;
  palette.setColor(QPalette::Window,
                   error ? theme_.errorBackground : kind_ == Kind::Warning ? theme_.noticeBackground : theme_.infoBackground);
  palette.setColor(QPalette::WindowText, error ? theme_.errorText : theme_.noticeText);
  setPalette(palette);
  message_->setPalette(palette);
}

}  // namespace tilescope::ui
