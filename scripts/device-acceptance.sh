#!/usr/bin/env bash
# Run on the lent GPU machine (no Qt there): the acceptance figures that need its GPU or its idle
# 16-core host, in one call. Builds the CLI, the GPU tests and two benchmarks, then runs: the
# gpu-labelled tests; the Compiled view's open time (issue 21); launches from host code on 2 of the
# host's cores (taskset: issue 25's 2-core targets) and on all of them; the 4M vector add beside
# Triton's interpreter (issue 25); the per-launch host time beside Triton (issue 22); and Triton's
# tutorials on the GPU with installed PyTorch (issue 22). The log goes to $OUT when set.
# Seeds and tutorials are read from .device-shared/ (git-ignored; copied there before the call).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-acceptance}
out=${OUT:-/tmp}
tutorials=${TILESCOPE_TUTORIALS_DIR:-$root/.device-shared/tutorials}
seeds=${SEEDS_DIR:-$root/.device-shared/seeds}
pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)  # pip's pybind11 where there is no pybind11-dev
cli=$build/app/cli/tilescope-cli
section() { echo; echo "== $*  ($(date -u +%T))"; }
{
  section machine; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "$(nproc) CPUs"
  section build
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=ON \
    -DTILESCOPE_SEEDS_DIR="$seeds" ${pybind:+-Dpybind11_DIR="$pybind"} >/dev/null &&
  cmake --build "$build" -j "$(nproc)" --target tilescope-cli tilescope_gpu_tests tilescope_compiled_tests \
    tilescope_bench_compiled tilescope_bench_python_sim_launch 2>&1 | grep -E 'error|FAILED'
  section "ctest -L gpu"
  # The tutorials' own tests (GpuRun.Tutorial*) are left to the timed runs at the end.
  TILESCOPE_TUTORIALS_DIR=$tutorials timeout 240 ctest --test-dir "$build" -L gpu -E 'GpuRun\.Tutorial' -j 6 \
    --output-on-failure 2>&1 | tail -30
  section "ctest -L compiled"; timeout 120 ctest --test-dir "$build" -L compiled -j 8 --output-on-failure 2>&1 | tail -8
  section "Compiled view open time"; timeout 120 "$build/core/bench/tilescope_bench_compiled" 2>&1 | tail -6
  section "launches from host code, 2 cores (taskset -c 0,1)"
  taskset -c 0,1 timeout 120 "$build/core/bench/tilescope_bench_python_sim_launch" 2>&1 | tail -8
  section "launches from host code, all cores"; timeout 120 "$build/core/bench/tilescope_bench_python_sim_launch" 2>&1 | tail -8
  section "4M vector add beside Triton's interpreter"
  timeout 150 python3 "$root/core/bench/sim_vs_triton_interpreter.py" --cli "$cli" --python python3 2>&1 | tail -12
  section "per-launch host time beside Triton (built-in torch and installed PyTorch, interleaved)"
  VIRTUAL_ENV=${TORCH_VENV:-/opt/torch/.venv} timeout 240 python3 "$root/core/bench/gpu/launch_overhead.py" --cli "$cli" \
    --python python3 --torch builtin system 2>&1 | tail -8
  # Each runs to its end, benchmark sweeps included (GpuRun.Tutorial* checks the same with a 300 s
  # limit). TRITON_BESIDE=1 also times Triton itself on each file, for comparison.
  section "Triton's tutorials on the GPU with installed PyTorch"
  venv=${TORCH_VENV:-/opt/torch/.venv}
  for t in 01-vector-add 02-fused-softmax 04-low-memory-dropout 05-layer-norm 08-grouped-gemm 03-matrix-multiplication; do
    [ -f "$tutorials/$t.py" ] || continue
    echo "-- $t"
    start=$(date +%s)
    VIRTUAL_ENV=$venv timeout "${TUTORIAL_TIMEOUT:-300}" "$cli" run --backend gpu --torch system \
      "$tutorials/$t.py" >"$out/$t.log" 2>&1
    echo "exit $? after $(($(date +%s) - start)) s"; grep -v '^\s*$' "$out/$t.log" | tail -5
    if [ -n "${TRITON_BESIDE:-}" ]; then
      start=$(date +%s)
      (cd "$out" && timeout "${TUTORIAL_TIMEOUT:-300}" "$venv/bin/python" "$tutorials/$t.py" >"$out/$t.triton.log" 2>&1)
      echo "Triton: exit $? after $(($(date +%s) - start)) s"
    fi
  done
} 2>&1 | tee "$out/acceptance.log"
