"""The dashboard of a big and busy `decoy serve`: its first paint, and its live feed under wrk.

    dashboard_big_check.py BASE_URL SCREENSHOTS_DIR REQUESTS

Fills the journal with REQUESTS requests (wrk, matched and unmatched alike), opens the page and
measures, in the page, the time from navigation to both lists drawn: under a second. Then, with
the page open, wrk again: the page must account for every request, streamed or counted as skipped.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

base, screenshots, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3])

script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
# Every third request is unmatched, so that the journal holds 404s with near misses too.
script.write("""
counter = 0
request = function()
  counter = counter + 1
  local path = (counter % 3 == 0) and ("/itemz/" .. counter % 10000) or ("/items/" .. counter % 10000)
  return wrk.format("GET", path)
end
""")
script.close()


def total():
    with urllib.request.urlopen(base + "/__admin/requests?limit=1") as response:
        return json.load(response)["meta"]["total"]


def load(seconds):
    subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", "-s", script.name, base], check=True,
                   stdout=subprocess.DEVNULL)


while total() < wanted:
    load(3)
print(f"journal: {total()} requests")

options = Options()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
try:
    paints = []
    for _ in range(5):
        driver.get(base + "/__admin/dashboard")
        painted = driver.execute_async_script("""
            const done = arguments[0];
            const drawn = () => document.querySelectorAll('#journal tbody tr').length > 0
              && document.querySelectorAll('#stubs tbody tr').length > 0;
            const look = () => drawn() ? done(performance.now()) : requestAnimationFrame(look);
            look();
        """)
        paints.append(painted)
    paints.sort()
    print(f"first paint with 10,000 stubs and {total()} journaled: median {paints[2]:.0f} ms ({', '.join(f'{p:.0f}' for p in paints)})")
    if paints[2] >= 1000:
        sys.exit("FAILED: the first paint took a second or more")
    stubs = driver.find_element(By.ID, "stubs-page").text
    if "of 10000" not in stubs:
        sys.exit(f"FAILED: the stubs pager says {stubs!r}")
    driver.save_screenshot(f"{screenshots}/big.png")

    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "live").text.startswith("live"))
    before = total()
    load(5)
    after = total()
    def accounted(d):
        streamed = int(re.search(r"(\d+) streamed", d.find_element(By.ID, "live").text).group(1))
        skipped_text = d.find_element(By.ID, "skipped").text
        skipped = int(skipped_text.split()[0]) if skipped_text else 0
        return streamed + skipped == after - before and (streamed, skipped)
    streamed, skipped = WebDriverWait(driver, 20).until(accounted)
    print(f"live under wrk: {after - before} requests, {streamed} streamed to the page, {skipped} counted as skipped")
    print("ok - big and busy")
finally:
    driver.quit()
    os.unlink(script.name)
