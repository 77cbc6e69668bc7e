#!/usr/bin/env bash
# Issue 28 acceptance, driven with real X11 keys under Xvfb: type 200 lines into the last cell of a
# notebook whose window fills the screen (so the caret reaches the screen's bottom edge), pausing now
# and then so the completion list opens down there, save (File > Save), and check that the app is still
# alive and that the saved notebook holds every typed line.
#   tests/ui/gui-scripts/type-200-lines.sh [BUILD_DIR] [OUTDIR]
# Needs drive-gui.sh (DRIVE_GUI, default /work/shared/tools/drive-gui.sh) and its packages: xvfb
# xauth xdotool x11-apps imagemagick. Exit status 0 when nothing crashed and no text was lost.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$(mktemp -d /tmp/tilescope-type-200.XXXXXX)}
drive=${DRIVE_GUI:-/work/shared/tools/drive-gui.sh}
lines=${LINES_TO_TYPE:-200}
mkdir -p "$out"
notebook="$out/typing.ipynb"

# Eight short cells: the last one starts near the bottom of the 1100x800 window.
python3 - "$notebook" <<'PY'
import json, sys
cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
          "source": [f"a{i} = {i}\n", f"b{i} = a{i} * 2"]} for i in range(8)]
nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells}
json.dump(nb, open(sys.argv[1], "w"), indent=1)
PY

# The steps: select the last cell, go to its end, then type. Every 25 lines a name is left unfinished
# and the typing pauses, so the completion list opens at the caret; Return must still start a new
# line. The window is as large as the screen (no window manager: it sits at 0,0).
steps="$out/steps.txt"
{
  echo "sleep 2"
  echo "key Return"
  echo "key ctrl+End"
  echo "shot start"
  for i in $(seq 1 "$lines"); do
    echo "key Return"
    if (( i % 25 == 0 )); then
      echo "type x$i = tl.lo"
      echo "sleep 1"
      echo "shot popup-$i"
      echo "alive"
    else
      echo "type v$i = torch.arange($i)"
    fi
  done
  echo "sleep 1"
  echo "shot typed"
  # Save with the keyboard, as a user would: the window asks for focus when shown, so its shortcuts
  # work even with no window manager to activate it. SAVE_BY_MENU=1 saves through File > Save instead.
  echo "key Escape"
  if [ "${SAVE_BY_MENU:-0}" = 1 ]; then
    echo "click 20 8"
    echo "sleep 1"
    echo "click 48 95"
  else
    echo "key ctrl+s"
  fi
  echo "sleep 2"
  echo "alive"
  echo "shot saved"
} >"$steps"

rc=0
SCREEN=1100x800x24 STARTUP=${STARTUP:-4} "$drive" "$steps" "$out" -- "$build/app/gui/tilescope" --cell 8 "$notebook" || rc=$?
echo "drive-gui: exit $rc ($(tail -1 "$out/program.log"))"

python3 - "$notebook" "$lines" <<'PY' || rc=1
import json, sys
path, lines = sys.argv[1], int(sys.argv[2])
source = "".join(json.load(open(path))["cells"][-1]["source"]).split("\n")
expected = [f"x{i} = tl.lo" if i % 25 == 0 else f"v{i} = torch.arange({i})" for i in range(1, lines + 1)]
typed = source[2:]
missing = [e for e in expected if e not in typed]
if typed != expected:
    print(f"saved cell differs: {len(typed)} typed lines, {len(missing)} missing; first missing: {missing[:3]}")
    print("last saved lines:", typed[-3:])
    sys.exit(1)
print(f"saved cell holds all {lines} typed lines")
PY
echo "screenshots and logs in $out"
exit $rc
