#!/usr/bin/env bash
# Run on the lent GPU machine (no Qt there): issue 23's tensor descriptors on TMA in one call.
# Builds the CLI and the GPU tests, runs the TMA and descriptor tests (codegen, NVRTC/ptxas and the
# gpu-labelled runs against the simulator), Triton's grouped-GEMM tutorial unmodified with installed
# PyTorch (both kernels checked against torch by the tutorial itself), then the grouped-GEMM
# descriptor rows and the tutorial's TMA kernel beside Triton (core/bench/compare_with_triton.py).
# ALL_GPU_TESTS=1 then runs every gpu- and nvrtc-labelled test. Seeds and tutorials are read from .device-shared/
# (git-ignored; copied there before the call).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-tma}
out=${OUT:-/tmp}
tutorials=${TILESCOPE_TUTORIALS_DIR:-$root/../tutorials}
seeds=${SEEDS_DIR:-$root/../seeds}
pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)
cli=$build/app/cli/tilescope-cli
section() { echo; echo "== $*  ($(date -u +%T))"; }
{
  section machine; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  section build
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=OFF \
    -DTILESCOPE_SEEDS_DIR="$seeds" ${pybind:+-Dpybind11_DIR="$pybind"} >/dev/null &&
  timeout "${BUILD_TIMEOUT:-300}" cmake --build "$build" -j "$(nproc)" --target tilescope-cli tilescope_gpu_tests 2>&1 | grep -E 'error|FAILED|undefined' | head -30
  section "TMA and descriptor tests"
  TILESCOPE_TUTORIALS_DIR=$tutorials timeout 150 "$build/tests/tilescope_gpu_tests" \
    --gtest_filter='CudaTma*:CudaTensorDescriptor*:GpuRun.Tma*:GpuRun.TensorDescriptor*:GpuRun.LoadedPointer*' >"$out/tests.log" 2>&1
  echo "exit $?"; grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|Failure|error' "$out/tests.log" | head -30
  section "Triton's grouped-GEMM tutorial with installed PyTorch"
  VIRTUAL_ENV=${TORCH_VENV:-/opt/torch/.venv} timeout 90 "$cli" run --backend gpu --torch system "$tutorials/08-grouped-gemm.py" \
    >"$out/tutorial08.log" 2>&1
  echo "exit $?"; grep -v '^\s*$' "$out/tutorial08.log" | tail -12
  section "grouped GEMM via descriptors and the tutorial's TMA kernel beside Triton"
  TILESCOPE_BENCH_NO_TORCH_ROWS=1 PYTHONUNBUFFERED=1 timeout "${SUITE_TIMEOUT:-200}" python3 "$root/core/bench/compare_with_triton.py" --cli "$cli" --suite \
    --only grouped_gemm_tma --tutorial "$tutorials/08-grouped-gemm.py" --timeout 150 --json "$out/suite.json" 2>&1 | tail -25
  if [ "${ALL_GPU_TESTS:-0}" = 1 ]; then
    section "ctest -L 'gpu|nvrtc' (the tests of the gpu binary)"
    TILESCOPE_TUTORIALS_DIR=$tutorials timeout "${CTEST_TIMEOUT:-150}" ctest --test-dir "$build" -L 'gpu|nvrtc' -j 12 --output-on-failure \
      >"$out/ctest-gpu.log" 2>&1
    echo "exit $?"; tail -15 "$out/ctest-gpu.log"
  fi
  date -u
} 2>&1 | tee "$out/tma.log"
