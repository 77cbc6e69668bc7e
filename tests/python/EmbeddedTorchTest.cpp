// The built-in torch on embedded CPython: the C++ tensor library behind torch's Python API.
#include <gtest/gtest.h>

#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorPrinter.h"
#include "core/tensor/TorchRandom.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::host::ExecutionOutcome;
using tilescope::python::PythonExecutor;
using tilescope::testing::runPython;

TEST(EmbeddedTorch, TensorsPrintAsTheTensorLibraryPrintsThem) {
  PythonExecutor executor;
  const auto run = runPython(executor, "import torch\nt = torch.arange(6, dtype=torch.float32, device='cuda').view(2, 3) / 4\nprint(t)\nt.shape, t.dtype");
  ASSERT_TRUE(run.ok()) << run.traceback;
  using namespace tilescope::host;
  const Tensor expected = div(arange(Scalar(int64_t{6}), TensorOptions(DType::FP32, Device::parse("cuda"))).view({2, 3}),
                              Scalar(int64_t{4}));
  EXPECT_EQ(run.out, toString(expected) + "\n");
  EXPECT_EQ(run.result(), "(torch.Size([2, 3]), torch.float32)");
}

TEST(EmbeddedTorch, ArithmeticIndexingAndComparisonsFollowTorch) {
  PythonExecutor executor;
  const auto run = runPython(executor, R"(import torch
torch.manual_seed(0)
a = torch.rand(5)
b = torch.rand(5)
print(torch.allclose((a + b) - b, a), torch.allclose(a * 2, a + a), bool((a / 2 <= a)[0]))
v = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(v[1, -1].item(), v[:, 1].tolist(), v[0][None].shape, v.dtype, (v * 2.5).dtype, (v // 4).tolist())
v[0, :2] = 9
print(v.tolist(), len(v), v.numel(), v.is_cuda, v.device)
x = torch.zeros(3, device='cuda')
print(x.is_cuda, x.device, x.data_ptr() != 0, x.data_ptr() == x.data_ptr())
r = torch.arange(3).view(3, 1).expand(3, 2)
print(r.tolist(), r.stride(), r.T.shape, r.permute(1, 0).is_contiguous(), torch.zeros(2, 1, 3).squeeze(1).shape)
)");
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out,
            "True True True\n"
            "6 [2, 5] torch.Size([1, 3]) torch.int64 torch.float32 [[0, 0, 0], [1, 1, 1]]\n"
            "[[9, 9, 3], [4, 5, 6]] 2 6 False cpu\n"
            "True cuda:0 True True\n"
            "[[0, 0], [1, 1], [2, 2]] (1, 0) torch.Size([2, 3]) False torch.Size([2, 3])\n");
}

TEST(EmbeddedTorch, RandomNumbersMatchTheTensorLibrarysGenerator) {
  PythonExecutor executor;
  const auto run = runPython(executor, "import torch\ntorch.manual_seed(7)\nprint(torch.rand(3).tolist())");
  ASSERT_TRUE(run.ok()) << run.traceback;
  using namespace tilescope::host;
  manualSeed(7);
  const NestedValue expected = rand({3}).tolist();
  EXPECT_EQ(run.out, expected.repr() + "\n");
}

TEST(EmbeddedTorch, ErrorsKeepTorchsTypesAndMissingApisSaySo) {
  PythonExecutor executor;
  const auto shapes = runPython(executor, "import torch\ntorch.ones(3) + torch.ones(4)");
  ASSERT_EQ(shapes.outcome.status, ExecutionOutcome::Status::Error);
  EXPECT_EQ(shapes.outcome.errorName, "RuntimeError");
  EXPECT_NE(shapes.outcome.errorValue.find("must match"), std::string::npos) << shapes.outcome.errorValue;

  const auto index = runPython(executor, "torch.ones(3)[5]");
  EXPECT_EQ(index.outcome.errorName, "IndexError");

  const auto missing = runPython(executor, "torch.fft");
  EXPECT_EQ(missing.outcome.errorName, "AttributeError");
  EXPECT_NE(missing.outcome.errorValue.find("built-in torch"), std::string::npos) << missing.outcome.errorValue;

  const auto method = runPython(executor, "torch.ones(2).logcumsumexp(0)");
  EXPECT_EQ(method.outcome.errorName, "AttributeError");
  EXPECT_NE(method.outcome.errorValue.find("'logcumsumexp'"), std::string::npos) << method.outcome.errorValue;
  EXPECT_NE(method.outcome.errorValue.find("built-in torch"), std::string::npos) << method.outcome.errorValue;

  const auto wrong = runPython(executor, "torch.ones(2) + 'a'");
  EXPECT_EQ(wrong.outcome.errorName, "TypeError");
}

// What the seeds and the example notebooks use besides the basics, with torch's results.
TEST(EmbeddedTorch, MatmulStackCatSoftmaxAndAssertCloseWorkLikeTorch) {
  PythonExecutor executor;
  const auto run = runPython(executor,
                             "import torch\n"
                             "a = torch.arange(6).view(2, 3).float()\n"
                             "b = torch.ones(3, 2)\n"
                             "print(torch.matmul(a, b), a @ b)\n"
                             "print(torch.stack([torch.ones(2), torch.zeros(2)]).shape, torch.cat([a, a], dim=1).shape)\n"
                             "print(torch.softmax(torch.zeros(4), dim=0), float(a.softmax(-1)[1].sum()))\n"
                             "print(torch.argmax(torch.tensor([1, 5, 2])), torch.tensor([1, 2, 3]).cumsum(0))\n"
                             "torch.testing.assert_close(torch.ones(3), torch.ones(3) + 1e-7)\n"
                             "try:\n"
                             "    torch.testing.assert_close(torch.ones(3), torch.tensor([1.0, 1.5, 1.0]))\n"
                             "except AssertionError as e:\n"
                             "    print(str(e).splitlines()[0])\n",
                             "Cell [1]", false);
  ASSERT_TRUE(run.ok()) << run.traceback;
  EXPECT_EQ(run.out,
            "tensor([[ 3.,  3.],\n        [12., 12.]]) tensor([[ 3.,  3.],\n        [12., 12.]])\n"
            "torch.Size([2, 2]) torch.Size([2, 6])\n"
            "tensor([0.2500, 0.2500, 0.2500, 0.2500]) 1.0\n"
            "tensor(1) tensor([1, 3, 6])\n"
            "Tensor-likes are not close!\n");
}
