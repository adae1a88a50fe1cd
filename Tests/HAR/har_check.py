#!/usr/bin/env python3
"""The journal's HAR against the official HAR 1.2 JSON Schemas, and imported back.

Usage: har_check.py DECOY

`decoy serve` answers varied traffic (JSON, a binary answer and a binary upload, a form post, a
query with repeated and encoded parameters, a target with characters a URI must escape, a
redirect, a delay, a fault and an unmatched request); `GET /__admin/requests/har` must then
validate against the schemas of github.com/ahmadnassri/har-schema, vendored in har-schema/ (see its
README), with their formats (`uri`, `date-time`) checked, and hold to what HAR 1.2's text says
where the schemas cannot (`min` is no JSON Schema keyword, so they leave times unchecked).
Then `decoy import har` turns that HAR into stubs, which a second `decoy serve` must answer every
request but the fault with, with the same status and body (JSON compared as JSON).
"""

import base64
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT6

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "har-schema")
FAILURES = []

PNG = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x80])
UPLOAD = bytes(range(256))

MAPPINGS = {
    "user.json": {
        "name": "the-user",
        "request": {"method": "GET", "urlPath": "/users/1"},
        "response": {"status": 200, "jsonBody": {"id": 1, "name": "Ada"}},
    },
    "create.json": {
        "request": {"method": "POST", "url": "/users", "bodyPatterns": [{"equalToJson": {"name": "Grace"}}]},
        "response": {"status": 201, "jsonBody": {"id": 2, "name": "Grace"}, "headers": {"Location": "/users/2"}},
    },
    "logo.json": {
        "request": {"method": "GET", "url": "/logo.png"},
        "response": {"status": 200, "base64Body": base64.b64encode(PNG).decode(),
                     "headers": {"Content-Type": "image/png"}},
    },
    "login.json": {
        "request": {"method": "POST", "url": "/login",
                    "headers": {"Content-Type": {"contains": "application/x-www-form-urlencoded"}}},
        "response": {"status": 200, "body": "welcome, Ada",
                     "headers": {"Content-Type": "text/plain; charset=utf-8", "Set-Cookie": ["session=1", "theme=dark"]}},
    },
    "upload.json": {
        "request": {"method": "PUT", "url": "/upload"},
        "response": {"status": 204},
    },
    "search.json": {
        "request": {"method": "GET", "urlPath": "/search"},
        "response": {"status": 200, "jsonBody": [{"id": 1}, {"id": 2}]},
    },
    "filter.json": {
        "request": {"method": "GET", "urlPathPattern": "/filter.*"},
        "response": {"status": 200, "body": "filtered"},
    },
    "old.json": {
        "request": {"method": "GET", "url": "/old"},
        "response": {"status": 302, "headers": {"Location": "/users/1"}},
    },
    "slow.json": {
        "request": {"method": "GET", "url": "/slow"},
        "response": {"status": 200, "body": "caf\u00e9 \u2713", "fixedDelayMilliseconds": 40,
                     "headers": {"Content-Type": "text/plain; charset=utf-8"}},
    },
    "gone.json": {
        "request": {"method": "DELETE", "url": "/users/1"},
        "response": {"status": 204},
    },
    "broken.json": {
        "request": {"method": "GET", "url": "/broken"},
        "response": {"fault": "CONNECTION_RESET_BY_PEER"},
    },
}

# (method, target, header fields, body); /broken is the fault, which has no answer to import.
TRAFFIC = [
    ("GET", "/users/1", {"Accept": "application/json"}, None),
    ("POST", "/users", {"Content-Type": "application/json"}, b'{"name": "Grace"}'),
    ("GET", "/logo.png", {}, None),
    ("POST", "/login", {"Content-Type": "application/x-www-form-urlencoded"},
     b"user=ada&note=caf%C3%A9+au+lait&remember=on"),
    ("PUT", "/upload", {"Content-Type": "application/octet-stream"}, UPLOAD),
    ("GET", "/search?q=caf%C3%A9&tag=a&tag=b&empty=", {}, None),
    # What a client sends unescaped that a URI may not hold: the HAR's url must escape it.
    ("GET", '/filter?where={"name":"Ada"}&sort=|id|', {}, None),
    ("GET", "/old", {}, None),
    ("GET", "/slow", {}, None),
    ("DELETE", "/users/1", {}, None),
    ("GET", "/missing/page?x=1", {}, None),
    ("GET", "/broken", {}, None),
]


def check(claim, holds, detail=""):
    if not holds:
        FAILURES.append(claim)
        print(f"FAILED: {claim}" + (f"\n  {detail}" if detail else ""))


def serve(decoy, folder):
    """`decoy serve` on a free port, once it says where: the process and its base URL."""
    process = subprocess.Popen([decoy, "serve", folder, "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    for line in process.stdout:
        found = re.search(r"^Decoy is serving .* on (http://\S+)$", line.strip())
        if found:
            return process, found.group(1)
    process.kill()
    sys.exit(f"decoy serve {folder} did not start")


def send(base, method, target, headers, body):
    """One request on a connection of its own, its target sent as given: status, header fields and body,
    or None when the connection failed (the fault)."""
    host, port = base.split("://", 1)[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.putrequest(method, target, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    except (ConnectionError, http.client.HTTPException):
        return None
    finally:
        connection.close()


def validator():
    """A draft-06 validator of har.json, the other schemas found by their `$id`, formats checked."""
    registry = Registry()
    for name in sorted(os.listdir(SCHEMAS)):
        if name.endswith(".json"):
            with open(os.path.join(SCHEMAS, name)) as file:
                schema = json.load(file)
            registry = registry.with_resource(schema["$id"].rstrip("#"), Resource(schema, DRAFT6))
    formats = jsonschema.Draft6Validator.FORMAT_CHECKER
    missing = {"uri", "date-time", "ipv4", "ipv6"} - set(formats.checkers)
    if missing:
        sys.exit(f"jsonschema cannot check the formats {sorted(missing)}: install rfc3987 and rfc3339-validator")
    return jsonschema.Draft6Validator(registry.contents("har.json"), registry=registry, format_checker=formats)


def spec_rules(har):
    """What HAR 1.2's text asks of times and sizes, which the schemas leave out."""
    for index, entry in enumerate(har["log"]["entries"]):
        timings = entry["timings"]
        where = f"entry {index} ({entry['request']['method']} {entry['request']['url']})"
        check(f"{where}: time is not negative", entry["time"] >= 0, entry["time"])
        check(f"{where}: send, wait and receive are not negative",
              all(timings[name] >= 0 for name in ("send", "wait", "receive")), timings)
        check(f"{where}: the optional timings are -1 or more",
              all(timings.get(name, -1) >= -1 for name in ("blocked", "dns", "connect", "ssl")), timings)
        total = sum(value for name, value in timings.items() if name not in ("ssl", "comment") and value != -1)
        check(f"{where}: time is the sum of the timings", abs(entry["time"] - total) < 0.01, (entry["time"], timings))
        content = entry["response"]["content"]
        if "text" in content and content.get("encoding") == "base64":
            check(f"{where}: content.size is the decoded body's", len(base64.b64decode(content["text"])) == content["size"])
        elif "text" in content:
            check(f"{where}: content.size is the body's", len(content["text"].encode()) == content["size"])


def same_body(left, right):
    try:
        return json.loads(left) == json.loads(right)
    except ValueError:
        return left == right


def main():
    decoy = sys.argv[1]
    har_validator = validator()
    with tempfile.TemporaryDirectory() as scratch:
        folder = os.path.join(scratch, "stubs")
        os.makedirs(os.path.join(folder, "mappings"))
        for name, mapping in MAPPINGS.items():
            with open(os.path.join(folder, "mappings", name), "w") as file:
                json.dump(mapping, file)
        process, base = serve(decoy, folder)
        try:
            answers = [send(base, *request) for request in TRAFFIC]
            status, _, body = send(base, "GET", "/__admin/requests/har", {}, None)
        finally:
            process.kill()
            process.communicate()
        check("GET /__admin/requests/har answers 200", status == 200, status)
        har = json.loads(body)
        errors = sorted(har_validator.iter_errors(har), key=lambda error: list(error.absolute_path))
        for error in errors:
            check("the HAR validates against the HAR 1.2 schemas",
                  False, f"{'/'.join(map(str, error.absolute_path))}: {error.message}")
        entries = har["log"]["entries"]
        check("every request is an entry", len(entries) == len(TRAFFIC), len(entries))
        spec_rules(har)
        if len(entries) == len(TRAFFIC):
            search = entries[5]["request"]["queryString"]
            check("queryString holds every parameter, decoded",
                  search == [{"name": "q", "value": "caf\u00e9"}, {"name": "tag", "value": "a"},
                             {"name": "tag", "value": "b"}, {"name": "empty", "value": ""}], search)
            login = entries[3]["request"].get("postData", {})
            check("a form post's postData has its mimeType and text",
                  login.get("mimeType") == "application/x-www-form-urlencoded"
                  and login.get("text") == TRAFFIC[3][3].decode(), login)
            check("the fault is status 0", entries[-1]["response"]["status"] == 0, entries[-1]["response"])

        # Imported back: a stub for every answered request, answering as the journal did.
        har_file = os.path.join(scratch, "journal.har")
        with open(har_file, "wb") as file:
            file.write(body)
        imported = os.path.join(scratch, "imported")
        run = subprocess.run([decoy, "import", "har", har_file, "--to", imported], capture_output=True, text=True)
        check("decoy import har reads the journal's HAR", run.returncode == 0, run.stderr)
        run = subprocess.run([decoy, "check", imported], capture_output=True, text=True)
        check("the imported stubs pass decoy check", run.returncode == 0, run.stdout + run.stderr)
        process, base = serve(decoy, imported)
        try:
            for request, answer, entry in zip(TRAFFIC, answers, entries):
                if answer is None:
                    continue
                # Sent as the HAR has it, escaped where a URI must be, as a client of the file sends it.
                target = "/" + entry["request"]["url"].split("://", 1)[1].split("/", 1)[1]
                replayed = send(base, request[0], target, request[2], request[3])
                check(f"{request[0]} {request[1]} answers the same once imported",
                      replayed is not None and replayed[0] == answer[0] and same_body(replayed[2], answer[2]),
                      f"{answer[0]} {answer[2][:80]!r} then {replayed and replayed[0]} {replayed and replayed[2][:80]!r}")
        finally:
            process.kill()
            process.communicate()
    if FAILURES:
        sys.exit(f"{len(FAILURES)} claim(s) failed")
    print(f"the journal's HAR ({len(TRAFFIC)} entries) validates against HAR 1.2's schemas and imports back")


if __name__ == "__main__":
    main()
