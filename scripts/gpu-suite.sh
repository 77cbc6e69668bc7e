#!/usr/bin/env bash
# Run on the lent GPU machine (no Qt there): builds core + CLI, optionally runs the GPU-labelled
# tests (GPU_TESTS=1) and the golden CUDA check, then issue 26's suite beside Triton
# (core/bench/compare_with_triton.py --suite; TUTORIAL=FILE adds the TMA kernel of Triton's
# grouped-GEMM tutorial, EXTRA="--only NAME ..." narrows it; EARLIER="vector_add softmax ..." then runs those
# earlier cases). Logs and JSON go to $OUT when set.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-gpu-build}
out=${OUT:-/tmp}
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader || true
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  echo "== build"; date -u
  pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)  # pip's pybind11 where there is no pybind11-dev
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=OFF ${pybind:+-Dpybind11_DIR="$pybind"} \
    -DTILESCOPE_SEEDS_DIR="${SEEDS_DIR:-$root/../seeds}" >/dev/null &&
  cmake --build "$build" -j "$(nproc)" 2>&1 | grep -E 'error|FAILED' ; date -u
  if [ "${GPU_TESTS:-0}" = 1 ]; then
    echo "== ctest -L gpu"; timeout "${TEST_TIMEOUT:-200}" ctest --test-dir "$build" -L gpu -j 6 --output-on-failure 2>&1 | tail -40
    echo "== golden CUDA"; ctest --test-dir "$build" -R 'CudaCodegen|GpuPipeline|PtxAssemble' -j 8 2>&1 | tail -5
  fi
  echo "== suite beside Triton"; date -u
  PYTHONUNBUFFERED=1 python3 "$root/core/bench/compare_with_triton.py" --cli "$build/app/cli/tilescope-cli" --suite \
    ${TUTORIAL:+--tutorial "$TUTORIAL"} --timeout "${CASE_TIMEOUT:-240}" --json "$out/suite.json" ${EXTRA:-}
  if [ -n "${EARLIER:-}" ]; then
    echo "== earlier cases beside Triton: $EARLIER"; date -u
    only=(); for c in $EARLIER; do only+=(--only "$c"); done
    PYTHONUNBUFFERED=1 python3 "$root/core/bench/compare_with_triton.py" --cli "$build/app/cli/tilescope-cli" "${only[@]}" \
      --timeout "${CASE_TIMEOUT:-240}" --json "$out/earlier.json"
  fi
  date -u
} 2>&1 | tee "$out/suite.log"
