#!/usr/bin/env bash
# tilescope set-up for a fresh Debian 12 machine. Idempotent; prints each step.
#   scripts/setup.sh run    install packages, build the app (GUI and CLI only), launch it on a bundled example
#   scripts/setup.sh test   install packages, build (warnings as errors), run every test suite
# TILESCOPE_SETUP_DRY_RUN=1 (with run) prints the package, build and launch commands instead of running them.
set -euo pipefail

mode=${1:-}
case "$mode" in
  run|test) ;;
  *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
step() { printf '\n==> %s\n' "$*"; }
# Runs a command, or with TILESCOPE_SETUP_DRY_RUN=1 only prints it.
act() { if [ "${TILESCOPE_SETUP_DRY_RUN:-0}" = 1 ]; then echo "would run: $*"; else "$@"; fi; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "error: run this script as root (or install sudo) to install packages" >&2; exit 1; fi
}

# libpython3-dev, pybind11-dev (required): host code runs on the embedded CPython (core/python); its
# standard library comes with python3 (libpython3-stdlib). python3-ipython and python3-matplotlib are
# optional at run time (IPython syntax in cells, figures as images); installed here so their tests run;
# python3-tabulate too (Triton's dropout tutorial imports it; its test skips without it).
# desktop-file-utils, appstream: the packaging test validates the .deb's desktop entry and metadata.
# libopenblas-dev: the built-in torch.matmul of fp64 tensors through dgemm (without it, its own slower loop).
# qt6-base-private-dev: the UI tests send real (window-system) wheel events. The three font packages
# make the system fixed font a dual-width one; the UI tests must pass with them installed.
# openssh-client/-server: remote workers (`run --remote`, Run On an SSH host); their tests start a
# private sshd on 127.0.0.1 (core/testing/LocalSshServer.h).
packages=(build-essential cmake ninja-build file pkg-config
  qt6-base-dev qt6-svg-dev libqscintilla2-qt6-dev libqcustomplot-dev libqcustomplot2.1-qt6
  libgtest-dev libbenchmark-dev nlohmann-json3-dev libgl-dev libcairo2-dev libgif-dev xvfb xauth
  clang libclang-rt-14-dev python3 python3-numpy python3-nbformat libpython3-dev pybind11-dev
  python3-ipython python3-matplotlib python3-tabulate libopenblas-dev desktop-file-utils appstream
  qt6-base-private-dev fonts-noto-mono fonts-urw-base35 fonts-droid-fallback
  openssh-client openssh-server)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "Installing ${#missing[@]} Debian packages: ${missing[*]}"
  act as_root apt-get update -q
  act as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  step "All ${#packages[@]} Debian packages are already installed"
fi

# A compiler cache, where one is installed, makes the repeated builds of the test command (and CI's
# on the same machine) incremental; it is optional and never installed here.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi

configure() {  # dir, extra cmake args...
  local dir=$1; shift
  step "Configuring $dir ($*)"
  act cmake -S "$root" -B "$root/$dir" -G Ninja "${launcher[@]}" "$@"
}

configure_and_build() {  # dir, extra cmake args...
  configure "$@"
  step "Building $1 with $jobs jobs"
  act cmake --build "$root/$1" -j "$jobs"
}

if [ "$mode" = run ]; then
  # Only what the window needs: the GUI and the CLI whose worker runs the cells. Tests and benchmarks
  # are most of a full build (many minutes on 2 cores); `setup.sh test` builds them.
  configure build -DCMAKE_BUILD_TYPE=RelWithDebInfo
  step "Building the app (tilescope, tilescope-cli) in build with $jobs jobs"
  act cmake --build "$root/build" -j "$jobs" --target tilescope tilescope-cli
  # Run all and select the launching cell (6), so that the kernel inspector shows the launch's programs.
  example="$root/examples/vector_add.ipynb"
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    step "Launching tilescope on $example"
    act exec "$root/build/app/gui/tilescope" "$example" --run-all --cell 6
  else
    shot="$root/build/tilescope-example.png"
    step "No display found: running tilescope under Xvfb and saving the window to $shot"
    act xvfb-run -a -s "-screen 0 1280x900x24" "$root/build/app/gui/tilescope" --open "$example" --run-all --cell 6 --screenshot "$shot"
    echo "Open $shot to see the window; on a desktop, run: $root/build/app/gui/tilescope $example"
  fi
  exit 0
fi

# test mode: sanitizer build of core first, a short fuzz run, then the full suite last, ending
# with the count of skipped tests and their reasons.
export QT_QPA_PLATFORM=offscreen
configure_and_build build-asan -DCMAKE_BUILD_TYPE=Debug -DTILESCOPE_GUI=OFF -DTILESCOPE_BENCHMARKS=OFF \
  -DTILESCOPE_SANITIZE=ON -DTILESCOPE_WERROR=ON
step "Core tests under AddressSanitizer + UBSan (leak checking on)"
# Leaks inside the dlopen'd CUDA libraries (NVRTC's one-time caches) are theirs, not ours. The
# gpu- and nvrtc-labelled tests run NVRTC, whose worker threads can crash LeakSanitizer's exit-time
# tracer ("Tracer caught signal 11"): they run under ASan and UBSan with the leak check off. So do
# the python-labelled tests: the embedded CPython is never finalized, and what it and the packages it
# imports (NumPy, matplotlib, OpenSSL) keep until exit would read as leaks. Every other test that runs
# a cell through tilescope-cli meets the same CPython: tests/lsan.supp names libpython and OpenSSL,
# and the suppression statistics stay out of the output the tests compare.
LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0" UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE '^(gpu|nvrtc|python)$'
# The seed guide's notebook with its full sweeps (SeedNotebook.*) simulates for minutes in this Debug
# build: it runs in the release build's stage below.
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -L '^(gpu|nvrtc|python)$' -E '^SeedNotebook\.'

if command -v clang++ >/dev/null; then
  step "Short libFuzzer runs of the parser, the notebook reader and the worker's message decoder (clang, ASan+UBSan)"
  cmake -S "$root" -B "$root/build-fuzz" -G Ninja "${launcher[@]}" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTILESCOPE_GUI=OFF -DTILESCOPE_TESTS=ON -DTILESCOPE_BENCHMARKS=OFF -DTILESCOPE_FUZZ=ON >/dev/null
  # A fuzz target that does not build is a failure (clang accepts less of C++20 than g++ does).
  cmake --build "$root/build-fuzz" -j "$jobs" --target fuzz_parser fuzz_notebook fuzz_worker_messages
  ctest --test-dir build-fuzz --output-on-failure -L fuzz
fi

configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTILESCOPE_WERROR=ON
step "Full test suite (GPU tests are skipped, with the reason, on machines without a CUDA device)"
# ctest counts a skipped test as passed: scripts/test-summary.py ends the run by saying how many
# skipped and why, and in CI (CI=true) fails when the seeds were missing or goldens were rewritten.
results="$root/build/ctest-results.xml"
rm -f "$results"
suite_rc=0
ctest --test-dir build --output-on-failure -j "$jobs" --output-junit "$results" \
  --test-output-size-passed 65536 --test-output-size-failed 1048576 || suite_rc=$?
python3 "$root/scripts/test-summary.py" "$results" || suite_rc=1
exit "$suite_rc"
