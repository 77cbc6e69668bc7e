// The torch host code imports on embedded CPython: the built-in torch by default, installed PyTorch
// with `--torch system` or a notebook's metadata {"tilescope": {"torch": "system"}}
// (core/python/TorchChoice, resources/python/tilescope/torch_choice.py). An installed "PyTorch" is
// played here by a small package in a virtual environment (VIRTUAL_ENV is searched), whose tensors
// have data_ptr(), untyped_storage() and dtype over ctypes memory; real PyTorch is tested when the
// environment has it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/cli/CliRunner.h"

using tilescope::testing::runCli;

namespace {

namespace fs = std::filesystem;

fs::path folder() {
  const fs::path dir = fs::temp_directory_path() / ("tilescope-torch-choice-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

std::string write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

// "3.11": the embedded Python's version, as its site-packages folders name it.
std::string embeddedVersion() {
  static const std::string version = [] {
    const std::string script = write(folder() / "pyversion.py", "import sys\nprint(f'{sys.version_info[0]}.{sys.version_info[1]}', end='')\n");
    return runCli("run --python embedded " + script).output;
  }();
  return version;
}

// A virtual environment whose site-packages holds a stand-in for installed PyTorch.
std::string fakeVirtualEnv() {
  const fs::path venv = folder() / "venv";
  write(venv / "lib" / ("python" + embeddedVersion()) / "site-packages" / "torch" / "__init__.py", R"(import ctypes
__version__ = "0.0-standin"

class dtype:
    def __init__(self, name, ctype):
        self.name, self.ctype = name, ctype
    def __str__(self):
        return "torch." + self.name

float32 = dtype("float32", ctypes.c_float)

class _Storage:
    def __init__(self, raw):
        self.raw = raw
    def data_ptr(self):
        return ctypes.addressof(self.raw)
    def nbytes(self):
        return ctypes.sizeof(self.raw)

class Tensor:
    def __init__(self, values, offset=0, storage=None):
        self._storage = storage or _Storage((float32.ctype * len(values))(*values))
        self.offset = offset
        self.dtype = float32
        self.device = "cpu"
    def data_ptr(self):
        return self._storage.data_ptr() + 4 * self.offset
    def untyped_storage(self):
        return self._storage
    def tolist(self):
        return list(self._storage.raw)[self.offset:]
    def __getitem__(self, s):
        return Tensor(None, self.offset + s.start, self._storage)

def tensor(values):
    return Tensor(values)
)");
  return venv.string();
}

const char* kScript = R"(import torch, triton
import triton.language as tl

@triton.jit
def double(x_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + i, tl.load(x_ptr + i, mask=i < n) * 2, mask=i < n)

x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0])
double[(1,)](x[1:], 4, BLOCK=4)
print(torch.__version__, x.tolist())
)";

std::string notebook(const std::string& metadataTorch) {
  std::string source;
  for (char c : std::string(kScript)) {
    if (c == '"') source += "\\\"";
    else if (c == '\n') source += "\\n";
    else source += c;
  }
  return R"({"nbformat": 4, "nbformat_minor": 5, "metadata": {"tilescope": {"torch": ")" + metadataTorch +
         R"("}}, "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": null, "outputs": [], "source": ")" +
         source + R"("}]})";
}

class TorchChoice : public ::testing::Test {
protected:
  void SetUp() override { ::setenv("VIRTUAL_ENV", fakeVirtualEnv().c_str(), 1); }
  void TearDown() override { ::unsetenv("VIRTUAL_ENV"); }
};

}  // namespace

TEST_F(TorchChoice, SystemTorchIsTheInstalledOneAndItsTensorsAreKernelArguments) {
  const std::string script = write(folder() / "double.py", kScript);
  const auto r = runCli("run --python embedded --torch system " + script);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  // The kernel wrote through data_ptr() of a view (offset 1) into the owner's memory.
  EXPECT_EQ(r.output, "0.0-standin [1.0, 4.0, 6.0, 8.0, 10.0]\n");
}

TEST_F(TorchChoice, TheBuiltInTorchIsTheDefault) {
  const std::string script = write(folder() / "version.py", "import torch\nprint(torch.__version__, torch.__tilescope_builtin__)\n");
  const auto r = runCli("run --python embedded " + script);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("+tilescope True"), std::string::npos) << r.output;
}

TEST_F(TorchChoice, ANotebookAsksForItInItsMetadataAndTheCommandLineWins) {
  const std::string path = write(folder() / "system.ipynb", notebook("system"));
  const auto system = runCli("run --python embedded " + path);
  EXPECT_EQ(system.exitCode, 0) << system.output;
  EXPECT_NE(system.output.find("0.0-standin [1.0, 4.0, 6.0, 8.0, 10.0]"), std::string::npos) << system.output;
  const auto builtin = runCli("run --python embedded --torch builtin " + path);
  EXPECT_EQ(builtin.exitCode, 0) << builtin.output;
  EXPECT_NE(builtin.output.find("+tilescope [1.0, 4.0, 6.0, 8.0, 10.0]"), std::string::npos) << builtin.output;
}

TEST_F(TorchChoice, ABadChoiceIsAnArgumentError) {
  const auto r = runCli("run --python embedded --torch cuda x.py");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("--torch takes 'builtin'"), std::string::npos) << r.output;
  const auto worker = runCli("worker --torch");
  EXPECT_EQ(worker.exitCode, 2) << worker.output;
}

TEST(TorchChoiceMissing, SystemTorchThatIsNotInstalledSaysHowToInstallIt) {
  ::unsetenv("VIRTUAL_ENV");
  const std::string script = write(folder() / "missing.py", "import torch\n");
  const auto r = runCli("run --python embedded --torch system " + script);
  if (r.exitCode == 0) GTEST_SKIP() << "installed PyTorch is importable here";
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("installed PyTorch was chosen (--torch system) but none was found"), std::string::npos) << r.output;
}
