// The Python subset of the host interpreter: values, operators, control flow, functions, scopes.
#include "core/host/HostExecutor.h"
#include "core/tensor/Storage.h"
#include "tests/host/InterpTestUtil.h"

using tilescope::testing::pyError;
using tilescope::testing::pyOut;
using tilescope::testing::PyRun;
using tilescope::testing::runPy;

TEST(InterpBasics, IntArithmeticFollowsPython) { EXPECT_EQ(pyOut("print(7 // 2, -7 // 2, 7 % -3, -7 % 3, 2 ** 10, 7 / 2)"), "3 -4 -2 2 1024 3.5\n"); }
TEST(InterpBasics, FloatFloorDivAndMod) { EXPECT_EQ(pyOut("print(7.5 // 2, -7.5 // 2, 7.5 % -2, 2 ** -1)"), "3.0 -4.0 -0.5 0.5\n"); }
TEST(InterpBasics, FloatReprIsShortest) { EXPECT_EQ(pyOut("print(0.1 + 0.2, 1e-5, 1e16, 1.0, 2.5e-300)"), "0.30000000000000004 1e-05 1e+16 1.0 2.5e-300\n"); }
TEST(InterpBasics, BoolArithmetic) { EXPECT_EQ(pyOut("print(True + True, True & False, True | False, -True)"), "2 False True -1\n"); }
TEST(InterpBasics, BitOps) { EXPECT_EQ(pyOut("print(6 & 3, 6 | 3, 6 ^ 3, ~5, 1 << 10, -16 >> 2)"), "2 7 5 -6 1024 -4\n"); }
TEST(InterpBasics, ChainedComparison) { EXPECT_EQ(pyOut("x = 5\nprint(1 < x <= 5, 1 < x < 5, 3 == 3.0)"), "True False True\n"); }
TEST(InterpBasics, BoolOpsReturnOperands) { EXPECT_EQ(pyOut("print(0 or 'a', 1 and 2, None or [], 3 and 0)"), "a 2 [] 0\n"); }
TEST(InterpBasics, IsAndIsNot) { EXPECT_EQ(pyOut("a = [1]\nb = a\nprint(a is b, a is not [1], None is None)"), "True True True\n"); }
TEST(InterpBasics, InOperator) { EXPECT_EQ(pyOut("print(2 in [1, 2], 'b' in 'abc', 'k' in {'k': 1}, 3 not in (1, 2), 4 in range(0, 10, 2))"), "True True True True True\n"); }
TEST(InterpBasics, ConditionalExpression) { EXPECT_EQ(pyOut("x = 3\nprint('big' if x > 2 else 'small')"), "big\n"); }
TEST(InterpBasics, IfElifElse) { EXPECT_EQ(pyOut("for v in [1, 5, 10]:\n    if v < 3:\n        print('lo')\n    elif v < 8:\n        print('mid')\n    else:\n        print('hi')"), "lo\nmid\nhi\n"); }
TEST(InterpBasics, WhileBreakContinue) { EXPECT_EQ(pyOut("i = 0\nwhile True:\n    i += 1\n    if i % 2: continue\n    if i > 6: break\n    print(i)"), "2\n4\n6\n"); }
TEST(InterpBasics, ForElseRunsWithoutBreak) { EXPECT_EQ(pyOut("for i in range(3):\n    pass\nelse:\n    print('done', i)"), "done 2\n"); }
TEST(InterpBasics, ForOverDictItemsAndString) { EXPECT_EQ(pyOut("for k, v in {'a': 1, 'b': 2}.items(): print(k, v)\nfor c in 'hi': print(c)"), "a 1\nb 2\nh\ni\n"); }
TEST(InterpBasics, ZipAndEnumerate) { EXPECT_EQ(pyOut("for i, (a, b) in enumerate(zip([1, 2], 'xy'), 1): print(i, a, b)"), "1 1 x\n2 2 y\n"); }
TEST(InterpBasics, RangeNegativeStep) { EXPECT_EQ(pyOut("print(list(range(5, 0, -2)), len(range(0, 10, 3)), range(3))"), "[5, 3, 1] 4 range(0, 3)\n"); }
TEST(InterpBasics, TupleUnpackingNested) { EXPECT_EQ(pyOut("(m, k), (_, n) = (2, 3), (3, 4)\nprint(m, k, n)"), "2 3 4\n"); }
TEST(InterpBasics, StarredUnpacking) { EXPECT_EQ(pyOut("a, *rest = [1, 2, 3]\n*init, last = 'abc'\nprint(a, rest, init, last)"), "1 [2, 3] ['a', 'b'] c\n"); }
TEST(InterpBasics, ChainedAssignment) { EXPECT_EQ(pyOut("a = b = [0]\nb.append(1)\nprint(a)"), "[0, 1]\n"); }
TEST(InterpBasics, AugmentedAssignmentOnSubscriptAndList) { EXPECT_EQ(pyOut("d = {'n': 1}\nd['n'] += 4\nl = [1]\nl2 = l\nl += [2]\nprint(d, l2)"), "{'n': 5} [1, 2]\n"); }
TEST(InterpBasics, ListMethods) { EXPECT_EQ(pyOut("l = [3, 1]\nl.append(2)\nl.extend([5, 4])\nprint(l.pop(), l.pop(0), l.index(2), l, l[::-1], l[1:])"), "4 3 1 [1, 2, 5] [5, 2, 1] [2, 5]\n"); }
TEST(InterpBasics, ListSortWithKey) { EXPECT_EQ(pyOut("l = ['bb', 'a', 'ccc']\nl.sort(key=len, reverse=True)\nprint(l, sorted([3, 1, 2]))"), "['ccc', 'bb', 'a'] [1, 2, 3]\n"); }
TEST(InterpBasics, ListSliceAssignment) { EXPECT_EQ(pyOut("l = [0, 1, 2, 3]\nl[1:3] = ['x']\nprint(l)"), "[0, 'x', 3]\n"); }
TEST(InterpBasics, DictMethods) { EXPECT_EQ(pyOut("d = {'a': 1}\nd['b'] = 2\nprint(d.get('a'), d.get('z', 0), list(d.keys()), list(d.values()), len(d), d.pop('a'), d)"), "1 0 ['a', 'b'] [1, 2] 2 1 {'b': 2}\n"); }
TEST(InterpBasics, DictDoubleStarMerge) { EXPECT_EQ(pyOut("a = {'x': 1}\nb = {**a, 'y': 2}\nprint(b, dict(a, z=3))"), "{'x': 1, 'y': 2} {'x': 1, 'z': 3}\n"); }
TEST(InterpBasics, DictKeysIntAndFloatEqual) { EXPECT_EQ(pyOut("d = {1: 'one'}\nprint(d[1.0], (1, 2) in {(1, 2): 0})"), "one True\n"); }
TEST(InterpBasics, ListComprehensionWithCondition) { EXPECT_EQ(pyOut("print([x * y for x in range(3) for y in range(3) if x < y])"), "[0, 0, 2]\n"); }
TEST(InterpBasics, DictComprehension) { EXPECT_EQ(pyOut("print({k: v * 2 for k, v in [('a', 1), ('b', 2)]})"), "{'a': 2, 'b': 4}\n"); }
TEST(InterpBasics, GeneratorExpressionInCalls) { EXPECT_EQ(pyOut("print(sum(x * x for x in range(4)), any(x > 2 for x in [1, 3]), all(x for x in []))"), "14 True True\n"); }
TEST(InterpBasics, ComprehensionVariableDoesNotLeak) { EXPECT_EQ(pyOut("x = 'outer'\n[x for x in range(3)]\nprint(x)"), "outer\n"); }
TEST(InterpBasics, DefaultsKeywordsVarargs) { EXPECT_EQ(pyOut("def f(a, b=2, *args, c=3, **kw):\n    return (a, b, args, c, kw)\nprint(f(1), f(1, 5, 6, 7, c=0, d=9))"), "(1, 2, (), 3, {}) (1, 5, (6, 7), 0, {'d': 9})\n"); }
TEST(InterpBasics, StarArgsInCall) { EXPECT_EQ(pyOut("def f(a, b, c): return a + b + c\nargs = (1, 2)\nkw = {'c': 3}\nprint(f(*args, **kw))"), "6\n"); }
TEST(InterpBasics, AnnotatedParameters) { EXPECT_EQ(pyOut("def f(x: int, y: 'str' = 'a') -> str:\n    return y * x\nprint(f(3))"), "aaa\n"); }
TEST(InterpBasics, DefaultsEvaluatedOnce) { EXPECT_EQ(pyOut("def f(l=[]):\n    l.append(1)\n    return len(l)\nf()\nprint(f())"), "2\n"); }
TEST(InterpBasics, ClosuresCaptureEnclosingScope) { EXPECT_EQ(pyOut("def make(n):\n    def add(x): return x + n\n    return add\nprint(make(3)(4))"), "7\n"); }
TEST(InterpBasics, NonlocalAndGlobal) { EXPECT_EQ(pyOut("g = 0\ndef counter():\n    c = 0\n    def inc():\n        nonlocal c\n        global g\n        c += 1\n        g += 10\n        return c\n    return inc\ni = counter()\ni()\nprint(i(), g)"), "2 20\n"); }
TEST(InterpBasics, LambdaWithDefaults) { EXPECT_EQ(pyOut("f = lambda meta, k=2: meta['x'] * k\nprint(f({'x': 4}))"), "8\n"); }
TEST(InterpBasics, RecursionWorks) { EXPECT_EQ(pyOut("def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(15))"), "610\n"); }
TEST(InterpBasics, FunctoolsPartial) { EXPECT_EQ(pyOut("from functools import partial\ndef f(a, b, c=0): return a * 100 + b * 10 + c\ng = partial(f, c=5)\nprint(g(1, 2), g(1, 2, c=7))"), "125 127\n"); }
TEST(InterpBasics, TryExceptAsAndFinally) { EXPECT_EQ(pyOut("try:\n    [][1]\nexcept (KeyError, IndexError) as e:\n    print('caught', type(e).__name__, e)\nfinally:\n    print('finally')"), "caught IndexError list index out of range\nfinally\n"); }
TEST(InterpBasics, ExceptHierarchy) { EXPECT_EQ(pyOut("try:\n    1 / 0\nexcept ArithmeticError:\n    print('arith')\ntry:\n    {}['k']\nexcept LookupError as e:\n    print(repr(e))"), "arith\nKeyError('k')\n"); }
TEST(InterpBasics, RaiseAndReraise) { EXPECT_EQ(pyOut("try:\n    try:\n        raise ValueError('inner')\n    except ValueError:\n        raise\nexcept Exception as e:\n    print(e.args)"), "('inner',)\n"); }
TEST(InterpBasics, TryElse) { EXPECT_EQ(pyOut("try:\n    x = 1\nexcept Exception:\n    print('no')\nelse:\n    print('else', x)"), "else 1\n"); }
TEST(InterpBasics, ReturnInsideFinallyOrder) { EXPECT_EQ(pyOut("def f():\n    try:\n        return 'body'\n    finally:\n        print('cleanup')\nprint(f())"), "cleanup\nbody\n"); }
TEST(InterpBasics, AssertPasses) { EXPECT_EQ(pyOut("assert 1 == 1, 'never'\nprint('ok')"), "ok\n"); }
TEST(InterpBasics, DelStatement) { EXPECT_EQ(pyOut("d = {'a': 1, 'b': 2}\ndel d['a']\nl = [1, 2, 3]\ndel l[0]\nx = 1\ndel x\nprint(d, l, 'x' in dir() if False else 'gone')"), "{'b': 2} [2, 3] gone\n"); }
TEST(InterpBasics, BuiltinsMinMaxAbsRound) { EXPECT_EQ(pyOut("print(min(3, 1, 2), max([4, 9]), max('ab', 'b', key=len), abs(-3), abs(-2.5), round(2.5), round(3.5), round(2.675, 2), round(7.1))"), "1 9 ab 3 2.5 2 4 2.67 7\n"); }
TEST(InterpBasics, BuiltinsConversions) { EXPECT_EQ(pyOut("print(int('42'), int(-3.9), float('1.5'), float('inf'), str(3), bool(''), bool([0]), int(True), int('ff', 16))"), "42 -3 1.5 inf 3 False True 1 255\n"); }
TEST(InterpBasics, IsinstanceWithTuplesAndBool) { EXPECT_EQ(pyOut("print(isinstance(True, int), isinstance(3, (str, float)), isinstance([], list), isinstance((1,), tuple))"), "True False True True\n"); }
TEST(InterpBasics, MapFilterReversed) { EXPECT_EQ(pyOut("print(list(map(lambda x: x + 1, [1, 2])), list(filter(None, [0, 1, 2])), list(reversed('abc')))"), "[2, 3] [1, 2] ['c', 'b', 'a']\n"); }
TEST(InterpBasics, TupleRepr) { EXPECT_EQ(pyOut("print((), (1,), (1, 'a'), [None, True])"), "() (1,) (1, 'a') [None, True]\n"); }
TEST(InterpBasics, EvalUsesCallerScope) { EXPECT_EQ(pyOut("def f(pid, op, t):\n    return eval(f'{pid} {op} {t}')\nprint(f(3, '>=', 2), f(0, '==', 1), eval('[1, 2][-1]'))"), "True False 2\n"); }
TEST(InterpBasics, MathModule) { EXPECT_EQ(pyOut("import math\nprint(math.sqrt(2), math.log2(1024), math.ceil(2.1), math.floor(-2.1), math.inf > 1e308, round(math.pi, 4), math.exp(0), math.log(math.e))"), "1.4142135623730951 10.0 3 -3 True 3.1416 1.0 1.0\n"); }
TEST(InterpBasics, OsEnvironReadWrite) { EXPECT_EQ(pyOut("import os\nos.environ['TRITON_INTERPRET'] = '1'\nprint(os.environ.get('TRITON_INTERPRET'), os.environ['TRITON_INTERPRET'] == '1', os.environ.get('NOPE_NOT_SET_X', 'dflt'), 'TRITON_INTERPRET' in os.environ)"), "1 True dflt True\n"); }
TEST(InterpBasics, DunderNameIsMain) { EXPECT_EQ(pyOut("if __name__ == \"__main__\":\n    print('main')"), "main\n"); }
TEST(InterpBasics, PrintSepEnd) { EXPECT_EQ(pyOut("print(1, 2, 3, sep='-', end='!\\n')\nprint()\nprint('a', end='')\nprint('b')"), "1-2-3!\n\nab\n"); }
TEST(InterpBasics, DocstringsAndPassAreFine) { EXPECT_EQ(pyOut("def f():\n    \"\"\"doc\"\"\"\n    pass\nprint(f(), f.__doc__)"), "None doc\n"); }
TEST(InterpBasics, WithNoGrad) { EXPECT_EQ(pyOut("import torch\nwith torch.no_grad():\n    print('inside')"), "inside\n"); }
TEST(InterpBasics, CellsShareGlobals) {
  tilescope::host::HostExecutor ex;
  EXPECT_TRUE(runPy(ex, "x = 41\ndef f(): return x + 1").ok);
  EXPECT_EQ(runPy(ex, "print(f())").out, "42\n");
}
TEST(InterpBasics, LastExpressionIsDisplayedLikeJupyter) {
  EXPECT_EQ(runPy("x = [1, 2]\nx, len(x)", true).result, "([1, 2], 2)");
  EXPECT_EQ(runPy("x = 3\nx;", true).result, "");
  EXPECT_EQ(runPy("None", true).result, "");
  EXPECT_EQ(runPy("'a\\'b'", true).result, "\"a'b\"");
}
TEST(InterpBasics, ScriptsDoNotDisplayLastExpression) { EXPECT_EQ(runPy("1 + 1", false).result, ""); }
TEST(InterpBasics, LargeLoopsRunToTheEnd) { EXPECT_EQ(pyOut("s = 0\nfor i in range(200000):\n    s += i\nprint(s)"), "19999900000\n"); }
TEST(InterpBasics, SetTraceIsANote) {
  EXPECT_EQ(pyOut("from IPython.core.debugger import set_trace\nset_trace()\nset_trace()\nprint('after')"),
            "set_trace(): interactive breakpoints are not available in tilescope; step through the programs of a launch in "
            "the visualizer instead (program stepping)\nafter\n");
}
TEST(InterpBasics, TritonUtilModuleShipsTheSeedHelpers) {
  EXPECT_EQ(pyOut("from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready, test_pid_conds\n"
                  "print(cdiv(10, 3), test_pid_conds('>1,=0', [2], [0]), test_pid_conds('<1', [1]))\nprint_if('shown', '')\nprint_if('hidden', '>0')"),
            "4 True False\nshown\n");
}

TEST(InterpBasics, ACallWhoseLocalLambdaMakesACycleStillFreesItsTensors) {
  // scope -> grid lambda -> closure == scope: without breaking the cycle every call of add() kept its
  // output alive (do_bench calls it thousands of times).
  tilescope::host::HostExecutor ex;
  ASSERT_TRUE(runPy(ex, R"(import torch
def make(n):
    out = torch.zeros(n)
    grid = lambda meta: (n // meta['B'],)
    grid({'B': 2})
    return out.sum().item()

def keep(n):
    out = torch.zeros(n)
    return lambda: out
)").ok);
  const long before = tilescope::host::Storage::liveCount();
  PyRun r = runPy(ex, "for i in range(50):\n    make(16)\n");
  ASSERT_TRUE(r.ok) << r.errorValue;
  EXPECT_LE(tilescope::host::Storage::liveCount(), before + 1);
  // A closure that escapes keeps its scope (and tensor) alive, as in Python.
  r = runPy(ex, "kept = keep(8)\nprint(kept().shape)\n");
  ASSERT_TRUE(r.ok) << r.errorValue;
  EXPECT_EQ(r.out, "torch.Size([8])\n");
  EXPECT_GE(tilescope::host::Storage::liveCount(), before + 1);
}
