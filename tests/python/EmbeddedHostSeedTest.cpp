// End to end on embedded CPython: the host code of both seed tutorials (TILESCOPE_SEEDS_DIR), extracted from the markdown
// and run block by block in one session, compared with what the seeds show. Blocks that download the
// puppy image or use matplotlib/torchvision are skipped, and so are the benchmark blocks (minutes on
// the simulator; examples/kernel_tour.ipynb benchmarks its own kernels at sizes that suit it).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/syntax/Parser.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::runPython;

namespace {
// What a seed block shows and how it ended, run as a notebook cell of "seed.ipynb".
struct PyRun {
  std::string out, err, errorName, errorValue, traceback, result;
  bool ok = false;
};
PyRun runPy(tilescope::python::PythonExecutor& ex, const std::string& code, bool displayLast, const std::string& name) {
  const tilescope::testing::PythonRun run = runPython(ex, code, name, displayLast);
  return PyRun{run.out, run.err, run.outcome.errorName, run.outcome.errorValue, run.traceback, run.result(), run.ok()};
}
}  // namespace

namespace {

struct Block {
  std::string code;
  int line = 0;              // first line of the code in the markdown
  std::string shownOutput;   // the ```shell block that follows it in the seed, if any
};

std::optional<std::vector<std::string>> readSeed(const std::string& name) {
  std::ifstream f(std::string(TILESCOPE_SEEDS_DIR) + "/" + name, std::ios::binary);
  if (!f) return std::nullopt;
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

bool parsesAsPython(const std::string& code) { return tilescope::lang::parseModule(code, "block.py").ok(); }

// Fenced blocks: ```python ones, and unlabelled ones that parse as Python (diagrams do not).
std::vector<Block> fencedBlocks(const std::vector<std::string>& lines, size_t end) {
  std::vector<Block> out;
  for (size_t i = 0; i < end && i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) != 0) continue;
    const std::string lang = lines[i].substr(3);
    size_t j = i + 1;
    std::string body;
    while (j < lines.size() && lines[j].rfind("```", 0) != 0) body += lines[j++] + "\n";
    if (lang == "shell" && !out.empty()) out.back().shownOutput = body;
    else if (lang == "python" || (lang.empty() && parsesAsPython(body))) out.push_back({body, static_cast<int>(i + 2), ""});
    i = j;
  }
  return out;
}

// The practitioners' guide lost the fences of its later chapters: those blocks are found by their
// first and last lines, in order.
class Anchors {
public:
  explicit Anchors(const std::vector<std::string>& lines) : lines_(lines) {}
  void skipTo(const std::string& line) { pos_ = find(line) + 1; }
  std::string take(const std::string& first, const std::string& last, int extraLines = 0) {
    const size_t b = find(first);
    pos_ = b;
    const size_t e = find(last) + static_cast<size_t>(extraLines);
    std::string code;
    for (size_t i = b; i <= e && i < lines_.size(); ++i) code += lines_[i] + "\n";
    pos_ = e + 1;
    return code;
  }

private:
  size_t find(const std::string& line) {
    for (size_t i = pos_; i < lines_.size(); ++i)
      if (lines_[i] == line) return i;
    ADD_FAILURE() << "seed line not found: " << line;
    return lines_.size();
  }
  const std::vector<std::string>& lines_;
  size_t pos_ = 0;
};

std::string shown(const PyRun& r) { return r.out + (r.result.empty() ? "" : r.result + "\n"); }

PyRun mustRun(tilescope::python::PythonExecutor& ex, const std::string& code) {
  PyRun r = runPy(ex, code, true, "seed.ipynb");
  EXPECT_TRUE(r.ok) << code << "\n" << r.traceback;
  return r;
}

// The seed's own TODO ("don't we need mask when loading a & b?"): its matmul kernels load without
// masks, so a 3x4 input reads past the tensor. The simulator reports that instead of reading garbage.
void expectUnmaskedLoadError(tilescope::python::PythonExecutor& ex, const std::string& code) {
  PyRun r = runPy(ex, code, true, "seed.ipynb");
  EXPECT_EQ(r.errorName, "RuntimeError") << r.traceback;
  EXPECT_NE(r.errorValue.find("out-of-bounds load"), std::string::npos) << r.errorValue;
  EXPECT_NE(r.traceback.find("a = tl.load(offs_a)"), std::string::npos) << r.traceback;
}

}  // namespace

TEST(EmbeddedHostSeed, TritonFromZeroBlocksRun) {
  auto lines = readSeed("triton-from-zero.md");
  if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  std::vector<Block> blocks = fencedBlocks(*lines, lines->size());
  ASSERT_EQ(blocks.size(), 11u);
  tilescope::python::PythonExecutor ex;
  std::string all;
  for (const Block& b : blocks) all += shown(mustRun(ex, b.code));
  // 4.1 vector add: the error line (f-strings format a 0-dim tensor's item(), like torch) and the check.
  EXPECT_NE(all.find("最大误差: 0.0\n✓ 测试通过!\n"), std::string::npos) << all;
  // 6.2: simple_kernel ran and its cache shows the specialization.
  EXPECT_NE(all.find("{0: {'simple_kernel[*fp32:16,BLOCK_SIZE=1024]': '<checked kernel simple_kernel>'}}"), std::string::npos) << all;
}

TEST(EmbeddedHostSeed, PractitionersGuideFencedBlocksPrintWhatTheSeedShows) {
  auto lines = readSeed("triton-practitioners-guide.md");
  if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  size_t example2 = 0;
  while (example2 < lines->size() && (*lines)[example2] != "# Example 2: Greyscaling an image") ++example2;
  std::vector<Block> blocks = fencedBlocks(*lines, example2);
  ASSERT_EQ(blocks.size(), 14u);
  tilescope::python::PythonExecutor ex;
  int compared = 0;
  std::vector<std::string> outputs;
  for (const Block& b : blocks) {
    PyRun r = mustRun(ex, b.code);
    outputs.push_back(shown(r));
    if (!b.shownOutput.empty()) {
      EXPECT_EQ(shown(r), b.shownOutput) << "block at line " << b.line;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 3);  // the buggy copy's z, the fixed copy's prints, and `x, z`
  EXPECT_EQ(outputs[2], "(tensor([1, 2, 3, 4, 5, 6]), tensor([0, 1, 0, 1, 0, 1]), tensor([1, 3, 3, 5, 5, 7]))\n");
  // The second buggy kernel (pid * n) shifts programs 1 and 2 out of range.
  EXPECT_EQ(outputs[10],
            "pid = [0] | offs = [0 1], mask = [ True  True], x = [1 2]\n"
            "pid = [1] | offs = [6 7], mask = [False False], x = [0 0]\n"
            "pid = [2] | offs = [12 13], mask = [False False], x = [0 0]\n");
}

TEST(EmbeddedHostSeed, PractitionersGuideLaterChaptersRun) {
  auto lines = readSeed("triton-practitioners-guide.md");
  if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  Anchors a(*lines);
  tilescope::python::PythonExecutor ex;
  // Example 2 without the download, matplotlib and torchvision: the kernel and its wrapper as
  // written, run on a synthetic image.
  a.skipTo("# Example 2: Greyscaling an image");
  mustRun(ex, "import torch\nimport triton\nimport triton.language as tl\n");
  mustRun(ex, a.take("def cdiv(a,b): return (a + b - 1) // b", "def cdiv(a,b): return (a + b - 1) // b"));
  mustRun(ex, a.take("@triton.jit", "    tl.store(out_ptr + offs, out, mask=mask)"));
  mustRun(ex, a.take("def rgb2grey(x, bs):", "    return out.view(h,w)"));
  EXPECT_EQ(mustRun(ex, "img = torch.full((3, 40, 70), 100, dtype=torch.float32)\ngrey_img = rgb2grey(img.to('cuda'), bs=(32, 32)).to('cpu')\n"
                        "grey_img.shape, round(grey_img[39, 69].item(), 2)").result,
            "(torch.Size([40, 70]), 99.99)");

  // Example 3: naive matmul.
  a.skipTo("# Example 3: Matmul");
  mustRun(ex, a.take("import os", "from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready"));
  mustRun(ex, a.take("@triton.jit", "    return (tl.expand_dims(offs_0, 1) < max_0) & (tl.expand_dims(offs_1, 0) < max_1)"));
  mustRun(ex, a.take("@triton.jit", "    tl.store(c, acc, mask=mask)"));
  mustRun(ex, a.take("from functools import partial", "naive_matmul = partial(matmul, matmul_k_fn=naive_matmul_k)"));
  expectUnmaskedLoadError(ex, a.take("a = torch.ones((3, 4), dtype=torch.float32, device='cuda')", "naive_matmul(a,b)"));
  EXPECT_EQ(mustRun(ex, a.take("torch.manual_seed(0)", "else:", 1)).out, "✅ Triton and Torch match\n");

  // Example 4: reordering, swizzle, grouped matmul.
  EXPECT_EQ(mustRun(ex, a.take("def process_item(id): print(f\"I'm processing item {id}\")", "for i in range(5): process_item(i)")).out,
            "I'm processing item 0\nI'm processing item 1\nI'm processing item 2\nI'm processing item 3\nI'm processing item 4\n");
  EXPECT_EQ(mustRun(ex, a.take("def change_id(old_id): return 5-old_id", "for i in range(5): process_item(change_id(i))")).out,
            "I'm processing item 5\nI'm processing item 4\nI'm processing item 3\nI'm processing item 2\nI'm processing item 1\n");
  mustRun(ex, a.take("@triton.jit", "    tl.store(z_ptr + offs_sw, x, mask=mask_sw)"));
  EXPECT_EQ(mustRun(ex, a.take("blocks_m, blocks_n = 5,4", "x")).result,
            "tensor([[ 0,  1,  2,  3],\n        [ 4,  5,  6,  7],\n        [ 8,  9, 10, 11],\n        [12, 13, 14, 15],\n"
            "        [16, 17, 18, 19]], device='cuda:0')");
  mustRun(ex, a.take("z = -torch.ones_like(x) # empty matrix, with -1 denoting empty", "z"));
  // The grouped ordering of the seed's picture (group size 3).
  EXPECT_EQ(mustRun(ex, a.take("# swizzle x into z", "z")).result,
            "tensor([[ 0,  3,  6,  9],\n        [ 1,  4,  7, 10],\n        [ 2,  5,  8, 11],\n        [12, 14, 16, 18],\n"
            "        [13, 15, 17, 19]], device='cuda:0')");
  mustRun(ex, a.take("@triton.jit", "    tl.store(c, acc, mask=mask)"));
  mustRun(ex, a.take("grouped_matmul = partial(matmul, matmul_k_fn=grouped_matmul_k)", "grouped_matmul = partial(matmul, matmul_k_fn=grouped_matmul_k)"));
  expectUnmaskedLoadError(ex, a.take("a = torch.ones((3, 4), dtype=torch.float32, device='cuda')", "grouped_matmul(a,b, group_sz=4)"));
  EXPECT_EQ(mustRun(ex, a.take("torch.manual_seed(0)", "else:", 1)).out, "✅ Triton and Torch match\n");

  // Auto-tuning (the benchmark blocks in between are skipped).
  a.skipTo("# Auto-Tuning");
  mustRun(ex, a.take("@triton.autotune(", "    return c"));
  EXPECT_EQ(mustRun(ex, a.take("a,b = torch.ones(3,4, device='cuda'), torch.ones(4,5, device='cuda')", "a@b")).result,
            "tensor([[4., 4., 4., 4., 4.],\n        [4., 4., 4., 4., 4.],\n        [4., 4., 4., 4., 4.]], device='cuda:0')");
  expectUnmaskedLoadError(ex, a.take("grouped_autotuned_matmul(a,b)", "grouped_autotuned_matmul(a,b)"));
}

// The from-zero tutorial defines kernels it never launches (matmul_kernel, fused attention, layer
// norm, the concept and debug kernels): launched here on odd sizes, against float64 references that
// the host runtime computes without the simulator.
TEST(EmbeddedHostSeed, TritonFromZeroUnlaunchedKernelsMatchFloat64References) {
  auto lines = readSeed("triton-from-zero.md");
  if (!lines) GTEST_SKIP() << "seed tutorials not found in " << TILESCOPE_SEEDS_DIR;
  tilescope::python::PythonExecutor ex;
  for (const Block& b : fencedBlocks(*lines, lines->size())) mustRun(ex, b.code);

  // concept_kernel doubles its input.
  EXPECT_EQ(mustRun(ex, "x = torch.arange(300, dtype=torch.float32)\nout = torch.empty_like(x)\n"
                        "concept_kernel[(triton.cdiv(300, 128),)](x, out, 300, BLOCK_SIZE=128)\n"
                        "torch.equal(out, x * 2)").result,
            "True");

  // matmul_kernel: fp16 operands, fp32 accumulation, fp16 output; M, N, K not multiples of the blocks.
  EXPECT_EQ(mustRun(ex, "torch.manual_seed(1)\nM, N, K = 70, 50, 90\n"
                        "a = torch.randn((M, K), dtype=torch.float16)\nb = torch.randn((K, N), dtype=torch.float16)\n"
                        "c = torch.empty((M, N), dtype=torch.float16)\n"
                        "matmul_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, c, M, N, K, a.stride(0), a.stride(1),\n"
                        "    b.stride(0), b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=32, BLOCK_SIZE_N=32, BLOCK_SIZE_K=32)\n"
                        "ref = torch.matmul(a.to(torch.float64), b.to(torch.float64))\n"
                        "err = (c.to(torch.float64) - ref).abs().max().item()\n"
                        "err < 0.02 * ref.abs().max().item(), err > 0").result,
            "(True, True)");

  // Fused attention, one (z, h) slice per program column; N_CTX not a multiple of BLOCK_N.
  EXPECT_EQ(mustRun(ex, "torch.manual_seed(2)\nZ, H, N_CTX, D = 1, 2, 40, 16\n"
                        "q = torch.randn((Z, H, N_CTX, D), dtype=torch.float16)\nk = torch.randn((Z, H, N_CTX, D), dtype=torch.float16)\n"
                        "v = torch.randn((Z, H, N_CTX, D), dtype=torch.float16)\no = torch.empty_like(q)\n"
                        "fused_attention_kernel[(triton.cdiv(N_CTX, 16), Z * H)](q, k, v, o,\n"
                        "    q.stride(0), q.stride(1), q.stride(2), q.stride(3), k.stride(0), k.stride(1), k.stride(2), k.stride(3),\n"
                        "    v.stride(0), v.stride(1), v.stride(2), v.stride(3), o.stride(0), o.stride(1), o.stride(2), o.stride(3),\n"
                        "    Z, H, N_CTX, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)\n"
                        "q64, k64, v64 = q.to(torch.float64), k.to(torch.float64), v.to(torch.float64)\n"
                        // The seed's kernel does not scale by 1/sqrt(d) (its docstring does): compare with what it computes.
                        "p = torch.softmax(torch.matmul(q64, k64.transpose(2, 3)), dim=-1)\n"
                        "ref = torch.matmul(p, v64)\n"
                        // p is rounded to fp16 before the second dot, as the kernel says (p.to(v.dtype)).
                        "(o.to(torch.float64) - ref).abs().max().item() < 0.05").result,
            "True");

  // Layer norm on fp32 rows of 300 (BLOCK_SIZE 512), with its mean and rstd outputs.
  EXPECT_EQ(mustRun(ex, "torch.manual_seed(3)\nrows, cols = 6, 300\n"
                        "x = torch.randn((rows, cols))\nw = torch.rand((cols,))\nbias = torch.randn((cols,))\n"
                        "y = torch.empty_like(x)\nmean = torch.empty((rows,))\nrstd = torch.empty((rows,))\n"
                        "layernorm_kernel[(rows,)](x, y, w, bias, mean, rstd, x.stride(0), cols, 1e-5, BLOCK_SIZE=512)\n"
                        "x64 = x.to(torch.float64)\nm64 = x64.mean(dim=1)\nd = x64 - m64[:, None]\n"
                        // The seed's kernel sums (x - mean)^2 over all BLOCK_SIZE lanes, and its masked lanes
                        // hold 0 - mean (Triton's tutorial uses tl.where): its variance has (512 - 300) * mean^2
                        // more than torch's. The reference follows the kernel; torch's layer_norm shows the gap.
                        "var = ((d * d).sum(dim=1) + (512 - cols) * m64 * m64) / cols\n"
                        "ref = d / torch.sqrt(var + 1e-5)[:, None] * w.to(torch.float64) + bias.to(torch.float64)\n"
                        "torch_ref = torch.nn.functional.layer_norm(x64, (cols,), w.to(torch.float64), bias.to(torch.float64), 1e-5)\n"
                        "((y.to(torch.float64) - ref).abs().max().item() < 1e-5, (mean.to(torch.float64) - m64).abs().max().item() < 1e-6,\n"
                        " (rstd.to(torch.float64) - 1 / torch.sqrt(var + 1e-5)).abs().max().item() < 1e-5,\n"
                        " (y.to(torch.float64) - torch_ref).abs().max().item() > 1e-3)").result,
            "(True, True, True, True)");

  // debug_kernel prints from program 0 only.
  const PyRun debug = mustRun(ex, "x = torch.arange(2048, dtype=torch.float32) + 5\ndebug_kernel[(2,)](x, BLOCK_SIZE=1024)\n");
  EXPECT_NE(debug.out.find("Program ID: 0"), std::string::npos) << debug.out;
  EXPECT_NE(debug.out.find("First element: 5"), std::string::npos) << debug.out;
  EXPECT_EQ(debug.out.find("Program ID: 1"), std::string::npos) << debug.out;
}
