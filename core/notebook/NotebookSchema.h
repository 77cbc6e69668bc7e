#pragma once
// nbformat 4's schema rules for every field tilescope reads, checked before a notebook is loaded: a
// field of the wrong type (a number where the source belongs, a string where outputs belong) is
// reported instead of being dropped on the next save or crashing whoever reads it later. Fields
// tilescope never reads are kept verbatim and not checked.
#include <nlohmann/json.hpp>
#include <string>

namespace tilescope::notebook {

// What is wrong, in words ("cell 2 has a "source" that is a number; ..."), or "" when every field
// tilescope reads has the type and value nbformat 4 allows. doc is the parsed file.
std::string notebookSchemaProblem(const nlohmann::json& doc);

// The same for one output of a code cell ("is not an object", "(a stream) has no text"), or "".
std::string outputSchemaProblem(const nlohmann::json& output);

}  // namespace tilescope::notebook
