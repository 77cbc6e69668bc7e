// Errors in host code: Python's exception types and wording, tracebacks, cancellation, limits.
#include <thread>

#include "tests/host/InterpTestUtil.h"

using tilescope::testing::PyRun;
using tilescope::testing::pyError;
using tilescope::testing::pyOut;
using tilescope::testing::runPy;

TEST(InterpErrors, NameError) { EXPECT_EQ(pyError("print(foo)"), "NameError: name 'foo' is not defined"); }
TEST(InterpErrors, ZeroDivisionInt) { EXPECT_EQ(pyError("1 // 0"), "ZeroDivisionError: integer division or modulo by zero"); }
TEST(InterpErrors, ZeroDivisionTrue) { EXPECT_EQ(pyError("1 / 0"), "ZeroDivisionError: division by zero"); }
TEST(InterpErrors, ZeroDivisionFloat) { EXPECT_EQ(pyError("1.5 / 0"), "ZeroDivisionError: float division by zero"); }
TEST(InterpErrors, IntOverflowIsClear) {
  EXPECT_EQ(pyError("x = 2 ** 62\ny = x * 4"),
            "OverflowError: integer overflow: 4611686018427387904 * 4 does not fit in 64 bits (tilescope's Python ints are 64-bit)");
}
TEST(InterpErrors, PowOverflow) { EXPECT_EQ(pyError("2 ** 64").substr(0, 31), "OverflowError: integer overflow"); }
TEST(InterpErrors, HugeLiteral) {
  EXPECT_EQ(pyError("x = 123456789012345678901234567890"),
            "OverflowError: integer literal 123456789012345678901234567890 does not fit in 64 bits (tilescope's Python ints are 64-bit)");
}
TEST(InterpErrors, AssertionWithMessage) { EXPECT_EQ(pyError("assert 1 == 2, 'matrix dims not compatible for matmul'"), "AssertionError: matrix dims not compatible for matmul"); }
TEST(InterpErrors, AssertionWithoutMessage) { EXPECT_EQ(pyError("assert False"), "AssertionError: "); }
TEST(InterpErrors, KeyErrorShowsRepr) { EXPECT_EQ(pyError("d = {}\nd['bm']"), "KeyError: 'bm'"); }
TEST(InterpErrors, IndexErrorList) { EXPECT_EQ(pyError("[1, 2][2]"), "IndexError: list index out of range"); }
TEST(InterpErrors, IndexErrorTuple) { EXPECT_EQ(pyError("(1,)[-2]"), "IndexError: tuple index out of range"); }
TEST(InterpErrors, PopEmptyList) { EXPECT_EQ(pyError("[].pop()"), "IndexError: pop from empty list"); }
TEST(InterpErrors, ListIndexValueError) { EXPECT_EQ(pyError("[1].index(5)"), "ValueError: 5 is not in list"); }
TEST(InterpErrors, UnsupportedOperand) { EXPECT_EQ(pyError("1 + None"), "TypeError: unsupported operand type(s) for +: 'int' and 'NoneType'"); }
TEST(InterpErrors, OrderingNotSupported) { EXPECT_EQ(pyError("1 < 'a'"), "TypeError: '<' not supported between instances of 'int' and 'str'"); }
TEST(InterpErrors, NotCallable) { EXPECT_EQ(pyError("x = 3\nx()"), "TypeError: 'int' object is not callable"); }
TEST(InterpErrors, NotSubscriptable) { EXPECT_EQ(pyError("None[0]"), "TypeError: 'NoneType' object is not subscriptable"); }
TEST(InterpErrors, NotIterable) { EXPECT_EQ(pyError("for x in 5: pass"), "TypeError: 'int' object is not iterable"); }
TEST(InterpErrors, NoLen) { EXPECT_EQ(pyError("len(5)"), "TypeError: object of type 'int' has no len()"); }
TEST(InterpErrors, Unhashable) { EXPECT_EQ(pyError("{[1]: 2}"), "TypeError: unhashable type: 'list'"); }
TEST(InterpErrors, AttributeErrorOnObject) { EXPECT_EQ(pyError("[].push(1)"), "AttributeError: 'list' object has no attribute 'push'"); }
TEST(InterpErrors, AttributeErrorOnModule) {
  EXPECT_EQ(pyError("import math\nmath.foo"),
            "AttributeError: module 'math' has no attribute 'foo' (not provided by tilescope's host interpreter; see docs/HOST_LANGUAGE.md)");
}
TEST(InterpErrors, MissingArgument) { EXPECT_EQ(pyError("def add(x, y): return x + y\nadd(1)"), "TypeError: add() missing 1 required positional argument: 'y'"); }
TEST(InterpErrors, MissingArguments) { EXPECT_EQ(pyError("def f(a, b, c): pass\nf()"), "TypeError: f() missing 3 required positional arguments: 'a', 'b', and 'c'"); }
TEST(InterpErrors, TooManyArguments) { EXPECT_EQ(pyError("def f(a): pass\nf(1, 2)"), "TypeError: f() takes 1 positional argument but 2 were given"); }
TEST(InterpErrors, TooManyWithDefaults) { EXPECT_EQ(pyError("def f(a, b=1): pass\nf(1, 2, 3)"), "TypeError: f() takes from 1 to 2 positional arguments but 3 were given"); }
TEST(InterpErrors, UnexpectedKeyword) { EXPECT_EQ(pyError("def f(a): pass\nf(a=1, b=2)"), "TypeError: f() got an unexpected keyword argument 'b'"); }
TEST(InterpErrors, MultipleValues) { EXPECT_EQ(pyError("def f(a): pass\nf(1, a=2)"), "TypeError: f() got multiple values for argument 'a'"); }
TEST(InterpErrors, PositionalOnlyByKeyword) {
  EXPECT_EQ(pyError("def f(a, /): pass\nf(a=1)"), "TypeError: f() got some positional-only arguments passed as keyword arguments: 'a'");
  EXPECT_EQ(pyOut("def f(a, /, **kw): return a, kw\nprint(f(1, a=2))"), "(1, {'a': 2})\n") << "with **kwargs the name lands in kw";
}
TEST(InterpErrors, TooManyWithKeywordOnly) {
  EXPECT_EQ(pyError("def f(a, *, b): pass\nf(1, 2, b=3)"),
            "TypeError: f() takes 1 positional argument but 2 positional arguments (and 1 keyword-only argument) were given");
}
TEST(InterpErrors, MissingKeywordOnly) { EXPECT_EQ(pyError("def f(*, k): pass\nf()"), "TypeError: f() missing 1 required keyword-only argument: 'k'"); }
TEST(InterpErrors, UnpackTooMany) { EXPECT_EQ(pyError("a, b = 1, 2, 3"), "ValueError: too many values to unpack (expected 2)"); }
TEST(InterpErrors, UnpackTooFew) { EXPECT_EQ(pyError("a, b, c = [1, 2]"), "ValueError: not enough values to unpack (expected 3, got 2)"); }
TEST(InterpErrors, RaiseValueErrorWithMessage) { EXPECT_EQ(pyError("raise ValueError(f\"Invalid rule: '{3}'.\")"), "ValueError: Invalid rule: '3'."); }
TEST(InterpErrors, RaiseClassWithoutArgs) { EXPECT_EQ(pyError("raise NotImplementedError"), "NotImplementedError: "); }
TEST(InterpErrors, RaiseNonException) { EXPECT_EQ(pyError("raise 3"), "TypeError: exceptions must derive from BaseException"); }
TEST(InterpErrors, BareRaiseOutsideExcept) { EXPECT_EQ(pyError("raise"), "RuntimeError: No active exception to reraise"); }
TEST(InterpErrors, UnknownModuleListsSupportedOnes) {
  const std::string e = pyError("import numpy as np");
  EXPECT_EQ(e.rfind("ModuleNotFoundError: No module named 'numpy': tilescope runs host code without Python and provides only these modules: ", 0), 0u) << e;
  EXPECT_NE(e.find("torch"), std::string::npos);
  EXPECT_NE(e.find("triton.language"), std::string::npos);
  EXPECT_NE(e.find("triton_util"), std::string::npos);
}
TEST(InterpErrors, ImportUnknownName) {
  EXPECT_EQ(pyError("from math import nothing"),
            "ImportError: cannot import name 'nothing' from 'math' (tilescope's host interpreter does not provide it; see docs/HOST_LANGUAGE.md)");
}
TEST(InterpErrors, ClassDefinitionsAreRejectedClearly) {
  EXPECT_EQ(pyError("class A:\n    pass"),
            "SyntaxError: class definitions are not supported by tilescope's host interpreter (see docs/HOST_LANGUAGE.md); use "
            "functions and dicts instead");
}
TEST(InterpErrors, SyntaxErrorRendersCaret) {
  PyRun r = runPy("x = (1,\nprint(x)");
  EXPECT_EQ(r.errorName, "SyntaxError");
  EXPECT_NE(r.traceback.find("test.py:"), std::string::npos) << r.traceback;
  EXPECT_NE(r.traceback.find("^"), std::string::npos) << r.traceback;
}
TEST(InterpErrors, RecursionLimit) { EXPECT_EQ(pyError("def f(n): return f(n + 1)\nf(0)"), "RecursionError: maximum recursion depth exceeded"); }
TEST(InterpErrors, TracebackHasPythonShape) {
  PyRun r = runPy("def add(a, b):\n    return a + b\n\ndef outer():\n    return add(1, 'x')\n\nouter()\n");
  EXPECT_EQ(r.traceback,
            "Traceback (most recent call last):\n"
            "  File \"test.py\", line 7, in <module>\n"
            "    outer()\n"
            "  File \"test.py\", line 5, in outer\n"
            "    return add(1, 'x')\n"
            "  File \"test.py\", line 2, in add\n"
            "    return a + b\n"
            "TypeError: unsupported operand type(s) for +: 'int' and 'str'\n");
}
TEST(InterpErrors, TracebackThroughLambda) {
  PyRun r = runPy("grid = lambda meta: (meta['bm'],)\ngrid({})\n");
  EXPECT_EQ(r.traceback,
            "Traceback (most recent call last):\n"
            "  File \"test.py\", line 2, in <module>\n"
            "    grid({})\n"
            "  File \"test.py\", line 1, in <lambda>\n"
            "    grid = lambda meta: (meta['bm'],)\n"
            "KeyError: 'bm'\n");
}
TEST(InterpErrors, ErrorOutcomeCarriesFrames) {
  tilescope::host::HostExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  tilescope::host::CancelToken cancel;
  auto o = ex.execute("x = 1\ny = x / 0\n", "abc", cb, cancel);
  ASSERT_EQ(o.status, tilescope::host::ExecutionOutcome::Status::Error);
  ASSERT_EQ(o.traceback.size(), 1u);
  EXPECT_EQ(o.traceback[0].file, "<cell:abc>");
  EXPECT_EQ(o.traceback[0].line, 2);
  EXPECT_EQ(o.traceback[0].column, 1);
  EXPECT_EQ(o.traceback[0].text, "y = x / 0");
}
TEST(InterpErrors, OutputBeforeErrorIsKept) {
  PyRun r = runPy("print('before')\nundefined_name\nprint('after')");
  EXPECT_EQ(r.out, "before\n");
  EXPECT_EQ(r.errorName, "NameError");
}
TEST(InterpErrors, CancelStopsAnInfiniteLoop) {
  tilescope::host::HostExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  tilescope::host::CancelToken cancel;
  std::thread stopper([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  auto o = ex.execute("while True:\n    pass\n", "loop", cb, cancel);
  stopper.join();
  EXPECT_EQ(o.status, tilescope::host::ExecutionOutcome::Status::Cancelled);
  EXPECT_EQ(o.errorName, "KeyboardInterrupt");
}
TEST(InterpErrors, CancelStopsALongSleep) {
  tilescope::host::HostExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  tilescope::host::CancelToken cancel;
  std::thread stopper([&cancel] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  const auto start = std::chrono::steady_clock::now();
  auto o = ex.execute("import time\ntime.sleep(0.05)\nprint('slept')\ntime.sleep(3600)\n", "sleep", cb, cancel);
  stopper.join();
  EXPECT_EQ(o.status, tilescope::host::ExecutionOutcome::Status::Cancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  EXPECT_EQ(pyError("import time\ntime.sleep(-1)"), "ValueError: sleep length must be non-negative");
  EXPECT_EQ(pyError("import time\ntime.sleep('1')"), "TypeError: time.sleep() takes a number of seconds");
}
TEST(InterpErrors, CancelCannotBeCaughtByUserCode) {
  tilescope::host::HostExecutor ex;
  tilescope::host::ExecutionCallbacks cb;
  tilescope::host::CancelToken cancel;
  cancel.cancel();
  auto o = ex.execute("try:\n    while True: pass\nexcept BaseException:\n    print('swallowed')\n", "c", cb, cancel);
  EXPECT_EQ(o.status, tilescope::host::ExecutionOutcome::Status::Cancelled);
}
TEST(InterpErrors, FileIoIsRejected) {
  EXPECT_EQ(pyError("open('x')"), "OSError: file I/O is not supported by tilescope's host interpreter (see docs/HOST_LANGUAGE.md)");
}
