"""tilescope.check: runs an exercise's kernel and its reference written in host code on copies of the
same inputs and says whether they agree. It never raises for a wrong or unfinished kernel (a class's
notebook must run to the end): it prints "Results match", "not solved yet", or what went wrong (the
first elements that differ, an invalid access with the program that made it) and a link that opens
the kernel inspector on that launch. It returns nothing, so a notebook cell ending with the call shows
the verdict alone."""
import ast
import html
import inspect
import json
import math
import re
import textwrap
from urllib.parse import quote

SHOWN_MISMATCHES = 5

# "... program pid (1, 0, 0): ..." in the simulator's out-of-bounds and uninitialised-read errors.
_PID = re.compile(r"program pid \(?(\d+)(?:,\s*(\d+))?(?:,\s*(\d+))?")


def _source_of(kernel):
    src = getattr(kernel, "src", None)
    if src:
        return src
    fn = getattr(kernel, "fn", kernel)
    while hasattr(fn, "fn") and not inspect.isfunction(fn):
        fn = fn.fn
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return None


def is_unsolved(kernel):
    """True when the kernel's body holds nothing but a docstring, `pass` or `...`: an exercise left as
    it was handed out."""
    src = _source_of(kernel)
    if not src:
        return False
    try:
        tree = ast.parse(textwrap.dedent(src))
    except SyntaxError:
        return False
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not functions:
        return False
    for statement in functions[0].body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and \
                (isinstance(statement.value.value, str) or statement.value.value is Ellipsis):
            continue
        return False
    return True


def _kernel_name(kernel):
    for holder in (kernel, getattr(kernel, "fn", None)):
        name = getattr(holder, "__name__", None)
        if isinstance(name, str):
            return name
    return type(kernel).__name__


def _is_tensor(value):
    import torch
    return torch.is_tensor(value)


def _copy(value):
    return value.clone() if _is_tensor(value) else value


def _flat(tensor):
    return tensor.reshape(-1).tolist()


def _index(flat, shape):
    index = []
    for size in reversed(list(shape)):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _close(got, want, atol, rtol):
    if isinstance(want, bool) or isinstance(want, int):
        return got == want
    if math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    return abs(got - want) <= atol + rtol * abs(want)


def _differences(name, got, want, atol, rtol):
    """Lines describing the elements of `got` that differ from `want` (at most SHOWN_MISMATCHES), and
    how many differ."""
    if tuple(got.shape) != tuple(want.shape):
        return [f"{name}: shape {tuple(got.shape)}, the reference's is {tuple(want.shape)}"], 1
    g, w = _flat(got), _flat(want)
    wrong = [i for i in range(len(w)) if not _close(g[i], w[i], atol, rtol)]
    lines = []
    for i in wrong[:SHOWN_MISMATCHES]:
        at = ", ".join(str(k) for k in _index(i, got.shape))
        lines.append(f"{name}[{at}] = {g[i]!r}, expected {w[i]!r}")
    return lines, len(wrong)


def _inspector_link(kernel_name, pid, tab):
    query = f"kernel={quote(kernel_name)}&tab={tab}"
    if pid is not None:
        query += "&pid=" + ",".join(str(p) for p in pid)
    return "tilescope:inspect?" + query


def _report(lines, link, link_text):
    """Prints the lines, and offers the link as a rich output where the notebook can show one."""
    text = "\n".join(lines)
    print(text)
    try:
        import _tilescope
    except ImportError:
        return
    body = f'<a href="{html.escape(link)}">{html.escape(link_text)}</a>'
    _tilescope.display(json.dumps({"text/html": body, "text/plain": f"{link_text}: {link}"}))


def _parameter_names(kernel):
    names = getattr(kernel, "arg_names", None)
    if names:
        return list(names)
    fn = getattr(kernel, "fn", None)
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def check(kernel, reference, *args, grid, atol=1e-5, rtol=1e-5, title=None, **meta):
    """Launches kernel[grid](*args, **meta) and calls reference(*args), each on its own copies of the
    tensors in `args`, then compares every tensor argument afterwards: what the kernel left in it with
    what the reference left. `meta` (the kernel's constexprs, launch options) goes to the kernel only.
    Integers must match exactly, floats within atol + rtol * |expected|. Prints the verdict."""
    name = _kernel_name(kernel)
    heading = f"{title}: " if title else ""
    if is_unsolved(kernel):
        print(f"{heading}not solved yet (the body of {name} is still empty)")
        return
    names = _parameter_names(kernel)
    expected_args = [_copy(a) for a in args]
    reference(*expected_args)
    kernel_args = [_copy(a) for a in args]
    try:
        kernel[grid](*kernel_args, **meta)
    except Exception as error:  # a wrong kernel must not stop the class's notebook
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        found = _PID.search(message)
        pid = tuple(int(p) for p in found.groups() if p is not None) if found else None
        invalid = "out-of-bounds" in message or "uninitialised" in message or "uninitialized" in message
        what = "invalid access" if invalid else type(error).__name__
        lines = [f"{heading}{name} failed: {what}", f"  {message}"]
        where = f"program {pid}" if pid else "the launch"
        _report(lines, _inspector_link(name, pid, "tiles" if pid else "grid"), f"Open {where} in the inspector")
        return
    failures = []
    total = 0
    for position, (got, want) in enumerate(zip(kernel_args, expected_args)):
        if not _is_tensor(got):
            continue
        label = names[position] if position < len(names) else f"argument {position}"
        lines, count = _differences(label, got, want, atol, rtol)
        failures += lines
        total += count
    if not failures:
        print(f"{heading}Results match")
        return
    lines = [f"{heading}{name}: {total} element{'s' if total != 1 else ''} differ from the reference"]
    lines += ["  " + line for line in failures]
    _report(lines, _inspector_link(name, None, "coverage"), "Open the launch's coverage in the inspector")
    return
