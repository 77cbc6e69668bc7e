#!/usr/bin/env bash
# Run on the lent GPU machine (no Qt there): builds core + CLI, reports the device and runs the
# GPU-labelled tests plus the core suites; COMPARE=1 adds the Triton comparison. Output goes to stdout and, when $OUT is set, $OUT/.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-gpu-build}
log=${OUT:-/tmp}/gpu-check.log
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  g++ --version | head -1; cmake --version | head -1
  echo "== configure + build (core, CLI, tests; no GUI)"
  pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)  # pip's pybind11 where there is no pybind11-dev
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF ${pybind:+-Dpybind11_DIR="$pybind"} \
    -DTILESCOPE_BENCHMARKS=${TILESCOPE_BENCHMARKS:-OFF} -DTILESCOPE_SEEDS_DIR="${SEEDS_DIR:-$root/.device-shared/seeds}" >/dev/null &&
  cmake --build "$build" -j "$(nproc)" 2>&1 | grep -E 'error|warning|FAILED' ; 
  echo "== tilescope-cli devices"; "$build/app/cli/tilescope-cli" devices; echo "exit code $?"
  echo "== ctest -L gpu"; ctest --test-dir "$build" -L gpu --output-on-failure 2>&1 | tail -25
  echo "== ctest (all)"; ctest --test-dir "$build" -j 8 2>&1 | tail -15
  if [ "${COMPARE:-0}" = 1 ]; then
    echo "== tilescope beside Triton (core/bench/compare_with_triton.py)"
    PYTHONUNBUFFERED=1 python3 "$root/core/bench/compare_with_triton.py" --cli "$build/app/cli/tilescope-cli" \
      --json "${OUT:-/tmp}/compare.json"
  fi
} 2>&1 | tee "$log"
