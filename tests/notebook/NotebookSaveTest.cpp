// Saving never harms files: read-only files and files the user may not write are refused and left
// as they were, links are saved through, a planted link cannot redirect the write, and the file
// keeps its permissions and owner.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include "core/notebook/NotebookFile.h"

using namespace tilescope::notebook;
namespace fs = std::filesystem;

namespace {
constexpr uid_t kNobody = 65534;

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

mode_t modeOf(const fs::path& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

struct stat statOf(const fs::path& path) {
  struct stat info {};
  EXPECT_EQ(::lstat(path.c_str(), &info), 0) << path;
  return info;
}

Notebook notebookSaying(const std::string& source) {
  Notebook nb;
  nb.appendCell(CellType::Code, source);
  return nb;
}

class NotebookSave : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("tilescope-save-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir, ec);
  }
  // Runs body in a child process as the user nobody (tests run as root); its exit code.
  static int asNobody(const std::function<int()>& body) {
    const pid_t child = ::fork();
    if (child == 0) {
      if (::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) ::_exit(99);
      ::_exit(body());
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  fs::path dir;
};
}  // namespace

TEST_F(NotebookSave, AReadOnlyFileIsRefusedAndLeftAsItWas) {
  const fs::path path = dir / "ro.ipynb";
  writeText(path, "original");
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string error = saveNotebook(notebookSaying("x = 1\n"), path.string());
  EXPECT_NE(error.find(path.string() + ": the file is read-only (mode 0444); it was not changed"), std::string::npos) << error;
  EXPECT_NE(error.find("chmod u+w"), std::string::npos) << "says what to do: " << error;
  EXPECT_EQ(readAll(path), "original");
  EXPECT_EQ(modeOf(path), 0444u);
}

TEST_F(NotebookSave, PermissionsAreKept) {
  const fs::path path = dir / "shared.ipynb";
  writeText(path, "old");
  ::chmod(path.c_str(), 0640);
  ASSERT_EQ(saveNotebook(notebookSaying("x = 2\n"), path.string()), "");
  EXPECT_NE(readAll(path).find("x = 2"), std::string::npos);
  EXPECT_EQ(modeOf(path), 0640u);
}

TEST_F(NotebookSave, AnotherUsersFileKeepsItsOwner) {
  const fs::path path = dir / "theirs.ipynb";
  writeText(path, "old");
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give the file to another user";
  ASSERT_EQ(::chown(path.c_str(), kNobody, kNobody), 0);
  ASSERT_EQ(saveNotebook(notebookSaying("x = 3\n"), path.string()), "");
  EXPECT_NE(readAll(path).find("x = 3"), std::string::npos);
  EXPECT_EQ(statOf(path).st_uid, kNobody) << "root saving a user's notebook made it root's";
  EXPECT_EQ(statOf(path).st_gid, kNobody);
}

TEST_F(NotebookSave, AUserCannotSaveOverAFileTheyMayNotWrite) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run a part as another user";
  // The folder is writable for everyone: a rename over root's 0644 file would succeed and make the
  // notebook nobody's.
  ::chmod(dir.c_str(), 0777);
  const fs::path path = dir / "roots.ipynb";
  writeText(path, "root's work");
  ::chmod(path.c_str(), 0644);
  const int refused = asNobody([&] {
    const std::string error = saveNotebook(notebookSaying("x = 4\n"), path.string());
    return error.find("you may not write this file (Permission denied); it was not changed") != std::string::npos ? 0 : 1;
  });
  EXPECT_EQ(refused, 0) << "the save was not refused with the reason";
  EXPECT_EQ(readAll(path), "root's work");
  EXPECT_EQ(statOf(path).st_uid, 0u);
  EXPECT_EQ(modeOf(path), 0644u);
}

TEST_F(NotebookSave, AWritableFileOfAnotherUserIsWrittenInPlaceKeepingItsOwner) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run a part as another user";
  ::chmod(dir.c_str(), 0777);
  const fs::path path = dir / "group.ipynb";
  writeText(path, "shared work");
  ::chmod(path.c_str(), 0666);
  const int saved = asNobody([&] { return saveNotebook(notebookSaying("x = 5\n"), path.string()).empty() ? 0 : 1; });
  EXPECT_EQ(saved, 0);
  EXPECT_NE(readAll(path).find("x = 5"), std::string::npos);
  EXPECT_EQ(statOf(path).st_uid, 0u) << "the owner changed";
  EXPECT_EQ(modeOf(path), 0666u);
}

TEST_F(NotebookSave, SavingThroughALinkWritesItsTargetAndKeepsTheLink) {
  fs::create_directories(dir / "real");
  const fs::path target = dir / "real" / "nb.ipynb";
  writeText(target, "old");
  const fs::path link = dir / "link.ipynb";
  fs::create_symlink("real/nb.ipynb", link);  // relative, as `ln -s` makes them
  ASSERT_EQ(saveNotebook(notebookSaying("x = 6\n"), link.string()), "");
  EXPECT_TRUE(fs::is_symlink(link)) << "the link was replaced by a file";
  EXPECT_EQ(fs::read_symlink(link), "real/nb.ipynb");
  EXPECT_NE(readAll(target).find("x = 6"), std::string::npos) << "the target kept its old text";
  // A dangling link: the save creates its target.
  const fs::path dangling = dir / "new-link.ipynb";
  fs::create_symlink(dir / "real" / "created.ipynb", dangling);
  ASSERT_EQ(saveNotebook(notebookSaying("x = 7\n"), dangling.string()), "");
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_NE(readAll(dir / "real" / "created.ipynb").find("x = 7"), std::string::npos);
}

TEST_F(NotebookSave, APlantedLinkAtTheTemporaryNameCannotRedirectTheWrite) {
  const fs::path victim = dir / "victim.txt";
  writeText(victim, "precious");
  const fs::path path = dir / "nb.ipynb";
  writeText(path, "old");
  // The name the temporary file used to have: <name>.tmp-<pid>.
  const fs::path planted = dir / ("nb.ipynb.tmp-" + std::to_string(::getpid()));
  fs::create_symlink(victim, planted);
  ASSERT_EQ(saveNotebook(notebookSaying("x = 8\n"), path.string()), "");
  EXPECT_EQ(readAll(victim), "precious") << "the write went through the planted link";
  EXPECT_NE(readAll(path).find("x = 8"), std::string::npos);
  EXPECT_FALSE(fs::is_symlink(path));
  int entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3) << "a temporary file was left behind";
}

TEST_F(NotebookSave, AFolderIsNotReplaced) {
  const fs::path folder = dir / "folder.ipynb";
  fs::create_directories(folder);
  EXPECT_NE(saveNotebook(notebookSaying(""), folder.string()).find("not a regular file"), std::string::npos);
  EXPECT_TRUE(fs::is_directory(folder));
}
