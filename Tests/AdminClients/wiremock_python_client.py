"""Drives `decoy serve` with WireMock's own Python client (PyPI `wiremock`), unchanged.

Run by scripts/admin-api-check, which starts the server and passes its admin URL as argv[1].
Every call below is one a WireMock user makes; each result is checked, so a difference in
Decoy's admin API fails the run.
"""
import sys

import requests
from wiremock.client import Mapping, MappingRequest, MappingResponse, Mappings, Requests, Scenarios
from wiremock.constants import Config
from wiremock.exceptions import InvalidInputException, NotFoundException
from wiremock.resources.near_misses import NearMissMatchPatternRequest

admin = sys.argv[1]
base = admin.removesuffix("/__admin")
Config.base_url = admin

initial = Mappings.retrieve_all_mappings()
loaded = initial.meta.total
assert loaded > 0, "the example stubs folder should be loaded"

created = Mappings.create_mapping(Mapping(
    priority=1,
    request=MappingRequest(method="GET", url_path="/python/greeting", query_parameters={"name": {"equalTo": "Ada"}}),
    response=MappingResponse(status=200, json_body={"greeting": "Hello, Ada"}, headers={"X-From": "python"}),
))
assert created.id, "a created mapping has an id"
assert Mappings.retrieve_all_mappings().meta.total == loaded + 1

answer = requests.get(f"{base}/python/greeting", params={"name": "Ada"}, timeout=5)
assert answer.status_code == 200, answer.status_code
assert answer.json() == {"greeting": "Hello, Ada"}, answer.text
assert answer.headers["X-From"] == "python"
assert requests.get(f"{base}/python/greeting", params={"name": "Bob"}, timeout=5).status_code == 404

fetched = Mappings.retrieve_mapping(created.id)
assert fetched.request.url_path == "/python/greeting", fetched.request

created.response = MappingResponse(status=201, body="changed")
updated = Mappings.update_mapping(created)
assert updated.id == created.id
changed = requests.get(f"{base}/python/greeting", params={"name": "Ada"}, timeout=5)
assert (changed.status_code, changed.text) == (201, "changed"), (changed.status_code, changed.text)

pattern = NearMissMatchPatternRequest(method="GET", url_path="/python/greeting")
assert Requests.get_matching_request_count(pattern).count == 3
found = Requests.get_matching_requests(pattern).requests
assert [r.query_parameters["name"]["values"] for r in found] == [["Ada"], ["Bob"], ["Ada"]], [r.query_parameters for r in found]
unmatched = Requests.get_unmatched_requests().requests
assert [r.url for r in unmatched] == ["/python/greeting?name=Bob"], [r.url for r in unmatched]
everything = Requests.get_all_received_requests(limit=2)
assert len(everything.requests) == 2 and everything.meta.total == 3, everything.meta.total
assert everything.requests[0].request.url == "/python/greeting?name=Ada", "newest first"

try:
    Mappings.create_mapping(Mapping(request=MappingRequest(method="GET", url_path="/bad"), response=MappingResponse(status=42)))
    raise AssertionError("an invalid stub must be refused")
except InvalidInputException as error:
    # 422 with WireMock's error code 10, as WireMock answers a document it cannot use.
    assert "response.status" in str(error), error
assert Mappings.retrieve_all_mappings().meta.total == loaded + 1, "a refused stub changes nothing"

Mappings.delete_mapping(created.id)
try:
    Mappings.retrieve_mapping(created.id)
    raise AssertionError("a deleted mapping is gone")
except NotFoundException:
    pass

Mappings.delete_all_mappings()
assert Mappings.retrieve_all_mappings().meta.total == 0
Mappings.reset_mappings()
assert Mappings.retrieve_all_mappings().meta.total == loaded, "reset brings the stub files back"

Scenarios.reset_all_scenarios()
Requests.reset_request_journal()
assert Requests.get_all_received_requests().meta.total == 0
print(f"wiremock (PyPI) client: every call answered as WireMock would; {loaded} stubs from files")
