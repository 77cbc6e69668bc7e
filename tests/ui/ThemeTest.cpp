// Code and output fonts are fixed-pitch as the font database resolves them (issue 28: with
// fonts-noto-mono installed the system fixed font is the dual-width Noto Sans Mono).
#include <gtest/gtest.h>

#include <QFontInfo>

#include "ui/Theme.h"

using tilescope::ui::monospaceFont;

TEST(Theme, TheDefaultCodeFontIsFixedPitch) {
  const QFont font = monospaceFont(11);
  EXPECT_TRUE(QFontInfo(font).fixedPitch()) << font.family().toStdString();
  EXPECT_DOUBLE_EQ(font.pointSizeF(), 11);
}

TEST(Theme, AProportionalOrMissingFamilyFallsBackToAFixedPitchOne) {
  for (const char* family : {"DejaVu Sans", "No Such Font Family"}) {
    const QFont font = monospaceFont(13, family);
    EXPECT_TRUE(QFontInfo(font).fixedPitch()) << family << " gave " << font.family().toStdString();
    EXPECT_DOUBLE_EQ(font.pointSizeF(), 13);
  }
}
