#!/usr/bin/env python3
"""Builds the Debian package of a build folder (`cpack -G DEB`) and checks what it holds: both
executables, the embedded interpreter's Python packages and host modules where the installed
executables look for them (share/tilescope), the example notebooks with their picture, the desktop
entry (valid, opening .ipynb files), the scalable icon, the AppStream metadata (valid, with
screenshots), and dependencies that name Qt 6, QScintilla, QCustomPlot, libpython3.11, cairo and
giflib but no CUDA library. Needs dpkg-deb, desktop-file-validate (desktop-file-utils) and
appstreamcli (appstream).

usage: check-package.py BUILD_DIR [--deb FILE]   (--deb: check that file instead of building one)"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

APP_ID = "org.tilescope.tilescope"
REQUIRED_FILES = [
    "usr/bin/tilescope",
    "usr/bin/tilescope-cli",
    "usr/share/tilescope/python/triton/__init__.py",
    "usr/share/tilescope/python/torch/__init__.py",
    "usr/share/tilescope/python/tilescope/__init__.py",
    "usr/share/tilescope/python/tilescope/checking.py",
    "usr/share/tilescope/examples/vector_add.ipynb",
    "usr/share/tilescope/examples/exercises.ipynb",
    "usr/share/tilescope/examples/solutions.ipynb",
    "usr/share/tilescope/examples/images/hills.png",
    f"usr/share/applications/{APP_ID}.desktop",
    f"usr/share/icons/hicolor/scalable/apps/{APP_ID}.svg",
    f"usr/share/metainfo/{APP_ID}.metainfo.xml",
]
# Debian package names (Debian 12) the shared-library dependencies must name.
REQUIRED_DEPENDS = ["libqt6widgets6", "libqscintilla2-qt6", "libqcustomplot2.1-qt6", "libpython3.11",
                    "libcairo2", "libgif7", "libpython3-stdlib", "qt6-qpa-plugins"]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def run(command, **kw):
    return subprocess.run(command, capture_output=True, text=True, **kw)


def build_deb(build_dir, out_dir):
    r = run(["cpack", "-G", "DEB", "-B", out_dir], cwd=build_dir)
    if r.returncode != 0:
        fail("cpack -G DEB failed:\n" + r.stdout + r.stderr)
    debs = glob.glob(os.path.join(out_dir, "tilescope_*.deb"))
    if len(debs) != 1:
        fail(f"cpack made {debs}, expected one tilescope_*.deb")
    return debs[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--deb")
    args = parser.parse_args()
    for tool in ("dpkg-deb", "desktop-file-validate", "appstreamcli"):
        if not shutil.which(tool):
            fail(f"{tool} is not installed (scripts/setup.sh installs desktop-file-utils and appstream)")
    with tempfile.TemporaryDirectory() as tmp:
        deb = args.deb or build_deb(os.path.abspath(args.build_dir), tmp)
        print("package:", os.path.basename(deb))
        root = os.path.join(tmp, "root")
        r = run(["dpkg-deb", "-x", deb, root])
        if r.returncode != 0:
            fail("dpkg-deb -x: " + r.stderr)
        missing = [f for f in REQUIRED_FILES if not os.path.isfile(os.path.join(root, f))]
        if missing:
            fail("the package lacks " + ", ".join(missing))
        for exe in ("usr/bin/tilescope", "usr/bin/tilescope-cli"):
            if not os.access(os.path.join(root, exe), os.X_OK):
                fail(exe + " is not executable")

        fields = run(["dpkg-deb", "-f", deb, "Package", "Version", "Architecture", "Depends", "Recommends"]).stdout
        print(fields)
        depends = re.search(r"^Depends: (.*)$", fields, re.M)
        depends = depends.group(1) if depends else ""
        lacking = [p for p in REQUIRED_DEPENDS if p not in depends]
        if lacking:
            fail("Depends lacks " + ", ".join(lacking) + ": " + depends)
        if re.search(r"cuda|nvrtc|cublas|nvidia", depends, re.I):
            fail("CUDA must stay optional, but Depends names it: " + depends)

        desktop = os.path.join(root, f"usr/share/applications/{APP_ID}.desktop")
        r = run(["desktop-file-validate", desktop])
        if r.returncode != 0 or r.stdout.strip():
            fail("desktop-file-validate: " + r.stdout + r.stderr)
        text = open(desktop, encoding="utf-8").read()
        if "application/x-ipynb+json" not in text or f"Icon={APP_ID}" not in text or "Exec=tilescope %f" not in text:
            fail("the desktop entry must open .ipynb files (MimeType application/x-ipynb+json) with tilescope and its icon")

        metainfo = os.path.join(root, f"usr/share/metainfo/{APP_ID}.metainfo.xml")
        r = run(["appstreamcli", "validate", "--no-net", "--pedantic", metainfo])
        print(r.stdout.strip())
        if r.returncode != 0:
            fail("appstreamcli validate: " + r.stdout + r.stderr)
        info = open(metainfo, encoding="utf-8").read()
        if info.count("<screenshot") < 2 or "@" in re.sub(r"<[^>]*>", "", info.split("<screenshots>")[1]):
            fail("the AppStream metadata must list its screenshots, with their addresses filled in")
        svg = open(os.path.join(root, f"usr/share/icons/hicolor/scalable/apps/{APP_ID}.svg"), encoding="utf-8").read()
        if "<svg" not in svg:
            fail("the scalable icon is not an SVG")
    print("ok")


if __name__ == "__main__":
    main()
