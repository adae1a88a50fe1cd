"""Sends the same requests to WireMock 2.35.1 and to `decoy serve` on one WireMock root at a time
and reports every answer that differs: status, body, and the header fields that matter.

Each root has a request list, requests/<slug>.json, where <slug> is the root's folder name:

    {
      "note": "why these requests",
      "wiremockArgs": [...],                         # optional, in place of WIREMOCK_ARGS
      "decoyArgs": [...],                            # optional, added to decoy serve's;
                                                     # "{root}" in one names the root in its place
      "requests": [
        {"method": "GET", "path": "/a?b=c", "headers": {"K": "v"},
         "body": "text" | "json": {...},             # optional
         "status": 200,                              # required: WireMock's answer, to check the check
         "note": "...",
         "ignoreBody": true,                         # random or time-dependent body
         "normalise": [["regex", "replacement"]],    # applied to both bodies and header values
         "ignoreHeaders": ["X-Name"]}
      ],
      "unexercised": {"stub id or name": "why no request matches it"}
    }

WireMock answers the list first, alone: a request whose status is not the one the list expects,
or a stub of the root that no request matched (read from WireMock's own journal), fails the root
before Decoy is asked, so the requests are proved against the real thing. Requests go in list
order, each on a new connection, so scenarios advance the same way on both servers.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Hop-by-hop and per-server fields: they say how the bytes travel or who sent them, not what a
# stub answered. WireMock sends no Date of its own, so Date is compared only when WireMock sends
# one: then a stub set it. Content-Length is compared when WireMock sends one; otherwise Decoy's
# need only be its body's. A file from __files carries Jetty's Accept-Ranges and Last-Modified,
# which Decoy sends alike, so they are compared.
IGNORED_FIELDS = {"server", "transfer-encoding", "vary", "connection", "keep-alive"}

# `decoy serve` renders the stubs that name the response-template transformer, as WireMock does
# with this option; without it WireMock 2.35.1 sends such stubs' templates as they are written.
# A request list's "wiremockArgs" replace these.
WIREMOCK_ARGS = ["--local-response-templating"]

UUID_TEXT = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
UUID = re.compile(f"^{UUID_TEXT}$")


@dataclass
class Answer:
    """One HTTP answer as it came off the socket: fields in order with their raw values."""

    status: int
    fields: list[tuple[str, str]]
    body: bytes

    def values(self, name: str) -> list[str]:
        return [value for key, value in self.fields if key.lower() == name.lower()]


@dataclass
class Difference:
    request: str
    what: str
    wiremock: str
    decoy: str


@dataclass
class RootResult:
    slug: str
    agree: int = 0
    differences: list[Difference] = field(default_factory=list)
    differing_requests: int = 0


class CheckError(Exception):
    """The check itself is wrong or WireMock would not answer: no comparison is meaningful."""


class PortTaken(CheckError):
    """Another process bound WireMock's port between the check choosing it and the JVM binding it."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def exchange(port: int, request: dict, timeout: float = 15) -> Answer:
    """Sends one request on a fresh connection and reads the raw answer, so header values come
    byte for byte (no client trims or folds them) and the body is not decoded."""
    method = request.get("method", "GET")
    body = b""
    headers = dict(request.get("headers", {}))
    if "json" in request:
        body = json.dumps(request["json"]).encode()
    elif "body" in request:
        body = request["body"].encode()
    head = f"{method} {request['path']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    for name, value in headers.items():
        head += f"{name}: {value}\r\n"
    if body or method in ("POST", "PUT", "PATCH"):
        head += f"Content-Length: {len(body)}\r\n"
    data = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(head.encode() + b"\r\n" + body)
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    return parse_answer(data, method)


def parse_answer(data: bytes, method: str) -> Answer:
    if b"\r\n\r\n" not in data:
        raise ConnectionError(f"no complete answer ({len(data)} bytes: {data[:80]!r})")
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    fields = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        # Whitespace before a value is not part of it (RFC 9112, field-line); after it, WireMock
        # sends what the stub says, and so is it compared.
        fields.append((name, value.lstrip(" \t")))
    answer = Answer(status, fields, rest)
    if method == "HEAD" or status in (204, 304):
        answer.body = b""
    elif any(v.lower() == "chunked" for v in answer.values("Transfer-Encoding")):
        answer.body = dechunk(rest)
    elif answer.values("Content-Length"):
        answer.body = rest[: int(answer.values("Content-Length")[0])]
    return answer


def dechunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2 :]
    return out


def label(request: dict) -> str:
    text = f"{request.get('method', 'GET')} {request['path']}"
    return f"{text} ({request['note']})" if "note" in request else text


def shorten(value: str, limit: int = 300) -> str:
    return value if len(value) <= limit else value[:limit] + f"… ({len(value)} chars)"


def normalised(text: str, request: dict) -> str:
    for pattern, replacement in request.get("normalise", []):
        text = re.sub(pattern, replacement, text)
    return text


def body_text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("latin-1")


def compare_bodies(request: dict, wiremock: Answer, decoy: Answer) -> Difference | None:
    if request.get("ignoreBody"):
        return None
    left = normalised(body_text(wiremock.body), request)
    right = normalised(body_text(decoy.body), request)
    if left == right:
        return None
    try:
        if json.loads(left) == json.loads(right):
            return None
    except ValueError:
        pass
    return Difference(label(request), "body", shorten(repr(left)), shorten(repr(right)))


def compare_fields(request: dict, wiremock: Answer, decoy: Answer, ids: set[str]) -> list[Difference]:
    ignored = IGNORED_FIELDS | {name.lower() for name in request.get("ignoreHeaders", [])}
    names: dict[str, str] = {}
    for name, _ in wiremock.fields + decoy.fields:
        names.setdefault(name.lower(), name)
    differences = []
    for key, name in names.items():
        if key in ignored:
            continue
        left = [normalised(v, request) for v in wiremock.values(name)]
        right = [normalised(v, request) for v in decoy.values(name)]
        if key == "date" and not left:
            continue
        if key == "content-length" and not left and right == [str(len(decoy.body))]:
            continue
        if key == "matched-stub-id" and len(left) == 1 and left[0] not in ids and UUID.match(left[0]):
            # An id WireMock made up at load time: only its presence can agree.
            left = ["<generated id>"]
            right = ["<generated id>" if UUID.match(v) else v for v in right]
        if sorted(left) != sorted(right):
            differences.append(
                Difference(label(request), f"header {name}", show_values(left), show_values(right))
            )
    return differences


def show_values(values: list[str]) -> str:
    return " | ".join(repr(v) for v in values) if values else "(absent)"


def stable_ids(root: Path) -> set[str]:
    """Ids the root's mapping files spell out, which both servers must send back as they are."""
    ids = set()
    for path in (root / "mappings").rglob("*"):
        if path.is_file():
            ids.update(re.findall(UUID_TEXT, path.read_text(errors="replace")))
    return ids


def http_json(port: int, path: str) -> dict:
    answer = exchange(port, {"method": "GET", "path": path})
    return json.loads(answer.body)


class Server:
    """A server process with its log; stopped when the root is done."""

    def __init__(self, argv: list[str], log: Path):
        self.log = log
        self.handle = log.open("wb")
        self.process = subprocess.Popen(argv, stdout=self.handle, stderr=subprocess.STDOUT)

    def output(self) -> str:
        self.handle.flush()
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.handle.close()


def launch_wiremock(jar: str, root: Path, extra: list[str], work: Path, tag: str = "") -> tuple[Server, int]:
    """Starts WireMock without waiting for it, so the next root's JVM boots while this one is checked.
    The JVM flags only shorten start-up; they change nothing WireMock answers."""
    port = free_port()
    argv = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar, "--root-dir", str(root),
            "--port", str(port), "--bind-address", "127.0.0.1", "--disable-banner", *extra]
    return Server(argv, work / f"wiremock-{root.name}{tag}.log"), port


def started_wiremock(jar: str, root: Path, extra: list[str], work: Path, launched: tuple[Server, int] | None = None, tag: str = "") -> tuple[Server, int]:
    """WireMock on the root, answering: the one launched ahead if given, started again on another
    port when its port was taken."""
    server, port = launched or launch_wiremock(jar, root, extra, work, tag)
    for _ in range(3):
        try:
            wait_for_wiremock(server, port, root)
            return server, port
        except PortTaken:
            server.stop()
            server, port = launch_wiremock(jar, root, extra, work, tag)
    wait_for_wiremock(server, port, root)
    return server, port


def wait_for_wiremock(server: Server, port: int, root: Path) -> None:
    deadline = time.time() + 60
    while time.time() < deadline:
        if server.process.poll() is not None:
            output = server.output()
            raise (PortTaken if "Failed to bind" in output else CheckError)(f"WireMock exited on {root}:\n{output}")
        try:
            http_json(port, "/__admin/mappings")
            return
        except (OSError, ValueError):
            time.sleep(0.05)
    server.stop()
    raise CheckError(f"WireMock did not start on {root}:\n{server.output()}")


def start_decoy(decoy: str, root: Path, extra: list[str], work: Path) -> tuple[Server, int | None]:
    """Starts `decoy serve ROOT --port 0 EXTRA…`; an EXTRA that holds `{root}` takes the root's place
    (to name it as WireMock does, `--root-dir {root}`)."""
    if any("{root}" in arg for arg in extra):
        argv = [decoy, "serve", "--port", "0", *(arg.replace("{root}", str(root)) for arg in extra)]
    else:
        argv = [decoy, "serve", str(root), "--port", "0", *extra]
    server = Server(argv, work / f"decoy-{root.name}.log")
    deadline = time.time() + 30
    while time.time() < deadline:
        found = re.search(r"^Decoy is serving .* on http://[^:]+:(\d+)\s*$", server.output(), re.M)
        if found:
            return server, int(found.group(1))
        if server.process.poll() is not None:
            return server, None
        time.sleep(0.05)
    return server, None


def describe(mapping: dict) -> str:
    """A stub as a request list's `unexercised` names it when it has neither id nor name of its own:
    its method and URL matcher, such as `POST /cart`."""
    request = mapping.get("request", {})
    url = next((request[k] for k in ("url", "urlPath", "urlPattern", "urlPathPattern") if k in request), "")
    return f"{request.get('method', 'ANY')} {url}"


def check_with_wiremock(spec: dict, root: Path, port: int, show: bool) -> list[Answer]:
    """Sends the list to WireMock alone and proves it right: each expected status is WireMock's,
    and every stub of the root was matched by some request (WireMock's journal says which)."""
    answers, problems = [], []
    for request in spec["requests"]:
        try:
            answer = exchange(port, request)
        except OSError as error:
            raise CheckError(f"WireMock did not answer {label(request)}: {error}")
        if "status" not in request:
            problems.append(f"{label(request)}: the list gives no status; WireMock answered {answer.status}")
        elif answer.status != request["status"]:
            problems.append(f"{label(request)}: WireMock answered {answer.status}, the list expects {request['status']}")
        answers.append(answer)
        if show:
            print(f"  {label(request)}\n    {answer.status} {answer.fields}\n    {shorten(repr(body_text(answer.body)), 400)}")
    mappings = http_json(port, "/__admin/mappings")["mappings"]
    events = http_json(port, "/__admin/requests?limit=100000")["requests"]
    served = {event.get("stubMapping", {}).get("id") for event in events if event.get("wasMatched")}
    unexercised = spec.get("unexercised", {})
    for mapping in mappings:
        names = {mapping["id"], mapping.get("name"), describe(mapping)}
        if mapping["id"] not in served and not names & unexercised.keys():
            problems.append(f"no request matched the stub {mapping.get('name') or describe(mapping)}: {json.dumps(mapping['request'])}")
    if problems:
        raise CheckError(f"the request list for {root.name} is wrong against WireMock:\n  " + "\n  ".join(problems))
    return answers


def own_page(answer: Answer) -> bool:
    """WireMock's page for a request no stub matched (a 404 with no Matched-Stub-Id: a stub's own
    404 always has one), or Jetty's page for an error (a 500, or the 403 for a folder of
    __files): each server words these its own way (Decoy names the closest routes), so only the
    status is compared."""
    text = body_text(answer.body)
    unmatched = answer.status == 404 and not answer.values("Matched-Stub-Id")
    error = answer.status >= 400 and text.startswith("<html>") and "HTTP ERROR" in text
    return unmatched or error


def compare(request: dict, wanted: Answer, got: Answer, ids: set[str]) -> list[Difference]:
    found = []
    if got.status != wanted.status:
        found.append(Difference(label(request), "status", str(wanted.status), str(got.status)))
    if own_page(wanted):
        return found
    found += compare_fields(request, wanted, got, ids)
    body = compare_bodies(request, wanted, got)
    return found + ([body] if body else [])


def load_spec(root: Path, requests_dir: Path) -> dict:
    spec_path = requests_dir / f"{root.name}.json"
    if not spec_path.is_file():
        raise CheckError(f"no request list for {root}: write {spec_path}")
    return json.loads(spec_path.read_text())


def run_root(root: Path, spec: dict, launched: tuple[Server, int], jar: str, decoy: str, work: Path, show: bool) -> RootResult:
    result = RootResult(root.name)
    wiremock_args = spec.get("wiremockArgs", WIREMOCK_ARGS)
    wiremock = launched[0]
    try:
        wiremock, port = started_wiremock(jar, root, wiremock_args, work, launched)
        expected = check_with_wiremock(spec, root, port, show)
    finally:
        wiremock.stop()
    if decoy == "wiremock":
        # The self-test: a second WireMock in Decoy's place must agree on every request, or the
        # comparison itself sees differences that are not there (a random value not normalised).
        server, decoy_port = started_wiremock(jar, root, wiremock_args, work, tag="again")
    else:
        server, decoy_port = start_decoy(decoy, root, spec.get("decoyArgs", []), work)
    try:
        if decoy_port is None:
            reason = server.output().strip() or "no output"
            result.differences.append(Difference(f"all {len(spec['requests'])} requests", "decoy serve did not start", "served", "\n        ".join(reason.splitlines())))
            result.differing_requests = len(spec["requests"])
            return result
        ids = stable_ids(root)
        for request, wanted in zip(spec["requests"], expected):
            try:
                found = compare(request, wanted, exchange(decoy_port, request), ids)
            except OSError as error:
                found = [Difference(label(request), "connection", str(wanted.status), f"error: {error}")]
            if found:
                result.differences += found
                result.differing_requests += 1
            else:
                result.agree += 1
    finally:
        server.stop()
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jar", required=True, help="WireMock 2.35.1's standalone jar")
    parser.add_argument("--decoy", required=True, help="the decoy binary; `wiremock` compares WireMock with itself, to test the check")
    parser.add_argument("--requests", default=str(HERE / "requests"), help="the folder of request lists")
    parser.add_argument("--show", action="store_true", help="print WireMock's answers, to write a request list")
    parser.add_argument("roots", nargs="+", help="WireMock roots (folders with mappings/)")
    args = parser.parse_args()

    roots = [Path(root).resolve() for root in args.roots]
    passed = failed = 0
    broken = []
    with tempfile.TemporaryDirectory(prefix="wiremock-parity-") as work:
        launched: dict[Path, tuple[Server, int]] = {}

        def launch(root: Path) -> None:
            try:
                spec = load_spec(root, Path(args.requests))
            except (CheckError, ValueError):
                return
            launched[root] = launch_wiremock(args.jar, root, spec.get("wiremockArgs", WIREMOCK_ARGS), Path(work))

        try:
            for index, root in enumerate(roots):
                started = time.time()
                if root not in launched:
                    launch(root)
                if index + 1 < len(roots):
                    launch(roots[index + 1])
                try:
                    spec = load_spec(root, Path(args.requests))
                    if root not in launched:
                        raise CheckError(f"WireMock was not started on {root}")
                    result = run_root(root, spec, launched[root], args.jar, args.decoy, Path(work), args.show)
                except (CheckError, ValueError) as error:
                    print(f"== {root.name}: CHECK BROKEN\n{error}", flush=True)
                    broken.append(root.name)
                    continue
                print(f"== {result.slug}: {result.agree} agree, {result.differing_requests} differ ({time.time() - started:.1f} s)", flush=True)
                for difference in result.differences:
                    print(f"  {difference.request}\n    {difference.what}\n      WireMock: {difference.wiremock}\n      Decoy:    {difference.decoy}")
                passed += result.agree
                failed += result.differing_requests
        finally:
            for server, _ in launched.values():
                server.stop()
    if broken:
        print(f"the check itself is wrong, or WireMock did not answer, on: {', '.join(broken)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or broken else 0


if __name__ == "__main__":
    sys.exit(main())
