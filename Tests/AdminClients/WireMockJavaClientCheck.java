import static com.github.tomakehurst.wiremock.client.WireMock.*;

import com.github.tomakehurst.wiremock.client.VerificationException;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.common.Metadata;
import com.github.tomakehurst.wiremock.recording.RecordingStatus;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubImport;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.github.tomakehurst.wiremock.verification.NearMiss;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * WireMock 2.35.1's own Java client, used as WireMock users write their tests, against a running
 * server: real WireMock (to prove each check right) or `decoy serve`. Every public call of the
 * {@code WireMock} class that drives a server is exercised and its result checked.
 *
 * <p>Usage: {@code java -cp wiremock.jar:. WireMockJavaClientCheck PORT}. Prints one line per
 * check and a count; exits 1 when any failed.
 */
public final class WireMockJavaClientCheck {
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static String base;

    public static void main(String[] arguments) throws Exception {
        int port = Integer.parseInt(arguments[0]);
        base = "http://127.0.0.1:" + port;
        WireMock.configureFor("127.0.0.1", port);

        List<String> failed = new ArrayList<>();
        int passed = 0;
        for (Check check : checks()) {
            try {
                WireMock.reset();
                check.body.run();
                passed += 1;
                System.out.println("PASS " + check.name);
            } catch (Throwable error) {
                failed.add(check.name);
                String message = String.valueOf(error.getMessage()).replace('\n', ' ');
                System.out.println("FAIL " + check.name + ": " + error.getClass().getSimpleName() + ": "
                        + message.substring(0, Math.min(message.length(), 400)));
            }
        }
        System.out.println("WireMock's Java client: " + passed + " of " + (passed + failed.size()) + " checks as WireMock answers them");
        System.exit(failed.isEmpty() ? 0 : 1);
    }

    interface Body {
        void run() throws Exception;
    }

    record Check(String name, Body body) {}

    static List<Check> checks() {
        return List.of(
                new Check("stubFor answers the stub", () -> {
                    stubFor(get(urlPathEqualTo("/java/greeting"))
                            .withQueryParam("name", equalTo("Ada"))
                            .willReturn(okJson("{\"greeting\":\"Hello, Ada\"}").withHeader("X-From", "java")));
                    HttpResponse<String> answer = send("GET", "/java/greeting?name=Ada", null);
                    expect(answer.statusCode() == 200, "status " + answer.statusCode());
                    expect(answer.body().contains("Hello, Ada"), answer.body());
                    expect("java".equals(answer.headers().firstValue("X-From").orElse(null)), "X-From header");
                    expect(send("GET", "/java/greeting?name=Bob", null).statusCode() == 404, "Bob is not stubbed");
                }),
                new Check("getSingleStubMapping and listAllStubMappings", () -> {
                    StubMapping stub = stubFor(post("/java/orders").willReturn(created()));
                    StubMapping fetched = getSingleStubMapping(stub.getId());
                    expect(fetched.getId().equals(stub.getId()), "same id");
                    expect(fetched.getRequest().getUrl().equals("/java/orders"), "url " + fetched.getRequest().getUrl());
                    expect(listAllStubMappings().getMappings().stream().anyMatch(m -> m.getId().equals(stub.getId())), "listed");
                }),
                new Check("editStub replaces the response", () -> {
                    UUID id = UUID.randomUUID();
                    stubFor(get("/java/edit").withId(id).willReturn(ok("before")));
                    editStub(get("/java/edit").withId(id).willReturn(ok("after")));
                    expect(send("GET", "/java/edit", null).body().equals("after"), "edited");
                }),
                new Check("removeStub removes it", () -> {
                    StubMapping stub = stubFor(get("/java/gone").willReturn(ok()));
                    removeStub(stub);
                    expect(send("GET", "/java/gone", null).statusCode() == 404, "removed");
                }),
                new Check("removeStub by request pattern removes the stubs of that pattern", () -> {
                    stubFor(get(urlEqualTo("/java/by-pattern")).willReturn(ok("here")));
                    stubFor(get(urlEqualTo("/java/kept")).willReturn(ok("kept")));
                    removeStub(get(urlEqualTo("/java/by-pattern")));
                    expect(send("GET", "/java/by-pattern", null).statusCode() == 404, "removed");
                    expect(send("GET", "/java/kept", null).body().equals("kept"), "the other kept");
                }),
                new Check("importStubs adds several at once", () -> {
                    importStubs(StubImport.stubImport()
                            .stub(get("/java/import/1").willReturn(ok("one")))
                            .stub(get("/java/import/2").willReturn(ok("two"))));
                    expect(send("GET", "/java/import/2", null).body().equals("two"), "imported");
                }),
                new Check("findStubsByMetadata and removeStubsByMetadata", () -> {
                    stubFor(get("/java/meta").withMetadata(Metadata.metadata().attr("team", "checkout")).willReturn(ok()));
                    stubFor(get("/java/other").withMetadata(Metadata.metadata().attr("team", "search")).willReturn(ok()));
                    List<StubMapping> found = findStubsByMetadata(matchingJsonPath("$.team", equalTo("checkout")));
                    expect(found.size() == 1, "found " + found.size());
                    removeStubsByMetadata(matchingJsonPath("$.team", equalTo("checkout")));
                    expect(send("GET", "/java/meta", null).statusCode() == 404, "removed by metadata");
                    expect(send("GET", "/java/other", null).statusCode() == 200, "the other stays");
                }),
                new Check("verify counts requests", () -> {
                    stubFor(post("/java/users").willReturn(created()));
                    send("POST", "/java/users", "{\"name\":\"Ada\"}");
                    send("POST", "/java/users", "{\"name\":\"Bob\"}");
                    verify(2, postRequestedFor(urlEqualTo("/java/users")));
                    verify(postRequestedFor(urlEqualTo("/java/users")).withRequestBody(matchingJsonPath("$.name", equalTo("Ada"))));
                    verify(exactly(0), getRequestedFor(urlEqualTo("/java/users")));
                }),
                new Check("a failed verify shows the near miss", () -> {
                    stubFor(post("/java/users").willReturn(created()));
                    send("POST", "/java/users", "{\"name\":\"Ada\"}");
                    try {
                        verify(postRequestedFor(urlEqualTo("/java/user")));
                    } catch (VerificationException expected) {
                        expect(expected.getMessage().contains("/java/users"), "diff names the near miss: " + expected.getMessage());
                        return;
                    }
                    throw new AssertionError("verify should have failed");
                }),
                new Check("findAll and getAllServeEvents", () -> {
                    stubFor(get(urlPathEqualTo("/java/items")).willReturn(ok("[]")));
                    send("GET", "/java/items?page=1", null);
                    send("GET", "/java/items?page=2", null);
                    List<LoggedRequest> found = findAll(getRequestedFor(urlPathEqualTo("/java/items")));
                    expect(found.size() == 2, "found " + found.size());
                    expect(found.get(0).queryParameter("page").firstValue().equals("1"), "oldest first");
                    List<ServeEvent> events = getAllServeEvents();
                    expect(events.size() == 2, "events " + events.size());
                    ServeEvent newest = events.get(0);
                    expect(newest.getRequest().getUrl().equals("/java/items?page=2"), "newest first: " + newest.getRequest().getUrl());
                    expect(newest.getWasMatched(), "matched");
                    expect(newest.getResponse().getStatus() == 200, "response status");
                    expect(newest.getStubMapping() != null && "/java/items".equals(newest.getStubMapping().getRequest().getUrlPath()), "stub mapping");
                }),
                new Check("removeServeEvents by pattern", () -> {
                    stubFor(any(anyUrl()).willReturn(ok()));
                    send("GET", "/java/keep", null);
                    send("GET", "/java/drop", null);
                    removeServeEvents(getRequestedFor(urlEqualTo("/java/drop")));
                    List<ServeEvent> events = getAllServeEvents();
                    expect(events.size() == 1 && events.get(0).getRequest().getUrl().equals("/java/keep"), "left " + events.size());
                }),
                new Check("findUnmatchedRequests and findNearMissesForAllUnmatched", () -> {
                    stubFor(get("/java/users/1").willReturn(ok()));
                    send("GET", "/java/users/2", null);
                    List<LoggedRequest> unmatched = findUnmatchedRequests();
                    expect(unmatched.size() == 1 && unmatched.get(0).getUrl().equals("/java/users/2"), "unmatched " + unmatched.size());
                    List<NearMiss> misses = findNearMissesForAllUnmatched();
                    expect(!misses.isEmpty(), "near misses");
                    expect(misses.get(0).getStubMapping().getRequest().getUrl().equals("/java/users/1"), "closest stub");
                }),
                new Check("scenarios: list, set state, reset", () -> {
                    stubFor(get("/java/cart").inScenario("Cart").whenScenarioStateIs(Scenario.STARTED)
                            .willReturn(ok("empty")).willSetStateTo("Filled"));
                    stubFor(get("/java/cart").inScenario("Cart").whenScenarioStateIs("Filled").willReturn(ok("one item")));
                    expect(send("GET", "/java/cart", null).body().equals("empty"), "started");
                    expect(send("GET", "/java/cart", null).body().equals("one item"), "moved on");
                    List<Scenario> scenarios = getAllScenarios();
                    expect(scenarios.size() == 1, "scenarios " + scenarios.size());
                    expect(scenarios.get(0).getState().equals("Filled"), "state " + scenarios.get(0).getState());
                    expect(scenarios.get(0).getPossibleStates().contains("Filled"), "possible states");
                    setScenarioState("Cart", Scenario.STARTED);
                    expect(send("GET", "/java/cart", null).body().equals("empty"), "set back");
                    send("GET", "/java/cart", null);
                    resetAllScenarios();
                    expect(send("GET", "/java/cart", null).body().equals("empty"), "reset");
                }),
                new Check("setGlobalFixedDelay delays every answer", () -> {
                    stubFor(get("/java/slow").willReturn(ok()));
                    setGlobalFixedDelay(300);
                    try {
                        long start = System.nanoTime();
                        send("GET", "/java/slow", null);
                        expect(System.nanoTime() - start >= 300_000_000L, "delayed");
                    } finally {
                        setGlobalFixedDelay(0);
                    }
                }),
                new Check("resetAll and resetToDefault", () -> {
                    stubFor(get("/java/temporary").willReturn(ok()));
                    send("GET", "/java/temporary", null);
                    WireMock.resetToDefault();
                    expect(send("GET", "/java/temporary", null).statusCode() == 404, "stub gone");
                    WireMock.reset();
                    expect(getAllServeEvents().isEmpty(), "journal empty");
                }),
                new Check("saveAllMappings answers", () -> {
                    stubFor(get("/java/saved").willReturn(ok()));
                    saveAllMappings();
                }),
                new Check("and / or matchers", () -> {
                    stubFor(get(urlPathEqualTo("/java/logic"))
                            .withQueryParam("q", and(containing("a"), notContaining("z")))
                            .withHeader("X-Kind", or(equalTo("one"), equalTo("two")))
                            .willReturn(ok("logic")));
                    expect(send("GET", "/java/logic?q=abc", null, "X-Kind", "two").statusCode() == 200, "all hold");
                    expect(send("GET", "/java/logic?q=abz", null, "X-Kind", "two").statusCode() == 404, "not fails");
                    expect(send("GET", "/java/logic?q=abc", null, "X-Kind", "three").statusCode() == 404, "or fails");
                }),
                new Check("JSONPath filter expressions", () -> {
                    stubFor(post("/java/cart").withRequestBody(matchingJsonPath("$.items[?(@.sku == 'A-1')]")).willReturn(ok("has A-1")));
                    expect(send("POST", "/java/cart", "{\"items\":[{\"sku\":\"A-1\"}]}").statusCode() == 200, "filter holds");
                    expect(send("POST", "/java/cart", "{\"items\":[{\"sku\":\"B-2\"}]}").statusCode() == 404, "filter fails");
                }),
                new Check("matchesXPath on an XML body", () -> {
                    stubFor(post("/java/xml").withRequestBody(matchingXPath("/order[@id='7']")).willReturn(ok("xml")));
                    expect(send("POST", "/java/xml", "<order id=\"7\"/>").statusCode() == 200, "xpath holds");
                    expect(send("POST", "/java/xml", "<order id=\"8\"/>").statusCode() == 404, "xpath fails");
                }),
                new Check("basic auth credentials are checked", () -> {
                    stubFor(get("/java/secret").withBasicAuth("ada", "lovelace").willReturn(ok()));
                    String right = "Basic " + Base64.getEncoder().encodeToString("ada:lovelace".getBytes(StandardCharsets.UTF_8));
                    String wrong = "Basic " + Base64.getEncoder().encodeToString("ada:wrong".getBytes(StandardCharsets.UTF_8));
                    expect(send("GET", "/java/secret", null, "Authorization", right).statusCode() == 200, "right password");
                    expect(send("GET", "/java/secret", null, "Authorization", wrong).statusCode() == 404, "wrong password");
                }),
                new Check("recording: start, status, stop, snapshot", () -> {
                    // No traffic: WireMock's recording proxy answers every request, and this server is the
                    // only one at hand; the Swift tests record real traffic. This checks what the client reads.
                    startRecording(recordSpec().forTarget(base + "/upstream").makeStubsPersistent(false));
                    startRecording(recordSpec().forTarget(base + "/elsewhere").makeStubsPersistent(false));
                    expect(getRecordingStatus().getStatus() == RecordingStatus.Recording, "recording");
                    expect(stopRecording().getStubMappings().isEmpty(), "nothing recorded");
                    expect(getRecordingStatus().getStatus() == RecordingStatus.Stopped, "stopped");
                    expect(snapshotRecord(recordSpec().makeStubsPersistent(false)).isEmpty(), "nothing in the snapshot");
                    try {
                        stopRecording();
                    } catch (RuntimeException refused) {
                        expect(refused.getMessage() != null && refused.getMessage().contains("Not currently recording"), "readable: " + refused);
                        return;
                    }
                    throw new AssertionError("stopping twice should be refused");
                }),
                new Check("an invalid stub is refused with a readable error", () -> {
                    try {
                        stubFor(get("/java/bad").willReturn(aResponse().withStatus(42)));
                    } catch (RuntimeException refused) {
                        expect(refused.getMessage() != null && !(refused instanceof NullPointerException), "readable: " + refused);
                        return;
                    }
                    // WireMock itself accepts a status of 42; then the stub must answer it.
                    expect(send("GET", "/java/bad", null).statusCode() == 42, "accepted as given");
                })
        );
    }

    static HttpResponse<String> send(String method, String path, String body, String... header) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (int index = 0; index + 1 < header.length; index += 2) request.header(header[index], header[index + 1]);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static void expect(boolean condition, String what) {
        if (!condition) throw new AssertionError(what);
    }
}
