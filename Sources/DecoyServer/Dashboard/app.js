"use strict";
const api = "/__admin";
const pageSize = 50;
let token = sessionStorage.getItem("decoy-admin-token") || "";
let tokenAsked = null;
const $ = (id) => document.getElementById(id);

// Every element is made here, each value a text node: nothing from the server is parsed as markup.
function node(tag, attributes, ...children) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "class") made.className = value;
    else if (name.startsWith("on")) made.addEventListener(name.slice(2), value);
    else made.setAttribute(name, value);
  }
  for (const child of children) made.append(child instanceof Node ? child : String(child ?? ""));
  return made;
}

function askToken() {
  if (!tokenAsked) {
    tokenAsked = new Promise((resolve) => {
      const dialog = $("token-dialog");
      $("token-form").addEventListener("submit", () => {
        token = $("token").value;
        sessionStorage.setItem("decoy-admin-token", token);
        tokenAsked = null;
        resolve();
      }, { once: true });
      dialog.showModal();
      $("token").focus();
    });
  }
  return tokenAsked;
}

function headers(extra) {
  return Object.assign(token ? { Authorization: "Bearer " + token } : {}, extra);
}

async function call(path, options = {}) {
  const response = await fetch(
    api + path, Object.assign({ cache: "no-store" }, options, { headers: headers(options.headers) }));
  if (response.status === 401) {
    await askToken();
    return call(path, options);
  }
  const text = await response.text();
  if (!response.ok) {
    let title = text;
    try { title = JSON.parse(text).errors.map((error) => error.title).join(" "); } catch (_) {}
    throw new Error(`${options.method || "GET"} ${api}${path}: ${response.status} ${title}`);
  }
  return text ? JSON.parse(text) : null;
}

function report(error) {
  $("problem").textContent = error ? String(error.message || error) : "";
}

async function act(work) {
  try { report(null); await work(); } catch (error) { report(error); }
}

function pretty(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch (_) { return text; }
}

function time(millis) {
  const date = new Date(millis);
  return date.toLocaleTimeString([], { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
}

// Rows open with a click, Enter or Space. A list is one stop for Tab, its first row; the
// arrow keys move between its rows.
function openable(row, open) {
  row.tabIndex = -1;
  row.addEventListener("click", open);
  row.addEventListener("keydown", (event) => {
    const to = { ArrowDown: row.nextElementSibling, ArrowUp: row.previousElementSibling }[event.key];
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(); }
    else if (to) { event.preventDefault(); row.tabIndex = -1; to.tabIndex = 0; to.focus(); }
  });
  return row;
}

// Redrawn as requests arrive: the row that had the focus keeps it.
function fillList(table, rows) {
  const body = $(table).tBodies[0];
  const focused = body.contains(document.activeElement) ? document.activeElement.dataset.id : null;
  const again = rows.find((row) => row.dataset.id === focused);
  (again || rows[0] || {}).tabIndex = 0;
  body.replaceChildren(...rows);
  if (again) again.focus();
}

// MARK: the journal

const journal = { offset: 0, events: [], total: 0, selected: null };

function journalFilter() {
  return {
    method: $("filter-method").value,
    path: $("filter-path").value.trim(),
    status: $("filter-status").value.trim(),
    unmatched: $("filter-unmatched").checked,
  };
}

// The server's filter, for the entries that arrive live.
function admits(event, filter) {
  return (!filter.method || event.request.method === filter.method)
    && (!filter.path || event.request.url.toLowerCase().includes(filter.path.toLowerCase()))
    && (!filter.status || String(event.response.status) === filter.status)
    && (!filter.unmatched || !event.wasMatched);
}

async function loadJournal() {
  const filter = journalFilter();
  const query = new URLSearchParams({ offset: journal.offset, limit: pageSize });
  if (filter.method) query.set("method", filter.method);
  if (filter.path) query.set("path", filter.path);
  if (filter.status) query.set("status", filter.status);
  if (filter.unmatched) query.set("unmatched", "true");
  const page = await call("/requests?" + query);
  journal.events = page.requests;
  journal.total = page.meta.total;
  renderJournal();
}

function stubLabel(event) {
  if (!event.wasMatched) return "unmatched";
  const stub = event.stubMapping || {};
  return stub.name || stub.id || "stub";
}

// A proxied response that differs from the OpenAPI document or from its stub (decoy serve --openapi,
// decoy record --openapi or --compare) is marked, each difference in the mark's title.
function driftMark(event) {
  if (!event.drift) return "";
  return node("span", { class: "drift", title: event.drift.map(driftLine).join("\n") }, " ⚠ drift");
}

function driftLine(drift) {
  return (drift.pointer ? drift.pointer + ": " : "") + drift.message
    + (drift.documentPointer ? " (" + drift.documentPointer + ")" : "");
}

function renderJournal() {
  const rows = journal.events.map((event) => {
    const row = node("tr", { "data-id": event.id, class: event.id === journal.selected ? "selected" : "" },
      node("td", {}, time(event.request.loggedDate)),
      node("td", {}, event.request.method),
      node("td", { class: "wrap" }, event.request.url),
      node("td", {}, event.response.fault ? "—" : event.response.status, driftMark(event)),
      node("td", { class: event.wasMatched ? "" : "unmatched" }, stubLabel(event)),
      node("td", {}, event.timing.addedDelay ? event.timing.addedDelay + " ms" : ""),
      node("td", {}, event.response.fault || ""));
    return openable(row, () => openRequest(event));
  });
  fillList("journal", rows);
  $("journal-count").textContent = `(${journal.total} received)`;
  const last = journal.offset + journal.events.length;
  $("journal-page").textContent = journal.events.length ? `${journal.offset + 1}–${last}` : "none";
  $("journal-newer").disabled = journal.offset === 0;
  $("journal-older").disabled = journal.events.length < pageSize;
}

function section(title, ...children) {
  return node("section", {}, node("h3", {}, title), ...children);
}

function fields(object) {
  const list = node("dl");
  for (const [name, value] of Object.entries(object || {})) list.append(node("dt", {}, name), node("dd", {}, value));
  return list;
}

function showDetail(title, ...children) {
  $("detail-title").textContent = title;
  $("detail").replaceChildren(...children);
  $("detail-section").hidden = false;
  $("detail-title").focus();
}

async function openRequest(event) {
  journal.selected = event.id;
  renderJournal();
  const request = event.request;
  const parts = [
    section("Request", fields({ time: request.loggedDateString, id: event.id }), fields(request.headers),
      request.body ? node("pre", {}, pretty(request.body)) : node("p", {}, "no body")),
    section("Response", fields(Object.assign(
      event.response.fault ? { fault: event.response.fault } : { status: event.response.status },
      event.timing.addedDelay ? { delay: event.timing.addedDelay + " ms" } : {},
      { stub: stubLabel(event) })), fields(event.response.headers),
    event.response.body ? node("pre", {}, pretty(event.response.body)) : node("p", {}, "no body")),
  ];
  if (event.stubMapping) {
    parts.push(section("Stub that answered", node("pre", {}, JSON.stringify(event.stubMapping, null, 2))));
  }
  if (event.drift) {
    parts.unshift(section("Differs from " + (event.drift[0].against || "what it was checked against"),
      node("ul", {}, ...event.drift.map((drift) => node("li", {}, driftLine(drift))))));
  }
  const misses = node("div", { id: "near-misses" });
  if (!event.wasMatched) parts.unshift(section("Why no stub matched", misses));
  showDetail(`${request.method} ${request.url}`, ...parts);
  if (!event.wasMatched) await act(() => showNearMisses(event.id, misses));
}

async function showNearMisses(id, into) {
  const answer = await call(`/requests/${encodeURIComponent(id)}/near-misses`);
  if (!answer.nearMisses.length) {
    into.replaceChildren(node("p", {}, "No stub comes close: none has this path or one near it."));
    return;
  }
  into.replaceChildren(node("p", {}, "The closest stubs, as registered now, and what differs:"),
    ...answer.nearMisses.map((miss) => node("div", { class: "miss" },
      node("strong", {}, miss.route), miss.name ? node("span", {}, ` “${miss.name}”`) : "",
      node("ul", {}, ...miss.differences.map((difference) => node("li", {}, difference))))));
}

// MARK: the live feed

let liveArrived = false;
let streamed = 0;
let skipped = 0;

function setLive(on, text) {
  $("live").className = "live " + (on ? "on" : "off");
  $("live").textContent = text;
}

function arrived(event) {
  liveArrived = true;
  streamed += 1;
  journal.total = Math.max(journal.total, sequenceOf(event.id));
  if (journal.offset !== 0 || !admits(event, journalFilter())) return;
  if (journal.events.some((shown) => shown.id === event.id)) return;
  journal.events.unshift(event);
  journal.events.length = Math.min(journal.events.length, pageSize);
}

function sequenceOf(id) {
  return parseInt(id.split("-").pop(), 16) || 0;
}

// One server-sent event: its type and its data, read as JSON; null data when it has none.
function parseEvent(block) {
  let type = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) type = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  return { type, value: data.length ? JSON.parse(data.join("\n")) : null };
}

function handle(block) {
  const { type, value } = parseEvent(block);
  if (!value) return;
  if (type === "request") arrived(value);
  else if (type === "skipped") {
    skipped += value.skipped;
    $("skipped").hidden = false;
    $("skipped").textContent =
      `${skipped} requests came faster than the page could take them live; the list is reloaded instead.`;
    behind = true;
    scheduleStubs();
  }
}

// Redrawn at most once a frame, however fast requests come.
function redraw() {
  if (liveArrived) {
    liveArrived = false;
    setLive(true, `live · ${streamed} streamed`);
    renderJournal();
    scheduleStubs();
  }
  if (channelsChanged) {
    channelsChanged = false;
    renderChannels();
  }
  requestAnimationFrame(redraw);
}

// The stubs' counts and the scenarios' states follow the traffic, read again at most once a second;
// so does the journal when the feed fell behind.
let stubsDue = null;
let behind = false;
function scheduleStubs() {
  if (stubsDue) return;
  stubsDue = setTimeout(() => {
    stubsDue = null;
    const reloads = [loadStubs(), loadScenarios()];
    if (behind && journal.offset === 0) reloads.push(loadJournal());
    behind = false;
    act(() => Promise.all(reloads));
  }, 1000);
}

// Reads the live feed at `path`, each event handed to `handle`; after a reconnection, `reload` reads
// again what may have been missed. Only the journal's feed (`live`) sets the header's live sign.
async function follow(path, handle, reload, live) {
  for (let first = true; ; first = false) {
    try {
      const response = await fetch(
        api + path, { headers: headers({ Accept: "text/event-stream" }), cache: "no-store" });
      if (response.status === 401) { await askToken(); continue; }
      if (!response.ok || !response.body) {
        if (live) setLive(false, `no live feed (${response.status})`);
        return;
      }
      if (live) setLive(true, `live · ${streamed} streamed`);
      if (!first) await act(reload);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          handle(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (_) {}
    if (live) setLive(false, "reconnecting…");
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// MARK: WebSockets

// The open channels and the last few closed, each with its messages counted, oldest first; the
// newest messages, newest first.
const sockets = { channels: new Map(), messages: [] };
const closedKept = 10;
let channelsChanged = false;

function channelEntry(channel, opened) {
  return { channel, opened, received: 0, sent: 0, state: "open" };
}

async function loadChannels() {
  const [open, journaled] = await Promise.all([call("/channels"), call("/messages")]);
  sockets.channels = new Map(open.channels.map((channel) =>
    [channel.id, channelEntry(channel, channel.initiatingRequest.loggedDate)]));
  sockets.messages = [];
  for (const event of journaled.messageServeEvents) messageArrived(event);
  renderChannels();
}

function messageArrived(event) {
  const known = sockets.channels.get(event.channel.id);
  if (known) known[event.eventType === "sent" ? "sent" : "received"] += 1;
  sockets.messages.unshift(event);
  sockets.messages.length = Math.min(sockets.messages.length, pageSize);
}

function closeText(close) {
  if (close.code === null) return "dropped, no close frame";
  return `closed by the ${close.by}: ${close.code}${close.reason ? ` "${close.reason}"` : ""}`;
}

function handleChannels(block) {
  const { type, value } = parseEvent(block);
  if (!value) return;
  if (type === "opened") sockets.channels.set(value.id, channelEntry(value, Date.now()));
  else if (type === "message") messageArrived(value);
  else if (type === "closed") {
    const entry = sockets.channels.get(value.channel.id) || channelEntry(value.channel, Date.now());
    Object.assign(entry, { received: value.received, sent: value.sent, state: closeText(value) });
    sockets.channels.set(value.channel.id, entry);
    const closed = [...sockets.channels.values()].filter((known) => known.state !== "open");
    for (const gone of closed.slice(0, Math.max(0, closed.length - closedKept))) {
      sockets.channels.delete(gone.channel.id);
    }
  } else if (type === "skipped") act(loadChannels);
  channelsChanged = true;
}

function renderChannels() {
  const entries = [...sockets.channels.values()].reverse();
  $("channels").tBodies[0].replaceChildren(...entries.map((entry) =>
    node("tr", { "data-id": entry.channel.id, class: entry.state === "open" ? "" : "closed" },
      node("td", {}, time(entry.opened)),
      node("td", { class: "wrap" }, entry.channel.initiatingRequest.url),
      node("td", {}, entry.received),
      node("td", {}, entry.sent),
      node("td", {}, entry.state))));
  $("channels-count").textContent = `(${entries.filter((entry) => entry.state === "open").length} open)`;
  $("messages").tBodies[0].replaceChildren(...sockets.messages.map((event) =>
    node("tr", { "data-id": event.id },
      node("td", {}, time(Date.parse(event.timestamp))),
      node("td", {}, event.eventType === "sent" ? "sent" : "received"),
      node("td", { class: "wrap" }, event.channel.initiatingRequest.url),
      node("td", { class: "wrap" }, event.message),
      node("td", {}, event.stubMapping ? event.stubMapping.name || event.stubMapping.id : ""))));
}

// MARK: stubs

const stubs = { offset: 0, total: 0 };

function scenarioText(scenario) {
  if (!scenario) return "";
  return `${scenario.name}: ${scenario.requiredState || "any"} → ${scenario.newState || "same"}`;
}

async function loadStubs() {
  const query = new URLSearchParams({ offset: stubs.offset, limit: pageSize, text: $("stubs-text").value.trim() });
  const page = await call("/stub-summaries?" + query);
  stubs.total = page.meta.total;
  fillList("stubs", page.stubs.map((stub) => openable(node("tr", { "data-id": stub.id },
    node("td", { class: "wrap" }, stub.route),
    node("td", { class: "wrap" }, stub.name || ""),
    node("td", {}, stub.answered),
    node("td", {}, stub.origin),
    node("td", {}, stub.priority),
    node("td", {}, scenarioText(stub.scenario))), () => act(() => openStub(stub)))));
  $("stubs-count").textContent = `(${stubs.total})`;
  $("stubs-page").textContent =
    page.stubs.length ? `${stubs.offset + 1}–${stubs.offset + page.stubs.length} of ${stubs.total}` : "none";
  $("stubs-newer").disabled = stubs.offset === 0;
  $("stubs-older").disabled = stubs.offset + page.stubs.length >= stubs.total;
}

async function openStub(stub) {
  const mapping = await call(`/mappings/${encodeURIComponent(stub.id)}`);
  showDetail(`Stub ${stub.route}`, fields({ id: stub.id, from: stub.origin, answered: stub.answered }),
    node("pre", {}, JSON.stringify(mapping, null, 2)));
}

// MARK: scenarios

// Drawn once per set of scenarios, then updated in place, so that a state being chosen is not lost.
const scenarioItems = new Map();

async function loadScenarios() {
  const answer = await call("/scenarios");
  const shape = JSON.stringify(answer.scenarios.map((scenario) => [scenario.name, scenario.possibleStates]));
  if (shape !== $("scenarios").dataset.shape) {
    $("scenarios").dataset.shape = shape;
    scenarioItems.clear();
    const items = answer.scenarios.map((scenario) => {
      const choice = node("select", { "aria-label": `state of ${scenario.name}` },
        ...scenario.possibleStates.map((state) => {
          const option = node("option", {}, state);
          option.value = state;
          return option;
        }));
      choice.addEventListener("change", () => { choice.dataset.chosen = "true"; });
      const set = node("button", { type: "button" }, "Set state");
      set.addEventListener("click", () => act(async () => {
        await call(`/scenarios/${encodeURIComponent(scenario.name)}/state`,
          {
            method: "PUT", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ state: choice.value }),
          });
        delete choice.dataset.chosen;
        await loadScenarios();
      }));
      const state = node("span", { class: "state" });
      scenarioItems.set(scenario.name, { state, choice });
      return node("li", { "data-name": scenario.name }, node("strong", {}, scenario.name), state, choice, set);
    });
    $("scenarios").replaceChildren(...(items.length ? items : [node("li", {}, "No stub takes part in a scenario.")]));
  }
  for (const scenario of answer.scenarios) {
    const item = scenarioItems.get(scenario.name);
    item.state.textContent = scenario.state;
    if (!item.choice.dataset.chosen) item.choice.value = scenario.state;
  }
}

// MARK: start

function debounce(work) {
  let due = null;
  return () => { clearTimeout(due); due = setTimeout(work, 250); };
}

document.addEventListener("DOMContentLoaded", () => {
  const reloadJournal = () => { journal.offset = 0; act(loadJournal); };
  $("journal-filter").addEventListener("submit", (event) => { event.preventDefault(); reloadJournal(); });
  $("filter-method").addEventListener("change", reloadJournal);
  $("filter-unmatched").addEventListener("change", reloadJournal);
  $("filter-path").addEventListener("input", debounce(reloadJournal));
  $("filter-status").addEventListener("input", debounce(reloadJournal));
  $("journal-newer").addEventListener("click", () => {
    journal.offset = Math.max(0, journal.offset - pageSize);
    act(loadJournal);
  });
  $("journal-older").addEventListener("click", () => { journal.offset += pageSize; act(loadJournal); });
  const reloadStubs = () => { stubs.offset = 0; act(loadStubs); };
  $("stubs-filter").addEventListener("submit", (event) => { event.preventDefault(); reloadStubs(); });
  $("stubs-text").addEventListener("input", debounce(reloadStubs));
  $("stubs-newer").addEventListener("click", () => {
    stubs.offset = Math.max(0, stubs.offset - pageSize);
    act(loadStubs);
  });
  $("stubs-older").addEventListener("click", () => { stubs.offset += pageSize; act(loadStubs); });
  $("detail-close").addEventListener("click", closeDetail);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("detail-section").hidden) closeDetail();
  });
  $("reset-journal").addEventListener("click", () => act(async () => {
    await call("/requests", { method: "DELETE" });
    skipped = 0;
    $("skipped").hidden = true;
    journal.offset = 0;
    await Promise.all([loadJournal(), loadStubs()]);
  }));
  $("reset-scenarios").addEventListener("click", () => act(async () => {
    await call("/scenarios/reset", { method: "POST" });
    await loadScenarios();
  }));
  act(() => Promise.all([loadJournal(), loadStubs(), loadScenarios(), loadChannels()]));
  follow("/events", handle, loadJournal, true);
  follow("/channel-events", handleChannels, loadChannels, false);
  requestAnimationFrame(redraw);
});

function closeDetail() {
  $("detail-section").hidden = true;
  journal.selected = null;
  renderJournal();
  const row = document.querySelector("#journal tr[data-id]");
  if (row) row.focus();
}
