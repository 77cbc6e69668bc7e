#include "core/notebook/CellOutputs.h"

namespace tilescope::notebook {
using nlohmann::json;

std::string textField(const json& object, const char* key, const std::string& fallback) {
  if (!object.is_object()) return fallback;
  const auto field = object.find(key);
  return field != object.end() && field->is_string() ? field->get<std::string>() : fallback;
}

json objectField(const json& object, const char* key) {
  if (!object.is_object()) return json::object();
  const auto field = object.find(key);
  return field != object.end() && field->is_object() ? *field : json::object();
}

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
    if (textField(last, "output_type") == "stream" && textField(last, "name") == streamName) {
      last["text"] = splitLines(joinLines(last["text"]) + text);
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
  const std::string type = textField(output, "output_type");
  if (type == "stream") return joinLines(output.contains("text") ? output["text"] : json());
  if (type == "execute_result" || type == "display_data") {
    const json data = objectField(output, "data");
    return data.contains("text/plain") ? joinLines(data["text/plain"]) : std::string();
  }
  if (type == "error") {
    std::string text = textField(output, "ename", "Error") + ": " + textField(output, "evalue");
    if (const auto traceback = output.find("traceback"); traceback != output.end() && traceback->is_array())
      for (const json& line : *traceback)
        if (line.is_string()) text += "\n" + line.get<std::string>();
    return text;
  }
  return {};
}

}  // namespace tilescope::notebook
