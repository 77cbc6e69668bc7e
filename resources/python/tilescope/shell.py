"""Runs scripts and notebook cells in the embedded interpreter (core/python/PythonExecutor).

Every piece of code is registered with linecache under its file name before it runs, so tracebacks
show its lines and inspect.getsource finds the kernels defined in it, as in IPython. Errors are
described as plain values for the worker's protocol, with the frames of our own packages left out:
the user's code is what the traceback is about.
"""
import ast
import builtins
import linecache
import io
import os
import sys
import traceback
import types

import _tilescope

from tilescope import figures, magics

_PACKAGES = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

# Stand-ins for packages the system may lack (IPython.core.debugger): last, so installed ones win.
_FALLBACK = os.path.join(_PACKAGES, "fallback")
# tilescope's triton_util (resources/host, beside this folder), which Triton notebooks import.
_HOST_RESOURCES = os.path.join(os.path.dirname(os.path.dirname(_PACKAGES)), "host")
for _folder in (_FALLBACK, _HOST_RESOURCES):
    if _folder not in sys.path:
        sys.path.append(_folder)

figures.use_agg()

# Output goes to the running cell's callbacks as it is written.
sys.stdout = _tilescope.OutputStream("stdout")
sys.stderr = _tilescope.OutputStream("stderr")

_builtin_print = builtins.print


def _print(*args, sep=" ", end="\n", file=None, flush=False):
    """print() to the cell's output as one write, so that a printed line is one stream message (not
    one per argument, separator and line end); anything else goes to Python's own print."""
    target = sys.stdout if file is None else file
    if not isinstance(target, _tilescope.OutputStream):
        return _builtin_print(*args, sep=sep, end=end, file=file, flush=flush)
    sep = " " if sep is None else sep
    end = "\n" if end is None else end
    for name, value in (("sep", sep), ("end", end)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be None or a string, not {type(value).__name__}")
    target.write(sep.join(str(a) for a in args) + end)
    return None


_print.__name__ = _print.__qualname__ = "print"
_print.__doc__ = _builtin_print.__doc__
builtins.print = _print
# In the worker the process's stdin is the protocol pipe: user code (input(), a debugger) must never
# read it, so it reads an empty stream and gets EOFError at once instead.
sys.stdin = io.StringIO("")


def new_main_module():
    """A fresh __main__ namespace (one per executor: each notebook worker starts clean)."""
    module = types.ModuleType("__main__")
    module.__dict__["__builtins__"] = __builtins__
    return module


def release_main_module(module):
    module.__dict__.clear()


def _register(source, filename):
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def _ends_with_semicolon(source):
    lines = [line.split("#", 1)[0].rstrip() for line in source.splitlines()]
    lines = [line for line in lines if line]
    return bool(lines) and lines[-1].endswith(";")


def run_code(source, filename, first_line, main, display_last, script_dir):
    """Runs `source` in `main`'s namespace; returns the repr of a trailing expression when
    `display_last` (Jupyter's Out[n]; a trailing ';' suppresses it), else None."""
    padded = "\n" * (first_line - 1) + source  # lines count in the file the code came from
    _register(padded, filename)  # tracebacks show the lines as written, IPython syntax included
    sys.modules["__main__"] = main
    namespace = main.__dict__
    namespace.setdefault("__name__", "__main__")
    python, uses_shell = magics.transform(source, filename, first_line)
    if uses_shell and "get_ipython" not in namespace:
        shell = magics.Shell(namespace)
        namespace["get_ipython"] = lambda: shell
    padded = "\n" * (first_line - 1) + python
    if script_dir:
        namespace["__file__"] = filename
        if script_dir not in sys.path:
            sys.path.insert(0, script_dir)
    tree = ast.parse(padded, filename, "exec")
    last = None
    if display_last and tree.body and isinstance(tree.body[-1], ast.Expr) and not _ends_with_semicolon(source):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, filename, "exec"), namespace)
    value = None if last is None else eval(compile(last, filename, "eval"), namespace)
    # GPU launches are asynchronous: a failure among the cell's launches is the cell's error.
    _tilescope.synchronize("the end of the script" if script_dir else "the end of the cell")
    figures.show_open_figures()  # as Jupyter's inline backend does when a cell ends
    return None if value is None else repr(value)


def _user_frames(exc, tb):
    """The frames from the user's code: without the runner's own frame (outermost) and without our
    packages' frames innermost (a launch's or a torch call's insides), unless nothing else is left."""
    frames = list(traceback.extract_tb(tb or exc.__traceback__))
    while frames and frames[0].filename == __file__:
        frames.pop(0)
    inner = len(frames)
    while inner > 0 and frames[inner - 1].filename.startswith(_PACKAGES):
        inner -= 1
    return frames[:inner] if inner > 0 else frames


def _syntax_diagnostic(exc):
    """A SyntaxError in the code being run as a diagnostic at its spot, like a kernel's: the message
    once, the line and a caret under the column."""
    line = (exc.text or "").rstrip("\n")
    stripped = line.lstrip()
    column = exc.offset or 0
    caret = " " * (4 + max(column - 1 - (len(line) - len(stripped)), 0)) + "^" if column > 0 and stripped else ""
    snippet = "    " + stripped + ("\n" + caret if caret else "") if stripped else ""
    return {"file": exc.filename, "line": exc.lineno or 0, "col": column, "snippet": snippet,
            "severity": "error", "message": exc.msg}


def describe_error(exc, tb=None):
    """name, value, frames [{file, line, col, text}], diagnostics and the traceback text of `exc`
    raised with the traceback `tb`."""
    frames = _user_frames(exc, tb)
    syntax = isinstance(exc, SyntaxError) and bool(exc.filename)
    if syntax:
        # Compiling the cell raised it: ast's own frame is no place in the user's code.
        frames = [f for f in frames if f.filename != ast.__file__]
    text = ""
    if frames:
        text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
    text += "".join(traceback.format_exception_only(type(exc), exc))
    described = [{"file": f.filename, "line": f.lineno or 0, "col": (getattr(f, "colno", None) or 0) + 1,
                  "text": (f.line or "").strip()} for f in frames]
    diagnostics = list(getattr(exc, "diagnostics", []) or [])
    if syntax:
        diagnostics.append(_syntax_diagnostic(exc))
        value = exc.msg
    elif isinstance(exc, _tilescope.CompilationError) or diagnostics:
        value = diagnostics[0]["message"] if diagnostics else str(exc)
    else:
        value = str(exc)
    return {
        "name": type(exc).__name__,
        "value": value,
        "frames": described,
        "diagnostics": diagnostics,
        "text": text,
        "cancelled": isinstance(exc, KeyboardInterrupt),
    }
