#include "core/notebook/NotebookFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace tilescope::notebook {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

std::string joinSource(const json& source) {
  if (source.is_string()) return source.get<std::string>();
  std::string out;
  if (source.is_array())
    for (const json& line : source)
      if (line.is_string()) out += line.get<std::string>();
  return out;
}

json splitSource(const std::string& text) {
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

CellType parseCellType(const std::string& name, bool& ok) {
  ok = true;
  if (name == "code") return CellType::Code;
  if (name == "markdown") return CellType::Markdown;
  if (name == "raw") return CellType::Raw;
  ok = false;
  return CellType::Raw;
}

bool readFile(const std::string& path, std::string& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path + ": cannot open the file (" + std::string(std::strerror(errno)) + ")";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}
}  // namespace

LoadResult parseNotebookJson(const std::string& text, const std::string& path) {
  LoadResult result;
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    result.error = path + ": not a valid notebook: the JSON is broken at byte " + std::to_string(e.byte) +
                   ". The file was not changed; repair it in a text editor or restore a backup.";
    return result;
  }
  if (!doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array()) {
    result.error = path + ": not a Jupyter notebook (no \"cells\" list). Open a .ipynb saved by Jupyter or tilescope.";
    return result;
  }
  Notebook nb;
  nb.nbformat = doc.value("nbformat", 4);
  nb.nbformatMinor = doc.value("nbformat_minor", 0);
  if (nb.nbformat != 4) {
    result.error = path + ": nbformat " + std::to_string(nb.nbformat) +
                   " is not supported; tilescope reads nbformat 4 (convert with `jupyter nbconvert --to notebook`).";
    return result;
  }
  if (doc.contains("metadata") && doc["metadata"].is_object()) nb.metadata = doc["metadata"];
  int index = 0;
  for (const json& c : doc["cells"]) {
    ++index;
    bool ok = false;
    if (!c.is_object() || !c.contains("cell_type") || !c["cell_type"].is_string()) {
      result.error = path + ": cell " + std::to_string(index) + " has no cell_type; the notebook is damaged.";
      return result;
    }
    Cell cell;
    cell.type = parseCellType(c["cell_type"].get<std::string>(), ok);
    if (!ok) {
      result.error = path + ": cell " + std::to_string(index) + " has unknown cell_type '" +
                     c["cell_type"].get<std::string>() + "'.";
      return result;
    }
    cell.source = joinSource(c.value("source", json()));
    if (c.contains("id") && c["id"].is_string()) cell.id = c["id"].get<std::string>();
    if (c.contains("metadata") && c["metadata"].is_object()) cell.metadata = c["metadata"];
    if (c.contains("attachments")) cell.attachments = c["attachments"];
    if (cell.type == CellType::Code) {
      if (c.contains("outputs") && c["outputs"].is_array()) cell.outputs = c["outputs"];
      if (c.contains("execution_count") && c["execution_count"].is_number_integer())
        cell.executionCount = c["execution_count"].get<int>();
    }
    nb.cells.push_back(std::move(cell));
  }
  // Older notebooks have no cell ids; nbformat 4.5 requires them, so we add them on load.
  for (Cell& cell : nb.cells)
    if (cell.id.empty()) cell.id = nb.newCellId();
  if (nb.nbformatMinor < 5) nb.nbformatMinor = 5;
  result.notebook = std::move(nb);
  return result;
}

LoadResult loadNotebook(const std::string& path) {
  LoadResult result;
  std::string text;
  if (!readFile(path, text, result.error)) return result;
  const std::string ext = fs::path(path).extension().string();
  if (ext == ".py") {
    Notebook nb;
    nb.metadata = {{"language_info", {{"name", "python"}}}};
    nb.appendCell(CellType::Code, text);
    result.notebook = std::move(nb);
    return result;
  }
  return parseNotebookJson(text, path);
}

std::string serializeNotebook(const Notebook& nb) {
  json doc = json::object();
  json cells = json::array();
  for (const Cell& cell : nb.cells) {
    json c = json::object();
    c["cell_type"] = cellTypeName(cell.type);
    c["id"] = cell.id;
    c["metadata"] = cell.metadata;
    c["source"] = splitSource(cell.source);
    if (cell.type == CellType::Code) {
      c["outputs"] = cell.outputs;
      c["execution_count"] = cell.executionCount > 0 ? json(cell.executionCount) : json(nullptr);
    }
    if (!cell.attachments.is_null() && cell.type != CellType::Code) c["attachments"] = cell.attachments;
    cells.push_back(std::move(c));
  }
  doc["cells"] = std::move(cells);
  doc["metadata"] = nb.metadata;
  doc["nbformat"] = nb.nbformat;
  doc["nbformat_minor"] = nb.nbformatMinor;
  // nlohmann's json object keeps keys sorted, as Jupyter writes them.
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string saveNotebook(const Notebook& nb, const std::string& path) {
  const std::string text = serializeNotebook(nb);
  const fs::path target(path);
  const fs::path tmp = target.parent_path() / (target.filename().string() + ".tmp-" + std::to_string(::getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return path + ": cannot write (" + std::string(std::strerror(errno)) + "); the file was not changed";
    out << text;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      return path + ": writing failed (disk full?); the file was not changed";
    }
  }
  std::error_code ec;
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return path + ": cannot replace the file (" + ec.message() + "); it was not changed";
  }
  return {};
}

}  // namespace tilescope::notebook
