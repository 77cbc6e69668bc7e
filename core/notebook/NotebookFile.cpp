#include "core/notebook/NotebookFile.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "core/notebook/CellOutputs.h"

namespace tilescope::notebook {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

CellType parseCellType(const std::string& name, bool& ok) {
  ok = true;
  if (name == "code") return CellType::Code;
  if (name == "markdown") return CellType::Markdown;
  if (name == "raw") return CellType::Raw;
  ok = false;
  return CellType::Raw;
}

bool isMultilineString(const json& value) {
  if (value.is_string()) return true;
  if (!value.is_array()) return false;
  for (const json& line : value)
    if (!line.is_string()) return false;
  return true;
}

// What a damaged output lacks, in words; empty when it has the fields nbformat 4 requires with the
// right types (the UI reads them without further checks).
std::string outputProblem(const json& output) {
  if (!output.is_object()) return "is not an object";
  if (!output.contains("output_type") || !output["output_type"].is_string()) return "has no output_type";
  const std::string type = output["output_type"].get<std::string>();
  if (type == "stream") {
    if (!output.contains("name") || !output["name"].is_string()) return "(a stream) has no name";
    if (!output.contains("text") || !isMultilineString(output["text"])) return "(a stream) has no text";
  } else if (type == "display_data" || type == "execute_result") {
    if (!output.contains("data") || !output["data"].is_object()) return "(" + type + ") has no data bundle";
    if (output.contains("metadata") && !output["metadata"].is_object()) return "(" + type + ") has broken metadata";
    if (type == "execute_result" && output.contains("execution_count") && !output["execution_count"].is_null() &&
        !output["execution_count"].is_number_integer())
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

static LoadResult parseNotebookJsonUnchecked(const std::string& text, const std::string& path) {
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
    cell.source = joinLines(c.value("source", json()));
    if (c.contains("id") && c["id"].is_string()) cell.id = c["id"].get<std::string>();
    if (c.contains("metadata") && c["metadata"].is_object()) cell.metadata = c["metadata"];
    if (c.contains("attachments")) cell.attachments = c["attachments"];
    if (cell.type == CellType::Code) {
      if (c.contains("outputs") && c["outputs"].is_array()) cell.outputs = c["outputs"];
      int outputIndex = 0;
      for (const json& output : cell.outputs) {
        ++outputIndex;
        if (const std::string problem = outputProblem(output); !problem.empty()) {
          result.error = path + ": output " + std::to_string(outputIndex) + " of cell " + std::to_string(index) + " " +
                         problem + "; the notebook is damaged. The file was not changed.";
          return result;
        }
      }
      if (c.contains("execution_count") && c["execution_count"].is_number_integer())
        cell.executionCount = c["execution_count"].get<int>();
    }
    nb.cells.push_back(std::move(cell));
  }
  // Older notebooks have no cell ids; nbformat 4.5 requires them, so we add them on load. Ids must
  // also be unique: hand-edited files repeat them.
  result.duplicateIdsReplaced = nb.assignMissingAndDuplicateIds();
  if (nb.nbformatMinor < 5) nb.nbformatMinor = 5;
  result.notebook = std::move(nb);
  return result;
}

LoadResult parseNotebookJson(const std::string& text, const std::string& path) {
  // A field of the wrong JSON type (a string where a number belongs, ...) is a damaged file, not a
  // reason to crash.
  try {
    return parseNotebookJsonUnchecked(text, path);
  } catch (const json::exception& e) {
    LoadResult result;
    result.error = path + ": not a valid notebook: a field has the wrong type (" + e.what() +
                   "). The file was not changed; repair it in a text editor or restore a backup.";
    return result;
  }
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
  LoadResult parsed = parseNotebookJson(text, path);
  // A picture or a text file picked by mistake: say what tilescope opens instead of a JSON byte offset.
  if (!parsed.notebook && ext != ".ipynb" && ext != ".json")
    parsed.error = path + ": tilescope opens Jupyter notebooks (.ipynb) and Python files (.py); this file is neither (" +
                   parsed.error.substr(path.size() + 2) + ")";
  return parsed;
}

std::string serializeNotebook(const Notebook& nb) {
  json doc = json::object();
  json cells = json::array();
  for (const Cell& cell : nb.cells) {
    json c = json::object();
    c["cell_type"] = cellTypeName(cell.type);
    c["id"] = cell.id;
    c["metadata"] = cell.metadata;
    c["source"] = splitLines(cell.source);
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
  // Keep the permissions of the file being replaced (a shared notebook may be group-writable).
  mode_t mode = 0644;
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) mode = existing.st_mode & 07777;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) return path + ": cannot write (" + std::string(std::strerror(errno)) + "); the file was not changed";
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  // fsync before the rename: otherwise a power cut can leave an empty file under the old name.
  const bool ok = written == text.size() && ::fsync(fd) == 0;
  const int writeErrno = errno;
  ::close(fd);
  std::error_code ec;
  if (!ok) {
    fs::remove(tmp, ec);
    return path + ": writing failed (" + std::string(std::strerror(writeErrno)) + "); the file was not changed";
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    return path + ": cannot replace the file (" + ec.message() + "); it was not changed";
  }
  return {};
}

}  // namespace tilescope::notebook
