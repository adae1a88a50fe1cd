#!/usr/bin/env python3
"""How long `decoy check STUBS --openapi SPEC` takes over 1,000 stubs against a published document
(Asana's, 3 MB), and its peak memory, by /usr/bin/time -v: round by round, medians printed.

The stubs are made here from the document: one per operation's first 2xx response, in turn until
there are 1,000, each on the operation's path with its parameters written out and a JSON body built
from the schema's `example`s; a body that drifts still costs its check, which is what is measured.

    drift_bench.py DECOY SPECS_FOLDER [ROUNDS] [STUBS]
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import yaml

DOCUMENT = "asana.yaml"


def resolve(document, node, seen=()):
    while isinstance(node, dict) and "$ref" in node and node["$ref"] not in seen:
        seen = seen + (node["$ref"],)
        target = document
        for token in node["$ref"][2:].split("/"):
            target = target[token.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def value(document, schema, depth=0):
    """A value for `schema`: its example, or one built from its type, properties and allOf."""
    schema = resolve(document, schema)
    if not isinstance(schema, dict) or depth > 6:
        return None
    if "example" in schema:
        return schema["example"]
    if "allOf" in schema:
        merged = {}
        for part in schema["allOf"]:
            part_value = value(document, part, depth + 1)
            if isinstance(part_value, dict):
                merged.update(part_value)
        return merged
    kind = schema.get("type", "object" if "properties" in schema else None)
    if kind == "object":
        return {name: value(document, sub, depth + 1) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [value(document, schema.get("items", {}), depth + 1)]
    return {"string": "text", "integer": 1, "number": 1.5, "boolean": True}.get(kind)


def stubs(document, count):
    operations = []
    for path, item in document["paths"].items():
        for method in ("get", "put", "post", "delete", "patch"):
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            responses = operation.get("responses", {})
            status = next((s for s in responses if str(s).startswith("2")), None)
            if status is None:
                continue
            response = resolve(document, responses[status])
            media = response.get("content", {}).get("application/json", {})
            body = value(document, media["schema"]) if "schema" in media else None
            concrete = re.sub(r"\{[^}]*\}", "12345", path)
            operations.append((method.upper(), concrete, int(status), body))
    made = []
    for index in range(count):
        method, path, status, body = operations[index % len(operations)]
        response = {"status": status, "headers": {"Content-Type": "application/json"}}
        if body is not None:
            response["jsonBody"] = body
        made.append({"request": {"method": method, "urlPath": path}, "response": response})
    return made


def run(decoy, folder, spec):
    """Wall seconds and peak resident MB of one `decoy check --openapi`, and its last line."""
    result = subprocess.run(
        ["/usr/bin/time", "-v", decoy, "check", folder, "--openapi", spec],
        capture_output=True, text=True)
    fields = dict(
        line.strip().split(": ", 1) for line in result.stderr.splitlines() if ": " in line.strip())
    clock = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
    seconds = float(clock[-1]) + 60 * float(clock[-2]) + (3600 * float(clock[-3]) if len(clock) > 2 else 0)
    peak = int(fields["Maximum resident set size (kbytes)"]) / 1024
    return seconds, peak, result.stdout.strip().splitlines()[-1]


def main():
    decoy, specs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    spec = os.path.join(specs, DOCUMENT)
    with open(spec) as file:
        document = yaml.load(file, Loader=yaml.CSafeLoader)
    folder = tempfile.mkdtemp()
    for index, stub in enumerate(stubs(document, count)):
        with open(os.path.join(folder, f"stub-{index:04}.json"), "w") as file:
            json.dump(stub, file)
    results = [run(decoy, folder, spec) for _ in range(rounds)]
    seconds = [s for s, _, _ in results]
    peaks = [m for _, m, _ in results]
    print(f"decoy check --openapi {DOCUMENT} ({os.path.getsize(spec):,} bytes), {count} stubs, {rounds} rounds")
    print(f"  {results[-1][2]}")
    print(f"  wall s: median {statistics.median(seconds):.3f}, max {max(seconds):.3f} (budget 2 s)")
    print(f"  peak MB: median {statistics.median(peaks):.1f}, max {max(peaks):.1f} (budget 150 MB)")


if __name__ == "__main__":
    main()
