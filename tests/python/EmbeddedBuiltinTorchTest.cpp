// The built-in torch module as host code on embedded CPython sees it (the tensor library itself is
// tested in Tensor*Test.cpp).
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::PythonRun;
using tilescope::testing::runPython;
using tilescope::testing::scriptError;
using tilescope::testing::scriptOut;

namespace {
std::string torchOut(const std::string& code) { return scriptOut("import torch\n" + code); }
}  // namespace

TEST(EmbeddedBuiltinTorch, TensorRepr) { EXPECT_EQ(torchOut("print(torch.tensor([1, 2, 3]))"), "tensor([1, 2, 3])\n"); }
TEST(EmbeddedBuiltinTorch, TupleOfTensorsDisplayedLikePython) {
  tilescope::python::PythonExecutor executor;
  EXPECT_EQ(runPython(executor, "import torch\nx = torch.tensor([1,2,3,4,5,6])\nz = x.clone()\nx, z").result(),
            "(tensor([1, 2, 3, 4, 5, 6]), tensor([1, 2, 3, 4, 5, 6]))");
}
TEST(EmbeddedBuiltinTorch, DeviceCudaIsAcceptedAndShown) { EXPECT_EQ(torchOut("x = torch.zeros(2, device='cuda')\nprint(x, x.is_cuda, x.device)"), "tensor([0., 0.], device='cuda:0') True cuda:0\n"); }
TEST(EmbeddedBuiltinTorch, ShapeIsTorchSizeComparableWithTuples) {
  EXPECT_EQ(torchOut("x = torch.ones((3, 4))\nm, k = x.shape\nprint(x.shape, x.shape == (3, 4), m, k, x.shape[1], len(x.shape), x.size(), x.size(0))"),
            "torch.Size([3, 4]) True 3 4 4 2 torch.Size([3, 4]) 3\n");
}
TEST(EmbeddedBuiltinTorch, StridesAndLayout) {
  EXPECT_EQ(torchOut("x = torch.ones((3, 4))\nt = x.T\nprint(x.stride(), x.stride(0), t.stride(), t.is_contiguous(), t.contiguous().is_contiguous(), x.element_size(), x.numel(), x.dim())"),
            "(4, 1) 4 (1, 4) False True 4 12 2\n");
}
TEST(EmbeddedBuiltinTorch, IsContiguousUncalledIsTruthy) { EXPECT_EQ(torchOut("x = torch.ones(3)\nassert x.is_contiguous, 'A tensor is not contiguous'\nprint('ok')"), "ok\n"); }
TEST(EmbeddedBuiltinTorch, DtypesAndConversions) {
  EXPECT_EQ(torchOut("x = torch.arange(4)\nprint(x.dtype, x.float().dtype, x.half().dtype, x.to(torch.bfloat16).dtype, x.to('cuda').device, x.cpu().device, x.dtype == torch.int64)"),
            "torch.int64 torch.float32 torch.float16 torch.bfloat16 cuda:0 cpu True\n");
}
TEST(EmbeddedBuiltinTorch, FactoriesWithDtype) {
  EXPECT_EQ(torchOut("print(torch.zeros((2,), dtype=torch.int32), torch.ones(2, 2, dtype=torch.float16).dtype, torch.full((2,), 7), torch.empty(3).shape)"),
            "tensor([0, 0], dtype=torch.int32) torch.float16 tensor([7, 7]) torch.Size([3])\n");
}
TEST(EmbeddedBuiltinTorch, FullLikeKeepsShapeDtypeAndDeviceUnlessGiven) {
  EXPECT_EQ(torchOut("x = torch.zeros((2, 3), dtype=torch.float16, device='cuda')\ny = torch.full_like(x, -float('inf'))\n"
                     "z = torch.full_like(x, 7, dtype=torch.int32)\nprint(y.shape, y.dtype, y.device, y[1, 2].item(), z.dtype, z.sum().item())"),
            "torch.Size([2, 3]) torch.float16 cuda:0 -inf torch.int32 42\n");
}
TEST(EmbeddedBuiltinTorch, LikeFactories) {
  EXPECT_EQ(torchOut("x = torch.arange(6, device='cuda').view(2, 3)\nz = -torch.ones_like(x)\nprint(z.shape, z.dtype, z.device, torch.zeros_like(x, dtype=torch.float32).dtype)"),
            "torch.Size([2, 3]) torch.int64 cuda:0 torch.float32\n");
}
TEST(EmbeddedBuiltinTorch, ManualSeedMakesRandReproducible) {
  EXPECT_EQ(torchOut("torch.manual_seed(0)\na = torch.rand(3)\ntorch.manual_seed(0)\nb = torch.rand(3)\nprint(torch.equal(a, b), a.shape)"), "True torch.Size([3])\n");
}
TEST(EmbeddedBuiltinTorch, RandMatchesTorchSeedZero) { EXPECT_EQ(torchOut("torch.manual_seed(0)\nprint(torch.rand(2))"), "tensor([0.4963, 0.7682])\n"); }
TEST(EmbeddedBuiltinTorch, RandintForms) { EXPECT_EQ(torchOut("torch.manual_seed(1)\nr = torch.randint(0, 10, (5,))\nprint(r.shape, r.dtype, bool((r >= 0).all()), bool((r < 10).all()))"), "torch.Size([5]) torch.int64 True True\n"); }
TEST(EmbeddedBuiltinTorch, ArithmeticBroadcastingAndPromotion) {
  EXPECT_EQ(torchOut("x = torch.tensor([[1], [2]])\ny = torch.tensor([10, 20])\nprint(x + y, (x * 2.5).dtype, 1 - y, y // 3, y % 7, y ** 2)"),
            "tensor([[11, 21],\n        [12, 22]]) torch.float32 tensor([ -9, -19]) tensor([3, 6]) tensor([3, 6]) tensor([100, 400])\n");
}
TEST(EmbeddedBuiltinTorch, TrueDivisionOfIntsIsFloat) { EXPECT_EQ(torchOut("print(torch.tensor([1, 2]) / 2)"), "tensor([0.5000, 1.0000])\n"); }
TEST(EmbeddedBuiltinTorch, ComparisonsAndLogic) {
  EXPECT_EQ(torchOut("x = torch.arange(4)\nm = (x > 0) & (x < 3)\nprint(m, ~m, (x == 2) | (x == 0))"),
            "tensor([False,  True,  True, False]) tensor([ True, False, False,  True]) tensor([ True, False,  True, False])\n");
}
TEST(EmbeddedBuiltinTorch, UnaryMinusAndAbs) { EXPECT_EQ(torchOut("x = torch.tensor([-1.5, 2.0])\nprint(-x, abs(x), x.abs(), torch.abs(x))"), "tensor([ 1.5000, -2.0000]) tensor([1.5000, 2.0000]) tensor([1.5000, 2.0000]) tensor([1.5000, 2.0000])\n"); }
TEST(EmbeddedBuiltinTorch, MatmulOperatorAndFunction) {
  EXPECT_EQ(torchOut("a, b = torch.ones(3, 4, device='cuda'), torch.ones(4, 5, device='cuda')\nc = a @ b\nprint(c.shape, c[0, 0].item(), torch.equal(c, torch.matmul(a, b)))"),
            "torch.Size([3, 5]) 4.0 True\n");
}
TEST(EmbeddedBuiltinTorch, IndexingReads) {
  EXPECT_EQ(torchOut("x = torch.arange(12).view(3, 4)\nprint(x[1], x[:, 1], x[1, 2].item(), x[-1, -1], x[None, 0].shape, x[..., 0])"),
            "tensor([4, 5, 6, 7]) tensor([1, 5, 9]) 6 tensor(11) torch.Size([1, 4]) tensor([0, 4, 8])\n");
}
TEST(EmbeddedBuiltinTorch, IndexingWritesAreInPlace) {
  EXPECT_EQ(torchOut("x = torch.zeros(2, 3, dtype=torch.int64)\nv = x[0]\nx[0, 1] = 5\nx[1] = torch.tensor([7, 8, 9])\nx[:, 2] = -1\nprint(v, x)"),
            "tensor([ 0,  5, -1]) tensor([[ 0,  5, -1],\n        [ 7,  8, -1]])\n");
}
TEST(EmbeddedBuiltinTorch, MaskIndexing) { EXPECT_EQ(torchOut("x = torch.arange(5)\nprint(x[x > 2])"), "tensor([3, 4])\n"); }
TEST(EmbeddedBuiltinTorch, InPlaceAugmentedAssignmentAliases) { EXPECT_EQ(torchOut("x = torch.ones(2)\ny = x\nx += 1\nprint(y)"), "tensor([2., 2.])\n"); }
TEST(EmbeddedBuiltinTorch, ViewsReshapePermute) {
  EXPECT_EQ(torchOut("x = torch.arange(6)\nprint(x.view(2, 3).shape, x.reshape(3, -1).shape, x.view(1, 2, 3).permute(2, 0, 1).shape, x.view(2, 3).t().shape)"),
            "torch.Size([2, 3]) torch.Size([3, 2]) torch.Size([3, 1, 2]) torch.Size([3, 2])\n");
}
TEST(EmbeddedBuiltinTorch, Reductions) {
  EXPECT_EQ(torchOut("x = torch.tensor([[1., 2.], [3., 4.]])\nprint(x.sum(), x.sum(dim=0), x.mean(1), x.max(), torch.max(x, dim=1).values, x.min().item())"),
            "tensor(10.) tensor([4., 6.]) tensor([1.5000, 3.5000]) tensor(4.) tensor([2., 4.]) 1.0\n");
}
TEST(EmbeddedBuiltinTorch, MaxWithDimReturnsNamedTuple) {
  EXPECT_EQ(torchOut("v, i = torch.max(torch.tensor([[1, 5], [7, 2]]), 1)\nprint(v, i)"), "tensor([5, 7]) tensor([1, 0])\n");
}
TEST(EmbeddedBuiltinTorch, ItemAndTolist) { EXPECT_EQ(torchOut("x = torch.tensor([[1, 2], [3, 4]])\nprint(x.tolist(), x[0, 1].item() + 1, float(x[1, 1]), int(x.sum()))"), "[[1, 2], [3, 4]] 3 4.0 10\n"); }
TEST(EmbeddedBuiltinTorch, SoftmaxDimAndAxis) {
  EXPECT_EQ(torchOut("x = torch.tensor([[0., 0.], [1., 1.]])\nprint(torch.softmax(x, dim=1), torch.softmax(x, axis=0)[0])"),
            "tensor([[0.5000, 0.5000],\n        [0.5000, 0.5000]]) tensor([0.2689, 0.2689])\n");
}
TEST(EmbeddedBuiltinTorch, ElementwiseFunctions) {
  EXPECT_EQ(torchOut("x = torch.tensor([0., 4.])\nprint(torch.exp(x), torch.sqrt(x), torch.where(x > 1, x, x - 1), torch.clamp(x, min=1), torch.clamp(x, max=2.0))"),
            "tensor([ 1.0000, 54.5981]) tensor([0., 2.]) tensor([-1.,  4.]) tensor([1., 4.]) tensor([0., 2.])\n");
}
TEST(EmbeddedBuiltinTorch, AllcloseEqualAll) {
  EXPECT_EQ(torchOut("a = torch.tensor([1.0, 2.0])\nb = a + 1e-6\nprint(torch.allclose(a, b), torch.equal(a, b), torch.all(a > 0), torch.allclose(a, a + 0.1, atol=5e-2, rtol=0))"),
            "True False tensor(True) False\n");
}
TEST(EmbeddedBuiltinTorch, AssertCloseFailsWithTorchsMessage) {
  const std::string e = scriptError("import torch\ntorch.testing.assert_close(torch.tensor([1., 2.]), torch.tensor([1., 3.]))");
  EXPECT_EQ(e.substr(0, 43), "AssertionError: Tensor-likes are not close!");
  EXPECT_NE(e.find("Mismatched elements: 1 / 2 (50.0%)"), std::string::npos) << e;
}
TEST(EmbeddedBuiltinTorch, AssertClosePasses) { EXPECT_EQ(torchOut("torch.testing.assert_close(torch.ones(3), torch.ones(3))\nprint('ok')"), "ok\n"); }
TEST(EmbeddedBuiltinTorch, LayerNorm) {
  EXPECT_EQ(torchOut("import torch.nn.functional as F\nx = torch.tensor([[1., 2., 3.]])\ny = F.layer_norm(x, (3,))\nprint(y.shape, round(y[0, 0].item(), 4))"),
            "torch.Size([1, 3]) -1.2247\n");
}
TEST(EmbeddedBuiltinTorch, CudaNamespace) { EXPECT_EQ(torchOut("torch.cuda.synchronize()\nprint(torch.cuda.is_available())"), "True\n"); }
// Like torch, formatting a 0-dim tensor formats its item().
TEST(EmbeddedBuiltinTorch, TensorFormatSpecOnScalars) { EXPECT_EQ(torchOut("x = torch.tensor(2.5)\nprint(f'{x:.2f} {x}')"), "2.50 2.5\n"); }
TEST(EmbeddedBuiltinTorch, IterationOverRows) { EXPECT_EQ(torchOut("for row in torch.arange(4).view(2, 2): print(row)"), "tensor([0, 1])\ntensor([2, 3])\n"); }
TEST(EmbeddedBuiltinTorch, IsinstanceTensor) { EXPECT_EQ(torchOut("print(isinstance(torch.ones(1), torch.Tensor), isinstance(3, torch.Tensor))"), "True False\n"); }
TEST(EmbeddedBuiltinTorch, AmbiguousTruthValue) { EXPECT_EQ(scriptError("import torch\nif torch.ones(2): pass"), "RuntimeError: Boolean value of Tensor with more than one value is ambiguous"); }
TEST(EmbeddedBuiltinTorch, ShapeMismatchIsRuntimeError) {
  EXPECT_EQ(scriptError("import torch\ntorch.ones(2) + torch.ones(3)"),
            "RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
}
TEST(EmbeddedBuiltinTorch, TensorIndexOutOfRange) { EXPECT_EQ(scriptError("import torch\ntorch.ones(2)[5]").substr(0, 12), "IndexError: "); }
TEST(EmbeddedBuiltinTorch, BadDeviceString) { EXPECT_EQ(scriptError("import torch\ntorch.ones(2, device='tpu')"), "RuntimeError: Expected one of cpu, cuda device type at start of device string: tpu"); }
TEST(EmbeddedBuiltinTorch, TensorErrorHasTraceback) {
  const PythonRun r = tilescope::testing::runScript("import torch\ndef f(x):\n    return x.view(5)\nf(torch.ones(4))\n");
  EXPECT_NE(r.traceback.find("  File \"test.py\", line 3, in f\n    return x.view(5)\n"), std::string::npos) << r.traceback;
}

// Reference-side helpers that attention and scan kernels' tests use (values as torch gives them).
TEST(EmbeddedBuiltinTorch, MaskedFillKeepsTheDtypeAndBroadcastsTheMask) {
  EXPECT_EQ(torchOut("x = torch.arange(6).view(2, 3)\nm = x % 2 == 0\n"
                     "print(x.masked_fill(m, -1).tolist(), torch.masked_fill(x.float(), m[0], 0.5).tolist(), x.masked_fill(m, 2.7).dtype)\n"
                     "x.masked_fill_(x > 3, 9)\nprint(x.tolist())"),
            "[[-1, 1, -1], [3, -1, 5]] [[0.5, 1.0, 0.5], [0.5, 4.0, 0.5]] torch.int64\n[[0, 1, 2], [3, 9, 9]]\n");
  EXPECT_EQ(scriptError("import torch\ntorch.ones(3).masked_fill(torch.ones(3), 0)"),
            "RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype Float");
}
TEST(EmbeddedBuiltinTorch, TriuAndTrilWithDiagonals) {
  EXPECT_EQ(torchOut("a = torch.ones(3, 4, dtype=torch.int32)\n"
                     "print(torch.triu(a).tolist(), a.tril(-1).tolist(), torch.triu(a, diagonal=2).tolist(), torch.triu(a).dtype)\n"
                     "print(torch.ones(2, 2, dtype=torch.bool).tril().tolist(), torch.ones(2, 2, 2).triu().sum().item())"),
            "[[1, 1, 1, 1], [0, 1, 1, 1], [0, 0, 1, 1]] [[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0]] "
            "[[0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]] torch.int32\n[[True, False], [True, True]] 6.0\n");
  EXPECT_EQ(scriptError("import torch\ntorch.triu(torch.ones(3))"), "RuntimeError: triu: input tensor must have at least 2 dimensions");
}
TEST(EmbeddedBuiltinTorch, CumsumAndCumprodAlongEitherDim) {
  EXPECT_EQ(torchOut("x = torch.tensor([[1, 2, 3], [4, 5, 6]], dtype=torch.int32)\n"
                     "print(x.cumsum(1).tolist(), torch.cumsum(x, dim=0).tolist(), x.cumsum(-1).dtype)\n"
                     "print(x.float().cumprod(1).tolist(), x.float().cumprod(1).dtype, torch.cumsum(x, 1, dtype=torch.float16).dtype)"),
            "[[1, 3, 6], [4, 9, 15]] [[1, 2, 3], [5, 7, 9]] torch.int64\n[[1.0, 2.0, 6.0], [4.0, 20.0, 120.0]] torch.float32 torch.float16\n");
}
TEST(EmbeddedBuiltinTorch, GatherAlongADim) {
  EXPECT_EQ(torchOut("x = torch.tensor([[10, 11, 12], [20, 21, 22]])\n"
                     "print(x.gather(1, torch.tensor([[2, 0], [1, 1]])).tolist(), torch.gather(x, 0, torch.tensor([[1, 0, 1]])).tolist())"),
            "[[12, 10], [21, 21]] [[20, 11, 22]]\n");
  EXPECT_EQ(scriptError("import torch\ntorch.ones(2, 3).gather(1, torch.tensor([[3]]))"),
            "IndexError: index 3 is out of bounds for dimension 1 with size 3");
}

TEST(EmbeddedBuiltinTorch, IsNanIsInfIsFinite) {
  EXPECT_EQ(torchOut("x = torch.tensor([1.0, float('nan'), float('inf'), -float('inf'), 0.0])\n"
                     "print(torch.isnan(x), x.isinf(), torch.isfinite(x))\nprint(torch.isnan(torch.arange(3)))"),
            "tensor([False,  True, False, False, False]) tensor([False, False,  True,  True, False]) "
            "tensor([ True, False, False, False,  True])\ntensor([False, False, False])\n");
}

TEST(EmbeddedBuiltinTorch, Topk) {
  // Largest first (NaN counts as the largest, as in torch), smallest with largest=False, as a method.
  EXPECT_EQ(torchOut("x = torch.tensor([[3.0, float('nan'), 1.0, 7.0], [2.0, -1.0, 5.0, 0.0]])\n"
                     "v, i = torch.topk(x, 2)\nprint(v.tolist(), i.tolist())\n"
                     "print(x.topk(1, dim=0, largest=False).values.tolist(), torch.topk(x, 0).values.shape)"),
            "[[nan, 7.0], [5.0, 2.0]] [[1, 3], [2, 0]]\n[[2.0, -1.0, 1.0, 0.0]] torch.Size([2, 0])\n");
  EXPECT_NE(scriptError("import torch\ntorch.topk(torch.zeros(3), 4)").find("selected index k out of range"), std::string::npos);
}

TEST(EmbeddedBuiltinTorch, CatStackFlipSort) {
  EXPECT_EQ(torchOut("x = torch.tensor([[3.0, float('nan'), 1.0, 1.0], [2.0, -1.0, 5.0, 0.0]])\n"
                     "print(torch.cat([x, x * 2], 0).shape, torch.cat((x[:, :1], x[:, 1:].int()), dim=1).dtype)\n"
                     "print(torch.stack([x[0], x[1]], dim=1).shape, torch.stack([torch.arange(2), torch.arange(2)]).tolist())\n"
                     "print(x.flip(1).tolist()[1], torch.flip(x, dims=[0, 1]).tolist()[0])\n"
                     "v, i = torch.sort(x, dim=1)\nprint(v.tolist()[0], i.tolist())\n"
                     "print(torch.sort(x, descending=True).indices.tolist(), x.argsort(dim=0).tolist())"),
            "torch.Size([4, 4]) torch.float32\ntorch.Size([4, 2]) [[0, 1], [0, 1]]\n"
            "[0.0, 5.0, -1.0, 2.0] [0.0, 5.0, -1.0, 2.0]\n"
            "[1.0, 1.0, 3.0, nan] [[2, 3, 0, 1], [1, 3, 0, 2]]\n"
            "[[1, 0, 2, 3], [2, 0, 3, 1]] [[1, 1, 0, 1], [0, 0, 1, 0]]\n");
  EXPECT_NE(scriptError("import torch\ntorch.cat([torch.zeros(2, 3), torch.zeros(3, 2)])").find("Sizes of tensors must match except in dimension 0"),
            std::string::npos);
}
