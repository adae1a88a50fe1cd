"""What an open dashboard costs `decoy serve` under load: wrk's requests per second on a static stub
with no page open, and with one open, in alternating rounds of the same server.

    dashboard_bench.py DECOY STUBS_FOLDER ROUNDS

An open page is what the dashboard's script does: it reads the live feed (`GET /__admin/events`)
to the end of every event, and reads the stubs' counts and the scenarios once a second while
requests come. The ratio of the medians is the cost; the dashboard's promise is under 5%. The
journal is emptied before each round, so both kinds of round start alike. Beside requests per
second, the server's CPU time per request (from /proc), which other work on a shared machine
disturbs less than throughput.
"""
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request

from serving import serve, stop

decoy, folder, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
process, url = serve([decoy, "serve", folder, "--port", "0"])
host, port = urllib.parse.urlsplit(url).hostname, urllib.parse.urlsplit(url).port


def cpu_seconds():
    """The server's user and system time so far."""
    with open(f"/proc/{process.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk():
    """Requests per second, and the server's CPU microseconds per request."""
    before = cpu_seconds()
    out = subprocess.run(["wrk", "-t1", "-c16", "-d5s", url + "/users"], check=True, capture_output=True, text=True)
    count = int(re.search(r"(\d+) requests in", out.stdout).group(1))
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out.stdout).group(1))
    return rate, (cpu_seconds() - before) * 1e6 / count


class Page:
    """An open dashboard: the live feed read as it comes, the lists read again once a second."""

    def __init__(self):
        self.events = 0
        self.skipped = 0
        self.open = True
        self.feed = socket.create_connection((host, port))
        self.feed.sendall(b"GET /__admin/events HTTP/1.1\r\nHost: bench\r\n\r\n")
        threading.Thread(target=self.read, daemon=True).start()
        threading.Thread(target=self.poll, daemon=True).start()

    def read(self):
        pending = b""
        while self.open:
            try:
                data = self.feed.recv(1 << 16)
            except OSError:
                return
            if not data:
                return
            pending += data
            self.events += pending.count(b"event: request")
            for found in re.finditer(rb'"skipped":(\d+)', pending):
                self.skipped += int(found.group(1))
            pending = pending[-32:]

    def poll(self):
        while self.open:
            for path in ["/stub-summaries?offset=0&limit=50&text=", "/scenarios"]:
                urllib.request.urlopen(url + "/__admin" + path).read()
            time.sleep(1)

    def close(self):
        self.open = False
        self.feed.close()


def reset():
    urllib.request.urlopen(urllib.request.Request(url + "/__admin/requests", method="DELETE")).read()


try:
    wrk()  # warm up
    closed, opened, shown = [], [], []
    for _ in range(rounds):
        reset()
        closed.append(wrk())
        reset()
        page = Page()
        time.sleep(0.2)
        opened.append(wrk())
        time.sleep(0.5)
        page.close()
        shown.append((page.events, page.skipped))
    for name, runs in [("no page open", closed), ("one page open (feed, lists)", opened)]:
        rates, cpu = [r for r, _ in runs], [c for _, c in runs]
        print(f"{name:<30}{statistics.median(rates):>9.0f} req/s {statistics.median(cpu):>7.1f} µs CPU/request"
              f"   ({' '.join(f'{r:.0f}' for r in rates)})")
    rate = statistics.median(r for r, _ in opened) / statistics.median(r for r, _ in closed)
    cpu = statistics.median(c for _, c in opened) / statistics.median(c for _, c in closed)
    print(f"open / none: {rate:.3f} of the requests per second, {cpu:.3f} of the CPU per request")
    print("streamed to the page, skipped: " + ", ".join(f"{e} + {s}" for e, s in shown))
finally:
    stop(process)
