"""decoy serve's CPU per request, two builds in turn: `server_cpu.py DECOY_A DECOY_B STUBS [ROUNDS]`.

Each round starts both builds with their defaults (request log on, to a file) on the same stubs,
drives each with wrk for a few seconds on a matched path, and reads the server's own CPU time from
/proc: steadier on a loaded machine than requests per second. Prints each build's median CPU per
request and the median of the per-round ratios B/A, so that a drift in the machine's speed over
the rounds cancels out. A construct pays when B, without it, costs 3% more in most rounds.
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from serving import cpu_seconds, stop

PATH = "/users/42"


def start(decoy, stubs, log):
    process = subprocess.Popen(
        [decoy, "serve", stubs, "--port", "0", "--log-file", log], stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        found = re.search(r"on (http://\S+)$", line.strip())
        if found:
            return process, found.group(1)
    process.kill()
    sys.exit(f"{decoy} serve did not start")


def per_request(decoy, stubs, folder):
    process, url = start(decoy, stubs, os.path.join(folder, "log"))
    try:
        subprocess.run(["wrk", "-t1", "-c16", "-d1s", url + PATH], capture_output=True, check=True)
        before = cpu_seconds(process)
        out = subprocess.run(["wrk", "-t1", "-c16", "-d4s", url + PATH], capture_output=True, text=True,
                             check=True).stdout
        # The log's thread writes what piled up within its interval.
        time.sleep(0.2)
        used = cpu_seconds(process) - before
        return used / int(re.search(r"(\d+) requests in", out).group(1))
    finally:
        stop(process)


def main():
    a, b, stubs = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    runs = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(rounds):
            runs["A"].append(per_request(a, stubs, folder))
            runs["B"].append(per_request(b, stubs, folder))
    for name in runs:
        print(f"  {name}: {statistics.median(runs[name]) * 1e6:.2f} µs CPU per request "
              f"[{min(runs[name]) * 1e6:.2f}..{max(runs[name]) * 1e6:.2f}]")
    ratios = [y / x for x, y in zip(runs["A"], runs["B"])]
    print(f"  B/A: median {statistics.median(ratios):.3f} [{min(ratios):.3f}..{max(ratios):.3f}]"
          f" over {rounds} rounds")


main()
