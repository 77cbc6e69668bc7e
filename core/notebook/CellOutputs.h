#pragma once
// Building nbformat 4 outputs (MIME bundles) the way Jupyter writes them, so that what the worker
// produces is saved as valid, familiar .ipynb JSON. Also the "multiline string" helpers nbformat uses
// for sources and texts (a string, or a list of lines each ending in '\n').
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tilescope::notebook {

// Type-safe reads of an output's fields: the field when object is an object holding it with that
// type, else the fallback (outputs built in memory are not checked like loaded ones; a wrong type
// must never throw out of a display).
std::string textField(const nlohmann::json& object, const char* key, const std::string& fallback = {});
nlohmann::json objectField(const nlohmann::json& object, const char* key);  // {} when absent or not an object

// "a\nb\n" -> ["a\n", "b\n"]; "" -> [].
nlohmann::json splitLines(const std::string& text);
// Accepts a string or a list of strings (anything else is empty).
std::string joinLines(const nlohmann::json& multiline);

// Appends text to a cell's outputs; consecutive writes to the same stream merge into one output, as
// in Jupyter, so a loop of prints stays one block.
void appendStreamOutput(nlohmann::json& outputs, const std::string& streamName, const std::string& text);

// A MIME bundle as nbformat stores it: text/* (and SVG, JavaScript) values as line lists, JSON values
// as JSON, everything else (base64 images) as one string.
nlohmann::json normalizedMimeBundle(const nlohmann::json& data);
nlohmann::json displayDataOutput(const nlohmann::json& data, const nlohmann::json& metadata);
nlohmann::json executeResultOutput(int executionCount, const nlohmann::json& data, const nlohmann::json& metadata);
nlohmann::json errorOutput(const std::string& name, const std::string& value, const std::vector<std::string>& traceback);

// Plain text of one output for display and tests: stream text, text/plain of results, or
// "name: value" plus the traceback lines of an error.
std::string outputPlainText(const nlohmann::json& output);

}  // namespace tilescope::notebook
