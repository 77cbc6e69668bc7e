#!/usr/bin/env bash
# Run on the lent GPU machine: builds tilescope-cli (and, with GPU_TESTS=1, the gpu test program),
# checks the register-loop attention kernels against the simulator, then times the suite's
# attention rows beside Triton (core/bench/gpu/attention.py), and the same rows with num_stages=2
# (STAGES2=1). Logs to $OUT.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-gpu-build}
out=${OUT:-/tmp}
cli="$build/app/cli/tilescope-cli"
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  echo "== build"; date -u
  pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=OFF \
    ${pybind:+-Dpybind11_DIR="$pybind"} -DTILESCOPE_SEEDS_DIR="${SEEDS_DIR:-$root/../seeds}" >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target tilescope-cli $([ "${GPU_TESTS:-0}" = 1 ] && echo tilescope_gpu_tests) 2>&1 |
    grep -E 'error|FAILED'
  date -u
  echo "== register loops against the simulator"
  TILESCOPE_GPU_CROSSCHECK=1000 TILESCOPE_GPU_VERBOSE=1 timeout 200 "$cli" run "$root/tests/gpu/data/register_loop.py" --backend gpu 2>&1 |
    grep -E 'registers|disagree|ok|Error|error' | head -40
  if [ "${GPU_TESTS:-0}" = 1 ]; then
    echo "== gpu tests"; timeout "${TEST_TIMEOUT:-200}" ctest --test-dir "$build" -L gpu -R "${TESTS:-RegisterLoop|Attention|GpuRun}" -j 6 \
      --output-on-failure 2>&1 | tail -40
  fi
  echo "== attention beside Triton"; date -u
  PYTHONUNBUFFERED=1 python3 "$root/core/bench/compare_with_triton.py" --cli "$cli" --suite --only attention --timeout 240 \
    --json "$out/attention.json"
  if [ "${STAGES2:-0}" = 1 ]; then
    echo "== ours with num_stages=2"
    sed 's/num_stages=3/num_stages=2/' "$root/core/bench/gpu/attention.py" > /tmp/attention_s2.py
    timeout 200 "$cli" run --backend gpu /tmp/attention_s2.py 2>&1 | grep RESULT
  fi
  date -u
} 2>&1 | tee "$out/attention.log"
