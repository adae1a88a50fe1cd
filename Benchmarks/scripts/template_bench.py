#!/usr/bin/env python3
"""What a response template costs against a static stub: `template_bench.py DECOY [ROUNDS]`.

One `decoy serve` with its defaults (request log on, to a file) serves three stubs whose answers
have the same size: a static one; a template that reads a path segment, a query value and the
method (`{{request.path.[1]}}`, `{{request.query.page}}`, `{{request.method}}`); and a template of
text alone, as `--global-response-templating` makes of a static stub. wrk drives each in turn,
round by round. Prints each one's median rate and server CPU per request, and the medians of
the per-round ratios to the static stub. Target (issue 43): templated / static >= 0.8.
Every load is bounded (wrk -d) and on 127.0.0.1.

When valgrind is installed, it first counts, exactly, the instructions per request of the thread
that serves them (libmicrohttpd's, which runs the engine): the same `decoy serve` under callgrind,
each stub asked COUNT and then twice COUNT times over one keep-alive connection, the difference
divided by COUNT. The request log's thread is left out: it writes in batches whose sizes follow
the clock, the same for every stub.
"""

import glob
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from serving import rate_and_cpu, serve, stop

BODY = '{"id":"42","page":"3","method":"GET","name":"benchmark-stub","status":"ok"}'
TEMPLATE = ('{"id":"{{request.path.[1]}}","page":"{{request.query.page}}","method":"{{request.method}}",'
            '"name":"benchmark-stub","status":"ok"}')
HEADERS = {"Content-Type": "application/json"}
CASES = {
    "static": ("/static/42?page=3", {"body": BODY}),
    "templated": ("/templated/42?page=3", {"body": TEMPLATE, "transformers": ["response-template"]}),
    "text-only template": ("/plain/42?page=3", {"body": BODY, "transformers": ["response-template"]}),
}


def folder(root):
    mappings = []
    for target, response in CASES.values():
        path = target.split("?")[0].rsplit("/", 1)[0]
        mappings.append({"request": {"method": "GET", "urlPathPattern": path + "/[0-9]+"},
                         "response": {"status": 200, "headers": HEADERS, **response}})
    os.makedirs(os.path.join(root, "mappings"))
    with open(os.path.join(root, "mappings", "all.json"), "w") as file:
        json.dump({"mappings": mappings}, file)
    return root


def serving_thread_instructions(dumps):
    """The instructions of the busiest thread in one callgrind dump, one file a thread."""
    counts = []
    for dump in dumps:
        with open(dump) as text:
            found = re.search(r"^(?:summary|totals): (\d+)", text.read(), re.M)
        counts.append(int(found.group(1)) if found else 0)
    return max(counts)


def instructions_per_request(decoy, root, count):
    """Each case's instructions per request on the serving thread, counted by callgrind."""
    stripped = os.path.join(root, "decoy")
    # Valgrind 3.19 cannot read the DWARF 5 of an unstripped release build.
    subprocess.run(["strip", "-o", stripped, decoy], check=True)
    shim = os.path.join(root, "sigsuspend.so")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "valgrind_sigsuspend.c")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", shim, source], check=True)
    out = os.path.join(root, "callgrind")
    os.makedirs(out)
    # Swift seeds its hashing per process, which would change dictionaries' work from run to run.
    environment = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1", LD_PRELOAD=shim)
    process, url = serve(["valgrind", "--tool=callgrind", "--separate-threads=yes",
                          f"--callgrind-out-file={out}/dump", stripped, "serve", folder(os.path.join(root, "cg")),
                          "--port", "0", "--log-file", os.path.join(root, "cg-log")], env=environment)
    try:
        connection = http.client.HTTPConnection(url.removeprefix("http://"))

        def ask(target, times):
            for _ in range(times):
                connection.request("GET", target)
                connection.getresponse().read()

        counted = {}
        for name, (target, _) in CASES.items():
            ask(target, 50)
            totals = []
            for times in (count, 2 * count):
                subprocess.run(["callgrind_control", "--zero", str(process.pid)], capture_output=True, check=True)
                ask(target, times)
                before = set(glob.glob(f"{out}/dump*"))
                subprocess.run(["callgrind_control", "--dump", str(process.pid)], capture_output=True, check=True)
                totals.append(serving_thread_instructions(set(glob.glob(f"{out}/dump*")) - before))
            counted[name] = (totals[1] - totals[0]) / count
        return counted
    finally:
        stop(process)


def main():
    decoy = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if shutil.which("valgrind"):
        count = int(os.environ.get("INSTRUCTIONS_COUNT", "500"))
        with tempfile.TemporaryDirectory() as root:
            counted = instructions_per_request(decoy, root, count)
        print("  instructions per request on the serving thread (callgrind, exact):")
        for name in CASES:
            extra = counted[name] - counted["static"]
            print(f"  {name:19} {counted[name]:9,.0f}" + (f"   {extra:+,.0f} against static" if extra else ""))
    rates = {name: [] for name in CASES}
    cpu = {name: [] for name in CASES}
    with tempfile.TemporaryDirectory() as root:
        process, url = serve([decoy, "serve", folder(os.path.join(root, "stubs")), "--port", "0",
                              "--log-file", os.path.join(root, "log")])
        try:
            for name, (target, _) in CASES.items():
                answer = subprocess.run(["curl", "-s", url + target], capture_output=True, text=True).stdout
                if answer != BODY:
                    sys.exit(f"{name} answered {answer!r}, not the same body as the static stub")
            for _ in range(rounds):
                for name, (target, _) in CASES.items():
                    rate, per_request = rate_and_cpu(process, url + target)
                    rates[name].append(rate)
                    cpu[name].append(per_request)
        finally:
            stop(process)
    for name in CASES:
        print(f"  {name:19} {statistics.median(rates[name]):9.0f} req/s   "
              f"{statistics.median(cpu[name]) * 1e6:6.2f} µs CPU per request")
    for name, target in [("templated", 0.8), ("text-only template", 0.95)]:
        per_round = [y / x for x, y in zip(rates["static"], rates[name])]
        # The server's own CPU per request, steadier than the rate on a busy machine, as a rate would read.
        cpu_per_round = [x / y for x, y in zip(cpu["static"], cpu[name])]
        median = statistics.median(per_round)
        print(f"  rate {name} / static: median {median:.3f} [{min(per_round):.3f}..{max(per_round):.3f}]"
              f" (target >= {target}){'  ok' if median >= target else '  BELOW'}; by CPU per request "
              f"{statistics.median(cpu_per_round):.3f} [{min(cpu_per_round):.3f}..{max(cpu_per_round):.3f}]")


if __name__ == "__main__":
    main()
