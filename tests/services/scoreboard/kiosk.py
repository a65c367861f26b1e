"""What the scoreboard's tests (and bench/bench_scoreboard.py) share: the scoreboard as a real
process on an ephemeral 127.0.0.1 port, a server-sent events reader on plain http.client, and
Debian's Chromium driven by Selenium (no driver download: the system chromedriver)."""
from __future__ import annotations

import http.client
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 30  # a bound that fails a hung test; never a measure of speed


class ScoreboardProcess:
    """`tablectl scoreboard --config CONFIG --listen 127.0.0.1:0` as a child process; stopped by
    its own PID (SIGTERM, then SIGKILL after WAIT). A subclass serves another page (COMMAND)."""

    COMMAND: tuple[str, ...] = ("scoreboard", "--listen", "127.0.0.1:0")
    NAME = "scoreboard"

    def __init__(self, config: str | os.PathLike, *args: str, directory: str | os.PathLike) -> None:
        self.log_path = Path(directory) / f"{self.NAME}-{time.monotonic_ns()}.err"
        self._log = open(self.log_path, "wb")
        self.child = subprocess.Popen(
            [sys.executable, "-m", "cli", self.COMMAND[0], "--config", str(config), *self.COMMAND[1:], *args],
            stdout=subprocess.PIPE, stderr=self._log, stdin=subprocess.DEVNULL)
        self.url = self._serving_url()
        parts = urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port

    def _serving_url(self) -> str:
        assert self.child.stdout is not None
        ready, _, _ = select.select([self.child.stdout], [], [], WAIT)
        line = self.child.stdout.readline().decode() if ready else ""
        if "serving http://" not in line:
            self.stop()
            raise AssertionError(f"the {self.NAME} did not start: {line!r}\n{self.output()}")
        return line.split("serving ", 1)[1].split(" ", 1)[0]

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def get_json(self, path: str = "/roads.json") -> dict:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=WAIT)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            assert response.status == 200, (response.status, response.read()[:500])
            return json.loads(response.read())
        finally:
            conn.close()

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.child.poll() is None:
            self.child.send_signal(sig)
            try:
                self.child.wait(WAIT)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait(WAIT)
        if self.child.stdout is not None:
            self.child.stdout.close()
        self._log.close()
        return self.child.returncode


class EventReader:
    """A server-sent events client: `next()` gives (event, id, data) one at a time."""

    def __init__(self, host: str, port: int, last_event_id: str | None = None) -> None:
        self.conn = http.client.HTTPConnection(host, port, timeout=WAIT)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", "/events", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200 and self.response.getheader("content-type", "").startswith("text/event-stream")

    def next(self) -> tuple[str, str | None, dict | None]:
        event, event_id, data = "message", None, []
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            line = line.decode().rstrip("\r\n")
            if not line:
                if data:
                    return event, event_id, json.loads("\n".join(data))
                event, event_id = "message", None  # a ping (comment only)
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                event = value
            elif field == "id":
                event_id = value
            elif field == "data":
                data.append(value)

    def next_update(self) -> tuple[str, dict]:
        while True:
            event, event_id, data = self.next()
            if event == "update":
                assert event_id is not None and data is not None
                return event_id, data

    def until(self, predicate: Callable[[str, str | None, dict | None], bool]) -> list[tuple[str, str | None, dict | None]]:
        seen = []
        while True:
            item = self.next()
            seen.append(item)
            if predicate(*item):
                return seen

    def close(self) -> None:
        self.conn.close()


def chromium(width: int = 1920, height: int = 1080):
    """Headless Chromium through the system chromedriver (Selenium must not fetch one)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="scoreboard-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
                 "--hide-scrollbars", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    # the page's own size, as a kiosk screen shows it (the window size would include the frame)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.profile_dir = profile
    return driver


def close_browser(driver) -> None:
    import shutil

    driver.quit()
    shutil.rmtree(driver.profile_dir, ignore_errors=True)


def wait_until(condition: Callable[[], object], what: str, timeout: float = WAIT) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


BIG_ROAD_IN_DOM = """return [...document.querySelectorAll('#big-road g.cell')].map(g => [
    Number(g.dataset.col), Number(g.dataset.row), g.dataset.winner, Number(g.dataset.ties),
    g.dataset.bankerPair === 'true', g.dataset.playerPair === 'true'])"""


def big_road_of(board: dict) -> list[list]:
    return [[c["col"], c["row"], c["winner"], c["ties"], c["banker_pair"], c["player_pair"]] for c in board["big_road"]]


AA = 4.5  # WCAG AA for normal text
# Every non-blank text node under `root` (and SVG text): its colour and what is painted under it.
TEXT_CONTRAST = """
const root = document.querySelector(arguments[0]);
const rgba = (css) => {
  const m = /rgba?\\(([^)]*)\\)/.exec(css || '');
  if (!m) return null;
  const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (top, below) => [0, 1, 2].map(i => top[i] * top[3] + below[i] * (1 - top[3])).concat([1]);
const luminance = (c) => {
  const [r, g, b] = c.slice(0, 3).map(v => v / 255).map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const SHAPES = new Set(['circle', 'rect', 'ellipse', 'path', 'polygon']);
const painted = (element) => {
  const style = getComputedStyle(element);
  if (element instanceof SVGElement && !(element instanceof SVGSVGElement)) {
    if (!SHAPES.has(element.tagName) || style.fill === 'none') return null;
    const fill = rgba(style.fill);
    return fill && [fill[0], fill[1], fill[2], fill[3] * Number(style.fillOpacity)];
  }
  return rgba(style.backgroundColor);
};
const found = [];
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
for (let text = walker.nextNode(); text; text = walker.nextNode()) {
  if (!text.textContent.trim()) continue;
  const element = text.parentElement;
  const range = document.createRange();
  range.selectNodeContents(text);
  const box = range.getBoundingClientRect();
  if (box.width === 0 || box.height === 0 || element.closest('[hidden]')) continue;  // not shown
  const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
  const stack = document.elementsFromPoint(x, y);
  const layers = [];
  for (const below of stack) {
    if (below instanceof SVGTextElement) continue;  // text is the foreground, never the background
    const colour = painted(below);
    if (colour && colour[3] > 0) {
      layers.push(colour);
      if (colour[3] >= 1) break;
    }
  }
  let background = [255, 255, 255, 1];  // the canvas, if nothing opaque is painted
  for (const layer of layers.reverse()) background = over(layer, background);
  const style = getComputedStyle(element);
  let colour = rgba(element instanceof SVGElement ? style.fill : style.color);
  colour = over(colour, background);
  const [light, dark] = [luminance(colour), luminance(background)].sort((a, b) => b - a);
  found.push({text: text.textContent.trim().slice(0, 40), where: element.className.baseVal ?? element.className,
              colour: colour.slice(0, 3).map(Math.round), background: background.slice(0, 3).map(Math.round),
              ratio: (light + 0.05) / (dark + 0.05),
              uncovered: stack.length > 0 && (element.contains(stack[0]) || stack[0].contains(element))});
}
return found;
"""


def low_contrast(browser, root: str = "body") -> list[str]:
    texts = browser.execute_script(TEXT_CONTRAST, root)
    assert texts, f"no text found under {root}"
    hidden = [t for t in texts if not t["uncovered"]]
    assert not hidden, f"text covered or clipped: {hidden}"
    return [f"{t['text']!r} ({t['where']}): rgb{tuple(t['colour'])} on rgb{tuple(t['background'])} is {t['ratio']:.2f}:1"
            for t in texts if t["ratio"] < AA]
