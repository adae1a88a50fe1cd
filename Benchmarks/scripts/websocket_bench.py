#!/usr/bin/env python3
"""WebSockets under load (issue 39): SOCKETS sockets open at once, each echoing MESSAGES messages in order,
against `decoy serve` (its defaults, a WireMock-format message mapping that echoes with a template) and
against a reference echo server written with Python's `websockets`, measured in the same run, in turn over
ROUNDS rounds.

  websocket_bench.py DECOY [SOCKETS [MESSAGES [ROUNDS [PROCESSES]]]]    defaults 1000, 100, 3, 2

For each server: messages per second (echoes received by the clients over the wall time of the echo phase),
the server's CPU per message (user and system time from /proc/PID/stat over the echo phase, divided by the
echoes) and its memory per open socket (the growth of its resident memory from before the sockets opened
to when all were open, divided by the sockets); then the ratios decoy / reference. The clients are asyncio
`websockets` clients, SOCKETS / PROCESSES sockets per process, so that the client is not the bottleneck; a
message is sent only once the echo of the one before came back, and every echo is checked. Needs Python's
`websockets` (scripts/benchmarks installs it). Exits non-zero when an echo is lost, wrong or out of order.
"""
import asyncio
import json
import multiprocessing
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serving import cpu_seconds, serve, stop  # noqa: E402

# The reference: the smallest echo server `websockets` makes, with no compression, as Decoy offers none.
REFERENCE = """
import asyncio, sys
from websockets.asyncio.server import serve

async def echo(socket):
    async for message in socket:
        await socket.send(message)

async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None, ping_interval=None, max_queue=None) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.get_running_loop().create_future()

asyncio.run(main())
"""


def stubs(folder):
    os.makedirs(os.path.join(folder, "message-mappings"))
    mapping = {
        "name": "Echo",
        "trigger": {
            "type": "message",
            "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/echo"}},
        },
        # Text messages are templates, as WireMock's message-template transformer makes every one.
        "actions": [{"type": "send", "message": {"body": {"data": "{{message.body}}"}}}],
    }
    with open(os.path.join(folder, "message-mappings", "echo.json"), "w") as file:
        json.dump(mapping, file)


def resident_kilobytes(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def client(uri, sockets, messages, opened, go, done, results):
    """One client process: opens its sockets, waits for every process to have opened its own, echoes,
    and reports how many echoes came back right."""
    from websockets.asyncio.client import connect

    async def run():
        connecting = asyncio.Semaphore(64)

        async def open_one():
            async with connecting:
                return await connect(uri, compression=None, ping_interval=None, open_timeout=60, max_queue=None)

        connections = await asyncio.gather(*(open_one() for _ in range(sockets)))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, opened.wait)
        await loop.run_in_executor(None, go.wait)

        async def echo(connection, index):
            right = 0
            for number in range(messages):
                text = f"socket {index} message {number}"
                await connection.send(text)
                if await connection.recv() == text:
                    right += 1
            return right

        echoed = await asyncio.gather(*(echo(c, i) for i, c in enumerate(connections)))
        await loop.run_in_executor(None, done.wait)
        await asyncio.gather(*(c.close() for c in connections))
        return sum(echoed)

    results.put(asyncio.run(run()))


def measure(server, uri, sockets, messages, processes):
    """One round against the `server` process at `uri`: messages per second, CPU seconds per message and
    kilobytes per open socket."""
    opened, go, done = (multiprocessing.Barrier(processes + 1) for _ in range(3))
    results = multiprocessing.Queue()
    shares = [sockets // processes + (1 if i < sockets % processes else 0) for i in range(processes)]
    workers = [multiprocessing.Process(target=client, args=(uri, share, messages, opened, go, done, results))
               for share in shares]
    before_memory = resident_kilobytes(server.pid)
    for worker in workers:
        worker.start()
    opened.wait(timeout=300)
    per_socket = (resident_kilobytes(server.pid) - before_memory) / sockets
    before_cpu = cpu_seconds(server)
    start = time.perf_counter()
    go.wait(timeout=60)
    done.wait(timeout=600)
    wall = time.perf_counter() - start
    cpu = cpu_seconds(server) - before_cpu
    echoed = sum(results.get(timeout=60) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    if echoed != sockets * messages:
        sys.exit(f"{uri}: {sockets * messages - echoed} of {sockets * messages} echoes lost, wrong or out of order")
    return echoed / wall, cpu / echoed, per_socket


def reference_server(python):
    process = subprocess.Popen([python, "-c", REFERENCE], stdout=subprocess.PIPE, text=True)
    port = int(process.stdout.readline())
    return process, f"ws://127.0.0.1:{port}/echo"


def main():
    decoy = sys.argv[1]
    given = [int(value) for value in sys.argv[2:6]]
    sockets, messages, rounds, processes = given + [1000, 100, 3, 2][len(given):]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # Each socket is a descriptor in the client and one in the server (two for decoy's upgraded connection).
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < 2 * sockets + 256:
        sys.exit(f"{sockets} sockets need about {2 * sockets + 256} file descriptors; the hard limit is {hard}")
    load = os.getloadavg()
    print(f"  {sockets} sockets at once, {messages} echoes each, {rounds} rounds, {processes} client processes;"
          f" load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    figures = {"decoy": [], "websockets": []}
    with tempfile.TemporaryDirectory() as root:
        stubs(os.path.join(root, "stubs"))
        decoy_process, url = serve([decoy, "serve", os.path.join(root, "stubs"), "--port", "0",
                                    "--log-file", os.path.join(root, "log")])
        reference, reference_uri = reference_server(sys.executable)
        try:
            servers = {"decoy": (decoy_process, url.replace("http://", "ws://") + "/echo"),
                       "websockets": (reference, reference_uri)}
            for _ in range(rounds):
                for name, (server, uri) in servers.items():
                    figures[name].append(measure(server, uri, sockets, messages, processes))
        finally:
            stop(decoy_process)
            reference.kill()
            reference.wait()
    for name, rounds_figures in figures.items():
        rate, cpu, memory = (statistics.median(values) for values in zip(*rounds_figures))
        print(f"  {name:10} {rate:9.0f} messages/s   {cpu * 1e6:7.1f} µs CPU per message   "
              f"{memory:6.1f} KB per open socket")
    for index, what, better in [(0, "messages/s", "higher"), (1, "CPU per message", "lower"),
                                (2, "memory per socket", "lower")]:
        per_round = [d[index] / r[index] if r[index] else float("nan")
                     for d, r in zip(figures["decoy"], figures["websockets"])]
        print(f"  {what} decoy / websockets: median {statistics.median(per_round):.3f} "
              f"[{min(per_round):.3f}..{max(per_round):.3f}] ({better} is better)")
    print(f"  load average after: {' '.join(f'{value:.1f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
