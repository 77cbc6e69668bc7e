#include "core/notebook/NotebookSchema.h"

#include <climits>
#include <cctype>

namespace tilescope::notebook {
namespace {
using nlohmann::json;

// "a number", "a list", ... for messages.
std::string typeInWords(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "a list";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "true/false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "binary data";
  }
}

std::string wrongType(const std::string& owner, const char* field, const json& value, const char* wanted) {
  return owner + " has a \"" + field + "\" that is " + typeInWords(value) + "; nbformat 4 needs " + wanted;
}

bool isMultilineString(const json& value) {
  if (value.is_string()) return true;
  if (!value.is_array()) return false;
  for (const json& line : value)
    if (!line.is_string()) return false;
  return true;
}

// nbformat 4.5's cell id pattern: 1 to 64 letters, digits, '-' and '_'.
bool isCellId(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

bool isCount(const json& value) {  // a non-negative integer that fits an int
  if (value.is_number_unsigned()) return value.get<json::number_unsigned_t>() <= INT_MAX;
  return value.is_number_integer() && value.get<json::number_integer_t>() >= 0 &&
         value.get<json::number_integer_t>() <= INT_MAX;
}

// A MIME bundle: JSON types (application/json, */*+json) hold any JSON, every other type text.
std::string mimeBundleProblem(const json& bundle, const std::string& owner) {
  for (const auto& [mime, value] : bundle.items()) {
    const bool isJson = mime == "application/json" || (mime.size() > 5 && mime.ends_with("+json"));
    if (!isJson && !isMultilineString(value))
      return owner + " has " + mime + " data that is " + typeInWords(value) +
             "; nbformat 4 needs text (a string or a list of strings)";
  }
  return {};
}

std::string notebookMetadataProblem(const json& metadata) {
  const auto tilescope = metadata.find("tilescope");
  if (tilescope == metadata.end()) return {};
  if (!tilescope->is_object())
    return "the notebook's metadata has a \"tilescope\" entry that is " + typeInWords(*tilescope) +
           "; it must be an object such as {\"out_of_bounds\": \"warn\"}";
  const auto policy = tilescope->find("out_of_bounds");
  if (policy != tilescope->end() && !(policy->is_string() && (*policy == "stop" || *policy == "warn")))
    return "the notebook's metadata sets tilescope.out_of_bounds to " + policy->dump() +
           "; it must be \"stop\" or \"warn\"";
  return {};
}

std::string cellProblem(const json& cell, const std::string& owner) {
  if (!cell.is_object() || !cell.contains("cell_type") || !cell["cell_type"].is_string())
    return owner + " has no cell_type";
  const std::string type = cell["cell_type"].get<std::string>();
  if (type != "code" && type != "markdown" && type != "raw") return owner + " has unknown cell_type '" + type + "'";
  if (const auto id = cell.find("id"); id != cell.end()) {
    if (!id->is_string()) return wrongType(owner, "id", *id, "a string");
    if (!isCellId(id->get<std::string>()))
      return owner + " has the id \"" + id->get<std::string>() +
             "\"; nbformat 4.5 allows 1 to 64 letters, digits, '-' and '_'";
  }
  if (const auto metadata = cell.find("metadata"); metadata != cell.end() && !metadata->is_object())
    return wrongType(owner, "metadata", *metadata, "an object");
  if (const auto source = cell.find("source"); source != cell.end() && !isMultilineString(*source))
    return wrongType(owner, "source", *source, "text (a string or a list of strings)");
  if (const auto attachments = cell.find("attachments"); attachments != cell.end() && type != "code") {
    if (!attachments->is_object()) return wrongType(owner, "attachments", *attachments, "an object");
    for (const auto& [name, bundle] : attachments->items()) {
      if (!bundle.is_object()) return owner + " has an attachment '" + name + "' that is not a MIME bundle (an object)";
      if (std::string problem = mimeBundleProblem(bundle, owner + "'s attachment '" + name + "'"); !problem.empty())
        return problem;
    }
  }
  if (type != "code") return {};
  if (const auto count = cell.find("execution_count"); count != cell.end() && !count->is_null() && !isCount(*count))
    return owner + " has an execution_count of " + count->dump() + "; nbformat 4 needs null or a whole number >= 0";
  const auto outputs = cell.find("outputs");
  if (outputs == cell.end()) return {};
  if (!outputs->is_array()) return wrongType(owner, "outputs", *outputs, "a list");
  int index = 0;
  for (const json& output : *outputs) {
    ++index;
    if (std::string problem = outputSchemaProblem(output); !problem.empty())
      return "output " + std::to_string(index) + " of " + owner + " " + problem;
  }
  return {};
}
}  // namespace

std::string outputSchemaProblem(const json& output) {
  if (!output.is_object()) return "is not an object";
  if (!output.contains("output_type") || !output["output_type"].is_string()) return "has no output_type";
  const std::string type = output["output_type"].get<std::string>();
  if (type == "stream") {
    if (!output.contains("name") || !output["name"].is_string()) return "(a stream) has no name";
    if (!output.contains("text") || !isMultilineString(output["text"])) return "(a stream) has no text";
  } else if (type == "display_data" || type == "execute_result") {
    if (!output.contains("data") || !output["data"].is_object()) return "(" + type + ") has no data bundle";
    if (std::string problem = mimeBundleProblem(output["data"], "(" + type + ")"); !problem.empty()) return problem;
    if (output.contains("metadata") && !output["metadata"].is_object()) return "(" + type + ") has broken metadata";
    if (type == "execute_result" && output.contains("execution_count") && !output["execution_count"].is_null() &&
        !isCount(output["execution_count"]))
      return "(an execute_result) has a broken execution_count";
  } else if (type == "error") {
    if (!output.contains("ename") || !output["ename"].is_string() || !output.contains("evalue") ||
        !output["evalue"].is_string())
      return "(an error) has no ename/evalue";
    if (!output.contains("traceback") || !output["traceback"].is_array()) return "(an error) has no traceback";
    for (const json& line : output["traceback"])
      if (!line.is_string()) return "(an error) has a traceback line that is not text";
  } else {
    return "has unknown output_type '" + type + "'";
  }
  return {};
}

std::string notebookSchemaProblem(const json& doc) {
  if (const auto format = doc.find("nbformat"); format != doc.end() && !format->is_number_integer())
    return wrongType("the notebook", "nbformat", *format, "a whole number");
  if (const auto minor = doc.find("nbformat_minor"); minor != doc.end() && !isCount(*minor))
    return wrongType("the notebook", "nbformat_minor", *minor, "a whole number >= 0");
  if (const auto metadata = doc.find("metadata"); metadata != doc.end()) {
    if (!metadata->is_object()) return wrongType("the notebook", "metadata", *metadata, "an object");
    if (std::string problem = notebookMetadataProblem(*metadata); !problem.empty()) return problem;
  }
  int index = 0;
  for (const json& cell : doc["cells"])
    if (std::string problem = cellProblem(cell, "cell " + std::to_string(++index)); !problem.empty()) return problem;
  return {};
}

}  // namespace tilescope::notebook
