#!/usr/bin/env python3
"""Prints the in-process benchmarks' medians and the ratios that matter, from a JMH export."""
import json
import sys

RATIOS = [
    # (what, numerator, denominator, target text, passes(ratio))
    ("URLSession+StubURLProtocol / StubTransport round trip", "URLSession_+_StubURLProtocol_round_trip",
     "StubTransport_round_trip", ">= 20x", lambda r: r >= 20),
    ("lookup: 10,000 routes / 10 routes", "Lookup_among_10000_routes", "Lookup_among_10_routes", "<= 1.5x", lambda r: r <= 1.5),
    ("APIClient, pipeline off / bare transport call + decode", "APIClient_with_the_pipeline_off",
     "Bare_round_trip:_transport_call_+_JSONDecoder", "<= 1.2x", lambda r: r <= 1.2),
    ("APIClient: call over URLSession+StubURLProtocol / cache hit", "APIClient_call_over_URLSession_+_StubURLProtocol",
     "APIClient_cache_hit", ">= 10x", lambda r: r >= 10),
    ("APIClient: call over StubTransport / cache hit", "APIClient_call_over_StubTransport", "APIClient_cache_hit", "",
     None),
    ("StubTransport round trip / prebuilt answer (a plain call)", "StubTransport_round_trip", "Baseline:_prebuilt_answer", "", None),
    ("APIClient decode over StubTransport / over a prebuilt answer", "APIClient_decode_over_StubTransport",
     "APIClient_decode_over_a_prebuilt_answer", "", None),
]


def main(path):
    runs = json.load(open(path))
    median = {}
    mallocs = {}
    for run in runs:
        name = run["benchmark"].rsplit(".", 1)[-1]
        metrics = run["secondaryMetrics"]
        median[name] = metrics["Time (wall clock)"]["scorePercentiles"]["50.0"]
        mallocs[name] = metrics.get("Malloc (total)", {}).get("scorePercentiles", {}).get("50.0")
    print(f"{'benchmark':<48} {'median µs':>10} {'mallocs':>8}")
    for name in sorted(median, key=median.get):
        print(f"{name.replace('_', ' '):<48} {median[name]:>10.2f} {mallocs[name] or 0:>8.0f}")
    print()
    failed = False
    for what, top, bottom, target, passes in RATIOS:
        if top not in median or bottom not in median:
            continue
        ratio = median[top] / median[bottom]
        verdict = "" if passes is None else ("  ok" if passes(ratio) else "  MISSED")
        failed |= passes is not None and not passes(ratio)
        print(f"{what:<64} {ratio:8.2f}x  {target}{verdict}")
    load = median.get("Load_10,000_stub_files")
    if load is not None:
        ok = load <= 1_000_000
        failed |= not ok
        print(f"{'load 10,000 stub files (median)':<64} {load / 1000:8.0f} ms  <= 1000 ms  {'ok' if ok else 'MISSED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
