"""IPython syntax in cells (`%matplotlib inline`, `%timeit`, `!cmd`), as Jupyter runs it.

With IPython installed, a cell that has such lines goes through IPython's own input transformer, which
turns them into calls of get_ipython() (run_line_magic, run_cell_magic, system, getoutput); the
object below answers the magics tilescope supports. Without IPython, `%matplotlib` lines are ignored
with a note (figures are shown as images anyway) and any other IPython syntax is a SyntaxError naming
the cell and line. Cells without IPython syntax are compiled as they are.
"""
import os
import re
import subprocess
import sys
import timeit

_MAGIC_LINE = re.compile(r"^([ \t]*)([%!].*)$", re.MULTILINE)
_SUPPORTED = "%matplotlib, %timeit, %%timeit, !cmd and var = !cmd"


def _has_ipython_syntax(source):
    return _MAGIC_LINE.search(source) is not None


def _transformer():
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:
        return None
    return TransformerManager()


def transform(source, filename, first_line=1):
    """(python source with the same line numbers, uses_get_ipython); `source` starts at line
    `first_line` of `filename`."""
    if not _has_ipython_syntax(source):
        return source, False
    manager = _transformer()
    if manager is None:
        return _without_ipython(source, filename, first_line), False
    # IPython drops leading blank lines: keep them so that line numbers stay the file's.
    body = source.lstrip("\n")
    leading = len(source) - len(body)
    return "\n" * leading + manager.transform_cell(body), True


def _without_ipython(source, filename, first_line):
    try:
        compile(source, filename, "exec", dont_inherit=True)
        return source  # the '%' or '!' lines are Python (a continuation line, say)
    except SyntaxError:
        pass
    lines = source.split("\n")
    for number, line in enumerate(lines, first_line):
        match = _MAGIC_LINE.match(line)
        if not match:
            continue
        indent, magic = match.groups()
        if re.match(r"%matplotlib\b", magic):
            print(f"note: {filename}, line {number}: '{magic.strip()}' ignored: IPython is not installed, and "
                  "tilescope shows matplotlib figures as images anyway", file=sys.stderr)
            lines[number - first_line] = indent + "pass"
            continue
        raise SyntaxError(f"'{magic.strip()}' is IPython syntax, which needs IPython (Debian's python3-ipython); "
                          "it is not installed: install it, or write this line in Python (timeit, subprocess)",
                          (filename, number, len(indent) + 1, line))
    return "\n".join(lines)


def _timeit_options(line):
    """({'-n': '3', '-q': '', ...}, the rest as written) of %timeit's line: -n N, -r R (also -n3), -q, -o,
    -t, -c (accepted, as IPython's)."""
    options, rest = {}, line.strip()
    while rest.startswith("-") and len(rest) > 1 and rest[1] in "nrqotc":
        flag, value, rest = rest[:2], rest[2:].split(None, 1), ""
        if len(value) == 2:
            value, rest = value
        elif value:
            value, rest = value[0], ""
        else:
            value = ""
        if flag in ("-n", "-r") and value == "":
            value, _, rest = rest.partition(" ")
        elif flag not in ("-n", "-r"):
            rest, value = (value + " " + rest).strip(), ""
        options[flag] = value
        rest = rest.strip()
    for flag in ("-n", "-r"):
        if flag in options and not options[flag].isdigit():
            raise ValueError(f"%timeit {flag} takes a positive number, not {options[flag]!r}")
    return options, rest


def _child_environment():
    """The environment of shell commands: matplotlib there draws with plain Agg (our backend module is
    not on their path)."""
    env = dict(os.environ)
    if env.get("MPLBACKEND", "").startswith("module://tilescope."):
        env["MPLBACKEND"] = "Agg"
    return env


def _format_time(seconds):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("\u00b5s", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            return f"{seconds / scale:.3g} {unit}"


class Shell:
    """What get_ipython() returns in a cell transformed by IPython's input transformer."""

    def __init__(self, namespace):
        self.user_ns = namespace

    def run_line_magic(self, name, line, _stack_depth=1):
        if name == "matplotlib":
            backend = line.strip() or "inline"
            if backend != "inline":
                print(f"note: %matplotlib {backend}: tilescope shows figures inline, as images", file=sys.stderr)
            return None
        if name == "timeit":
            return self._timeit(line, None)
        raise NameError(f"%{name} is not available in tilescope (it supports {_SUPPORTED})")

    def run_cell_magic(self, name, line, cell):
        if name == "timeit":
            return self._timeit(line, cell)
        raise NameError(f"%%{name} is not available in tilescope (it supports {_SUPPORTED})")

    def _timeit(self, line, cell):
        """%timeit [-n N] [-r R] [-q] [-o] statement, or %%timeit [options] [setup] over the cell."""
        options, rest = _timeit_options(line)
        statement, setup = (rest, "pass") if cell is None else (cell, rest or "pass")
        timer = timeit.Timer(statement, setup, globals=self.user_ns)
        number = int(options["-n"]) if "-n" in options else timer.autorange()[0]
        repeat = int(options.get("-r", 7))
        runs = [t / number for t in timer.repeat(repeat=repeat, number=number)]
        mean = sum(runs) / len(runs)
        std = (sum((r - mean) ** 2 for r in runs) / len(runs)) ** 0.5
        if "-q" not in options:
            print(f"{_format_time(mean)} \u00b1 {_format_time(std)} per loop (mean \u00b1 std. dev. of {repeat} run"
                  f"{'s' if repeat != 1 else ''}, {number:,} loop{'s' if number != 1 else ''} each)")
        return runs if "-o" in options else None

    def _expand(self, command):
        """$name and {expression} in a shell command, from the cell's namespace, as IPython expands them."""
        try:
            from IPython.utils.text import DollarFormatter
            return DollarFormatter().vformat(command, args=[], kwargs=self.user_ns)
        except Exception:
            return command  # IPython runs such a command unexpanded too

    def system(self, command):
        """!cmd: runs it in the shell; its output goes to the cell as it comes."""
        command = self._expand(command)
        process = subprocess.Popen(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, text=True, errors="replace", env=_child_environment())
        for line in process.stdout:
            sys.stdout.write(line)
        self.user_ns["_exit_code"] = process.wait()

    def getoutput(self, command, split=True, depth=0):
        """var = !cmd: the command's output lines."""
        result = subprocess.run(self._expand(command), shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, text=True, errors="replace", env=_child_environment())
        return result.stdout.splitlines() if split else result.stdout
