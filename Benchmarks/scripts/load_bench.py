#!/usr/bin/env python3
"""How long `decoy serve` takes to load a large stubs folder before it serves, and what a few
broken files cost: 10,000 good stub files against 9,900 good and 100 broken ones, each answered
by the first request. The two are alternated round by round; medians and the ratio are printed.

    load_bench.py DECOY [ROUNDS]
"""
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request

import serving

FILES = 10_000
BROKEN = 100


def write_folder(path, broken):
    mappings = os.path.join(path, "mappings")
    os.makedirs(mappings)
    os.makedirs(os.path.join(path, "__files"))
    for index in range(FILES):
        stub = {
            "name": f"stub {index}",
            "request": {"method": "GET", "urlPathPattern": f"/items/{index}/[a-z]+",
                        "headers": {"Accept": {"contains": "json"}}},
            "response": {"status": 200, "jsonBody": {"id": index, "tags": ["a", "b"]},
                         "headers": {"X-Index": str(index)}},
        }
        text = json.dumps(stub, indent=2)
        if index < broken:
            # A mistake real folders have: a status no one can send.
            text = text.replace('"status": 200', '"status": "two hundred"')
        with open(os.path.join(mappings, f"stub-{index:05}.json"), "w") as file:
            file.write(text)


def time_to_serve(decoy, folder):
    """Seconds from start to the first answered request, and the process's peak memory in MB."""
    start = time.monotonic()
    process, url = serving.serve([decoy, "serve", folder, "--port", "0", "--log", "none"])
    request = urllib.request.Request(url + f"/items/{FILES - 1}/x", headers={"Accept": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 200
    elapsed = time.monotonic() - start
    peak = serving.peak_megabytes(process)
    serving.stop(process)
    return elapsed, peak


def main():
    decoy = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    work = tempfile.mkdtemp()
    try:
        good, partly = os.path.join(work, "good"), os.path.join(work, "broken")
        write_folder(good, 0)
        write_folder(partly, BROKEN)
        results = {"good": [], "broken": []}
        time_to_serve(decoy, good)  # warm the file cache
        for _ in range(rounds):
            for name, folder in (("good", good), ("broken", partly)):
                results[name].append(time_to_serve(decoy, folder))
        print(f"load {FILES:,} stub files, then answer one request ({rounds} rounds, alternated)")
        print(f"{'folder':<34} {'median s':>9} {'min s':>7} {'max s':>7} {'peak MB':>8}")
        for name, label in (("good", f"{FILES:,} good"), ("broken", f"{FILES - BROKEN:,} good, {BROKEN} broken")):
            seconds = [s for s, _ in results[name]]
            peak = statistics.median(m for _, m in results[name])
            print(f"{label:<34} {statistics.median(seconds):>9.3f} {min(seconds):>7.3f} {max(seconds):>7.3f} {peak:>8.1f}")
        ratios = [b[0] / g[0] for g, b in zip(results["good"], results["broken"])]
        print(f"broken ÷ good, pair by pair: median {statistics.median(ratios):.3f} "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
