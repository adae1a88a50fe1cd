#!/usr/bin/env python3
"""Server benchmarks, each measured against a baseline in the same run, printed as medians and ratios.

  server_bench.py SERVER_BENCH_BINARY DECOY_BINARY STUBS_DIR PEERS_DIR [PROBE_PATH [PHASE,...]]

- throughput: wrk -t2 -c64 on a static 99-byte JSON stub, every server alternated run by run
  against the raw libmicrohttpd C server from PEERS_DIR/mhd_stub.c: the same library started
  with Decoy's options and no Swift (Benchmarks/Servers/LibraryOptions); `decoy serve` as users run
  it, its request log on (to a file) and off; MockServer alone (ServerBench); the Swift servers a
  user might pick instead (Hummingbird 2, FlyingFox: Benchmarks/Peers, whose SwiftPeer binary is
  in the folder $SWIFT_PEERS; skipped when unset); and MockServer's unmatched 404 among 10,000
  stubs, one target repeated (the 404 made once is reused) and every target different. Targets:
  `decoy serve` logging to a file >= 0.85 of raw and ahead of every Swift peer; the unmatched
  404 at 10,000 stubs >= 0.8 of a matched request with 1 stub;
- peak memory (VmHWM) of MockServer under that load, journal on (target <= 50 MB);
- 1,000 concurrent requests to a stub with a 1 s delay: answered, wall time (<= 1.15 s), threads; against
  the same library holding /delay by suspending and resuming, with no Swift (the floor of library and client);
- 10,000 connections held at once by a stub with a 10 s delay: all answered, server memory per
  held connection (VmRSS while held minus before, over 10,000), threads before, while held and after;
- stub-count scaling: first, last and unmatched path with 10,000 stubs vs 1 stub (>= 0.8);
- startup: `decoy serve` process start to first answered request (<= 50 ms).
Every load is bounded (wrk -d, counts, timeouts) and on 127.0.0.1.
"""
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from serving import free_port
from startup_bench import first_answer

RUNS = int(os.environ.get("RUNS", "3"))
# The repository: this file is Benchmarks/scripts/server_bench.py.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DURATION = os.environ.get("WRK_DURATION", "10s")
SHORT = os.environ.get("WRK_SHORT_DURATION", "5s")


class Server:
    """A server process on a free port, stopped by PID when done."""

    def __init__(self, command, port, ready_path):
        self.port = port
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                    s.sendall(f"GET {ready_path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
                    if s.recv(16).startswith(b"HTTP/1.1"):
                        return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"{command[0]} did not start")

    def status(self, field):
        with open(f"/proc/{self.process.pid}/status") as f:
            return int(re.search(rf"^{field}:\s+(\d+)", f.read(), re.M).group(1))

    def cpu_seconds(self):
        """User and system CPU time the server has used so far."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# A different target for every request, so that no answer made for one is reused for the next.
DISTINCT_TARGETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "distinct_targets.lua")


def wrk(url, duration, script=None):
    options = ["-s", script] if script else []
    out = subprocess.run(["wrk", "-t2", "-c64", f"-d{duration}", "--latency", *options, url], capture_output=True, text=True, timeout=120).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    return rps, int(errors.group(1)) if errors else 0, int(re.search(r"(\d+) requests in", out).group(1))


def line(label, value, unit="", target=""):
    print(f"  {label:<58} {value:>12} {unit:<6} {target}")


def ratio_line(label, r, target, ok):
    print(f"  {label:<58} {r:>12.2f} {'x':<6} {target} {'ok' if ok else 'MISSED'}")


BODY = '{"id":42,"name":"benchmark-stub","status":"ok","tags":["alpha","beta"],"message":"hello from stub"}'


def stub_folder(workdir):
    """A stubs folder for `decoy serve` answering GET /stub as the other servers do."""
    folder = os.path.join(workdir, "stubs")
    os.makedirs(folder, exist_ok=True)
    response = {"status": 200, "headers": {"Content-Type": "application/json"}, "body": BODY}
    with open(os.path.join(folder, "stub.json"), "w") as f:
        json.dump({"request": {"method": "GET", "urlPath": "/stub"}, "response": response}, f)
    with open(os.path.join(folder, "delay.json"), "w") as f:
        json.dump({"request": {"method": "GET", "urlPath": "/delay"},
                   "response": {**response, "fixedDelayMilliseconds": 1000}}, f)
    return folder


def library_options_server(workdir):
    """The library started through Decoy's own shim with its options, to tell what they cost from
    what Decoy's Swift code costs: built once into `workdir`."""
    binary = os.path.join(workdir, "mhd_decoy_options")
    if not os.path.exists(binary):
        subprocess.run(["gcc", "-O2", "-I", os.path.join(ROOT, "Sources", "CMicroHTTPD"), "-o", binary,
                        os.path.join(ROOT, "Benchmarks", "Servers", "LibraryOptions", "mhd_decoy_options.c"),
                        "-lmicrohttpd", "-lpthread"], check=True)
    return binary


def throughput(bench, decoy, peers, workdir):
    print(f"== Throughput: GET of a static 99-byte JSON stub, wrk -t2 -c64 -d{DURATION}, {RUNS} runs, each alternating every server")
    raw_binary = os.path.join(workdir, "mhd_stub")
    subprocess.run(["gcc", "-O2", "-o", raw_binary, os.path.join(peers, "mhd_stub.c"), "-lmicrohttpd"], check=True)
    options_binary = library_options_server(workdir)
    stubs, log_file = stub_folder(workdir), os.path.join(workdir, "requests.log")
    swift_peers = os.environ.get("SWIFT_PEERS")
    # (name, command taking the port, path)
    targets = [
        ("raw libmicrohttpd C server", lambda p: [raw_binary, str(p), "pool", "2"], "/stub"),
        ("libmicrohttpd with Decoy's options, no Swift", lambda p: [options_binary, str(p)], "/stub"),
        ("decoy serve, request log to a file", lambda p: [decoy, "serve", stubs, "--port", str(p), "--no-admin", "--log-file", log_file], "/stub"),
        ("decoy serve, --log none", lambda p: [decoy, "serve", stubs, "--port", str(p), "--no-admin", "--log", "none"], "/stub"),
        ("MockServer, no logger (ServerBench)", lambda p: [bench, str(p), "1"], "/stub/0"),
        ("MockServer, unmatched 404 among 10,000 stubs", lambda p: [bench, str(p), "10000"], "/nostub/x"),
        ("MockServer, unmatched, every target different", lambda p: [bench, str(p), "10000"], "/nostub/"),
    ]
    if swift_peers:
        peer = os.path.join(swift_peers, "SwiftPeer")
        targets += [("Hummingbird 2", lambda p: [peer, "hummingbird", str(p)], "/stub"),
                    ("FlyingFox", lambda p: [peer, "flyingfox", str(p)], "/stub")]
    servers, results = {}, {name: [] for name, _, _ in targets}
    # Server CPU per request: steadier than requests per second on a loaded machine.
    cpu, served = {name: 0.0 for name, _, _ in targets}, {name: 0 for name, _, _ in targets}
    try:
        for name, command, path in targets:
            port = free_port()
            ready = "/stub/0" if path.startswith("/nostub/") else path
            servers[name] = (Server(command(port), port, ready), f"http://127.0.0.1:{port}{path}")
        scripts = {name: DISTINCT_TARGETS if path.endswith("/") else None for name, _, path in targets}
        for name, _, _ in targets:
            wrk(servers[name][1], "3s", scripts[name])
        for _ in range(RUNS):
            for name, _, _ in targets:
                if os.path.exists(log_file):
                    os.truncate(log_file, 0)
                before = servers[name][0].cpu_seconds()
                rps, _, requests = wrk(servers[name][1], DURATION, scripts[name])
                cpu[name] += servers[name][0].cpu_seconds() - before
                served[name] += requests
                results[name].append(rps)
        mock, mock_url = servers["MockServer, no logger (ServerBench)"]
        peak = mock.status("VmHWM") / 1024
        raw, raw_url = servers["raw libmicrohttpd C server"]
        counts = [instructions_per_request(raw, raw_url), instructions_per_request(mock, mock_url)]
    finally:
        for server, _ in servers.values():
            server.stop()
    raws = results["raw libmicrohttpd C server"]
    print(f"  {'server':<58} {'median':>12} {'':<6} [min..max] req/s; ratio to raw: median of per-run ratios; server CPU per request")
    for name, runs in results.items():
        ratio = statistics.median(r / b for r, b in zip(runs, raws))
        line(name, f"{statistics.median(runs):,.0f}", "req/s", f"[{min(runs):,.0f}..{max(runs):,.0f}]  x{ratio:.2f}  {cpu[name] / served[name] * 1e6:.2f} µs")

    def per_run(a, b):
        return statistics.median(x / y for x, y in zip(results[a], results[b]))

    logged = "decoy serve, request log to a file"
    r = per_run(logged, "raw libmicrohttpd C server")
    ratio_line(f"{logged} / raw", r, ">= 0.85", r >= 0.85)
    options = per_run("libmicrohttpd with Decoy's options, no Swift", "raw libmicrohttpd C server")
    line("  libmicrohttpd with Decoy's options, no Swift / raw", f"{options:.2f}", "x", "(the library's share)")
    r = per_run(logged, "libmicrohttpd with Decoy's options, no Swift")
    line("  decoy serve, log to a file / those options, no Swift", f"{r:.2f}", "x", "(Decoy's own code's share)")
    for peer in ("Hummingbird 2", "FlyingFox"):
        if peer in results:
            r = per_run(logged, peer)
            ratio_line(f"{logged} / {peer}", r, "> 1", r > 1)
    r = per_run("MockServer, unmatched 404 among 10,000 stubs", "MockServer, no logger (ServerBench)")
    ratio_line("unmatched 404 at 10,000 stubs / matched with 1 stub", r, ">= 0.8", r >= 0.8)
    r = per_run("MockServer, unmatched, every target different", "MockServer, no logger (ServerBench)")
    line("  the same, every target different (no 404 reused) / matched", f"{r:.2f}", "x", "(the closest routes found anew each time)")
    if not swift_peers:
        print("  (Swift peers skipped: set SWIFT_PEERS to the folder of Benchmarks/Peers' SwiftPeer)")
    line("MockServer peak RSS under the load (VmHWM)", f"{peak:.1f}", "MB", "<= 50 MB " + ("ok" if peak <= 50 else "MISSED"))
    if None not in counts:
        (raw_user, raw_kernel), (decoy_user, decoy_kernel) = counts
        line("instructions per request, raw: user + kernel", f"{raw_user:,.0f} + {raw_kernel:,.0f}", "", "(perf stat; steady when the machine is not)")
        line("instructions per request, MockServer: user + kernel", f"{decoy_user:,.0f} + {decoy_kernel:,.0f}", "",
             f"raw/MockServer {(raw_user + raw_kernel) / (decoy_user + decoy_kernel):.2f}")


def instructions_per_request(server, url):
    """User and kernel instructions the server spends per request under a 5 s wrk load, or None without perf."""
    try:
        with tempfile.NamedTemporaryFile("r", suffix=".perf") as out:
            perf = subprocess.Popen(["perf", "stat", "-x,", "-e", "instructions:u,instructions:k", "-p", str(server.process.pid), "-o", out.name],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(0.2)
            output = subprocess.run(["wrk", "-t2", "-c64", "-d5s", url], capture_output=True, text=True, timeout=60).stdout
            perf.send_signal(signal.SIGINT)
            perf.wait(10)
            requests = int(re.search(r"(\d+) requests in", output).group(1))
            counts = {row.split(",")[2]: int(row.split(",")[0]) for row in out.read().splitlines() if row.count(",") > 2 and row.split(",")[0].isdigit()}
            return counts["instructions:u"] / requests, counts["instructions:k"] / requests
    except (OSError, KeyError, AttributeError, ValueError, subprocess.SubprocessError):
        return None


def start_task_pool(port):
    """One delayed request, so that the task pool's threads exist before threads are counted."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /tick HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        s.recv(16)


def delays(bench, decoy, peers, workdir):
    print(f"== 1,000 concurrent requests (one connection each) to a stub with a 1 s delay, {RUNS} runs, alternating")
    options_binary, stubs = library_options_server(workdir), stub_folder(workdir)
    # (name, command taking the port, a path answered at once); each serves /delay a second late.
    targets = [
        ("libmicrohttpd with Decoy's options, no Swift (the floor)", lambda p: [options_binary, str(p)], "/stub"),
        ("MockServer (ServerBench)", lambda p: [bench, str(p), "1", "1000"], "/stub/0"),
        ("decoy serve, its defaults", lambda p: [decoy, "serve", stubs, "--port", str(p)], "/stub"),
    ]
    walls = {name: [] for name, _, _ in targets}
    threads = None
    for _ in range(RUNS):
        for name, command, ready in targets:
            port = free_port()
            server = Server(command(port), port, ready)
            try:
                start_task_pool(port)
                before = server.status("Threads")
                out = subprocess.run([sys.executable, os.path.join(peers, "delay_client.py"), f"http://127.0.0.1:{port}/delay", "1000", "20"],
                                     capture_output=True, text=True, timeout=60).stdout
                result = json.loads(out)
                walls[name].append(result["wall_s"])
                if result["ok"] != 1000:
                    print(f"  {name}: only {result['ok']} of 1000 answered: {result}")
                if name.startswith("MockServer"):
                    threads = (before, server.status("Threads"))
            finally:
                server.stop()
    floor = walls[targets[0][0]]
    for name, _, _ in targets:
        runs = walls[name]
        line(f"{name}, wall time", f"{statistics.median(runs):.3f}", "s", f"[{min(runs):.3f}..{max(runs):.3f}]")
    for name, _, _ in targets[1:]:
        wall = statistics.median(walls[name])
        over = statistics.median(w - f for w, f in zip(walls[name], floor))
        line(f"{name}: median, and over the floor", f"{wall:.3f}", "s",
             f"+{over * 1000:.0f} ms <= 1.15 s " + ("ok" if wall <= 1.15 else "MISSED"))
    if threads:
        line("MockServer's threads before / after", f"{threads[0]} / {threads[1]}", "", "unchanged " + ("ok" if threads[0] == threads[1] else "MISSED"))


def held(bench):
    count, delay_ms = 10_000, 10_000
    print(f"== {count:,} connections held at once by a stub with a {delay_ms // 1000} s delay, {RUNS} runs")
    port = free_port()
    server = Server([bench, str(port), "1", str(delay_ms)], port, "/stub/0")
    per_connection, walls, threads = [], [], []
    try:
        start_task_pool(port)
        for _ in range(RUNS):
            before_rss, before_threads = server.status("VmRSS"), server.status("Threads")
            client = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(__file__), "held_client.py"),
                                       f"http://127.0.0.1:{port}/delay", str(count), "60"], stdout=subprocess.PIPE, text=True)
            held_rss, held_threads = None, None
            for output in client.stdout:
                if output.strip() == "sent":
                    # Every request is written; a moment for the server to read the last ones.
                    time.sleep(1)
                    held_rss, held_threads = server.status("VmRSS"), server.status("Threads")
                else:
                    result = json.loads(output)
            client.wait(90)
            if result["ok"] != count:
                print(f"  only {result['ok']} of {count:,} answered: {result}")
            if held_rss is not None:
                per_connection.append((held_rss - before_rss) * 1024 / count)
                threads.append((before_threads, held_threads, server.status("Threads")))
            walls.append(result["wall_s"])
            line("answered", f"{result['ok']:,}", "", f"of {count:,}, every request written after {result['sent_s']} s")
    finally:
        server.stop()
    if not per_connection:
        return
    # The first run grows the heap from a fresh server; later ones reuse what it grew, so it is the honest cost.
    line("server memory per held connection, first run (VmRSS delta / count)", f"{per_connection[0]:,.0f}", "bytes",
         "later runs: " + ", ".join(f"{b:,.0f}" for b in per_connection[1:]))
    line("wall time, median of runs", f"{statistics.median(walls):.2f}", "s", f"[{min(walls):.2f}..{max(walls):.2f}] (delay {delay_ms / 1000:.0f} s)")
    unchanged = all(b == h == a for b, h, a in threads)
    line("server threads before / while held / after, each run", " ".join(f"{b}/{h}/{a}" for b, h, a in threads), "",
         "unchanged " + ("ok" if unchanged else "MISSED"))


def scaling(bench):
    print(f"== Stub-count scaling, wrk -d{SHORT}, {RUNS} runs, each run alternating the five targets: 10,000 stubs vs 1")
    one_port, many_port = free_port(), free_port()
    one = Server([bench, str(one_port), "1"], one_port, "/stub/0")
    many = Server([bench, str(many_port), "10000"], many_port, "/stub/0")
    targets = [("1 stub, matched", one_port, "/stub/0"), ("10,000, first registered", many_port, "/stub/0"),
               ("10,000, last registered", many_port, "/stub/9999"), ("1 stub, unmatched", one_port, "/nostub/x"),
               ("10,000, unmatched", many_port, "/nostub/x")]
    results = {name: [] for name, _, _ in targets}
    try:
        for _, port, path in targets:
            wrk(f"http://127.0.0.1:{port}{path}", "2s")
        for _ in range(RUNS):
            for name, port, path in targets:
                results[name].append(wrk(f"http://127.0.0.1:{port}{path}", SHORT)[0])
    finally:
        one.stop()
        many.stop()
    for name, runs in results.items():
        line(name, f"{statistics.median(runs):,.0f}", "req/s", f"[{min(runs):,.0f}..{max(runs):,.0f}]")
    for name, base in [("10,000, first registered", "1 stub, matched"), ("10,000, last registered", "1 stub, matched"),
                       ("10,000, unmatched", "1 stub, unmatched"), ("10,000, unmatched", "1 stub, matched")]:
        r = statistics.median(a / b for a, b in zip(results[name], results[base]))
        ratio_line(f"{name} / {base}, median of per-run ratios", r, ">= 0.8", r >= 0.8)


def startup(decoy, stubs, peers, probe_path):
    print("== Startup: `decoy serve` launch to first answered request (release build)")
    times = [first_answer(peers, probe_path, [decoy, "serve", stubs, "--port", "{port}"]) for _ in range(5)]
    median = statistics.median(times)
    line("median of 5 launches", f"{median:.1f}", "ms", f"[{min(times):.1f}..{max(times):.1f}] <= 50 ms " + ("ok" if median <= 50 else "MISSED"))


def main():
    bench, decoy, stubs, peers = sys.argv[1:5]
    probe_path = sys.argv[5] if len(sys.argv) > 5 else "/health"
    with tempfile.TemporaryDirectory() as workdir:
        phases = sys.argv[6].split(",") if len(sys.argv) > 6 else ["throughput", "delays", "held", "scaling", "startup"]
        if "throughput" in phases:
            throughput(bench, decoy, peers, workdir)
        if "delays" in phases:
            delays(bench, decoy, peers, workdir)
        if "held" in phases:
            held(bench)
        if "scaling" in phases:
            scaling(bench)
        if "startup" in phases:
            startup(decoy, stubs, peers, probe_path)


if __name__ == "__main__":
    main()
