#include "core/notebook/NotebookFile.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

#include "core/notebook/CellOutputs.h"
#include "core/notebook/NotebookSchema.h"
#include "core/base/AtomicFileWrite.h"
#include "core/base/JsonDepth.h"

namespace tilescope::notebook {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// name is one of the three nbformat cell types (checked by notebookSchemaProblem).
CellType parseCellType(const std::string& name) {
  if (name == "code") return CellType::Code;
  if (name == "markdown") return CellType::Markdown;
  return CellType::Raw;
}

bool readFile(const std::string& path, std::string& out, std::string& error) {
  // O_NONBLOCK: opening a FIFO by mistake must not wait for a writer; it is refused just below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = path + ": cannot open the file (" + std::string(std::strerror(errno)) + ")";
    return false;
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    error = path + ": not a regular file (a folder, device or pipe); open a .ipynb or .py file";
    return false;
  }
  out.clear();
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = path + ": cannot read the file (" + std::string(std::strerror(errno)) + ")";
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    out.append(buffer, static_cast<size_t>(n));
  }
  ::close(fd);
  return true;
}
}  // namespace

static LoadResult parseNotebookJsonUnchecked(const std::string& text, const std::string& path) {
  LoadResult result;
  const std::string unchanged = " The file was not changed; repair it in a text editor or restore a backup.";
  // Checked before parsing: copying or writing JSON nested deeper recurses until the stack overflows.
  if (util::jsonNestsDeeperThan(text)) {
    result.error = path + ": not a valid notebook: its JSON nests objects and lists more than " +
                   std::to_string(util::kMaxJsonDepth) + " levels deep, which no notebook needs." + unchanged;
    return result;
  }
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    result.error = path + ": not a valid notebook: the JSON is broken at byte " + std::to_string(e.byte) + "." + unchanged;
    return result;
  }
  if (!doc.is_object() || !doc.contains("cells") || !doc["cells"].is_array()) {
    result.error = path + ": not a Jupyter notebook (no \"cells\" list). Open a .ipynb saved by Jupyter or tilescope.";
    return result;
  }
  // Every field read below has the type nbformat 4 gives it once this passes.
  if (const std::string problem = notebookSchemaProblem(doc); !problem.empty()) {
    result.error = path + ": not a valid notebook: " + problem + "." + unchanged;
    return result;
  }
  Notebook nb;
  if (doc.contains("nbformat") && doc["nbformat"] != 4) {
    result.error = path + ": nbformat " + doc["nbformat"].dump() +
                   " is not supported; tilescope reads nbformat 4 (convert with `jupyter nbconvert --to notebook`).";
    return result;
  }
  nb.nbformatMinor = doc.value("nbformat_minor", 0);
  if (doc.contains("metadata")) nb.metadata = doc["metadata"];
  for (const json& c : doc["cells"]) {
    Cell cell;
    cell.type = parseCellType(c["cell_type"].get<std::string>());
    cell.source = joinLines(c.value("source", json()));
    if (c.contains("id")) cell.id = c["id"].get<std::string>();
    if (c.contains("metadata")) cell.metadata = c["metadata"];
    if (c.contains("attachments")) cell.attachments = c["attachments"];
    if (cell.type == CellType::Code) {
      if (c.contains("outputs")) cell.outputs = c["outputs"];
      if (c.contains("execution_count") && !c["execution_count"].is_null())
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
  return util::writeFileAtomically(path, serializeNotebook(nb));
}

}  // namespace tilescope::notebook
