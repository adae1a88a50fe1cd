#!/usr/bin/env python3
"""A bounded soak of `decoy serve` with its journal and request log on: mixed traffic for a
fixed time, the server's resident memory sampled every second, and the verdict whether it
stays flat once warmed up.

  soak.py DECOY STUBS_FOLDER [SECONDS] [WARMUP_SECONDS]

SECONDS defaults to $SOAK_SECONDS or 60, WARMUP_SECONDS to a quarter of it, at least 15: the
journal must fill before memory can level off, so a soak shorter than about 30 s says little.

The traffic, from wrk -t2 -c32, cycles through matched stubs of every kind in the example
folder (alternating, sequence, random, conditional, a delayed one that suspends its
connection), a POST with a body and an unmatched request answered with its near misses; once a
second the admin API lists the journal. The journal keeps its default 10,000 requests, so it is
full within the warm-up, and what it holds stops growing after.

Prints requests/s, RSS at the end of the warm-up, at the end, its peak after the warm-up, the
growth in that window, and the slope of a least-squares line through the samples after the
warm-up. Flat means the end and the peak are within 10% of the warmed-up RSS and the slope is
under 1% of it per minute. Everything runs on 127.0.0.1 and ends within SECONDS + 30 s.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

decoy, stubs = sys.argv[1], sys.argv[2]
seconds = int(sys.argv[3]) if len(sys.argv) > 3 else int(os.environ.get("SOAK_SECONDS", "60"))
warmup = int(sys.argv[4]) if len(sys.argv) > 4 else max(15, seconds // 4)
assert warmup < seconds, "the warm-up must end before the soak does"

TRAFFIC = r"""
local requests = {}
init = function(args)
  local r = {
    wrk.format("GET", "/health"),
    wrk.format("GET", "/users?page=2"),
    wrk.format("POST", "/payments", {["Content-Type"] = "application/json"}, '{"amount": 1200, "currency": "EUR"}'),
    wrk.format("GET", "/recommendations"),
    wrk.format("GET", "/me", {["Authorization"] = "Bearer soak"}),
    wrk.format("GET", "/me"),
    wrk.format("GET", "/no/such/route?page=1"),
    wrk.format("GET", "/health"),
    wrk.format("GET", "/search?q=soak"),
  }
  for i, v in ipairs(r) do requests[i] = v end
end
local n = 0
request = function()
  n = n + 1
  return requests[(n % #requests) + 1]
end
"""


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"^VmRSS:\s+(\d+)", f.read(), re.M).group(1))


def main():
    server = subprocess.Popen([decoy, "serve", stubs, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = None
        deadline = time.time() + 30
        while base is None and time.time() < deadline:
            line = server.stdout.readline()
            found = re.search(r"on (http://127\.0\.0\.1:\d+)", line)
            base = found.group(1) if found else None
        assert base, "decoy serve did not say where it listens"
        # The request log goes on being written; drain it so the pipe never blocks the server.
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
            script.write(TRAFFIC)
        load = subprocess.Popen(["wrk", "-t2", "-c32", f"-d{seconds}s", "-s", script.name, base], stdout=subprocess.PIPE, text=True)
        samples, admin_ok, start = [], 0, time.time()
        while load.poll() is None and time.time() - start < seconds + 20:
            time.sleep(1)
            samples.append((time.time() - start, rss_kib(server.pid)))
            with urllib.request.urlopen(f"{base}/__admin/requests?limit=100", timeout=10) as reply:
                admin_ok += reply.status == 200 and "requests" in json.load(reply)
        out = load.communicate(timeout=30)[0]
        os.unlink(script.name)
        assert server.poll() is None, "the server died during the soak"
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Socket errors: (.*)", out)
    after = [(t, kib) for t, kib in samples if t >= warmup]
    warmed, end, peak = after[0][1], after[-1][1], max(kib for _, kib in after)
    mean_t = sum(t for t, _ in after) / len(after)
    mean_k = sum(k for _, k in after) / len(after)
    slope = sum((t - mean_t) * (k - mean_k) for t, k in after) / max(1e-9, sum((t - mean_t) ** 2 for t, _ in after)) * 60
    flat = end <= warmed * 1.10 and peak <= warmed * 1.10 and abs(slope) < warmed * 0.01
    print(f"== Soak: decoy serve {stubs}, journal and request log on, wrk -t2 -c32 -d{seconds}s of mixed traffic, warm-up {warmup} s")
    print(f"  requests                         {total:>10,}  ({rps:,.0f}/s){'  socket errors: ' + errors.group(1) if errors else ''}")
    print(f"  admin journal listings           {admin_ok:>10}  (one a second, all answered)")
    print(f"  RSS at the end of the warm-up    {warmed / 1024:>10.1f} MiB")
    print(f"  RSS at the end                   {end / 1024:>10.1f} MiB  ({(end / warmed - 1) * 100:+.1f}%)")
    print(f"  RSS peak after the warm-up       {peak / 1024:>10.1f} MiB  ({(peak / warmed - 1) * 100:+.1f}%)")
    print(f"  RSS slope after the warm-up      {slope / 1024:>10.2f} MiB/min")
    print(f"  flat after warm-up (within 10%, slope under 1%/min): {'yes' if flat else 'NO'}")
    sys.exit(0 if flat else 1)


if __name__ == "__main__":
    main()
