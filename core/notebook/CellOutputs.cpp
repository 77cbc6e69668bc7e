#include "core/notebook/CellOutputs.h"

namespace tilescope::notebook {
using nlohmann::json;

json splitLines(const std::string& text) {
  json lines = json::array();
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::string joinLines(const json& multiline) {
  if (multiline.is_string()) return multiline.get<std::string>();
  std::string out;
  if (multiline.is_array())
    for (const json& line : multiline)
      if (line.is_string()) out += line.get<std::string>();
  return out;
}

void appendStreamOutput(json& outputs, const std::string& streamName, const std::string& text) {
  if (!outputs.is_array()) outputs = json::array();
  if (!outputs.empty()) {
    json& last = outputs.back();
    if (last.value("output_type", "") == "stream" && last.value("name", "") == streamName) {
      last["text"] = splitLines(joinLines(last.value("text", json())) + text);
      return;
    }
  }
  outputs.push_back({{"output_type", "stream"}, {"name", streamName}, {"text", splitLines(text)}});
}

json normalizedMimeBundle(const json& data) {
  json bundle = json::object();
  if (!data.is_object()) return bundle;
  for (const auto& [mime, value] : data.items()) {
    const bool isJson = mime == "application/json" || (mime.size() > 5 && mime.ends_with("+json"));
    const bool splitAsText = mime.starts_with("text/") || mime == "image/svg+xml" || mime == "application/javascript";
    if (value.is_string() && splitAsText && !isJson) bundle[mime] = splitLines(value.get<std::string>());
    else bundle[mime] = value;
  }
  return bundle;
}

json displayDataOutput(const json& data, const json& metadata) {
  return {{"output_type", "display_data"},
          {"data", normalizedMimeBundle(data)},
          {"metadata", metadata.is_object() ? metadata : json::object()}};
}

json executeResultOutput(int executionCount, const json& data, const json& metadata) {
  return {{"output_type", "execute_result"},
          {"execution_count", executionCount > 0 ? json(executionCount) : json(nullptr)},
          {"data", normalizedMimeBundle(data)},
          {"metadata", metadata.is_object() ? metadata : json::object()}};
}

json errorOutput(const std::string& name, const std::string& value, const std::vector<std::string>& traceback) {
  return {{"output_type", "error"}, {"ename", name}, {"evalue", value}, {"traceback", traceback}};
}

std::string outputPlainText(const json& output) {
  const std::string type = output.value("output_type", "");
  if (type == "stream") return joinLines(output.value("text", json()));
  if (type == "execute_result" || type == "display_data") {
    const json data = output.value("data", json::object());
    return data.contains("text/plain") ? joinLines(data["text/plain"]) : std::string();
  }
  if (type == "error") {
    std::string text = output.value("ename", "Error") + ": " + output.value("evalue", "");
    for (const json& line : output.value("traceback", json::array()))
      if (line.is_string()) text += "\n" + line.get<std::string>();
    return text;
  }
  return {};
}

}  // namespace tilescope::notebook
