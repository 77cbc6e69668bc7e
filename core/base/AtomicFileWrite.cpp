#include "core/base/AtomicFileWrite.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

namespace tilescope::util {
namespace {
namespace fs = std::filesystem;

std::string errnoText(int error) { return std::strerror(error); }

std::string octal(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// The file a path finally names: symbolic links followed (also dangling ones, whose target the
// save creates). "" and error set on a loop.
fs::path finalTarget(const fs::path& path, std::string& error) {
  fs::path target = path;
  std::error_code ec;
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    if (hops == 40) {
      error = path.string() + ": too many levels of symbolic links; the file was not changed";
      return {};
    }
    const fs::path next = fs::read_symlink(target, ec);
    if (ec) {
      error = path.string() + ": cannot read the symbolic link (" + ec.message() + "); the file was not changed";
      return {};
    }
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  return target;
}

// The mode a new file gets from open(..., 0666): the process umask applied. Read from /proc, since
// umask() can only be read by changing it, which races with other threads creating files.
mode_t defaultNewFileMode() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0) return 0666 & ~static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  return 0644;
}

bool writeAll(int fd, std::string_view bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<size_t>(n);
  }
  return true;
}

void syncFolder(const fs::path& folder) {
  // After the rename: makes the new directory entry itself survive a power cut.
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A file someone else owns cannot be given back to its owner after a rename (only root may chown):
// it is rewritten in place, which keeps its owner, mode and links, at the cost of atomicity.
std::string overwriteInPlace(const fs::path& target, std::string_view bytes, const std::string& shown) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return shown + ": cannot write (" + errnoText(errno) + "); the file was not changed";
  const bool ok = writeAll(fd, bytes) && ::ftruncate(fd, static_cast<off_t>(bytes.size())) == 0 && ::fsync(fd) == 0;
  const int error = errno;
  ::close(fd);
  if (!ok) return shown + ": writing failed (" + errnoText(error) + "); the file may be incomplete, save again";
  return {};
}
}  // namespace

std::string writeFileAtomically(const std::string& path, std::string_view bytes) {
  std::string error;
  const fs::path target = finalTarget(path, error);
  if (!error.empty()) return error;

  mode_t mode = defaultNewFileMode();
  struct stat existing {};
  const bool exists = ::stat(target.c_str(), &existing) == 0;
  if (exists) {
    if (!S_ISREG(existing.st_mode))
      return path + ": not a regular file (a folder, device or pipe); it was not changed. Save under another name.";
    // access() says yes to root for any file: a file without a single write bit is read-only on
    // purpose, so nobody saves over it.
    if ((existing.st_mode & 0222) == 0)
      return path + ": the file is read-only (mode " + octal(existing.st_mode) +
             "); it was not changed. Make it writable (chmod u+w) or save under another name.";
    if (::faccessat(AT_FDCWD, target.c_str(), W_OK, AT_EACCESS) != 0)
      return path + ": you may not write this file (" + errnoText(errno) +
             "); it was not changed. Save under another name.";
    mode = existing.st_mode & 07777;
  }

  const fs::path folder = target.parent_path();
  // mkostemp creates the name with O_EXCL: a link planted under any name is never followed.
  std::string tmpName = (folder / (target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkostemp(tmpName.data(), O_CLOEXEC);
  if (fd < 0) return path + ": cannot write (" + errnoText(errno) + "); the file was not changed";
  bool keptOwner = true;
  if (exists && (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid()) &&
      ::fchown(fd, existing.st_uid, existing.st_gid) != 0) {
    // Our own file in a group we are not in keeps at least its owner; someone else's file cannot.
    keptOwner = existing.st_uid == ::geteuid();
  }
  if (!keptOwner) {
    ::close(fd);
    ::unlink(tmpName.c_str());
    return overwriteInPlace(target, bytes, path);
  }
  // fchmod after fchown (which clears set-id bits); fsync before the rename, or a power cut can
  // leave an empty file under the old name.
  const bool ok = ::fchmod(fd, mode) == 0 && writeAll(fd, bytes) && ::fsync(fd) == 0;
  const int writeError = errno;
  ::close(fd);
  if (!ok) {
    ::unlink(tmpName.c_str());
    return path + ": writing failed (" + errnoText(writeError) + "); the file was not changed";
  }
  if (::rename(tmpName.c_str(), target.c_str()) != 0) {
    const int renameError = errno;
    ::unlink(tmpName.c_str());
    return path + ": cannot replace the file (" + errnoText(renameError) + "); it was not changed";
  }
  syncFolder(folder);
  return {};
}

}  // namespace tilescope::util
