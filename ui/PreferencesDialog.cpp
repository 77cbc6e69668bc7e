#include "ui/PreferencesDialog.h"

#include <QComboBox>
#include <algorithm>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFontComboBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>

namespace tilescope::ui {
namespace {
QSpinBox* pointSizeBox(int value, QWidget* parent) {
  auto* box = new QSpinBox(parent);
  box->setRange(6, 48);
  box->setSuffix(QObject::tr(" pt"));
  box->setValue(value);
  return box;
}
}  // namespace

PreferencesDialog::PreferencesDialog(const Preferences& current, QWidget* parent) : QDialog(parent), current_(current) {
  setWindowTitle(tr("Preferences"));
  auto* form = new QFormLayout(this);
  theme_ = new QComboBox(this);
  theme_->addItem(tr("Light"), QStringLiteral("light"));
  theme_->addItem(tr("Dark"), QStringLiteral("dark"));
  theme_->setCurrentIndex(std::max(0, theme_->findData(current.theme)));
  form->addRow(tr("Theme:"), theme_);

  editorFont_ = new QFontComboBox(this);
  editorFont_->setFontFilters(QFontComboBox::MonospacedFonts);
  // The font really in use: the saved family or the fixed-pitch fallback that replaced it.
  editorFont_->setCurrentFont(monospaceFont(current.editorPointSize, current.editorFontFamily));
  form->addRow(tr("Code font:"), editorFont_);
  editorSize_ = pointSizeBox(current.editorPointSize, this);
  form->addRow(tr("Code size:"), editorSize_);
  outputSize_ = pointSizeBox(current.outputPointSize, this);
  form->addRow(tr("Output size:"), outputSize_);
  markdownSize_ = pointSizeBox(current.markdownPointSize, this);
  form->addRow(tr("Text (markdown) size:"), markdownSize_);

  presentationScale_ = new QDoubleSpinBox(this);
  presentationScale_->setRange(1.0, 4.0);
  presentationScale_->setSingleStep(0.1);
  presentationScale_->setSuffix(QStringLiteral(" \u00d7"));
  presentationScale_->setValue(current.presentationScale);
  presentationScale_->setToolTip(tr("How much larger everything is in presentation mode"));
  form->addRow(tr("Presentation scale:"), presentationScale_);

  autosaveSeconds_ = new QSpinBox(this);
  autosaveSeconds_->setRange(5, 3600);
  autosaveSeconds_->setSuffix(tr(" s"));
  autosaveSeconds_->setValue(current.autosaveSeconds);
  autosaveSeconds_->setToolTip(tr("How often a recovery copy of unsaved work is written"));
  form->addRow(tr("Autosave every:"), autosaveSeconds_);
  simulatorThreads_ = new QSpinBox(this);
  simulatorThreads_->setRange(0, 1024);
  simulatorThreads_->setSpecialValueText(tr("every CPU"));
  simulatorThreads_->setValue(current.simulatorThreads);
  simulatorThreads_->setToolTip(tr("Threads the simulator runs programs on; takes effect when the kernel restarts"));
  form->addRow(tr("Simulator threads:"), simulatorThreads_);

  torch_ = new QComboBox(this);
  torch_->addItem(tr("Built-in (tilescope's tensor library)"), QStringLiteral("builtin"));
  torch_->addItem(tr("Installed PyTorch"), QStringLiteral("system"));
  torch_->setCurrentIndex(std::max(0, torch_->findData(current.torch)));
  torch_->setToolTip(tr("The torch that notebook code imports (a notebook's metadata may ask for one); "
                        "takes effect when the worker restarts"));
  form->addRow(tr("Python torch:"), torch_);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    emit applied(preferences());
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] { emit applied(preferences()); });
}

Preferences PreferencesDialog::preferences() const {
  Preferences p = current_;  // what this dialog does not edit (Run On, the inspector's scale) stays
  p.theme = theme_->currentData().toString();
  p.editorFontFamily = editorFont_->currentFont().family();
  p.editorPointSize = editorSize_->value();
  p.outputPointSize = outputSize_->value();
  p.markdownPointSize = markdownSize_->value();
  p.presentationScale = presentationScale_->value();
  p.autosaveSeconds = autosaveSeconds_->value();
  p.torch = torch_->currentData().toString();
  p.simulatorThreads = simulatorThreads_->value();
  return p;
}

}  // namespace tilescope::ui
