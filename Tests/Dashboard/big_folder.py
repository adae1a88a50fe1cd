"""Writes a stubs folder of COUNT stubs, GET /items/N each, in files of 500: a big registry.

    big_folder.py FOLDER COUNT
"""

import json
import pathlib
import sys

folder, count = pathlib.Path(sys.argv[1]), int(sys.argv[2])
(folder / "mappings").mkdir(parents=True, exist_ok=True)
for start in range(0, count, 500):
    mappings = [
        {"name": f"Item {n}", "request": {"method": "GET", "urlPath": f"/items/{n}"}, "response": {"jsonBody": {"id": n}}}
        for n in range(start, min(start + 500, count))
    ]
    (folder / "mappings" / f"items-{start:05}.json").write_text(json.dumps({"mappings": mappings}, indent=1))
