#!/usr/bin/env python3
"""Says how many tests of a ctest run were skipped and why, from ctest's JUnit file.

Usage: test-summary.py RESULTS.xml [--ci]

ctest's own summary counts a skipped test as passed ("100% tests passed") and lists skipped tests
without their reasons. This prints every skip reason (GoogleTest's GTEST_SKIP message) with how many
tests gave it and a few of their names. With --ci (or CI=true in the environment) it exits 1 when a
skip means the run did not test what it should: the seed tutorials were missing, or golden files
were rewritten instead of compared. Tests skipped for lack of a CUDA device are expected in CI.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import OrderedDict

# Skip reasons CI does not accept, by the start of the message (the tests' own wording).
NOT_ACCEPTED_IN_CI = [
    ("seed tutorials not found", "the seed tutorials are missing: configure with -DTILESCOPE_SEEDS_DIR=<shared/seeds>"),
    ("TILESCOPE_UPDATE_GOLDEN=1 rewrote", "golden files were rewritten, not compared: unset TILESCOPE_UPDATE_GOLDEN"),
]


def skip_reasons(testcase):
    """GTEST_SKIP messages of one skipped test ("file:line: Skipped" then the message lines)."""
    out = testcase.findtext("system-out") or ""
    reasons = []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if not re.search(r": Skipped$", line):
            continue
        message = []
        for follow in lines[i + 1:]:
            if follow.startswith("[  SKIPPED ]") or re.search(r": (Skipped|Failure)$", follow):
                break
            message.append(follow.strip())
        reasons.append(" ".join(m for m in message if m) or "(no reason given)")
    if not reasons:
        skipped = testcase.find("skipped")
        message = skipped.get("message", "") if skipped is not None else ""
        if message and message != "SKIP_REGULAR_EXPRESSION_MATCHED":
            reasons.append("ctest: " + message)  # e.g. a test whose executable was not built
        else:
            reasons.append("(no reason found in the test's output)")
    return reasons


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    ci = "--ci" in sys.argv[1:] or os.environ.get("CI", "").lower() in ("1", "true", "yes")
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    try:
        root = ET.parse(args[0]).getroot()
    except (OSError, ET.ParseError) as e:
        print(f"test summary: cannot read ctest's results {args[0]}: {e}")
        return 1
    cases = root.iter("testcase")
    total = 0
    by_reason = OrderedDict()
    skipped_tests = 0
    for case in cases:
        total += 1
        if case.get("status") not in ("notrun", "disabled") and case.find("skipped") is None:
            continue
        skipped_tests += 1
        for reason in dict.fromkeys(skip_reasons(case)):  # a reason once per test
            # Value-parameterized names end with "  # GetParam() = ...": keep the name only.
            by_reason.setdefault(reason, []).append(case.get("name", "?").split("  #")[0])

    print(f"\n==> Test summary: {total - skipped_tests} of {total} tests ran, {skipped_tests} skipped")
    for reason, names in sorted(by_reason.items(), key=lambda kv: -len(kv[1])):
        shown = ", ".join(names[:3]) + (f", ... ({len(names) - 3} more)" if len(names) > 3 else "")
        print(f"  {len(names):5d} skipped: {reason}\n        {shown}")

    failing = []
    for prefix, why in NOT_ACCEPTED_IN_CI:
        count = sum(len(names) for reason, names in by_reason.items() if reason.startswith(prefix))
        if count:
            failing.append(f"{count} tests skipped because {why}")
    if failing:
        if ci:
            print("CI: these skips hide untested code, so the run fails:")
            for f in failing:
                print("  " + f)
            return 1
        print("Note: outside CI these skips are allowed; CI (CI=true) fails on them:")
        for f in failing:
            print("  " + f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
