#!/usr/bin/env python3
"""WebSockets over `decoy serve`, driven by Python's `websockets` (PyPI) as a third-party client.

  websocket_check.py DECOY

Serves a temporary folder of WireMock-format message stub mappings (`message-mappings/`, JSON and
YAML) and checks what WireMock's semantics give: replies by trigger (body patterns, the channel's
initiating request, templates, fragmented messages), binary messages, a push from
`POST /__admin/channels/send`, `POST /__admin/messages/wait-for-count`, the message-mappings
endpoints and the close handshake's code; an `http-request` trigger pushing to a channel when an
HTTP request is made; and Decoy's additions: a script on connect, paced, closing with a code after N
messages, the faults (1011, and a drop with no close frame) and the subprotocol answered. Then the
framing part, over a bare socket: an unmasked frame is closed with 1002, invalid UTF-8 with 1007,
an oversized message with 1009, and the server still answers HTTP and the other sockets after each.

WireMock 2.35.1, the jar the parity check runs, has no WebSockets (message stubs came with its 4.x
line), so this check runs against `decoy serve` alone, with WireMock's semantics as read from its
source and its own example mappings. Exits non-zero when a claim fails.
"""
import base64
import json
import os
import re
import socket
import ssl
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

FAILURES = []

MAPPINGS = {
    "chat.json": {
        "messageMappings": [
            {
                "name": "Ping",
                "trigger": {
                    "type": "message",
                    "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/chat"}},
                    "message": {"body": {"equalTo": "ping"}},
                },
                "actions": [{"type": "send", "message": {"body": {"data": "pong"}}}],
            },
            {
                "name": "Subscribe",
                "trigger": {
                    "type": "message",
                    "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/chat"}},
                    "message": {"body": {"matchesJsonPath": "$.subscribe"}},
                },
                "actions": [
                    {
                        "type": "send",
                        "message": {"body": {"data": "{\"subscribed\": \"{{jsonPath message.body '$.subscribe'}}\"}"}},
                    }
                ],
            },
            {
                "name": "Broadcast",
                "trigger": {
                    "type": "message",
                    "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/chat"}},
                    "message": {"body": {"equalTo": "shout"}},
                },
                "actions": [
                    {
                        "type": "send",
                        "channelTarget": {
                            "type": "request-initiated",
                            "channelType": "websocket",
                            "requestPattern": {"urlPath": "/chat", "queryParameters": {"room": {"equalTo": "1"}}},
                        },
                        "message": {"body": {"data": "heard in room 1"}},
                    }
                ],
            },
        ]
    },
    "binary.json": {
        "id": "8d5a4c3e-1b2f-4d6a-9c8e-7f6a5b4c3d2e",
        "name": "Binary",
        "metadata": {"team": "markets"},
        "trigger": {
            "type": "message",
            "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/bytes"}},
        },
        "actions": [
            {
                "type": "send",
                "message": {"body": {"data": base64.b64encode(b"\x00\x01\xfe\xff").decode(), "isBinary": True}},
            }
        ],
    },
}

YAML_MAPPING = """\
name: Fragments
trigger:
  type: message
  channel:
    type: websocket
    initiatingRequestPattern:
      urlPath: /chat
  message:
    body:
      equalTo: fragment
actions:
  - type: send
    message:
      body:
        data: whole
"""


def check(claim, ok, detail=""):
    print(("ok      " if ok else "FAILED  ") + claim + ("" if ok else f": {detail}"))
    if not ok:
        FAILURES.append(claim)


def admin(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + "/__admin" + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        return response.status, (json.loads(text) if text else None)


def replies(ws_base, base):
    with connect(ws_base + "/chat?room=1") as room1, connect(ws_base + "/chat?room=2") as room2:
        room1.send("ping")
        check("a message stub replies to the message its body pattern matches", room1.recv(timeout=5) == "pong")
        room1.send(json.dumps({"subscribe": "ACME"}))
        reply = room1.recv(timeout=5)
        check("a reply is rendered as a template from the message", json.loads(reply) == {"subscribed": "ACME"}, reply)
        room1.send(["frag", "ment"])
        check("a fragmented message is matched whole", room1.recv(timeout=5) == "whole")
        room2.send("shout")
        check(
            "a request-initiated target reaches the channels its request pattern matches",
            room1.recv(timeout=5) == "heard in room 1",
        )
        room2.send("ping")
        check("the channel that sent to others gets nothing of it", room2.recv(timeout=5) == "pong")

        status, sent = admin(
            base, "POST", "/channels/send",
            {
                "type": "websocket",
                "initiatingRequest": {"urlPath": "/chat", "queryParameters": {"room": {"equalTo": "2"}}},
                "message": {"body": {"data": "pushed"}},
            },
        )
        check("channels/send names the channels it reached", status == 200 and sent["channelsMessaged"] == 1, sent)
        check("a push from the admin API arrives", room2.recv(timeout=5) == "pushed")
        status, channels = admin(base, "GET", "/channels")
        listed = channels["channels"]
        check("the open channels are listed", len(listed) == 2 and all(c["open"] for c in listed), channels)

        # wait-for-count answers once the second ping arrives, sent after the wait began.
        result = {}

        def wait():
            result["reply"] = admin(
                base, "POST", "/messages/wait-for-count",
                {"pattern": {"body": {"equalTo": "ping"}}, "count": 3, "timeoutMillis": 10000},
            )

        waiter = threading.Thread(target=wait)
        started = time.monotonic()
        waiter.start()
        time.sleep(0.3)
        room1.send("ping")
        room1.recv(timeout=5)
        waiter.join(timeout=15)
        events = result.get("reply", (0, {}))[1].get("messageServeEvents", [])
        check(
            "wait-for-count answers once the count is reached, before its timeout",
            len(events) == 3 and time.monotonic() - started < 5 and all(e["eventType"] == "received" for e in events),
            events,
        )
        status, counted = admin(base, "POST", "/messages/count", {"body": {"equalTo": "pong"}})
        expected = {"count": 3, "messageJournalDisabled": False}
        check("messages/count counts sent messages too", counted == expected, counted)

        room1.close(code=4001, reason="done")
        received = room1.protocol.close_rcvd
        check("the close handshake echoes the client's code", received is not None and received.code == 4001, received)

    with connect(ws_base + "/bytes") as ws:
        ws.send(b"\x10\x20")
        check("a binary message is sent from base64", ws.recv(timeout=5) == b"\x00\x01\xfe\xff")


def message_mappings(base, ws_base):
    mapping = {
        "name": "Added over the admin API",
        "trigger": {
            "type": "message",
            "channel": {"type": "websocket", "initiatingRequestPattern": {"urlPath": "/added"}},
        },
        "actions": [{"type": "send", "message": {"body": {"data": "added"}}}],
    }
    status, created = admin(base, "POST", "/message-mappings", mapping)
    check("POST message-mappings creates a mapping, 201 with its id", status == 201 and "id" in created, created)
    with connect(ws_base + "/added") as ws:
        ws.send("x")
        check("a mapping added over the admin API serves", ws.recv(timeout=5) == "added")
    status, listed = admin(base, "GET", "/message-mappings")
    check("GET message-mappings lists the folder's and the added ones", listed["meta"]["total"] == 6, listed["meta"])
    status, got = admin(base, "GET", "/message-mappings/" + created["id"])
    check("GET message-mappings/{id} gives the mapping", got.get("name") == mapping["name"], got)
    status, _ = admin(base, "DELETE", "/message-mappings/" + created["id"])
    status, listed = admin(base, "GET", "/message-mappings")
    check("DELETE message-mappings/{id} removes it", listed["meta"]["total"] == 5, listed["meta"])
    found = admin(
        base, "POST", "/message-mappings/find-by-metadata",
        {"matchesJsonPath": {"expression": "$.team", "equalTo": "markets"}},
    )[1]
    check("find-by-metadata finds the mapping whose metadata matches", [m["name"] for m in found["messageMappings"]]
          == ["Binary"], found)
    admin(base, "POST", "/message-mappings/remove-by-metadata", {"matchesJsonPath": "$.team"})
    status, listed = admin(base, "GET", "/message-mappings")
    check("remove-by-metadata removes the mappings its matcher accepts", listed["meta"]["total"] == 4, listed["meta"])
    status, removed = admin(base, "POST", "/messages/remove", {"body": {"equalTo": "x"}})
    events = removed["messageServeEvents"]
    check("messages/remove forgets and answers the events it matches", len(events) == 1, removed)
    status, counted = admin(base, "POST", "/messages/count", {"body": {"equalTo": "x"}})
    check("  ... which are counted no more", counted["count"] == 0, counted)
    status, event = admin(base, "GET", "/messages/" + admin(base, "GET", "/messages")[1]["messageServeEvents"][0]["id"])
    check("GET messages/{id} gives one event", event.get("eventType") in ("received", "sent"), event)
    status, waited = admin(
        base, "POST", "/messages/wait", {"pattern": {"body": {"equalTo": "added"}}, "timeoutMillis": 1000})
    check("messages/wait answers the first event a pattern matches, as WireMock does",
          isinstance(waited, dict) and waited.get("eventType") == "sent" and "added" in json.dumps(waited), waited)
    status, none = admin(
        base, "POST", "/messages/wait", {"pattern": {"body": {"equalTo": "never sent"}}, "timeoutMillis": 100})
    check("  ... and null when none comes before the timeout", none is None, none)
    try:
        admin(base, "POST", "/messages/remove-by-metadata", {})
        check("an endpoint Decoy does not serve answers 501", False, "answered 2xx")
    except urllib.error.HTTPError as error:
        check("an endpoint Decoy does not serve answers 501", error.code == 501, error.code)


def closed_with(ws):
    """Reads until the server ends the connection: the messages before, and its close frame (None
    when the connection was dropped without one)."""
    messages = []
    try:
        while True:
            messages.append(ws.recv(timeout=5))
    except ConnectionClosed:
        pass
    return messages, ws.protocol.close_rcvd


def wait_for_channel(base, path):
    """Waits until the server has taken a socket opened for `path`: it takes it just after its 101."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        channels = admin(base, "GET", "/channels")[1]["channels"]
        if any(c["initiatingRequest"]["url"].startswith(path) for c in channels):
            return
        time.sleep(0.01)


def http_triggers(base, ws_base):
    """WireMock's http-request trigger: an HTTP request pushes to the request-initiated channels."""
    admin(base, "POST", "/message-mappings", {
        "name": "Order placed",
        "trigger": {"type": "http-request", "requestPattern": {"method": "POST", "urlPath": "/orders"}},
        "actions": [{
            "type": "send",
            "channelTarget": {"type": "request-initiated", "requestPattern": {"urlPath": "/events"}},
            "message": {"body": {"data": "order {{jsonPath request.body '$.id'}} placed"}},
        }],
    })
    with connect(ws_base + "/events") as events:
        wait_for_channel(base, "/events")
        request = urllib.request.Request(base + "/orders", data=b'{"id": 7}', method="POST")
        try:
            urllib.request.urlopen(request, timeout=5)
        except urllib.error.HTTPError:
            pass  # No HTTP stub answers it: its 404 sets the trigger off all the same.
        check("an http-request trigger pushes to the channels it names when the HTTP request is made",
              events.recv(timeout=5) == "order 7 placed")


def decoys_own(base, ws_base):
    """Decoy's additions to WireMock's format: a subprotocol chosen; a script on connect, paced,
    then a close after N messages; faults."""
    admin(base, "POST", "/message-mappings", {
        "name": "Ticker",
        "trigger": {"type": "connect", "channel": {"initiatingRequestPattern": {"urlPath": "/ticks"}}},
        "actions": [
            {"message": {"body": {"data": "welcome"}}},
            {"message": {"body": {"data": "tick 1"}}, "delayMilliseconds": 100},
            {"message": {"body": {"data": "tick 2"}}, "delayMilliseconds": 100},
            {"type": "close", "code": 4000, "reason": "done"},
        ],
    })
    admin(base, "POST", "/message-mappings", {
        "name": "Crash",
        "trigger": {"type": "message", "channel": {"initiatingRequestPattern": {"urlPath": "/crash"}},
                    "message": {"body": {"equalTo": "crash"}}},
        "actions": [{"type": "fault", "fault": "INTERNAL_ERROR"}],
    })
    admin(base, "POST", "/message-mappings", {
        "name": "Drop",
        "trigger": {"type": "message", "channel": {"initiatingRequestPattern": {"urlPath": "/crash"}},
                    "message": {"body": {"equalTo": "drop"}}},
        "actions": [{"type": "fault", "fault": "DROP_CONNECTION"}],
    })
    admin(base, "POST", "/message-mappings", {
        "name": "GraphQL",
        "subprotocols": ["graphql-transport-ws"],
        "trigger": {"type": "message", "channel": {"initiatingRequestPattern": {"urlPath": "/graphql"}}},
        "actions": [{"message": {"body": {"data": "{\"type\": \"connection_ack\"}"}}}],
    })
    with connect(ws_base + "/graphql", subprotocols=["graphql-ws", "graphql-transport-ws"]) as ws:
        check("the handshake answers with the subprotocol the channel speaks",
              ws.subprotocol == "graphql-transport-ws", ws.subprotocol)
        ws.send(json.dumps({"type": "connection_init"}))
        check("  ... and its stubs answer", ws.recv(timeout=5) == '{"type": "connection_ack"}')
    try:
        with connect(ws_base + "/graphql", subprotocols=["mqtt"]):
            check("a handshake offering none of the channel's subprotocols is refused", False, "accepted")
    except InvalidStatus as refused:
        check("a handshake offering none of the channel's subprotocols is refused",
              refused.response.status_code == 400, refused.response.status_code)
    started = time.monotonic()
    with connect(ws_base + "/ticks") as ws:
        messages, close = closed_with(ws)
    check("a connect trigger sends its message as the socket opens", messages[:1] == ["welcome"], messages)
    check("  ... then its script, paced by its delays", messages[1:] == ["tick 1", "tick 2"]
          and time.monotonic() - started >= 0.2, messages)
    check("  ... then closes with its code and reason after those N messages",
          close is not None and (close.code, close.reason) == (4000, "done"), close)
    with connect(ws_base + "/crash") as ws:
        ws.send("crash")
        messages, close = closed_with(ws)
    check("an INTERNAL_ERROR fault closes with 1011", messages == [] and close is not None and close.code == 1011,
          close)
    with connect(ws_base + "/crash") as ws:
        ws.send("drop")
        messages, close = closed_with(ws)
    check("a DROP_CONNECTION fault ends the connection with no close frame", messages == [] and close is None, close)


def raw_socket(port, path="/chat"):
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def masked(opcode, payload, fin=True):
    mask = b"\x37\xfa\x21\x3d"
    header = bytes([(0x80 if fin else 0) | opcode])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def server_frames(sock):
    """The server's frames until it closes the socket: (opcode, payload) each, unmasked as a
    server sends them; a socket left open past the timeout is a failure of its own."""
    data = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        return [("the socket was left open", b"")]
    except ConnectionResetError:
        pass
    frames = []
    while len(data) >= 2:
        length, start = data[1] & 0x7F, 2
        if length == 126:
            length, start = struct.unpack(">H", data[2:4])[0], 4
        elif length == 127:
            length, start = struct.unpack(">Q", data[2:10])[0], 10
        frames.append((data[0] & 0x0F, data[start:start + length]))
        data = data[start + length:]
    return frames


def close_code(frames):
    """The code of the last frame when it is a close frame, then the socket closed."""
    if not frames or frames[-1][0] != 0x8 or len(frames[-1][1]) < 2:
        return None
    return struct.unpack(">H", frames[-1][1][:2])[0]


def framing(port, ws_base, base):
    with connect(ws_base + "/chat") as bystander:
        cases = [
            ("an unmasked frame is closed with 1002", b"\x81\x02hi", 1002, 0),
            ("a reserved bit is closed with 1002", bytes([0xC1]) + masked(0x1, b"hi")[1:], 1002, 0),
            ("a ping between fragments is answered, and invalid UTF-8 after it closed with 1007",
             masked(0x1, b"ok", fin=False) + masked(0x9, b"p") + masked(0x0, b"\xc3\x28"), 1007, 1),
            ("a message over 1 MiB is closed with 1009, before its payload",
             bytes([0x82, 0x80 | 127]) + struct.pack(">Q", 2 * 1024 * 1024) + b"\x37\xfa\x21\x3d", 1009, 0),
        ]
        for claim, frame, expected, pongs in cases:
            sock = raw_socket(port)
            sock.sendall(frame)
            frames = server_frames(sock)
            sock.close()
            check(claim, close_code(frames) == expected and [f[0] for f in frames[:-1]] == [0xA] * pongs, frames)
            bystander.send("ping")
            check("  ... and the other socket is still answered", bystander.recv(timeout=5) == "pong")
            with urllib.request.urlopen(base + "/plain", timeout=5) as response:
                check("  ... and HTTP is still served", response.read() == b"plain")


def secure(https_base, authority):
    """One exchange over wss://, through libmicrohttpd's TLS and its upgrade."""
    context = ssl.create_default_context(cafile=authority)
    with connect("wss://" + https_base.split("://", 1)[1] + "/chat", ssl=context) as ws:
        ws.send("ping")
        check("wss:// is served as ws:// is", ws.recv(timeout=5) == "pong")


def serve(decoy, folder):
    """`decoy serve` on HTTP and HTTPS, once it says where: the process and both base URLs."""
    authority = os.path.join(folder, "ca.pem")
    arguments = [decoy, "serve", folder, "--port", "0", "--https-port", "0", "--tls-ca-out", authority]
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    said = []
    for line in process.stdout:
        found = re.search(r"^Decoy is serving .* on (http://\S+) and (https://\S+)$", line.strip())
        if found:
            check("decoy serve counts the message stubs", any("5 message stubs" in line for line in said), said)
            return process, found.group(1), found.group(2), authority
        said.append(line.strip())
    process.kill()
    sys.exit(f"{' '.join(arguments)} did not start")


def main():
    decoy = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        os.makedirs(os.path.join(folder, "mappings"))
        os.makedirs(os.path.join(folder, "message-mappings"))
        with open(os.path.join(folder, "mappings", "plain.json"), "w") as file:
            plain = {"request": {"method": "GET", "url": "/plain"}, "response": {"status": 200, "body": "plain"}}
            json.dump(plain, file)
        for name, mapping in MAPPINGS.items():
            with open(os.path.join(folder, "message-mappings", name), "w") as file:
                json.dump(mapping, file)
        with open(os.path.join(folder, "message-mappings", "fragments.yaml"), "w") as file:
            file.write(YAML_MAPPING)
        process, base, https_base, authority = serve(decoy, folder)
        try:
            port = int(base.rsplit(":", 1)[1])
            ws_base = "ws://" + base.split("://", 1)[1]
            replies(ws_base, base)
            message_mappings(base, ws_base)
            http_triggers(base, ws_base)
            decoys_own(base, ws_base)
            framing(port, ws_base, base)
            secure(https_base, authority)
        finally:
            process.kill()
            process.communicate()
    if FAILURES:
        sys.exit(f"{len(FAILURES)} claim(s) failed")
    print("every claim holds")


if __name__ == "__main__":
    main()
