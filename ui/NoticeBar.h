#pragma once
// A strip above the notebook for things the user must know but that need not stop their work: a dead
// worker, a file that could not be opened, unsaved work to recover. Non-modal, with optional buttons.
#include <QFrame>
#include <QList>
#include <functional>

#include "ui/Theme.h"

class QLabel;
class QHBoxLayout;
class QPushButton;

namespace tilescope::ui {

class NoticeBar : public QFrame {
  Q_OBJECT
public:
  enum class Kind { Info, Warning, Error };
  struct Button {
    QString label;
    std::function<void()> action;  // the bar closes after the action ran
  };

  explicit NoticeBar(QWidget* parent = nullptr);
  // Replaces whatever notice was showing.
  void showNotice(Kind kind, const QString& text, const QList<Button>& buttons = {});
  void dismiss();
  QString text() const;
  Kind kind() const { return kind_; }
  bool isShowing() const { return !isHidden(); }
  QList<QPushButton*> buttons() const { return buttons_; }
  void setTheme(const Theme& theme);

private:
  void applyColours();

  QLabel* message_;
  QHBoxLayout* buttonRow_;
  QList<QPushButton*> buttons_;
  Kind kind_ = Kind::Info;
  Theme theme_;
};

}  // namespace tilescope::ui
