#include "ui/viz/PresentationScale.h"

#include <QApplication>
#include <QComboBox>
#include <QFont>
#include <QVariant>
#include <QWidget>

#include "ui/viz/ProgramGridView.h"
#include "ui/viz/SceneView.h"

namespace tilescope::ui {

namespace {
constexpr const char* kProperty = "tilescopePresentationScale";
}

void PresentationScale::apply(QWidget* root, double scale) {
  if (!root) return;
  root->setProperty(kProperty, scale);
  // Children without a font of their own inherit this one: labels, lists, combo boxes, tabs.
  QFont font = QApplication::font();
  font.setPointSizeF(font.pointSizeF() * scale);
  root->setFont(font);
  // A combo box keeps the size it first showed at: have it measured again in the new font.
  for (QComboBox* box : root->findChildren<QComboBox*>()) {
    const QComboBox::SizeAdjustPolicy policy = box->sizeAdjustPolicy();
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    box->setSizeAdjustPolicy(policy);
  }
  for (SceneView* view : root->findChildren<SceneView*>()) view->setZoom(scale);
  for (ProgramGridView* grid : root->findChildren<ProgramGridView*>()) grid->setZoom(scale);
}

double PresentationScale::of(const QWidget* root) {
  const QVariant v = root ? root->property(kProperty) : QVariant();
  return v.isValid() ? v.toDouble() : 1.0;
}

}  // namespace tilescope::ui
