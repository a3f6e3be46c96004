"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
requests on fd 3, answers on fd 4, NUL-terminated JSON), for the report's browser tests:

    with Browser(chromium_path, profile_dir) as b:
        b.open(page.as_uri(), width=390)
        b.evaluate("document.documentElement.scrollWidth")
        b.screenshot(Path("shot.png"))
"""
from __future__ import annotations

import base64
import json
import os
import subprocess
import time
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--remote-debugging-pipe")
TIMEOUT = 60.0      # seconds: a safety limit for one answer, not a measurement


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, executable: str, profile: Path) -> None:
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # Chromium reads fd 3 and writes fd 4: place the pipe ends there in the child
        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            pass_fds=(3, 4), preexec_fn=_dup_to(to_chrome_r, from_chrome_w))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer, self._next, self.session = b"", 0, None
        self._events: list[dict] = []

    def __enter__(self) -> "Browser":
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target,
                                 flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Page.setBypassCSP", enabled=True, session=True)  # lets evaluate run
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.call("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            os.close(fd)

    # --- protocol --------------------------------------------------------------------
    def call(self, method: str, session: bool = False, **params) -> dict:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._read()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self._events.append(answer)

    def _read(self) -> dict:
        deadline = time.monotonic() + TIMEOUT
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise BrowserError("chromium did not answer: "
                                   + (self.proc.stderr.read(400).decode(errors="replace")
                                      if self.proc.poll() is not None else "timeout"))
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the pipe")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(line)

    def _wait_event(self, method: str) -> dict:
        while True:
            for i, event in enumerate(self._events):
                if event.get("method") == method:
                    return self._events.pop(i)
            self._events.append(self._read())

    # --- what the tests use ----------------------------------------------------------
    def open(self, url: str, width: int = 1400, height: int = 900) -> None:
        """Load ``url`` in a window ``width`` x ``height`` CSS px (a phone's at 390)."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=1, mobile=width < 600, session=True)
        self._events.clear()
        self.call("Page.navigate", url=url, session=True)
        self._wait_event("Page.loadEventFired")

    def evaluate(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                           session=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, target: Path, full: bool = False) -> Path:
        """The window as PNG; with ``full``, the whole page's height."""
        params: dict = {"format": "png"}
        if full:
            size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
            params.update(captureBeyondViewport=True, clip={
                "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        data = self.call("Page.captureScreenshot", session=True, **params)["data"]
        target.write_bytes(base64.b64decode(data))
        return target


def _dup_to(read_end: int, write_end: int):
    def setup() -> None:
        os.dup2(read_end, 3)
        os.dup2(write_end, 4)
    return setup
