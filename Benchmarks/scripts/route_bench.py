#!/usr/bin/env python3
"""What pattern routes beside it cost an exact request: `route_bench.py DECOY [ROUNDS]`.

Four folders, each served by `decoy serve` with its defaults (request log on, to a file) and
driven by wrk on the exact route `/stub`, in turn round by round:
- alone: `/stub` and nothing else;
- 1 pattern: `/stub` and one `urlPathPattern` route that cannot match it (`/tpl/[0-9]+`);
- 1,000 exact: `/stub` and 1,000 other exact routes;
- 1,000 patterns: `/stub` and 1,000 `urlPathPattern`/`urlPattern` routes that cannot match it,
  shaped like those of users' WireMock folders (a plain start, then an expression).
Prints each folder's median rate and server CPU per request, and the medians of the per-round
ratios. Targets (issue 43): 1 pattern >= 0.95 of alone; 1,000 patterns >= 0.8 of alone and
within noise of 1,000 exact. Every load is bounded (wrk -d) and on 127.0.0.1.
"""

import json
import os
import statistics
import sys
import tempfile

from serving import rate_and_cpu, serve, stop

STUB = {"request": {"method": "GET", "url": "/stub"},
        "response": {"status": 200, "body": "{\"ok\":true}", "headers": {"Content-Type": "application/json"}}}


def pattern_route(index):
    """One of a real folder's pattern routes: a plain start, then an expression, now and then a
    whole-URL pattern or an expression from the first segment on."""
    shapes = [
        {"urlPathPattern": f"/api/v{index % 3}/items{index}/[0-9]+"},
        {"urlPattern": f"/api/orders{index}\\?page=[0-9]+"},
        {"urlPathPattern": f"/accounts/[a-z0-9-]+/entries{index}"},
        {"urlPathPattern": f"/tpl{index}/[0-9]+"},
    ]
    request = {"method": "GET", **shapes[index % len(shapes)]}
    return {"request": request, "response": {"status": 200, "body": f"p{index}"}}


def folder(root, name, extra):
    path = os.path.join(root, name)
    os.makedirs(os.path.join(path, "mappings"))
    with open(os.path.join(path, "mappings", "all.json"), "w") as file:
        json.dump({"mappings": [STUB] + extra}, file)
    return path


def measure(decoy, stubs, log):
    process, url = serve([decoy, "serve", stubs, "--port", "0", "--log-file", log])
    try:
        return rate_and_cpu(process, url + "/stub")
    finally:
        stop(process)


def main():
    decoy = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as root:
        cases = {
            "alone": folder(root, "alone", []),
            "1 pattern": folder(root, "one", [{"request": {"method": "GET", "urlPathPattern": "/tpl/[0-9]+"},
                                               "response": {"status": 200}}]),
            "1,000 exact": folder(root, "exact", [{"request": {"method": "GET", "url": f"/exact/{i}"},
                                                    "response": {"status": 200}} for i in range(1000)]),
            "1,000 patterns": folder(root, "patterns", [pattern_route(i) for i in range(1000)]),
        }
        rates = {name: [] for name in cases}
        cpu = {name: [] for name in cases}
        log = os.path.join(root, "log")
        for _ in range(rounds):
            for name, stubs in cases.items():
                rate, per_request = measure(decoy, stubs, log)
                rates[name].append(rate)
                cpu[name].append(per_request)
    for name in cases:
        print(f"  {name:15} {statistics.median(rates[name]):9.0f} req/s   "
              f"{statistics.median(cpu[name]) * 1e6:6.2f} µs CPU per request")

    def ratio(a, b, target):
        per_round = [y / x for x, y in zip(rates[a], rates[b])]
        # The server's own CPU per request, steadier than the rate on a busy machine, as a rate would read.
        cpu_per_round = [x / y for x, y in zip(cpu[a], cpu[b])]
        verdict = "" if target is None else ("  ok" if statistics.median(per_round) >= target else "  BELOW")
        goal = "" if target is None else f" (target >= {target})"
        print(f"  rate {b} / {a}: median {statistics.median(per_round):.3f} "
              f"[{min(per_round):.3f}..{max(per_round):.3f}]{goal}{verdict}; by CPU per request "
              f"{statistics.median(cpu_per_round):.3f} [{min(cpu_per_round):.3f}..{max(cpu_per_round):.3f}]")

    ratio("alone", "1 pattern", 0.95)
    ratio("alone", "1,000 patterns", 0.8)
    ratio("1,000 exact", "1,000 patterns", None)


main()
