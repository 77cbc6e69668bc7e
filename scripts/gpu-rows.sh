#!/usr/bin/env bash
# Run on the lent GPU machine: issue 26's memory-bound rows (atomics' split row sums, fp16 softmax,
# fp16 transpose, fp16 layer norm) beside Triton, with Triton's compiled kernels (PTX, TTGIR:
# its layouts) and both sides' register counts kept for reading afterwards. ROWS lists the suite
# cases, EARLIER the earlier ones, GPU_TESTS=1 adds `ctest -L gpu` (Triton's tutorials too when
# TILESCOPE_TUTORIALS_DIR is set). Logs go to $OUT.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-rows}
out=${OUT:-/tmp}
cli=$build/app/cli/tilescope-cli
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  echo "== build  $(date -u +%T)"
  pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=OFF \
    -DTILESCOPE_SEEDS_DIR="${SEEDS_DIR:-$root/../seeds}" ${pybind:+-Dpybind11_DIR="$pybind"} >/dev/null &&
  cmake --build "$build" -j "$(nproc)" --target tilescope-cli ${GPU_TESTS:+tilescope_gpu_tests} 2>&1 | grep -E 'error|FAILED'
  echo "== suite rows beside Triton  $(date -u +%T)"
  only=(); for c in ${ROWS:-atomics norm_variants transpose}; do only+=(--only "$c"); done
  PYTHONUNBUFFERED=1 timeout 300 python3 "$root/core/bench/compare_with_triton.py" --cli "$cli" --suite "${only[@]}" --timeout 120
  if [ -n "${EARLIER:-}" ]; then
    echo "== earlier rows beside Triton  $(date -u +%T)"
    only=(); for c in $EARLIER; do only+=(--only "$c"); done
    PYTHONUNBUFFERED=1 timeout 200 python3 "$root/core/bench/compare_with_triton.py" --cli "$cli" "${only[@]}" --timeout 100
  fi
  if [ -n "${FACTS:-}" ]; then
    echo "== Triton's kernels and ours: registers  $(date -u +%T)"
    mkdir -p /tmp/tcache /tmp/ourcache
    for c in $FACTS; do
      TRITON_CACHE_DIR=/tmp/tcache timeout 60 python3 "$root/core/bench/gpu/$c.py" | grep RESULT
      TILESCOPE_CACHE_DIR=/tmp/ourcache TILESCOPE_GPU_VERBOSE=1 timeout 60 "$cli" run --backend gpu "$root/core/bench/gpu/$c.py" 2>&1 | grep -E 'RESULT|registers|regs' | head -20
    done
    for f in /tmp/tcache/*/*.cubin; do echo "$f"; cuobjdump -res-usage "$f" 2>/dev/null | grep -E 'Function|REG' ; done
    (cd /tmp/tcache && tar czf "$out/triton-cache.tgz" --exclude='*.cubin' --exclude='*.so' .)
  fi
  if [ -n "${VARIANTS:-}" ]; then
    echo "== our variants  $(date -u +%T)"
    for v in $VARIANTS; do  # NAME=VALUE;case
      envset=${v%%;*}; c=${v##*;}
      echo "-- $envset $c"; env "$envset" timeout 90 "$cli" run --backend gpu "$root/core/bench/gpu/$c.py" 2>&1 | grep RESULT
    done
  fi
  if [ "${GPU_TESTS:-0}" = 1 ]; then
    echo "== ctest -L gpu  $(date -u +%T)"
    # Triton's tutorials (GpuRun.Tutorial*) only where TILESCOPE_TUTORIALS_DIR names them.
    skip=(-E 'GpuRun\.Tutorial'); [ -n "${TILESCOPE_TUTORIALS_DIR:-}" ] && skip=()
    timeout "${TEST_TIMEOUT:-150}" ctest --test-dir "$build" -L gpu "${skip[@]}" -j 6 --output-on-failure 2>&1 | tail -30
  fi
  date -u +%T
} 2>&1 | tee "$out/rows.log"
