#!/usr/bin/env python3
"""How long the installed `decoy` takes from launch to its first answer, and where the time goes:
`startup_bench.py DECOY PEERS [ROUNDS]`.

DECOY is the binary scripts/install installs (static Swift runtime and Foundation), PEERS the
folder of shared/bench. Measured in the same rounds, one after the other:
- `decoy serve stubs/` from launch to its first 200, polled every 2 ms by PEERS/startup_probe.py,
  against the C libmicrohttpd server PEERS/mhd_stub.c under the same probe;
- `decoy --version` from launch to exit: the program before it reads a folder or starts a server;
- Benchmarks/Startup/Nothing.swift, built here as scripts/install builds decoy, from launch to
  exit: with Foundation alone, with FoundationXML linked as well (libxml2), with
  FoundationNetworking linked as well (libcurl and the libraries it needs), and with both, as
  decoy links them. Their differences are what loading those libraries costs a program that
  links them before a line of it runs.
Prints the medians, the ratio to the C server and the account. Target (issue 43): first answer
<= 12 ms. Linux only; every server binds 127.0.0.1.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from serving import free_port

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NOTHING = {
    "Foundation alone": [],
    "FoundationXML linked": ["-D", "LINKS_XML"],
    "FoundationNetworking linked": ["-D", "LINKS_NETWORKING"],
    "both linked, as decoy": ["-D", "LINKS_XML", "-D", "LINKS_NETWORKING"],
}


def first_answer(peers, path, command):
    """Milliseconds from launching `command` (with {port}) to its first 200 on `path`."""
    port = free_port()
    command = [part.replace("{port}", str(port)) for part in command]
    out = subprocess.run([sys.executable, os.path.join(peers, "startup_probe.py"), f"http://127.0.0.1:{port}{path}",
                          "10", "--", *command], capture_output=True, text=True, timeout=60, check=True).stdout
    elapsed = json.loads(out)["first_200_ms"]
    if elapsed is None:
        sys.exit(f"{' '.join(command)} never answered 200 on {path}")
    return elapsed


def run_time(command):
    """Milliseconds from launching `command` to its exit."""
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - start) * 1000


def build(work, peers):
    """The C server and the programs that do nothing, built into `work`."""
    c_server = os.path.join(work, "mhd_stub")
    subprocess.run(["gcc", "-O2", "-o", c_server, os.path.join(peers, "mhd_stub.c"), "-lmicrohttpd"], check=True)
    nothing = {}
    for name, flags in NOTHING.items():
        nothing[name] = os.path.join(work, f"nothing-{len(nothing)}")
        subprocess.run(["swiftc", "-O", "-static-stdlib", *flags, "-o", nothing[name],
                        os.path.join(ROOT, "Benchmarks", "Startup", "Nothing.swift")],
                       check=True, stderr=subprocess.DEVNULL)
    return c_server, nothing


def main():
    decoy, peers = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    with tempfile.TemporaryDirectory() as work:
        c_server, nothing = build(work, peers)
        cases = {
            "decoy serve stubs/, first answer": lambda: first_answer(
                peers, "/health", [decoy, "serve", os.path.join(ROOT, "stubs"), "--port", "{port}"]),
            "C libmicrohttpd server, first answer": lambda: first_answer(peers, "/stub", [c_server, "{port}", "pool"]),
            "decoy --version": lambda: run_time([decoy, "--version"]),
            **{f"nothing, {name}": (lambda binary=binary: run_time([binary])) for name, binary in nothing.items()},
        }
        times = {name: [] for name in cases}
        for _ in range(rounds):
            for name, measure in cases.items():
                times[name].append(measure())
    median = {name: statistics.median(runs) for name, runs in times.items()}
    for name, runs in times.items():
        print(f"  {name:45} {median[name]:7.1f} ms  [{min(runs):.1f}..{max(runs):.1f}]")
    serve, version = median["decoy serve stubs/, first answer"], median["decoy --version"]
    alone = median["nothing, Foundation alone"]
    print(f"  first answer / the C server's: {serve / median['C libmicrohttpd server, first answer']:.1f}x; "
          f"target <= 12 ms: {'ok' if serve <= 12 else 'MISSED'}")
    print("  where it goes (differences of medians):")
    account = [
        ("a static Swift program with Foundation", alone),
        ("loading libxml2 (FoundationXML)", median["nothing, FoundationXML linked"] - alone),
        ("loading libcurl and what it needs (FoundationNetworking)",
         median["nothing, FoundationNetworking linked"] - alone),
        ("decoy --version beyond a program linking both", version - median["nothing, both linked, as decoy"]),
        ("decoy serve beyond --version: options, folder, daemon, answer", serve - version),
    ]
    for name, milliseconds in account:
        print(f"    {name:62} {milliseconds:6.1f} ms")


if __name__ == "__main__":
    main()
