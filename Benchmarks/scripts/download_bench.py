#!/usr/bin/env python3
"""A 100 MB stub body downloaded to a file through APIClient and URLSessionTransport, over
`decoy serve`: the client's resident memory before and at its peak, round by round. What the
download adds to it must stay under 20 MB however large the body (issue 28); the process itself
starts at some 35 MB on Linux (Foundation), before any request. Two bodies: one at the loopback's
full speed, and one paced in 400 pieces over 4 s, as a slow network sends it.

    download_bench.py DECOY DOWNLOAD_BENCH [ROUNDS]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import serving

SIZE = 100 * 1024 * 1024
LIMIT_MB = 20


def main():
    decoy, bench = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "mappings"))
        os.makedirs(os.path.join(root, "__files"))
        with open(os.path.join(root, "__files", "big.bin"), "wb") as body:
            block = bytes(range(256)) * 4096
            for _ in range(SIZE // len(block)):
                body.write(block)
        for name, dribble in [("big", None), ("paced", {"numberOfChunks": 400, "totalDuration": 4000})]:
            response = {"status": 200, "bodyFileName": "big.bin"}
            if dribble:
                response["chunkedDribbleDelay"] = dribble
            with open(os.path.join(root, "mappings", f"{name}.json"), "w") as file:
                json.dump({"request": {"method": "ANY", "url": f"/{name}"}, "response": response}, file)
        process, url = serving.serve([decoy, "serve", root, "--port", "0", "--log", "none"])
        try:
            growth = []
            for path in ["/big", "/paced"]:
                for _ in range(rounds):
                    line = subprocess.run([bench, url, path], capture_output=True, text=True, check=True).stdout
                    print(f"{path:<7} {line.strip()}")
                    if not line.startswith(f"download: {SIZE} bytes (status 200)"):
                        raise SystemExit("the download did not complete")
                    before, peak = re.search(r"resident ([0-9.]+) MB before, peak ([0-9.]+) MB", line).groups()
                    growth.append(float(peak) - float(before))
        finally:
            serving.stop(process)
    worst = max(growth)
    print(f"what a download adds to the client's resident memory: {worst:.1f} MB at most, limit {LIMIT_MB} MB: "
          f"{'within' if worst < LIMIT_MB else 'OVER'}")


if __name__ == "__main__":
    main()
