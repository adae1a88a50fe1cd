#!/usr/bin/env python3
"""How long `decoy serve --openapi` takes to start on real published documents, and its peak
memory: each document of SPECS in turn, round by round; medians printed.

    openapi_bench.py DECOY SPECS_FOLDER [ROUNDS]
"""
import os
import statistics
import sys
import tempfile
import time

import serving

DOCUMENTS = ["asana.yaml", "openai.yaml", "adyen-management-v3.json", "discord.json", "twilio-api-v2010.json"]


def start(decoy, spec, cwd):
    """Seconds until `decoy serve` says where it serves, and its peak memory in MB by then."""
    began = time.monotonic()
    process, _ = serving.serve([decoy, "serve", "--openapi", spec, "--port", "0", "--log", "none"], cwd=cwd)
    elapsed = time.monotonic() - began
    peak = serving.peak_megabytes(process)
    serving.stop(process)
    return elapsed, peak


def main():
    decoy, specs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    # A folder of its own, so that no ./stubs is served beside the document.
    cwd = tempfile.mkdtemp()
    documents = [d for d in DOCUMENTS if os.path.exists(os.path.join(specs, d))]
    results = {d: [] for d in documents}
    for _ in range(rounds):
        for document in documents:
            results[document].append(start(decoy, os.path.join(specs, document), cwd))
    print(f"decoy serve --openapi, start-up until it serves ({rounds} rounds, documents in turn)")
    print(f"{'document':<28} {'bytes':>10} {'median s':>9} {'max s':>7} {'peak MB':>8}")
    for document in documents:
        seconds = [s for s, _ in results[document]]
        peak = statistics.median(m for _, m in results[document])
        size = os.path.getsize(os.path.join(specs, document))
        print(f"{document:<28} {size:>10,} {statistics.median(seconds):>9.3f} {max(seconds):>7.3f} {peak:>8.1f}")


if __name__ == "__main__":
    main()
