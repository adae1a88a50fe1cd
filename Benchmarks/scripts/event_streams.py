#!/usr/bin/env python3
"""Event streams over `decoy serve`, from outside the process.

  event_streams.py timing DECOY            one client reads a stream with `requests` (stream=True):
                                           each event must arrive within 20 ms of its due time
  event_streams.py load DECOY N EVENTS MS  N streams at once, each of EVENTS events MS apart:
                                           every event must arrive, in order; prints wall time
                                           and the server's CPU time

Each serves a temporary stubs folder with one event-stream stub. Exits non-zero when a claim fails.
"""
import asyncio
import json
import os
import resource
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serving import serve, stop  # noqa: E402

TOLERANCE_S = 0.020


def stubs(folder, events, spacing_ms):
    os.makedirs(os.path.join(folder, "mappings"))
    mapping = {
        "request": {"method": "GET", "urlPath": "/stream"},
        "response": {
            "status": 200,
            "events": [{"id": str(i), "data": f"event {i}", "delayMilliseconds": spacing_ms} for i in range(1, events + 1)],
        },
    }
    with open(os.path.join(folder, "mappings", "stream.json"), "w") as file:
        json.dump(mapping, file)


def timing(decoy):
    import requests

    events, spacing = 20, 50
    with tempfile.TemporaryDirectory() as folder:
        stubs(folder, events, spacing)
        process, url = serve([decoy, "serve", folder, "--port", "0"])
        try:
            lateness = []
            with requests.get(url + "/stream", stream=True, timeout=10) as response:
                assert response.headers["Content-Type"] == "text/event-stream", response.headers
                start = time.perf_counter()
                buffer = b""
                # A read per chunk as it comes: the chunked decoder hands over what has arrived.
                for piece in response.raw.stream(1, decode_content=False):
                    buffer += piece
                    while b"\n\n" in buffer:
                        event, buffer = buffer.split(b"\n\n", 1)
                        index = len(lateness) + 1
                        assert event == f"id: {index}\ndata: event {index}".encode(), event
                        lateness.append(time.perf_counter() - start - index * spacing / 1000)
            worst = max(abs(value) for value in lateness)
            print(json.dumps({"events": len(lateness), "worst_ms": round(worst * 1000, 2),
                              "median_ms": round(sorted(map(abs, lateness))[len(lateness) // 2] * 1000, 2)}))
            if len(lateness) != events or worst > TOLERANCE_S:
                sys.exit(f"an event arrived more than {TOLERANCE_S * 1000:.0f} ms off its due time")
        finally:
            stop(process)


async def one_stream(host, port, events, connecting):
    async with connecting:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /stream HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
    try:
        body = await reader.read()
    finally:
        writer.close()
    head, _, chunked = body.partition(b"\r\n\r\n")
    text = b""
    while chunked:
        size_line, _, rest = chunked.partition(b"\r\n")
        size = int(size_line, 16)
        if size == 0:
            break
        text += rest[:size]
        chunked = rest[size + 2:]
    ids = [int(line[4:]) for line in text.split(b"\n") if line.startswith(b"id: ")]
    return ids == list(range(1, events + 1))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load(decoy, n, events, spacing):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as folder:
        stubs(folder, events, spacing)
        process, url = serve([decoy, "serve", folder, "--port", "0"])
        try:
            host, port = url.split("//")[1].split(":")
            before = cpu_seconds(process.pid)
            start = time.perf_counter()

            async def everything():
                connecting = asyncio.Semaphore(256)
                return await asyncio.gather(*(one_stream(host, int(port), events, connecting) for _ in range(n)))

            results = asyncio.run(everything())
            wall = time.perf_counter() - start
            cpu = cpu_seconds(process.pid) - before
            ideal = events * spacing / 1000
            print(json.dumps({"streams": n, "events_each": events, "spacing_ms": spacing,
                              "complete_in_order": sum(results), "wall_s": round(wall, 2),
                              "ideal_s": ideal, "server_cpu_s": round(cpu, 2)}))
            if sum(results) != n:
                sys.exit(f"{n - sum(results)} streams lost or reordered events")
        finally:
            stop(process)


if __name__ == "__main__":
    if sys.argv[1] == "timing":
        timing(sys.argv[2])
    else:
        load(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
