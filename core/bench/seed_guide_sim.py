#!/usr/bin/env python3
"""The practitioners' guide on the simulator, as a user runs it (issue 25: within 60 s on 2 cores).

Usage: seed_guide_sim.py [--cli build/app/cli/tilescope-cli] [--seed ../shared/seeds/triton-practitioners-guide.md]
                         [--cores 0,1] [--repeat N] [--cells K] [--json OUT]

Builds the notebook from the seed (scripts/seed-notebook.py --offline: the project keeps no copy of the
seed), then runs all of it N times (default 3) with `taskset -c CORES tilescope-cli run --backend sim
--out ...`, with every benchmark sweep at its full size. Prints the load average before each run, the
run's wall and CPU time (all threads of the process), the cells' wall times (from the timing metadata
that `run --out` records, best and median of the runs), the K slowest cells (default: every code
cell) and the verdict against the 60 s target (best and median total). Exits 1 when a run fails.
"""
import argparse
import datetime
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGET_S = 60.0


def iso_seconds(text):
    when = datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return when.timestamp()


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(cli, notebook, cores, workdir):
    out = os.path.join(workdir, "executed.ipynb")
    command = [cli, "run", "--backend", "sim", notebook, "--out", out]
    if cores:
        command = ["taskset", "-c", cores] + command
    load = os.getloadavg()
    cpu = children_cpu()
    start = time.monotonic()
    run = subprocess.run(command, cwd=workdir, capture_output=True, text=True)
    wall = time.monotonic() - start
    cpu = children_cpu() - cpu
    if run.returncode != 0:
        sys.stdout.write(run.stdout[-3000:] + run.stderr[-3000:])
        raise SystemExit(f"seed_guide_sim.py: the notebook failed (exit code {run.returncode})")
    with open(out, encoding="utf-8") as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    times = []
    for c in cells:
        timing = c.get("metadata", {}).get("execution", {})
        if "iopub.execute_input" not in timing:
            raise SystemExit("seed_guide_sim.py: the run wrote no cell timings (an older tilescope-cli?)")
        times.append(iso_seconds(timing["shell.execute_reply"]) - iso_seconds(timing["iopub.execute_input"]))
    first_lines = [("".join(c["source"]).strip().splitlines() or [""])[0] for c in cells]
    return {"load": load, "wall": wall, "cpu": cpu, "cells": times, "first_lines": first_lines}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "cli", "tilescope-cli"))
    parser.add_argument("--seed", default=os.path.join(ROOT, "..", "shared", "seeds", "triton-practitioners-guide.md"))
    parser.add_argument("--cores", default="0,1", help="taskset's CPU list ('' for no pinning)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cells", type=int, default=0, help="list only the K slowest cells (0: all)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    if not os.path.isfile(args.seed):
        print(f"seed_guide_sim.py: the seed is not there: {args.seed} (shared/seeds)")
        return 2
    with tempfile.TemporaryDirectory(prefix="tilescope-guide-") as workdir:
        notebook = os.path.join(workdir, "practitioners_guide.ipynb")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "seed-notebook.py"), args.seed, notebook,
                        "--offline"], check=True, stdout=subprocess.DEVNULL)
        runs = []
        for i in range(args.repeat):
            r = run_once(os.path.abspath(args.cli), notebook, args.cores, workdir)
            runs.append(r)
            print(f"run {i + 1}: {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU, load average before "
                  f"{r['load'][0]:.2f} / {r['load'][1]:.2f} / {r['load'][2]:.2f} (1/5/15 min)", flush=True)

    first = runs[0]
    rows = []
    for i, line in enumerate(first["first_lines"]):
        samples = [r["cells"][i] for r in runs]
        rows.append((i + 1, min(samples), statistics.median(samples), line))
    shown = sorted(rows, key=lambda row: -row[2])[:args.cells] if args.cells else rows
    print()
    print(f"{'cell':>4}  {'best s':>8}  {'median s':>8}  first line")
    for number, best, median, line in shown:
        print(f"{number:>4}  {best:8.3f}  {median:8.3f}  {line[:70]}")
    walls = [r["wall"] for r in runs]
    cells_total = [sum(r["cells"]) for r in runs]
    print(f"{'all':>4}  {min(cells_total):8.3f}  {statistics.median(cells_total):8.3f}  (cells only; the process's "
          f"start and exit are in the wall time below)")
    cores = f"taskset -c {args.cores}" if args.cores else "no pinning"
    best, median = min(walls), statistics.median(walls)
    print(f"\nwhole run ({cores}, {len(runs)} runs): best {best:.1f} s, median {median:.1f} s wall; "
          f"CPU {min(r['cpu'] for r in runs):.1f}-{max(r['cpu'] for r in runs):.1f} s; "
          f"target < {TARGET_S:.0f} s: {'met' if median < TARGET_S else 'met by the best run' if best < TARGET_S else 'not met'}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"runs": runs, "cores": args.cores}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
