#!/usr/bin/env python3
"""Holds N connections to 127.0.0.1 at once, each with one GET to a delayed stub, and reports
how many were answered.

  held_client.py URL N TIMEOUT_S

Prints `sent` on a line of its own once every request is written (so that a caller can measure
the server while all N are held), then one JSON line: n, ok (HTTP 200), failed, sent_s (until
every request was written), wall_s, latency p50 and max. Connections are opened at most 512 at
a time, so that the listen backlog never overflows into SYN retries.
"""
import asyncio
import json
import resource
import sys
import time
from urllib.parse import urlsplit

url, n, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
u = urlsplit(url)
assert u.hostname == "127.0.0.1", "loopback only"
request = f"GET {u.path or '/'} HTTP/1.1\r\nHost: {u.netloc}\r\nConnection: close\r\n\r\n".encode()
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def one(connecting, sent, start):
    async with connecting:
        reader, writer = await asyncio.open_connection(u.hostname, u.port)
        writer.write(request)
        await writer.drain()
    sent()
    try:
        status = int((await reader.readline()).split()[1])
        await reader.read()
        return status, time.perf_counter() - start
    finally:
        writer.close()


async def main():
    connecting = asyncio.Semaphore(512)
    remaining = [n]
    sent_at = [None]
    start = time.perf_counter()

    def sent():
        remaining[0] -= 1
        if remaining[0] == 0:
            sent_at[0] = time.perf_counter() - start
            print("sent", flush=True)

    tasks = [asyncio.create_task(one(connecting, sent, start)) for _ in range(n)]
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    wall = time.perf_counter() - start
    for task in pending:
        task.cancel()
    results = [task.result() for task in done if not task.exception()]
    latencies = sorted(latency for status, latency in results if status == 200)
    print(json.dumps({
        "n": n, "ok": len(latencies), "failed": n - len(latencies), "sent_s": sent_at[0] and round(sent_at[0], 3),
        "wall_s": round(wall, 3), "lat_p50_s": latencies and round(latencies[len(latencies) // 2], 3),
        "lat_max_s": latencies and round(latencies[-1], 3),
        "errors": sorted({repr(task.exception()) for task in done if task.exception()})[:3],
    }), flush=True)


asyncio.run(main())
