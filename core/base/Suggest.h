#pragma once
// "Did you mean ...?" suggestions for misspelled names (tl members, kernels, helpers, locals).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/ArgumentBinding.h"

namespace tilescope::lang {

// Damerau-Levenshtein distance (adjacent transpositions count as one edit).
int editDistance(std::string_view a, std::string_view b);

// The closest candidate within a distance that scales with the word length (1 edit for short
// names, up to a third of the length), or nullopt. Ties go to the earlier candidate.
std::optional<std::string> closestMatch(std::string_view word, const std::vector<std::string>& candidates);

// A binding error's message, with "; did you mean 'mask'?" after a misspelled keyword.
std::string bindingMessage(const util::BindingError& error);

}  // namespace tilescope::lang
