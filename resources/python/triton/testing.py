"""triton.testing for host code on embedded CPython: do_bench, perf_report / Benchmark and
assert_close, with the engine's parts through _tilescope (TestingBindings, core/python/BenchmarkRunner's
pandas column format): each sample is one call timed by the host clock on the simulator and by CUDA
events (L2 flushed first) on the GPU backend, torch's events for a call of installed PyTorch's
operations alone; Mark.run prints
pandas' table, writes the CSV when save_path is given and sends the series to the cell as an
application/vnd.tilescope.benchmark+json display output, which the GUI plots.
"""
import json
import math
import os
import sys
import time

import _tilescope

__all__ = ["do_bench", "Benchmark", "perf_report", "Mark", "assert_close"]


def _quantile(values, q):
    """torch.quantile's linear interpolation over sorted values."""
    if not values:
        return 0.0
    pos = q * (len(values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def _installed_torch_cuda():
    """Installed PyTorch's torch module when host code uses it and it sees a GPU, else None."""
    torch = sys.modules.get("torch")
    if torch is None or getattr(torch, "__tilescope_builtin__", False):
        return None
    try:
        return torch if torch.cuda.is_available() else None
    except Exception:  # a broken or CPU-only build
        return None


class _TorchEventTimer:
    """Times a call on the GPU backend as Triton's do_bench does with installed PyTorch: its L2 flush
    buffer zeroed first, then CUDA events on torch's current stream around the call. The device work
    tilescope launched in the call is timed by tilescope's own events; a call that launched none
    (torch.softmax, a torch autograd backward) takes torch's events, which see torch's kernels where
    the host clock sees only their launches."""

    def __init__(self, torch):
        self._cuda = torch.cuda
        self._cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")

    def __call__(self, fn):
        self._cache.zero_()
        start = self._cuda.Event(enable_timing=True)
        end = self._cuda.Event(enable_timing=True)
        start.record()
        ms = _tilescope.time_device_call(fn)
        end.record()
        if ms is not None:
            return ms
        end.synchronize()
        return start.elapsed_time(end)


def _clear_grads(tensors):
    """do_bench's grad_to_none: gradients reset before each timed call, as in Triton."""
    for x in tensors or ():
        try:
            x.grad = None
        except AttributeError:  # the built-in torch has no autograd
            pass


def _samples(fn, warmup, rep, grad_to_none=None):
    """Triton's scheme: one call to warm up, an estimate from five, then max(1, warmup/estimate)
    untimed and max(1, rep/estimate) timed calls. A first call slower than `rep` (a large kernel on
    the simulator) is the only sample."""
    time_call = _tilescope.time_call
    if not _tilescope.simulated():
        torch = _installed_torch_cuda()
        if torch is not None:
            time_call = _TorchEventTimer(torch)
    first = time_call(fn)
    if first >= rep:
        return [first]
    if _tilescope.simulated():
        return _simulated_samples(fn, rep)
    # Triton estimates from five calls with the L2 flush before each, timed end to end (its events
    # see the flush and the launches' own gaps); so does this, by the host clock around five timed
    # calls. An estimate of the kernel alone would ask for far more calls of a microsecond kernel
    # than Triton makes, each paying the flush and the launch.
    start = time.perf_counter()
    for _ in range(5):
        time_call(fn)
    estimate = (time.perf_counter() - start) * 1000.0 / 5.0
    warmups = max(1, int(warmup / max(estimate, 1e-6)))
    reps = max(1, int(rep / max(estimate, 1e-6)))
    for _ in range(min(warmups, 10000)):
        fn()
    samples = []
    for _ in range(min(reps, 100000)):
        _clear_grads(grad_to_none)
        samples.append(time_call(fn))
    return samples


# Timed calls per do_bench on the simulator, at most: enough for the 0.2/0.5/0.8 quantiles that
# benchmarks ask for; more only spends `rep` on CPU times that say nothing about a GPU.
SIMULATED_SAMPLES = 10


def _simulated_samples(fn, rep):
    """The simulator has no caches or clocks to warm up: after the first call (which checks the
    kernel), calls are timed until they add up to `rep` ms or SIMULATED_SAMPLES calls were timed, and
    a call longer than `rep` ends it, so a benchmark costs at most the first call and the lesser of
    `rep` plus one call and SIMULATED_SAMPLES calls (a sweep's small sizes no longer spend `rep` each)."""
    samples, total = [], 0.0
    while total < rep and len(samples) < SIMULATED_SAMPLES:
        t = _tilescope.time_call(fn)
        samples.append(t)
        total += t
    return samples


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, fast_flush=True, return_mode="mean"):
    """Milliseconds per call of fn (a float, or a list for several quantiles or return_mode='all')."""
    if return_mode not in ("min", "max", "mean", "median", "all"):
        raise ValueError(f"return_mode must be one of 'min', 'max', 'mean', 'median', 'all', not {return_mode!r}")
    times = sorted(_samples(fn, float(warmup), float(rep), grad_to_none))
    if quantiles is not None:
        out = [_quantile(times, float(q)) for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "min":
        return times[0]
    if return_mode == "max":
        return times[-1]
    if return_mode == "median":
        return _quantile(times, 0.5)
    if return_mode == "all":
        return times
    return sum(times) / len(times)


class Benchmark:
    """The description of one benchmark: x values, lines, labels and the plot's name."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="",
                 x_log=False, y_log=False, styles=None, color=None):
        self.x_names = list(x_names)
        self.x_vals = list(x_vals)
        self.line_arg = line_arg
        self.line_vals = list(line_vals)
        self.line_names = list(line_names)
        self.plot_name = plot_name
        self.args = dict(args or {})
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles
        self.color = color


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _format_table(columns, rows):
    """pandas' DataFrame.to_string(): right-aligned columns, floats with common trailing zeros
    trimmed, a row index."""
    cells = []
    for c in range(len(columns)):
        column = [row[c] for row in rows]
        if all(_is_number(v) for v in column):
            cells.append(_tilescope.format_float_column([float(v) for v in column]))
        else:
            cells.append(["NaN" if v is None else str(v) for v in column])
    index_width = len(str(len(rows) - 1)) if rows else 0
    widths = [max([len(columns[c])] + [len(s) for s in cells[c]]) for c in range(len(columns))]
    out = " " * index_width + "".join("  " + columns[c].rjust(widths[c]) for c in range(len(columns))) + "\n"
    for r in range(len(rows)):
        out += str(r).ljust(index_width) + "".join("  " + cells[c][r].rjust(widths[c]) for c in range(len(columns)))
        out += "\n"
    return out


def _number_or_none(v):
    return None if v is None else float(v)


def _csv_cell(v):
    return f"{float(v):.6f}" if _is_number(v) else str(v)


def _run_one(fn, bench, print_data, save_path):
    if len(bench.line_names) != len(bench.line_vals):
        raise ValueError("Benchmark: line_names and line_vals must have the same length")
    series = [{"name": name, "y": [], "y_min": [], "y_max": []} for name in bench.line_names]
    rows, x_values = [], []
    for x in bench.x_vals:
        xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(bench.x_names)
        if len(xs) != len(bench.x_names):
            raise ValueError(f"Expected {len(bench.x_names)} values, got {x!r}")
        row = list(xs)
        x_values.append(float(xs[0]) if _is_number(xs[0]) else str(xs[0]))
        for line, value in enumerate(bench.line_vals):
            kwargs = dict(zip(bench.x_names, xs))
            kwargs[bench.line_arg] = value
            kwargs.update(bench.args)
            ret = fn(**kwargs)
            mean, lo, hi = ret, None, None
            if isinstance(ret, (tuple, list)):
                if len(ret) != 3:
                    raise ValueError("a benchmark function returns one value or (value, min, max)")
                mean, lo, hi = ret
            row.append(mean)
            series[line]["y"].append(_number_or_none(mean))
            series[line]["y_min"].append(_number_or_none(lo))
            series[line]["y_max"].append(_number_or_none(hi))
        rows.append(row)
    columns = [str(n) for n in bench.x_names] + [str(n) for n in bench.line_names]
    plot_name = "" if bench.plot_name is None else str(bench.plot_name)
    # Times taken on the simulator are the CPU's: said wherever they are shown.
    simulated = _tilescope.simulated()
    if print_data:
        print(plot_name + (_tilescope.SIMULATED_NOTE if simulated else "") + ":\n" + _format_table(columns, rows), end="")
    if save_path:
        os.makedirs(save_path, exist_ok=True)
        with open(os.path.join(save_path, plot_name + ".csv"), "w") as csv:
            csv.write(",".join(columns) + "\n")
            for row in rows:
                csv.write(",".join(_csv_cell(v) for v in row) + "\n")
    styles = [[str(part) for part in style] for style in (bench.styles or [])]
    xlabel = str(bench.xlabel or "") or (str(bench.x_names[0]) if bench.x_names else "")
    data = {"plot_name": plot_name, "x_names": [str(n) for n in bench.x_names], "x_vals": x_values,
            "x_log": bool(bench.x_log), "y_log": bool(bench.y_log), "xlabel": xlabel, "ylabel": str(bench.ylabel or ""),
            "line_names": [str(n) for n in bench.line_names], "styles": styles, "series": series,
            "simulated": simulated}
    text = (f"<benchmark {plot_name}{' (simulated)' if simulated else ''}: {len(rows)} points x "
            f"{len(bench.line_names)} lines>")
    _tilescope.display(json.dumps({_tilescope.BENCHMARK_MIME_TYPE: data, "text/plain": text}))


class Mark:
    """What @perf_report returns: callable as the function, and .run() runs the benchmarks."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **_kwargs):
        benches = self.benchmarks if isinstance(self.benchmarks, (list, tuple)) else [self.benchmarks]
        # Sweeps sized for a GPU can take hours on the simulator: TILESCOPE_SKIP_BENCHMARKS=1 skips
        # them there, saying so (the GPU backend always runs them).
        if os.environ.get("TILESCOPE_SKIP_BENCHMARKS") == "1" and _tilescope.simulated():
            for bench in benches:
                print(f"note: benchmark sweep '{bench.plot_name}' ({len(bench.x_vals)} points x "
                      f"{len(bench.line_vals)} lines) skipped on the simulator (TILESCOPE_SKIP_BENCHMARKS=1)")
            return None
        for bench in benches:
            _run_one(self.fn, bench, print_data, save_path)


def perf_report(benchmarks):
    return lambda fn: Mark(fn, benchmarks)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Triton's assert_close: |x - y| <= atol + rtol * |y| (atol 1e-2, rtol 0 by default)."""
    import torch
    x = x if isinstance(x, torch.Tensor) else torch.tensor(x)
    y = y if isinstance(y, torch.Tensor) else torch.tensor(y)
    message = _tilescope.assert_close_message(x, y, 1e-2 if atol is None else float(atol), 0.0 if rtol is None else float(rtol))
    if message is not None:
        raise AssertionError(str(err_msg) + message)
