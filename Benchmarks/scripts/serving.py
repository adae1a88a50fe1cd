"""Starting `decoy serve` for a benchmark and reading what it spent: the one way the benchmarks do it."""
import os
import re
import socket
import subprocess
import sys


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve(arguments, cwd=None, env=None):
    """`decoy serve` started with `arguments` (the executable first), once it says where it serves:
    the process and its URL."""
    process = subprocess.Popen(arguments, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True)
    for line in process.stdout:
        found = re.search(r"^Decoy is serving .* on (http://\S+)$", line.strip())
        if found:
            return process, found.group(1)
    process.kill()
    raise SystemExit(f"{' '.join(arguments)} did not start")


def peak_megabytes(process):
    """The process's peak resident memory so far."""
    with open(f"/proc/{process.pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) / 1024


def cpu_seconds(process):
    """The process's user and system CPU time so far."""
    with open(f"/proc/{process.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rate_and_cpu(process, url):
    """`url`'s rate under wrk (one thread, 16 connections, 4 s after a 1 s warm-up) and the server
    process's CPU seconds per request meanwhile; exits unless every answer was a 2xx."""
    subprocess.run(["wrk", "-t1", "-c16", "-d1s", url], capture_output=True, check=True)
    before = cpu_seconds(process)
    out = subprocess.run(["wrk", "-t1", "-c16", "-d4s", url], capture_output=True, text=True, check=True).stdout
    used = cpu_seconds(process) - before
    if "Non-2xx" in out:
        sys.exit(f"{url} did not answer 200")
    count = int(re.search(r"(\d+) requests in", out).group(1))
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), used / count


def stop(process):
    """Ends the process; how it stops is not what is measured. Its output is read to the end, so
    that a full pipe holds nothing up."""
    process.kill()
    process.communicate()
