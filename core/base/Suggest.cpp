#include "core/base/Suggest.h"

#include <algorithm>
#include <cctype>

namespace tilescope::lang {

int editDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string>& candidates) {
  const int limit = std::max(1, static_cast<int>(word.size()) / 3);
  std::optional<std::string> best;
  int bestDistance = limit + 1;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    // Case-only differences are the most likely typo of all.
    std::string lowerWord(word), lowerCand(c);
    std::transform(lowerWord.begin(), lowerWord.end(), lowerWord.begin(), [](unsigned char ch) { return std::tolower(ch); });
    std::transform(lowerCand.begin(), lowerCand.end(), lowerCand.begin(), [](unsigned char ch) { return std::tolower(ch); });
    const int dist = lowerWord == lowerCand ? 0 : editDistance(word, c);
    if (dist < bestDistance) {
      bestDistance = dist;
      best = c;
    }
  }
  return best;
}

std::string bindingMessage(const util::BindingError& error) {
  std::string msg = error.message;
  if (!error.keyword.empty())
    if (auto s = closestMatch(error.keyword, error.acceptedKeywords)) msg += "; did you mean '" + *s + "'?";
  return msg;
}

}  // namespace tilescope::lang
