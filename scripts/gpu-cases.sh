#!/usr/bin/env bash
# Run on the lent GPU machine: builds only tilescope-cli, then times the cases named in CASES
# (core/bench/gpu/NAME.py) beside Triton with compare_with_triton.py, keeping Triton's PTX of each
# (triton-ptx.tar.gz; ours is read locally with `tilescope-cli compile --emit ptx`). CROSSCHECK="ops scans"
# first runs those tests/gpu/data scripts with every launch checked against the simulator. SUITE=1 then
# times the rest of the suite (--suite; TUTORIAL=FILE adds the grouped-GEMM tutorial's TMA kernel).
# Logs and JSON go to $OUT.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-/tmp/tilescope-cases}
out=${OUT:-/tmp}
cli=$build/app/cli/tilescope-cli
{
  echo "== machine"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader || true
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  echo "== build $(date -u +%T)"
  pybind=$(python3 -m pybind11 --cmakedir 2>/dev/null || true)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=OFF \
    ${pybind:+-Dpybind11_DIR="$pybind"} >/dev/null && cmake --build "$build" -j 16 --target tilescope-cli 2>&1 | grep -E 'error|FAILED'
  for script in ${CROSSCHECK:-}; do  # tests/gpu/data/NAME.py on the GPU, every launch checked against the simulator
    echo "== crosscheck $script $(date -u +%T)"
    TILESCOPE_GPU_CROSSCHECK=1000 timeout 120 "$cli" run --backend gpu "$root/tests/gpu/data/$script.py" 2>&1 | tail -5
    echo "exit ${PIPESTATUS[0]}"
  done
  echo "== cases $(date -u +%T): ${CASES:-}"
  only=(); for c in ${CASES:-}; do only+=(--only "$c"); done
  if [ ${#only[@]} -gt 0 ]; then
    PYTHONUNBUFFERED=1 python3 "$root/core/bench/compare_with_triton.py" --cli "$cli" "${only[@]}" --timeout 120 \
      --triton-cache /tmp/triton-caches --json "$out/cases.json"
    (cd /tmp/triton-caches && find . -name '*.ptx' | tar -czf "$out/triton-ptx.tar.gz" -T -)
  fi
  if [ "${SUITE:-0}" = 1 ]; then
    echo "== whole suite $(date -u +%T)"
    # The suite's cases not timed above.
    rest=(); for c in $(cd "$root/core/bench" && python3 -c 'import compare_with_triton as c; print(" ".join(c.SUITE))'); do
      case " ${CASES:-} " in *" $c "*) ;; *) rest+=(--only "$c") ;; esac
    done
    PYTHONUNBUFFERED=1 python3 "$root/core/bench/compare_with_triton.py" --cli "$cli" --suite --timeout 120 "${rest[@]}" \
      ${TUTORIAL:+--tutorial "$TUTORIAL"} --json "$out/suite.json"
  fi
  echo "== done $(date -u +%T)"
} 2>&1 | tee "$out/cases.log"
