"""Instructions per answer of each Instructions case, counted by callgrind, and the ratio to the baseline.

Usage: instructions.py INSTRUCTIONS_BINARY [COUNT]

callgrind counts every instruction the process executes, so the count does not depend on how
busy the machine is. Each case runs twice, with COUNT and with twice COUNT answers after the
same setup; the difference divided by COUNT is one answer. Known gap: the setup of the cases over
10,000 routes still varies by about 10^8 instructions from run to run, so their figures are not yet
trustworthy; the baseline and the delayed stub repeat within 3%. Valgrind 3.19 cannot read the DWARF 5 of an unstripped release
build, so a stripped copy runs.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

CASES = [
    "baseline",
    "matched literal",
    "matched template",
    "unmatched near miss",
    "unmatched, each new",
    "delayed stub",
    "static answer",
    "templated answer",
    "client decode",
]


def instructions(binary, case, count, environment):
    arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, case, str(count)]
    finished = subprocess.run(arguments, capture_output=True, text=True, check=True, env=environment)
    collected = re.search(r"Collected : (\d+)", finished.stderr)
    if not collected:
        sys.exit(f"callgrind gave no count for {case!r}:\n{finished.stderr[-2000:]}")
    return int(collected.group(1))


def per_answer(binary, cases, count, variables=None, extra=None, rounds=1):
    """Each case's instructions per answer, with `variables` added to the environment: the runs of
    `count` and of `count + extra` answers (`extra` is `count` unless given) subtracted; the median
    of `rounds` such differences, the cases in turn in each."""
    extra = extra or count
    # Swift seeds its hashing per process, which would change dictionaries' work from run to run.
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1", **(variables or {}))
    with tempfile.TemporaryDirectory() as folder:
        stripped = os.path.join(folder, "Instructions")
        shutil.copy(binary, stripped)
        subprocess.run(["strip", stripped], check=True)
        counted = {case: [] for case in cases}
        for _ in range(rounds):
            for case in cases:
                once = instructions(stripped, case, count, environment)
                more = instructions(stripped, case, count + extra, environment)
                counted[case].append((more - once) / extra)
        return {case: statistics.median(figures) for case, figures in counted.items()}


def main():
    binary, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1_000
    counted = per_answer(binary, CASES, count)
    print(f"{'case':<24} {'instructions per answer':>24} {'x baseline':>11}")
    for case in CASES:
        print(f"{case:<24} {counted[case]:>24,.0f} {counted[case] / counted['baseline']:>11.1f}")


if __name__ == "__main__":
    main()
