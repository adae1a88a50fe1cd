"""Starting `decoy serve` for a start-up benchmark: the one way both start-up benchmarks read it."""
import re
import subprocess


def serve(arguments, cwd=None):
    """`decoy serve` started with `arguments` (the executable first), once it says where it serves:
    the process and its URL."""
    process = subprocess.Popen(arguments, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
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


def stop(process):
    """Ends the process; how it stops is not what is measured. Its output is read to the end, so
    that a full pipe holds nothing up."""
    process.kill()
    process.communicate()
