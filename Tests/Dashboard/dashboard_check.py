"""Drives the dashboard of a running `decoy serve` in Debian's Chromium, through its own chromedriver.

    dashboard_check.py BASE_URL SCREENSHOTS_DIR [TOKEN]

The server serves the folder scripts/dashboard-check makes. Each check says what it looks for;
the first that fails stops the run with its name. Screenshots of the page go to SCREENSHOTS_DIR.
"""

import http.client
import json
import os
import sys
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from websockets.sync.client import connect
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

base, screenshots = sys.argv[1], sys.argv[2]
os.makedirs(screenshots, exist_ok=True)
token = sys.argv[3] if len(sys.argv) > 3 else None
host = urllib.parse.urlsplit(base).netloc


def send(method, target, headers=None, body=None):
    """One raw request, the target sent as written (markup included): status and body."""
    connection = http.client.HTTPConnection(host, timeout=10)
    connection.putrequest(method, target, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    data = body.encode() if body else b""
    connection.putheader("Content-Length", str(len(data)))
    connection.endheaders(data)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


def admin(method, path, body=None):
    request = urllib.request.Request(base + "/__admin" + path, method=method, data=body and json.dumps(body).encode())
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
    options.add_argument(argument)
# The system's chromedriver, named: Selenium Manager downloads nothing.
driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
wait = WebDriverWait(driver, 10)
checks = 0


def check(name, condition, timeout=10):
    """Waits until `condition(driver)` holds; fails the run naming the check otherwise."""
    global checks
    try:
        # The journal redraws as requests arrive: an element found before a redraw is looked up again.
        WebDriverWait(driver, timeout, ignored_exceptions=[StaleElementReferenceException]).until(condition)
    except TimeoutException:
        driver.save_screenshot(f"{screenshots}/failed.png")
        print(f"FAILED: {name}", file=sys.stderr)
        print(f"problem line: {driver.find_element(By.ID, 'problem').text!r}", file=sys.stderr)
        for entry in driver.get_log("browser"):
            print(f"browser: {entry}", file=sys.stderr)
        driver.quit()
        sys.exit(1)
    checks += 1
    print(f"ok - {name}")


def rows(table):
    return driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")


def journal_row(target):
    """The journal's row for `target`, found in one step so that no redraw comes in between."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#journal tbody tr')]"
        ".find((row) => row.cells[2] && row.cells[2].textContent === arguments[0]) || null", target)


def not_pwned(driver):
    return driver.execute_script(
        "return window.pwned === undefined && document.scripts.length === 1"
        " && document.querySelectorAll('#journal b, #stubs b, #detail b, #detail img').length === 0")


try:
    started = time.monotonic()
    driver.get(base + "/__admin/dashboard")
    if token:
        check("the page asks for the admin token", lambda d: d.find_element(By.ID, "token-dialog").is_displayed())
        field = driver.find_element(By.ID, "token")
        field.send_keys(token)
        field.send_keys(Keys.ENTER)
    check("the page loads and a stub shows", lambda d: any("List users" in r.text for r in rows("stubs")))
    print(f"   first paint with its data: {(time.monotonic() - started) * 1000:.0f} ms")
    check("the stub says where it came from", lambda d: any("users.yaml:" in r.text for r in rows("stubs")))
    check("the live feed is on", lambda d: d.find_element(By.ID, "live").text.startswith("live"))

    send("GET", "/users")
    check("a request appears live, answered by its stub", lambda d: journal_row("/users") is not None
          and "List users" in journal_row("/users").text)

    send("POST", "/usres", {"Content-Type": "application/json"}, '{"name": "Ada"}')
    check("an unmatched request appears live", lambda d: journal_row("/usres") is not None
          and "unmatched" in journal_row("/usres").text)
    driver.execute_script("arguments[0].focus()", journal_row("/usres"))
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    check("Enter opens it, with its near miss and each difference", lambda d: "POST /users" in d.find_element(By.ID, "near-misses").text
          and "path segment 1 is \"usres\", the route expects \"users\"" in d.find_element(By.ID, "near-misses").text)
    check("the request's body shows pretty-printed", lambda d: '"name": "Ada"' in d.find_element(By.ID, "detail").text)
    driver.save_screenshot(f"{screenshots}/unmatched.png")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    check("Escape closes it", lambda d: not d.find_element(By.ID, "detail-section").is_displayed())

    scenario = driver.find_element(By.CSS_SELECTOR, '#scenarios li[data-name="cart"]')
    Select(scenario.find_element(By.TAG_NAME, "select")).select_by_value("filled")
    scenario.find_element(By.TAG_NAME, "button").click()
    check("a scenario's state is set", lambda d: d.find_element(
        By.CSS_SELECTOR, '#scenarios li[data-name="cart"] .state').text == "filled")
    status, body = send("GET", "/cart")
    if "A-1" not in body:
        check(f"the next request follows the state set (got {status} {body!r})", lambda d: False, timeout=0)
    check("the next request follows the state set", lambda d: journal_row("/cart") is not None
          and "Cart after adding" in journal_row("/cart").text)
    driver.save_screenshot(f"{screenshots}/dashboard.png")

    markup = "<script>window.pwned=1</script><b>bold</b><img src=x onerror=window.pwned=1>"
    send("GET", "/esc/<script>window.pwned=1</script><b>bold</b>", {"X-Markup": markup}, markup)
    admin("POST", "/mappings", {"name": markup, "request": {"urlPath": "/<b>stub</b>"}, "response": {"body": markup}})
    check("markup in a path shows as text", lambda d: journal_row("/esc/<script>window.pwned=1</script><b>bold</b>") is not None)
    journal_row("/esc/<script>window.pwned=1</script><b>bold</b>").click()
    check("markup in a header and a body shows as text", lambda d: d.find_element(By.ID, "detail").text.count(markup) >= 2)
    check("markup in a stub's name shows as text", lambda d: any(markup in r.text for r in rows("stubs")))
    check("no markup ran nor became an element", not_pwned)
    driver.save_screenshot(f"{screenshots}/escaping.png")

    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    driver.execute_script("document.getElementById('reset-journal').focus()")
    reached = []
    for _ in range(10):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        reached.append(driver.execute_script(
            "const at = document.activeElement; return at.closest('#journal tbody') ? 'journal row' : at.id"))
    check(f"Tab goes from the reset buttons through the filters to the requests, one stop ({reached})",
          lambda d: reached[:7] == ["reset-scenarios", "filter-method", "filter-path", "filter-status",
                                    "filter-unmatched", "journal row", "stubs-text"])
    driver.execute_script("document.querySelector('#journal tbody tr').focus()")
    driver.switch_to.active_element.send_keys(Keys.ARROW_DOWN)
    check("the arrow keys move between the rows", lambda d: d.execute_script(
        "return document.activeElement === document.querySelectorAll('#journal tbody tr')[1]"))

    driver.find_element(By.ID, "reset-journal").send_keys(Keys.ENTER)
    check("reset empties the journal", lambda d: len(rows("journal")) == 0)
    driver.find_element(By.ID, "reset-scenarios").click()
    check("reset puts the scenarios back", lambda d: d.find_element(
        By.CSS_SELECTOR, '#scenarios li[data-name="cart"] .state').text == "Started")

    send("GET", "/users")
    send("GET", "/orders/404")
    driver.find_element(By.ID, "filter-unmatched").click()
    check("the unmatched filter keeps only unmatched requests", lambda d: d.execute_script(
        "return [...document.querySelectorAll('#journal tbody tr')].map((row) => row.cells[2].textContent)")
        == ["/orders/404"])
    driver.find_element(By.ID, "filter-unmatched").click()
    check("without it both show", lambda d: len(rows("journal")) == 2)

    # A WebSocket, as an app opens one: Python's websockets, as scripts/websocket-check drives the server.
    with connect(base.replace("http://", "ws://", 1) + "/live/prices?symbol=ACME", compression=None) as socket:
        check("an open WebSocket shows among the channels", lambda d: any(
            "/live/prices?symbol=ACME" in r.text and r.text.endswith("open") for r in rows("channels")))
        socket.send("hello from the check")
        check("a message it sends appears live", lambda d: any(
            "hello from the check" in r.text and "received" in r.text for r in rows("messages")))
        admin("POST", "/channels/send", {"type": "websocket", "initiatingRequest": {"urlPath": "/live/prices"},
                                         "message": {"body": {"data": "price 101.5"}}})
        if socket.recv(timeout=10) != "price 101.5":
            check("the socket gets the push", lambda d: False, timeout=0)
        check("a push to it appears live, sent", lambda d: any(
            "price 101.5" in r.text and "sent" in r.text for r in rows("messages")))
        check("the channel counts its messages", lambda d: any(
            "/live/prices?symbol=ACME 1 1 open" in r.text for r in rows("channels")))
        socket.close(1000, "done")
    check("its close shows, with its code and reason", lambda d: any(
        'closed by the client: 1000 "done"' in r.text for r in rows("channels")))
    check("no markup ran nor became an element", not_pwned)
    driver.save_screenshot(f"{screenshots}/websockets.png")

    driver.set_window_size(400, 900)
    check("a narrow window needs no sideways scrolling", lambda d: d.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"))
    check("a narrow window stacks the sections", lambda d: d.find_element(By.ID, "stubs-section").rect["y"]
          > d.find_element(By.ID, "journal-section").rect["y"] + 100)
    driver.save_screenshot(f"{screenshots}/narrow.png")
    print(f"{checks} checks passed")
finally:
    driver.quit()
